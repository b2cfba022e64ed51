//! Standings from finished games: points, wins by seat, starts converted, first
//! blunders caused, the crosstable, Elo with a 95 % interval, and the SPRT.
//!
//! Elo: a bot's score fraction p over its games gives -400 log10(1/p - 1) against
//! the field; the interval comes from p +- 1.96 standard errors of the per-game
//! score (a 0 or 1 point each: Nim has no draws), mapped the same way (`null`
//! where p reaches 0 or 1). The SPRT is Wald's test of elo0 against elo1 on the
//! games between the two bots: the log-likelihood ratio of the wins and losses
//! under each hypothesis' win probability, against ln(beta / (1 - alpha)) and
//! ln((1 - beta) / alpha).

use serde::Serialize;

use crate::game::{EndKind, Played};

/// One bot's line of the standings.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Standing {
    pub bot: usize,
    pub name: String,
    pub games: u32,
    pub points: u32,
    pub wins_first: u32,
    pub wins_second: u32,
    pub games_first: u32,
    pub games_second: u32,
    /// Games it started in a won position, and how many of those it won.
    pub won_starts: u32,
    pub won_starts_converted: u32,
    /// Games it started in a lost position, and how many of those it won anyway.
    pub lost_starts: u32,
    pub lost_starts_won: u32,
    /// Games whose first blunder its opponent made.
    pub first_blunders_caused: u32,
    /// Games it lost by a fault (anything but a won game or a legal-move loss).
    pub faults: u32,
    pub elo: Elo,
}

/// An Elo difference to the field with its 95 % interval; `null` means unbounded.
/// The values are exact; the JSON has them to a tenth and the text to a unit,
/// each rounded once from the exact value.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Elo {
    #[serde(serialize_with = "tenths")]
    pub elo: Option<f64>,
    #[serde(serialize_with = "tenths")]
    pub low: Option<f64>,
    #[serde(serialize_with = "tenths")]
    pub high: Option<f64>,
}

fn tenths<S: serde::Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    // `+ 0.0` turns the -0.0 of a rounded small negative into 0.0.
    x.map(|v| (v * 10.0).round() / 10.0 + 0.0).serialize(s)
}

fn elo_of(p: f64) -> Option<f64> {
    // `+ 0.0` turns the -0.0 of an even score into 0.0.
    (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10() + 0.0)
}

/// Elo from `points` of `games`, with the Wilson score interval of the win
/// fraction (which stays inside 0..1 and is not empty at 0 or 1 wins).
pub fn elo(points: u32, games: u32) -> Elo {
    if games == 0 {
        return Elo {
            elo: None,
            low: None,
            high: None,
        };
    }
    let n = f64::from(games);
    let p = f64::from(points) / n;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    Elo {
        elo: elo_of(p),
        low: elo_of((centre - half).max(0.0)),
        high: elo_of((centre + half).min(1.0)),
    }
}

/// Whether an ending counts as a fault of its seat: anything but a game won or
/// lost by the moves (a game with no result has no loser).
pub fn is_fault(kind: EndKind) -> bool {
    !matches!(
        kind,
        EndKind::Won | EndKind::IllegalMove | EndKind::TooManyResets | EndKind::NoResult
    )
}

/// The standings of `bots` (names) over `games`, best first (points, then Elo).
pub fn standings(names: &[String], games: &[Played]) -> Vec<Standing> {
    let mut rows: Vec<Standing> = names
        .iter()
        .enumerate()
        .map(|(i, n)| Standing {
            bot: i,
            name: n.clone(),
            games: 0,
            points: 0,
            wins_first: 0,
            wins_second: 0,
            games_first: 0,
            games_second: 0,
            won_starts: 0,
            won_starts_converted: 0,
            lost_starts: 0,
            lost_starts_won: 0,
            first_blunders_caused: 0,
            faults: 0,
            elo: elo(0, 0),
        })
        .collect();
    for g in games.iter().filter(|g| g.winner.is_some()) {
        for seat in 0..2u8 {
            let Some(r) = rows.get_mut(g.bots[usize::from(seat)]) else {
                continue;
            };
            let won = g.winner == Some(seat);
            r.games += 1;
            if seat == 0 {
                r.games_first += 1;
            } else {
                r.games_second += 1;
            }
            if won {
                r.points += 1;
                if seat == 0 {
                    r.wins_first += 1;
                } else {
                    r.wins_second += 1;
                }
            }
            // The first position this seat had to move in (results written
            // before `starts` judged both seats on the first one).
            let start = if g.starts.iter().any(Option::is_some) {
                g.starts[usize::from(seat)]
            } else {
                g.won_start.map(|s| s == seat)
            };
            match start {
                Some(true) => {
                    r.won_starts += 1;
                    r.won_starts_converted += u32::from(won);
                }
                Some(false) => {
                    r.lost_starts += 1;
                    r.lost_starts_won += u32::from(won);
                }
                None => {}
            }
            if g.first_blunder.is_some_and(|b| b != seat) {
                r.first_blunders_caused += 1;
            }
            if is_fault(g.ending.kind) && g.ending.seat == Some(seat) {
                r.faults += 1;
            }
        }
    }
    for r in &mut rows {
        r.elo = elo(r.points, r.games);
    }
    let frac = |r: &Standing| f64::from(r.points) / f64::from(r.games.max(1));
    rows.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(frac(b).total_cmp(&frac(a)))
            .then(a.bot.cmp(&b.bot))
    });
    rows
}

/// `cross[a][b]`: points of bot a against bot b.
pub fn crosstable(bots: usize, games: &[Played]) -> Vec<Vec<u32>> {
    let mut t = vec![vec![0; bots]; bots];
    for g in games {
        if let Some(w) = g.winner {
            let (a, b) = (g.bots[usize::from(w)], g.bots[usize::from(1 - w)]);
            if let Some(cell) = t.get_mut(a).and_then(|row| row.get_mut(b)) {
                *cell += 1;
            }
        }
    }
    t
}

/// The SPRT's state.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// Wins and losses of the first bot against the second.
    pub wins: u32,
    pub losses: u32,
    /// `H0` (elo0 holds), `H1` (elo1 holds) or `null` (not yet decided): the
    /// first time the LLR left the interval, in the order the games finished
    /// (Wald's test stops there; games under way then finish, count in `wins`,
    /// `losses` and `llr`, and may take the LLR back inside without undoing it).
    pub decision: Option<&'static str>,
    /// Decided games when the test decided.
    pub decided_after: Option<u32>,
}

fn win_p(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The SPRT of bot 0 against bot 1 over `games`, in the order they finished.
pub fn sprt(params: [f64; 4], games: &[Played]) -> Sprt {
    let [elo0, elo1, alpha, beta] = params;
    let (p0, p1) = (win_p(elo0), win_p(elo1));
    let lower = (beta / (1.0 - alpha)).ln();
    let upper = ((1.0 - beta) / alpha).ln();
    let llr_of = |wins: u32, losses: u32| {
        f64::from(wins) * (p1 / p0).ln() + f64::from(losses) * ((1.0 - p1) / (1.0 - p0)).ln()
    };
    let (mut wins, mut losses) = (0u32, 0u32);
    let (mut decision, mut decided_after) = (None, None);
    for g in games {
        let Some(w) = g.winner else { continue };
        if g.bots[usize::from(w)] == 0 {
            wins += 1;
        } else {
            losses += 1;
        }
        if decision.is_none() {
            let llr = llr_of(wins, losses);
            decision = if llr >= upper {
                Some("H1")
            } else if llr <= lower {
                Some("H0")
            } else {
                None
            };
            if decision.is_some() {
                decided_after = Some(wins + losses);
            }
        }
    }
    let llr = llr_of(wins, losses);
    Sprt {
        elo0,
        elo1,
        alpha,
        beta,
        llr: (llr * 1000.0).round() / 1000.0,
        lower: (lower * 1000.0).round() / 1000.0,
        upper: (upper * 1000.0).round() / 1000.0,
        wins,
        losses,
        decision,
        decided_after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_interval() {
        let e = elo(75, 100);
        // 0.75 is +190.8 Elo; Wilson's interval for 75 of 100 is 0.6569..0.8245.
        assert!((e.elo.unwrap() - 190.85).abs() < 0.01, "{e:?}");
        // Rounded once: 5 of 12 is -58.45 Elo, -58.5 in the JSON.
        let json = serde_json::to_value(elo(5, 12)).unwrap();
        assert_eq!(json["elo"], -58.5);
        assert!((e.low.unwrap() - 113.0).abs() < 1.5, "{e:?}");
        assert!((e.high.unwrap() - 269.5).abs() < 1.5, "{e:?}");
        // All won: no finite Elo, but a finite lower bound (Wilson: 0.7225 for 10 of 10).
        let all = elo(10, 10);
        assert_eq!((all.elo, all.high), (None, None));
        assert!((all.low.unwrap() - 166.3).abs() < 1.5, "{all:?}");
        assert_eq!(elo(5, 10).elo, Some(0.0));
    }

    #[test]
    fn sprt_bounds_and_direction() {
        // alpha = beta = 0.05: bounds -+ ln(19).
        let s = sprt([0.0, 100.0, 0.05, 0.05], &[]);
        assert!((s.upper - 19f64.ln()).abs() < 1e-3 && (s.lower + 19f64.ln()).abs() < 1e-3);
        assert_eq!(s.decision, None);
    }

    /// A finished game of bot 0 (`won`) or bot 1 against the other.
    fn game(won: bool) -> Played {
        let g = r#"{"game":1,"stones":10,"resets":0,"init_max":3,"bots":[0,1],"names":["a","b"],"winner":0,
            "ending":{"kind":"won","seat":0,"text":"","ply":1,"after":0.0,"clock":null,"status":null,"signal":null,"detected_in":null},
            "plies":1,"clocks":[0.0,0.0],"seconds":0.0,"won_start":0,"blunders":[0,0],"first_blunder":null,
            "stderr_tail":["",""],"stderr_bytes":[0,0],"record":[]}"#;
        let mut g: Played = serde_json::from_str(g).unwrap();
        g.winner = Some(if won { 0 } else { 1 });
        g
    }

    #[test]
    fn sprt_stays_decided_when_the_games_under_way_take_the_llr_back() {
        // elo0 0, elo1 200: a win adds ln(p1/p0) = 0.418, a loss ln((1-p1)/(1-p0))
        // = -0.733; bounds -+2.944. Eight wins decide H1 (3.35); the two losses
        // of games that were under way take the LLR back to 1.88.
        let mut games: Vec<Played> = (0..8).map(|_| game(true)).collect();
        games.extend([game(false), game(false)]);
        let s = sprt([0.0, 200.0, 0.05, 0.05], &games);
        assert!(s.llr > s.lower && s.llr < s.upper, "{s:?}");
        assert_eq!((s.decision, s.decided_after), (Some("H1"), Some(8)));
        assert_eq!((s.wins, s.losses), (8, 2));
        // In another order the test never left the interval.
        games.rotate_right(2);
        let t = sprt([0.0, 200.0, 0.05, 0.05], &games);
        assert_eq!(t.decision, None, "{t:?}");
    }
}
