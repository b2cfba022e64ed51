//! `nimbot bench`: solve time and decision latency, as JSON lines on stdout. The
//! benchmarks are the library's (`nimbot_engine::bench`); this file reads the
//! flags and prints each line as it comes.

use std::process::ExitCode;

use clap::Args;
use nimbot_engine::bench::{self, lines::Size};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Largest pile of the box to solve.
    #[arg(long, short = 'n', default_value_t = 999)]
    stones: u32,
    /// Resets per player.
    #[arg(long, short = 'r', default_value_t = 4)]
    resets: u8,
    /// Initial maximum M.
    #[arg(long, short = 'm', default_value_t = 3)]
    init_max: u32,
    /// Solve runs to take the median of.
    #[arg(long, default_value_t = 21)]
    runs: usize,
    /// Measure the exploit policy instead: solving its models, the per-game
    /// preparation, lost-position decisions.
    #[arg(long)]
    exploit: bool,
    /// Measure Super-Nim's exact solver instead: every start of 2..=4 heaps of
    /// 1..=6 sticks solved to the cap CAP (one solver, its table shared), as
    /// positions (nodes) searched per second.
    #[arg(long, value_name = "CAP")]
    supernim: Option<u32>,
}

pub fn run(args: &BenchArgs) -> ExitCode {
    let size = Size {
        stones: args.stones,
        resets: args.resets,
        init_max: args.init_max,
    };
    let mut emit = |line: bench::lines::Line| crate::json::print(&line);
    let ran = if let Some(cap) = args.supernim {
        bench::supernim(cap, args.runs.min(5), &mut emit)
    } else if args.exploit {
        bench::exploit::measure(size, args.runs.clamp(1, 7), &mut emit)
    } else {
        bench::solve_and_decide(size, args.runs, &mut emit)
    };
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        Err((status, e)) => {
            eprintln!("nimbot bench: {e}");
            ExitCode::from(status)
        }
    }
}
