//! The tournament's numbers against recounts written apart from `stats.rs`: every
//! field of the standings and every cell of the crosstable counted again game by
//! game, the SPRT's wins, losses and log-likelihood ratio from Wald's formula, and
//! the Elo interval checked by the Wilson score equation its bounds must solve.

use nimbot_tournament::game::{EndKind, Ending, Played};
use nimbot_tournament::stats::{crosstable, elo, sprt, standings};

const KINDS: [EndKind; 12] = [
    EndKind::Won,
    EndKind::IllegalMove,
    EndKind::TooManyResets,
    EndKind::OutOfTurn,
    EndKind::Time,
    EndKind::Exited,
    EndKind::NeverJoined,
    EndKind::Closed,
    EndKind::Garbage,
    EndKind::JoinedTwice,
    EndKind::WrongSeat,
    EndKind::NoResult,
];

struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }

    fn maybe<T>(&mut self, f: impl FnOnce(&mut Dice) -> T) -> Option<T> {
        (self.below(4) != 0).then(|| f(self))
    }
}

fn game(number: usize, bots: [usize; 2], winner: Option<u8>, kind: EndKind) -> Played {
    Played {
        game: number,
        stones: 20,
        resets: 1,
        init_max: 3,
        bots,
        names: bots.map(|b| format!("bot{b}")),
        winner,
        ending: Ending {
            kind,
            seat: winner,
            text: String::new(),
            ply: 1,
            after: 0.0,
            clock: None,
            status: None,
            signal: None,
            detected_in: None,
            other_meaning: false,
        },
        plies: 1,
        clocks: [0.0, 0.0],
        seconds: 0.0,
        won_start: None,
        starts: [None, None],
        blunders: [0, 0],
        first_blunder: None,
        stderr_tail: [String::new(), String::new()],
        stderr_bytes: [0, 0],
        record: Vec::new(),
    }
}

/// Random games between `bots` bots: any winner or none, any ending (its seat the
/// winner for a won game, else any seat), starts per seat or only the older
/// `won_start`, first blunders by either seat.
fn random_games(dice: &mut Dice, bots: usize, count: usize) -> Vec<Played> {
    (0..count)
        .map(|i| {
            let a = dice.below(bots as u64) as usize;
            let b = (a + 1 + dice.below(bots as u64 - 1) as usize) % bots;
            let winner = dice.maybe(|d| d.below(2) as u8);
            let kind = if winner.is_some() && dice.below(2) == 0 {
                EndKind::Won
            } else {
                KINDS[dice.below(KINDS.len() as u64) as usize]
            };
            let mut g = game(i + 1, [a, b], winner, kind);
            g.ending.seat = if kind == EndKind::Won {
                winner
            } else {
                dice.maybe(|d| d.below(2) as u8)
            };
            if dice.below(3) == 0 {
                g.won_start = dice.maybe(|d| d.below(2) as u8);
            } else {
                g.starts = [
                    dice.maybe(|d| d.below(2) == 0),
                    dice.maybe(|d| d.below(2) == 0),
                ];
                // The older field is ignored once starts are known.
                g.won_start = dice.maybe(|d| d.below(2) as u8);
            }
            g.first_blunder = dice.maybe(|d| d.below(2) as u8);
            g
        })
        .collect()
}

/// Elo of a score fraction, by the formula of docs/tournament.md.
fn elo_of(p: f64) -> f64 {
    400.0 * (p / (1.0 - p)).log10()
}

/// Two Elo values agree (both none, or within rounding of the arithmetic).
fn same_elo(got: Option<f64>, want: Option<f64>) -> bool {
    match (got, want) {
        (None, None) => true,
        (Some(a), Some(b)) => (a - b).abs() < 1e-9,
        _ => false,
    }
}

/// The win fraction an Elo difference stands for.
fn fraction(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A game as one bot played it: its seat, whether it won, its start.
type Seat<'a> = (u8, bool, Option<bool>, &'a Played);

#[test]
fn standings_are_a_recount_of_the_games() {
    let mut dice = Dice(7);
    for round in 0..40 {
        let bots = 2 + round % 4;
        let games = random_games(&mut dice, bots, 1 + round * 5);
        let names: Vec<String> = (0..bots).map(|b| format!("bot{b}")).collect();
        let rows = standings(&names, &games);
        assert_eq!(rows.len(), bots);
        for (bot, name) in names.iter().enumerate() {
            let row = rows
                .iter()
                .find(|r| r.bot == bot)
                .expect("every bot has a row");
            assert_eq!(&row.name, name);
            // (seat, won, its start) of every decided game the bot played.
            let mut played = Vec::new();
            for g in games.iter().filter(|g| g.winner.is_some()) {
                for seat in [0u8, 1] {
                    if g.bots[seat as usize] != bot {
                        continue;
                    }
                    let start = if g.starts == [None, None] {
                        g.won_start.map(|w| w == seat)
                    } else {
                        g.starts[seat as usize]
                    };
                    played.push((seat, g.winner == Some(seat), start, g));
                }
            }
            let count = |f: &dyn Fn(&Seat) -> bool| played.iter().filter(|p| f(p)).count() as u32;
            assert_eq!(row.games, played.len() as u32);
            assert_eq!(row.points, count(&|p| p.1));
            assert_eq!(row.games_first, count(&|p| p.0 == 0));
            assert_eq!(row.games_second, count(&|p| p.0 == 1));
            assert_eq!(row.wins_first, count(&|p| p.0 == 0 && p.1));
            assert_eq!(row.wins_second, count(&|p| p.0 == 1 && p.1));
            assert_eq!(row.won_starts, count(&|p| p.2 == Some(true)));
            assert_eq!(
                row.won_starts_converted,
                count(&|p| p.2 == Some(true) && p.1)
            );
            assert_eq!(row.lost_starts, count(&|p| p.2 == Some(false)));
            assert_eq!(row.lost_starts_won, count(&|p| p.2 == Some(false) && p.1));
            assert_eq!(
                row.first_blunders_caused,
                count(&|p| p.3.first_blunder == Some(1 - p.0))
            );
            let faulty = [
                EndKind::OutOfTurn,
                EndKind::Time,
                EndKind::Exited,
                EndKind::NeverJoined,
                EndKind::Closed,
                EndKind::Garbage,
                EndKind::JoinedTwice,
                EndKind::WrongSeat,
            ];
            // A game without a result is nobody's fault.
            assert_eq!(
                row.faults,
                count(&|p| faulty.contains(&p.3.ending.kind) && p.3.ending.seat == Some(p.0))
            );
            let p = f64::from(row.points) / f64::from(row.games.max(1));
            let want = (row.games > 0 && p > 0.0 && p < 1.0).then(|| elo_of(p));
            assert!(same_elo(row.elo.elo, want), "{row:?} want {want:?}");
        }
        // Best first: more points, then a better fraction, then the lower index.
        for pair in rows.windows(2) {
            let frac = |r: &nimbot_tournament::stats::Standing| {
                f64::from(r.points) / f64::from(r.games.max(1))
            };
            let (a, b) = (&pair[0], &pair[1]);
            assert!(
                a.points > b.points
                    || (a.points == b.points
                        && (frac(a) > frac(b) || (frac(a) == frac(b) && a.bot < b.bot))),
                "{a:?} before {b:?}"
            );
        }
    }
}

#[test]
fn crosstable_cells_are_a_recount() {
    let mut dice = Dice(11);
    for bots in 2..6 {
        let games = random_games(&mut dice, bots, 200);
        let table = crosstable(bots, &games);
        assert_eq!(table.len(), bots);
        for (a, row) in table.iter().enumerate() {
            assert_eq!(row.len(), bots);
            for (b, cell) in row.iter().enumerate() {
                let beat = games
                    .iter()
                    .filter(|g| match g.winner {
                        Some(0) => g.bots == [a, b],
                        Some(1) => g.bots == [b, a],
                        _ => false,
                    })
                    .count() as u32;
                assert_eq!(*cell, beat, "{a} against {b}");
            }
        }
    }
}

#[test]
fn sprt_follows_walds_formula() {
    let mut dice = Dice(13);
    let mut decisions = [0; 3];
    for round in 0..300 {
        let n = 1 + round % 120;
        // Bot 0 wins about a share of its games that drifts with the round.
        let share = 1 + round as u64 % 9;
        let games: Vec<Played> = (0..n)
            .map(|i| {
                let seat0 = dice.below(2) as usize;
                let mut bots = [1, 1];
                bots[seat0] = 0;
                let winner = if dice.below(10) < share {
                    seat0 as u8
                } else {
                    1 - seat0 as u8
                };
                let winner = (dice.below(20) != 0).then_some(winner);
                game(i + 1, bots, winner, EndKind::Won)
            })
            .collect();
        let (elo0, elo1, alpha, beta) = (0.0, 50.0 + (round % 4) as f64 * 50.0, 0.05, 0.1);
        let s = sprt([elo0, elo1, alpha, beta], &games);
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (elo0, elo1, alpha, beta));
        // ln L1/L0 of `wins` successes and `losses` failures, after each decided
        // game in order: Wald's test decides the first time it leaves the bounds.
        let (p0, p1) = (fraction(elo0), fraction(elo1));
        let llr_of = |wins: u32, losses: u32| {
            f64::from(wins) * (p1 / p0).ln() + f64::from(losses) * ((1.0 - p1) / (1.0 - p0)).ln()
        };
        let (lower, upper) = ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln());
        let (mut wins, mut losses, mut first) = (0u32, 0u32, None);
        for g in &games {
            match g.winner.map(|w| g.bots[w as usize]) {
                Some(0) => wins += 1,
                Some(_) => losses += 1,
                None => continue,
            }
            let llr = llr_of(wins, losses);
            if first.is_none() && (llr >= upper || llr <= lower) {
                first = Some((if llr >= upper { "H1" } else { "H0" }, wins + losses));
            }
        }
        assert_eq!((s.wins, s.losses), (wins, losses));
        let llr = llr_of(wins, losses);
        assert!((s.llr - llr).abs() <= 0.0005 + 1e-9, "{s:?} llr {llr}");
        assert!(
            (s.lower - lower).abs() <= 0.0005 + 1e-9 && (s.upper - upper).abs() <= 0.0005 + 1e-9
        );
        assert_eq!(s.decided_after, first.map(|f| f.1), "{s:?}");
        let want = first.map(|f| f.0);
        match want {
            Some("H1") => decisions[2] += 1,
            Some(_) => decisions[0] += 1,
            None => decisions[1] += 1,
        }
        assert_eq!(s.decision, want, "{s:?}");
    }
    assert!(decisions.iter().all(|&d| d >= 20), "{decisions:?}");
}

#[test]
fn elo_bounds_solve_the_wilson_equation() {
    let z = 1.96f64;
    for games in [1u32, 2, 5, 10, 37, 100, 1000] {
        for points in 0..=games {
            let e = elo(points, games);
            let p = f64::from(points) / f64::from(games);
            let n = f64::from(games);
            // Every bound p_b solves (p - p_b)^2 = z^2 p_b (1 - p_b) / n, the low one
            // at or below p and the high one at or above; at 0 and 1 the bound is
            // p itself, which has no finite Elo.
            for (bound, below) in [(e.low, true), (e.high, false)] {
                match bound {
                    Some(elo) => {
                        let pb = fraction(elo);
                        assert!(if below {
                            pb <= p + 1e-3
                        } else {
                            pb >= p - 1e-3
                        });
                        let gap = (p - pb).powi(2) - z * z * pb * (1.0 - pb) / n;
                        // Elo is rounded to 0.1: allow that much in p.
                        let slack = 4.0 * (fraction(elo + 0.05) - fraction(elo - 0.05)).abs();
                        assert!(
                            gap.abs() <= slack + 1e-9,
                            "{points}/{games}: {e:?} gap {gap}"
                        );
                    }
                    None => assert!(
                        if below { points == 0 } else { points == games },
                        "{points}/{games}: {e:?}"
                    ),
                }
            }
            let want = (points > 0 && points < games).then(|| elo_of(p));
            assert!(same_elo(e.elo, want), "{points}/{games}: {e:?}");
        }
    }
    // An even score is 0.0, not -0.0 (the JSON would print the sign).
    for games in [2u32, 10, 1000] {
        let even = elo(games / 2, games).elo.unwrap();
        assert!(even == 0.0 && even.is_sign_positive(), "{even}");
    }
    let none = elo(0, 0);
    assert_eq!((none.elo, none.low, none.high), (None, None, None));
}
