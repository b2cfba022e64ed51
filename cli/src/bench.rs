//! `nimbot bench`: solve time and decision latency, as JSON lines on stdout.
//!
//! Figures are medians over repeated runs; the decision worst case is re-timed so
//! that one interrupt does not pass for the cost of a position.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use nimbot::solver::{Solution, SolveBox};
use nimbot::strategy::best_move;
use nimbot::Position;

use crate::latency::{latency, median};

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
}

pub fn run(args: &BenchArgs) -> ExitCode {
    if args.exploit {
        return crate::bench_exploit::run(
            args.stones,
            args.resets,
            args.init_max,
            args.runs.min(7),
        );
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
    let runs = runs_ms(&mut times);
    println!(
        "{{\"bench\":\"solve\",\"stones\":{},\"resets\":{},\"init_max\":{},\"states\":{},{runs},\"ns_per_state\":{:.2}}}",
        args.stones,
        args.resets,
        args.init_max,
        solution.stored_positions(),
        median(&times) * 1e6 / solution.stored_positions().max(1) as f64,
    );

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
    let (median_us, p99, worst, raw_max) = latency(&positions, |p| {
        black_box(best_move(&solution, black_box(p))).ok();
    });
    println!(
        "{{\"bench\":\"decide\",\"stones\":{},\"resets\":{},\"init_max\":{},\"positions\":{},\"median_us\":{median_us:.3},\"p99_us\":{p99:.3},\"worst_us\":{worst:.3},\"raw_max_us\":{raw_max:.3}}}",
        args.stones,
        args.resets,
        args.init_max,
        positions.len(),
    );

    ExitCode::SUCCESS
}

/// The JSON fields `"runs","ms","ms_min","ms_max"` of repeated timings in
/// milliseconds (at least one): their count, median, fastest and slowest. Sorts them.
pub fn runs_ms(times: &mut [f64]) -> String {
    times.sort_by(f64::total_cmp);
    format!(
        "\"runs\":{},\"ms\":{:.3},\"ms_min\":{:.3},\"ms_max\":{:.3}",
        times.len(),
        median(times),
        times.first().copied().unwrap_or(f64::NAN),
        times.last().copied().unwrap_or(f64::NAN)
    )
}
