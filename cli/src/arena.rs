//! `nimbot arena`: reproducible matches of nimbot against fallible opponents.
//!
//! Dispatches on `--game`: Expanding Nim (the default, `nim_arena`) plays every
//! opponent family under each lost-position policy; Super-Nim plays one opponent.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use nimbot::supernim::{
    play_match_with, Chooser, Game as SnGame, MatchConfig, MatchResult, Model, Move, Opponent,
    Perfect, RandomPlayer, SearchPlayer, Solver, DEFAULT_NODE_BUDGET, PERFECT_NODE_BUDGET,
};
use nimbot::SplitMix64;
use serde::Serialize;

use crate::json;

use crate::nim_arena::{self, NimArenaArgs};

/// The games with an arena (Fibonacci Nim has none: its losing positions are few
/// and its winning move is one formula, so there is nothing to weigh).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Game {
    /// Expanding Nim with resets.
    #[value(alias = "expanding-nim")]
    Expanding,
    /// Super-Nim.
    #[value(alias = "supernim")]
    SuperNim,
}

#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The game to play.
    #[arg(long, value_enum, default_value_t = Game::Expanding)]
    game: Game,
    #[command(flatten)]
    expanding: NimArenaArgs,
    /// Super-Nim: the opponent.
    #[arg(long, value_enum, default_value_t = ArenaOpponent::Random)]
    opponent: ArenaOpponent,
    /// Super-Nim: games to play; nimbot sits in each seat for half of them (the same
    /// starts).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed of the starting positions and of the opponent.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Super-Nim: nimbot's player: `perfect` (exact once its search reaches the
    /// cap, with a table; the host's), `search` (the boards' bounded search) or
    /// `random` (to measure what the rules reach).
    #[arg(long, value_enum, default_value_t = SuperNimPlayer::Perfect)]
    player: SuperNimPlayer,
    /// Super-Nim, `perfect`: what nimbot assumes of the opponent to choose between
    /// moves of equal value: far from the cap, keep the game going to it; near it,
    /// the move with the best expected result against the model (`auto`: the
    /// opponent's own model).
    #[arg(long, value_enum, default_value_t = ModelArg::Auto)]
    model: ModelArg,
    /// Super-Nim: nimbot's search budget per move, in nodes (default: the
    /// player's own, 200000 for perfect, 20000 for search).
    #[arg(long, visible_alias = "budget")]
    nodes: Option<u32>,
    /// Super-Nim: the cap, moves after which a game is judged on points (play can
    /// cycle); 1..=1000.
    #[arg(long, visible_alias = "move-limit", default_value_t = 200)]
    cap: u32,
    /// Super-Nim: check each of nimbot's moves in the last PLIES plies of every
    /// game against the exact solver (where it finishes within 5,000,000 nodes)
    /// and count those that lose value.
    #[arg(long, value_name = "PLIES")]
    audit: Option<u32>,
    /// JSON lines instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SuperNimPlayer {
    /// Exact near the cap, a parity-aware horizon before it (`nimbot::supernim::Perfect`).
    Perfect,
    /// The bounded alpha-beta search the boards play (`supernim::decide`).
    Search,
    /// Random legal moves (what the rules reach, measured cheaply).
    Random,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ModelArg {
    /// The opponent's model: greedy for greedy, uniform for random.
    Auto,
    /// No model: the first move of best value (no steering toward the cap).
    None,
    /// Every reply equally likely.
    Uniform,
    /// A 2 split whenever possible, else any reply.
    Greedy,
    /// Learnt from the opponent's moves during each game (greedy, uniform or
    /// strong), as the line protocol's player does.
    Learn,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ArenaOpponent {
    /// Plays a random legal move.
    Random,
    /// Scores whenever it can, otherwise plays a random move.
    Greedy,
}

pub fn run(args: &ArenaArgs) -> ExitCode {
    match args.game {
        Game::Expanding => nim_arena::run(&args.expanding, args.seed, args.json),
        Game::SuperNim => super_nim(args),
    }
}

fn super_nim(args: &ArenaArgs) -> ExitCode {
    let opponent = match args.opponent {
        ArenaOpponent::Random => Opponent::Random,
        ArenaOpponent::Greedy => Opponent::Greedy,
    };
    let nodes = args.nodes.unwrap_or(match args.player {
        SuperNimPlayer::Perfect => PERFECT_NODE_BUDGET as u32,
        SuperNimPlayer::Search | SuperNimPlayer::Random => DEFAULT_NODE_BUDGET,
    });
    let config = MatchConfig {
        games: args.games,
        seed: args.seed,
        budget: nodes,
        move_limit: args.cap,
    };
    let model = match (args.model, args.opponent) {
        (ModelArg::Learn, _) => None,
        (ModelArg::None, _) => Some(Model::None),
        (ModelArg::Uniform, _) | (ModelArg::Auto, ArenaOpponent::Random) => Some(Model::Uniform),
        (ModelArg::Greedy, _) | (ModelArg::Auto, ArenaOpponent::Greedy) => Some(Model::Greedy),
    };
    let started = Instant::now();
    let mut audit = Audit {
        plies: args.audit.unwrap_or(0),
        solver: Solver::new(5_000_000, 1 << 23),
        checked: 0,
        lost: 0,
        unfinished: 0,
        player: match args.player {
            SuperNimPlayer::Perfect => Box::new(match model {
                Some(model) => Perfect::new(u64::from(nodes), model),
                None => Perfect::learning(u64::from(nodes)),
            }),
            SuperNimPlayer::Search => Box::new(SearchPlayer { budget: nodes }),
            SuperNimPlayer::Random => Box::new(RandomPlayer(SplitMix64::new(args.seed ^ 0x5EED))),
        },
    };
    let played = play_match_with(&mut audit, opponent, &config);
    let result = match played {
        Ok(r) => r,
        Err(e) => {
            eprintln!("nimbot arena: {e}");
            return ExitCode::from(2);
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let name = match args.opponent {
        ArenaOpponent::Random => "random",
        ArenaOpponent::Greedy => "greedy",
    };
    if args.json {
        json::print(&SuperNimLine {
            game: "super-nim",
            opponent: name,
            games: args.games,
            seed: args.seed,
            player: match args.player {
                SuperNimPlayer::Perfect => "perfect",
                SuperNimPlayer::Search => "search",
                SuperNimPlayer::Random => "random",
            },
            budget: nodes,
            move_limit: args.cap,
            wins: result.wins,
            losses: result.losses,
            draws: result.draws,
            by_seat: split(&result),
            stalled: result.stalled,
            audit: args.audit.map(|plies| AuditLine {
                plies,
                checked: audit.checked,
                lost_value: audit.lost,
                unfinished: audit.unfinished,
            }),
            most_heaps: result.most_heaps,
            largest_heap: result.largest_heap,
            seconds: json::round(seconds, 3),
        });
    } else {
        let pct = |n: u32| 100.0 * f64::from(n) / f64::from(args.games.max(1));
        println!(
            "super-nim, nimbot against {name}: {} games (seed {}, {} nodes a move, {} moves a game)",
            args.games, args.seed, nodes, args.cap
        );
        println!(
            "wins {} ({:.1}%), losses {} ({:.1}%), draws {} ({:.1}%) in {seconds:.1} s",
            result.wins,
            pct(result.wins),
            result.losses,
            pct(result.losses),
            result.draws,
            pct(result.draws)
        );
        for (seat, row) in ["first", "second"].iter().zip(&result.by_seat) {
            for (twos, t) in ["even", "odd"].iter().zip(row) {
                println!(
                    "  nimbot {seat:<6}, {twos:<4} number of 2s at the start: {:>3} games, W/L/D {}/{}/{}",
                    t.games(),
                    t.wins,
                    t.losses,
                    t.draws
                );
            }
        }
        println!(
            "stalled games {}, most heaps {}, largest heap {}",
            result.stalled, result.most_heaps, result.largest_heap
        );
        if let Some(plies) = args.audit {
            println!(
                "audit, last {plies} plies: {} moves checked against the exact solver, {} lost value, {} beyond its reach",
                audit.checked, audit.lost, audit.unfinished
            );
        }
    }
    ExitCode::SUCCESS
}

/// `by_seat` of a JSON line: `[[first even, first odd], [second even, second odd]]`,
/// each `[wins, losses, draws]`.
fn split(result: &MatchResult) -> [[[u32; 3]; 2]; 2] {
    result
        .by_seat
        .map(|row| row.map(|t| [t.wins, t.losses, t.draws]))
}

/// A Super-Nim match as a JSON line.
#[derive(Serialize)]
struct SuperNimLine {
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

/// `--audit`: the counts of a JSON line.
#[derive(Serialize)]
struct AuditLine {
    plies: u32,
    checked: u32,
    lost_value: u32,
    unfinished: u32,
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
    fn choose(&mut self, game: &SnGame) -> Option<Move> {
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
