//! Super-Nim's arena (`nimbot arena --game super-nim`): nimbot's player (the
//! host's [`Perfect`], the boards' [`SearchPlayer`] or random moves) in a match
//! against one opponent, nimbot in each seat for half the games, optionally with
//! its moves near the cap audited against the exact solver; the report as text
//! or as one JSON line. The games are played on the [runner](crate::runner).

use std::fmt::Write as _;
use std::time::Instant;

use crate::matrix::round;
use crate::runner::{run, Seat, Stop};
use nimbot::SplitMix64;
use nimbot_supernim::{
    random_start, Chooser, End, Error, Game, GreedyPlayer, Model, Move, Perfect, RandomPlayer,
    SearchPlayer, Solver, DEFAULT_NODE_BUDGET, PERFECT_NODE_BUDGET,
};
use serde::Serialize;

/// nimbot's player in the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Exact near the cap, a parity-aware horizon before it ([`Perfect`]).
    Perfect,
    /// The boards' bounded search ([`SearchPlayer`]).
    Search,
    /// Random legal moves.
    Random,
}

impl Player {
    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Player::Perfect => "perfect",
            Player::Search => "search",
            Player::Random => "random",
        }
    }
}

/// What a match is.
#[derive(Clone, Debug)]
pub struct Options {
    /// The opponent.
    pub opponent: Opponent,
    /// nimbot's player.
    pub player: Player,
    /// What `Perfect` assumes of the opponent; `None`: learnt during each game.
    pub model: Option<Model>,
    /// nimbot's nodes a move (`None`: the player's own budget).
    pub nodes: Option<u32>,
    /// Games, nimbot in each seat for half of them.
    pub games: u32,
    /// Seed of the starts and of the random players.
    pub seed: u64,
    /// Moves after which a game is judged on points.
    pub cap: u32,
    /// Audit nimbot's moves in the last this many plies of each game.
    pub audit: Option<u32>,
}

/// A match played: its JSON line, and the text of [`Report::text`].
#[derive(Serialize, Debug)]
pub struct Report {
    game: &'static str,
    opponent: &'static str,
    games: u32,
    seed: u64,
    player: &'static str,
    budget: u32,
    move_limit: u32,
    wins: u32,
    losses: u32,
    draws: u32,
    /// By nimbot's seat (first, second), then the parity of the start's 2s (even,
    /// odd): `[wins, losses, draws]`.
    by_seat: [[[u32; 3]; 2]; 2],
    stalled: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    audit: Option<AuditLine>,
    most_heaps: usize,
    largest_heap: u16,
    seconds: f64,
}

/// `audit`: the counts of a report.
#[derive(Serialize, Debug)]
struct AuditLine {
    plies: u32,
    checked: u32,
    lost_value: u32,
    unfinished: u32,
}

/// The opponents of [`play_match`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// [`RandomPlayer`].
    Random,
    /// [`GreedyPlayer`].
    Greedy,
}

/// Wins, losses and draws, from nimbot's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games nimbot won on points.
    pub wins: u32,
    /// Games it lost.
    pub losses: u32,
    /// Games with equal points.
    pub draws: u32,
}

impl Tally {
    fn add(&mut self, won: Option<bool>) {
        match won {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None => self.draws += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }
}

/// Results of a match, from nimbot's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Every game.
    pub total: Tally,
    /// The same games by nimbot's seat (first, second) and the parity of the
    /// number of 2s in the start (even, odd): `by_seat[seat][parity]`.
    pub by_seat: [[Tally; 2]; 2],
    /// Games that ended because the player to move had no move within the heap
    /// limit ([`End::Stalled`]).
    pub stalled: u32,
    /// Most heaps seen in one position.
    pub most_heaps: usize,
    /// Largest heap seen.
    pub largest_heap: u16,
}

/// How a match is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// Games to play; nimbot moves first in the even-numbered ones.
    pub games: u32,
    /// Seed of the starts and of the opponent's choices.
    pub seed: u64,
    /// Move limit of each game.
    pub move_limit: u32,
}

impl<C: Chooser + ?Sized> Seat<Game, Error> for C {
    fn choose(&mut self, game: &Game) -> Result<Move, Error> {
        Chooser::choose(self, game).ok_or(Error::NoSuchHeap)
    }
}

/// Play `config.games` games of `bot` against `opponent`. Games `2k` and `2k + 1`
/// share a start from [`random_start`] with the seats swapped, so `bot` sits in
/// each seat half the time. Fully determined by the config (and `bot`).
///
/// # Errors
/// A start the rules refuse (a move limit out of range), or the first player
/// with no move or an illegal one.
pub fn play_match(
    bot: &mut dyn Seat<Game, Error>,
    opponent: Opponent,
    config: &MatchConfig,
) -> Result<MatchResult, Error> {
    let mut result = MatchResult::default();
    for i in 0..config.games {
        let pair = u64::from(i / 2);
        let mut starts = SplitMix64::new(config.seed ^ pair.wrapping_mul(0xA24B_AED4_963E_E407));
        let start = random_start(&mut starts);
        let rng = SplitMix64::new(
            config
                .seed
                .wrapping_add(u64::from(i).wrapping_mul(0x9FB2_1C65_1E98_DF25))
                .rotate_left(17),
        );
        let mut random = RandomPlayer(rng);
        let mut greedy = GreedyPlayer(rng);
        let other: &mut dyn Seat<Game, Error> = match opponent {
            Opponent::Random => &mut random,
            Opponent::Greedy => &mut greedy,
        };
        let seat = if i % 2 == 0 {
            nimbot::Player::First
        } else {
            nimbot::Player::Second
        };
        let twos = start.sizes().iter().filter(|&&h| h == 2).count() % 2;
        let mut game = Game::new(start, config.move_limit)?;
        let mut watch = |g: &Game| {
            result.most_heaps = result.most_heaps.max(g.heaps().len());
            let top = g.heaps().sizes().last().copied().unwrap_or(0);
            result.largest_heap = result.largest_heap.max(top);
        };
        let finish = match seat {
            nimbot::Player::First => run(&mut game, &mut *bot, other, &mut watch),
            nimbot::Player::Second => run(&mut game, other, &mut *bot, &mut watch),
        }
        .map_err(|stop| match stop {
            Stop::NoMove { error, .. } | Stop::Refused { error, .. } => error,
        })?;
        let won = finish.winner.map(|p| p == seat);
        result.total.add(won);
        if let Some(cell) = result
            .by_seat
            .get_mut(seat.index())
            .and_then(|row| row.get_mut(twos))
        {
            cell.add(won);
        }
        if game.end() == Some(End::Stalled) {
            result.stalled += 1;
        }
    }
    Ok(result)
}

/// Play the match of `o`.
///
/// # Errors
/// The match's, for options it cannot play (e.g. a cap out of range).
pub fn play(o: &Options) -> Result<Report, String> {
    let nodes = o.nodes.unwrap_or(match o.player {
        Player::Perfect => PERFECT_NODE_BUDGET as u32,
        Player::Search | Player::Random => DEFAULT_NODE_BUDGET,
    });
    let config = MatchConfig {
        games: o.games,
        seed: o.seed,
        move_limit: o.cap,
    };
    let started = Instant::now();
    let mut audit = Audit {
        plies: o.audit.unwrap_or(0),
        solver: Solver::new(5_000_000, 1 << 23),
        checked: 0,
        lost: 0,
        unfinished: 0,
        player: match o.player {
            Player::Perfect => Box::new(match o.model {
                Some(model) => Perfect::new(u64::from(nodes), model),
                None => Perfect::learning(u64::from(nodes)),
            }),
            Player::Search => Box::new(SearchPlayer { budget: nodes }),
            Player::Random => Box::new(RandomPlayer(SplitMix64::new(o.seed ^ 0x5EED))),
        },
    };
    let result = play_match(&mut audit, o.opponent, &config).map_err(|e| e.to_string())?;
    Ok(Report {
        game: "super-nim",
        opponent: match o.opponent {
            Opponent::Random => "random",
            Opponent::Greedy => "greedy",
        },
        games: o.games,
        seed: o.seed,
        player: o.player.name(),
        budget: nodes,
        move_limit: o.cap,
        wins: result.total.wins,
        losses: result.total.losses,
        draws: result.total.draws,
        by_seat: split(&result),
        stalled: result.stalled,
        audit: o.audit.map(|plies| AuditLine {
            plies,
            checked: audit.checked,
            lost_value: audit.lost,
            unfinished: audit.unfinished,
        }),
        most_heaps: result.most_heaps,
        largest_heap: result.largest_heap,
        seconds: round(started.elapsed().as_secs_f64(), 3),
    })
}

impl Report {
    /// The report as a table, for people.
    pub fn text(&self) -> String {
        let pct = |n: u32| 100.0 * f64::from(n) / f64::from(self.games.max(1));
        let mut out = format!(
            "super-nim, nimbot against {}: {} games (seed {}, {} nodes a move, {} moves a game)\n",
            self.opponent, self.games, self.seed, self.budget, self.move_limit
        );
        let _ = writeln!(
            out,
            "wins {} ({:.1}%), losses {} ({:.1}%), draws {} ({:.1}%) in {:.1} s",
            self.wins,
            pct(self.wins),
            self.losses,
            pct(self.losses),
            self.draws,
            pct(self.draws),
            self.seconds
        );
        for (seat, row) in ["first", "second"].iter().zip(&self.by_seat) {
            for (twos, [w, l, d]) in ["even", "odd"].iter().zip(row) {
                let _ = writeln!(
                    out,
                    "  nimbot {seat:<6}, {twos:<4} number of 2s at the start: {:>3} games, W/L/D {w}/{l}/{d}",
                    w + l + d
                );
            }
        }
        let _ = writeln!(
            out,
            "stalled games {}, most heaps {}, largest heap {}",
            self.stalled, self.most_heaps, self.largest_heap
        );
        if let Some(a) = &self.audit {
            let _ = writeln!(
                out,
                "audit, last {} plies: {} moves checked against the exact solver, {} lost value, {} beyond its reach",
                a.plies, a.checked, a.lost_value, a.unfinished
            );
        }
        out
    }
}

/// `by_seat` of a report: `[[first even, first odd], [second even, second odd]]`,
/// each `[wins, losses, draws]`.
fn split(result: &MatchResult) -> [[[u32; 3]; 2]; 2] {
    result
        .by_seat
        .map(|row| row.map(|t| [t.wins, t.losses, t.draws]))
}

/// nimbot's player, each of its moves in the last `plies` plies checked against
/// the exact solver.
struct Audit {
    plies: u32,
    solver: Solver,
    checked: u32,
    lost: u32,
    unfinished: u32,
    player: Box<dyn Chooser>,
}

impl Chooser for Audit {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let mv = self.player.choose(game)?;
        let left = game.plies_left();
        if left <= self.plies {
            let best = self.solver.value(game.heaps(), left);
            let mine = game.heaps().apply(mv).ok().and_then(|(child, points)| {
                let v = self.solver.value(&child, left - 1)?;
                Some(points as i32 - v)
            });
            match (best, mine) {
                (Some(best), Some(mine)) => {
                    self.checked += 1;
                    if mine < best {
                        self.lost += 1;
                    }
                }
                _ => self.unfinished += 1,
            }
        }
        Some(mv)
    }
}
