//! `nimbot arena`: reproducible matches of nimbot against fallible opponents.
//!
//! Dispatches on `--game`: Expanding Nim (the default, `nim_arena`) plays every
//! opponent family under each lost-position policy; Super-Nim plays one opponent.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use nimbot::supernim::{play_match, MatchConfig, Opponent, DEFAULT_NODE_BUDGET};
use serde::Serialize;

use crate::nim_arena::{self, NimArenaArgs};
use crate::Game;
use nimbot_games::json;

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
    /// Super-Nim: nimbot's search budget per move, in nodes.
    #[arg(long, default_value_t = DEFAULT_NODE_BUDGET)]
    budget: u32,
    /// Super-Nim: moves after which a game is judged on points (play can cycle).
    #[arg(long, default_value_t = 200)]
    move_limit: u32,
    /// JSON lines instead of a table.
    #[arg(long)]
    json: bool,
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
        other => {
            eprintln!("nimbot arena: no arena for {other:?} (try expanding or super-nim)");
            ExitCode::from(2)
        }
    }
}

fn super_nim(args: &ArenaArgs) -> ExitCode {
    let opponent = match args.opponent {
        ArenaOpponent::Random => Opponent::Random,
        ArenaOpponent::Greedy => Opponent::Greedy,
    };
    let config = MatchConfig {
        games: args.games,
        seed: args.seed,
        budget: args.budget,
        move_limit: args.move_limit,
    };
    let started = Instant::now();
    let result = match play_match(opponent, &config) {
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
            budget: args.budget,
            move_limit: args.move_limit,
            wins: result.wins,
            losses: result.losses,
            draws: result.draws,
            seconds: json::round(seconds, 3),
        });
    } else {
        let pct = |n: u32| 100.0 * f64::from(n) / f64::from(args.games.max(1));
        println!(
            "super-nim, nimbot against {name}: {} games (seed {}, {} nodes a move, {} moves a game)",
            args.games, args.seed, args.budget, args.move_limit
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
    }
    ExitCode::SUCCESS
}

/// A Super-Nim match as a JSON line.
#[derive(Serialize)]
struct SuperNimLine {
    game: &'static str,
    opponent: &'static str,
    games: u32,
    seed: u64,
    budget: u32,
    move_limit: u32,
    wins: u32,
    losses: u32,
    draws: u32,
    seconds: f64,
}
