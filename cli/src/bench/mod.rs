//! `nimbot bench`: solve time and decision latency, as JSON lines on stdout.
//!
//! Figures are medians over repeated runs; the decision worst case is re-timed so
//! that one interrupt does not pass for the cost of a position. `--exploit`
//! measures the exploit policy instead (`exploit.rs`); the lines both print are
//! in `lines.rs`.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use nimbot::{best_move, Position, Solution, SolveBox};
use serde::Serialize;

use crate::json;
use nimbot_latency::{latency, median};

mod exploit;
mod lines;

use lines::{DecideLine, Latency, Runs, Size};

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
    if let Some(cap) = args.supernim {
        return supernim(cap, args.runs.min(5));
    }
    if args.exploit {
        return exploit::run(args.stones, args.resets, args.init_max, args.runs.min(7));
    }
    let bx = SolveBox::games(args.stones, args.resets, args.init_max);
    let mut times = Vec::with_capacity(args.runs.max(1));
    let mut solution = None;
    for _ in 0..args.runs.max(1) {
        let t = Instant::now();
        let s = match Solution::solve(black_box(bx)) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("nimbot bench: {e}");
                return ExitCode::from(2);
            }
        };
        times.push(t.elapsed().as_secs_f64() * 1e3);
        solution = Some(s);
    }
    let Some(solution) = solution else {
        return ExitCode::from(1);
    };
    let size = Size {
        stones: args.stones,
        resets: args.resets,
        init_max: args.init_max,
    };
    let runs = Runs::of(&mut times);
    json::print(&SolveLine {
        bench: "solve",
        size,
        states: solution.stored_positions(),
        ns_per_state: json::round(
            median(&times) * 1e6 / solution.stored_positions().max(1) as f64,
            2,
        ),
        runs,
    });

    // Decision latency over every stored position of the box.
    let mut positions = Vec::new();
    for (cap, hi) in solution.layers() {
        for s in (cap + 1)..=hi {
            for a in 0..=args.resets {
                for b in 0..=args.resets {
                    for f in [false, true] {
                        if let Ok(p) = Position::new(s, cap, a, b, f, args.init_max) {
                            positions.push(p);
                        }
                    }
                }
            }
        }
    }
    let timing = Latency::of(latency(&positions, |p| {
        black_box(best_move(&solution, black_box(p))).ok();
    }));
    json::print(&DecideLine {
        bench: "decide",
        size,
        positions: positions.len(),
        timing,
    });

    ExitCode::SUCCESS
}

#[derive(Serialize)]
struct SolveLine {
    bench: &'static str,
    #[serde(flatten)]
    size: Size,
    states: u64,
    #[serde(flatten)]
    runs: Runs,
    ns_per_state: f64,
}

/// `--supernim CAP`: the exact solver's speed on the small starts.
fn supernim(cap: u32, runs: usize) -> ExitCode {
    use nimbot::supernim::{Heaps, Solver};
    #[derive(Serialize)]
    struct Line {
        bench: &'static str,
        cap: u32,
        starts: usize,
        nodes: u64,
        entries: usize,
        seconds_median: f64,
        nodes_per_second: f64,
    }
    let mut starts = Vec::new();
    for a in 1..=6u32 {
        for b in a..=6 {
            starts.push(vec![a, b]);
            for c in b..=6 {
                starts.push(vec![a, b, c]);
                for d in c..=6 {
                    starts.push(vec![a, b, c, d]);
                }
            }
        }
    }
    let (mut times, mut nodes, mut entries) = (Vec::new(), 0, 0);
    for _ in 0..runs.max(1) {
        let mut solver = Solver::new(u64::MAX, 1 << 24);
        nodes = 0;
        let t = Instant::now();
        for s in &starts {
            let Ok(heaps) = Heaps::new(s) else {
                return ExitCode::from(1);
            };
            if solver.value(black_box(&heaps), cap).is_none() {
                return ExitCode::from(1);
            }
            nodes += solver.nodes();
        }
        times.push(t.elapsed().as_secs_f64());
        entries = solver.entries();
    }
    times.sort_by(f64::total_cmp);
    let seconds = median(&times);
    json::print(&Line {
        bench: "supernim-solver",
        cap,
        starts: starts.len(),
        nodes,
        entries,
        seconds_median: json::round(seconds, 3),
        nodes_per_second: (nodes as f64 / seconds).round(),
    });
    ExitCode::SUCCESS
}
