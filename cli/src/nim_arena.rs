//! `nimbot arena` for Expanding Nim: nimbot under each lost-position policy against
//! families of fallible opponents (`nimbot_engine::arena`), over many starting piles and
//! both seats. The result is a matrix of lost starts won, policy by family, with the
//! number of games and a 95 % confidence interval (Wilson); won starts must all be
//! won, and a won start lost is reported as an error. This file parses the options
//! and prints; the games and their report are the library's
//! (`nimbot_engine::matrix`).

use std::io::Write as _;
use std::process::ExitCode;

use clap::Args;
use nimbot_engine::arena::ArenaConfig;
use nimbot_engine::matrix::{self, Options, Said};

use crate::json;

#[derive(Args, Debug)]
pub struct NimArenaArgs {
    /// Resets per player.
    #[arg(long, short = 'r', default_value_t = 4)]
    pub resets: u8,
    /// Initial maximum M.
    #[arg(long, short = 'm', default_value_t = 3)]
    pub init_max: u32,
    /// Expanding Nim: how many starting piles, spread evenly over 1..=MAX_STONES.
    #[arg(long, default_value_t = 200)]
    pub starts: u32,
    /// Expanding Nim: the largest starting pile.
    #[arg(long, default_value_t = 999)]
    pub max_stones: u32,
    /// Expanding Nim: games per (pile, seat) against each randomized opponent, each
    /// with its own seed (systematic opponents draw their tie-break order from it).
    #[arg(long, default_value_t = 3)]
    pub seeds: u64,
    /// Expanding Nim: the policies to compare (comma-separated).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "first,trap,longest,exploit"
    )]
    pub policies: Vec<String>,
    /// Expanding Nim: only the families whose name contains one of these words
    /// (comma-separated; default all).
    #[arg(long, value_delimiter = ',')]
    pub families: Vec<String>,
    /// Expanding Nim: list every game nimbot lost on stderr (opponent, policy, N,
    /// seat, seed, moves).
    #[arg(long)]
    pub list_losses: bool,
}

/// Run the arena; `seed` is the first seed, `json` asks for one JSON line per
/// (family, policy) instead of a matrix.
pub fn run(args: &NimArenaArgs, seed: u64, json: bool) -> ExitCode {
    let options = Options {
        config: ArenaConfig {
            resets: args.resets,
            init_max: args.init_max,
            starts: args.starts,
            max_stones: args.max_stones,
            seeds: args.seeds,
            first_seed: seed,
        },
        policies: args.policies.clone(),
        families: args.families.clone(),
        list_losses: args.list_losses,
        json,
    };
    let mut say = |said: Said<'_>| match said {
        Said::Text(text) => {
            print!("{text}");
            let _ = std::io::stdout().flush();
        }
        Said::Cell(line) => json::print(&line),
        Said::Note(note) => eprintln!("{note}"),
    };
    match matrix::run(&options, &mut say) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::exit::usage("arena", e),
    }
}
