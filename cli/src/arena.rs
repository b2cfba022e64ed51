//! `nimbot arena`: reproducible matches of nimbot against fallible opponents.
//!
//! Dispatches on `--game`: Expanding Nim (the default, `nim_arena`) plays every
//! opponent family under each lost-position policy; Super-Nim plays one opponent.

use std::process::ExitCode;

use clap::Args;
use nimbot_engine::supernim::{self, Opponent};
use nimbot_supernim::Model;

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
    /// Exact near the cap, a parity-aware horizon before it (`nimbot_supernim::Perfect`).
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
    let model = match (args.model, args.opponent) {
        (ModelArg::Learn, _) => None,
        (ModelArg::None, _) => Some(Model::None),
        (ModelArg::Uniform, _) | (ModelArg::Auto, ArenaOpponent::Random) => Some(Model::Uniform),
        (ModelArg::Greedy, _) | (ModelArg::Auto, ArenaOpponent::Greedy) => Some(Model::Greedy),
    };
    let played = supernim::play(&supernim::Options {
        opponent,
        player: match args.player {
            SuperNimPlayer::Perfect => supernim::Player::Perfect,
            SuperNimPlayer::Search => supernim::Player::Search,
            SuperNimPlayer::Random => supernim::Player::Random,
        },
        model,
        nodes: args.nodes,
        games: args.games,
        seed: args.seed,
        cap: args.cap,
        audit: args.audit,
    });
    crate::exit::answer("arena", played, |report| {
        if args.json {
            json::print(&report);
        } else {
            print!("{}", report.text());
        }
    })
}
