//! `nimbot bench`: solve time and decision latency, as JSON lines.
//!
//! Figures are medians over repeated runs; the decision worst case is re-timed so
//! that one interrupt does not pass for the cost of a position. Its lines are
//! [`crate::lines`]' `solve` and `decide`.

use std::hint::black_box;
use std::time::Instant;

use nimbot::{best_move, Position};
use nimbot_latency::{latency, median};
use nimbot_solve::{Solution, SolveBox};

use crate::lines::{BoxLine, Decided, Latency, Line, Runs, Size, Solved};
use nimbot_engine::matrix::round;

/// `solve`: the median of `runs` solves of `size`'s box, then `decide`: the
/// latency of a decision in every position the box stores; a JSON line each,
/// handed to `emit`. An error is an exit status and its line.
pub fn solve_and_decide(
    size: Size,
    runs: usize,
    emit: &mut dyn FnMut(Line),
) -> Result<(), (u8, String)> {
    let Size {
        stones,
        resets,
        init_max,
    } = size;
    let bx = SolveBox::games(stones, resets, init_max);
    let mut times = Vec::with_capacity(runs.max(1));
    let mut solution = None;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let s = Solution::solve(black_box(bx)).map_err(|e| (2, e.to_string()))?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
        solution = Some(s);
    }
    let Some(solution) = solution else {
        return Err((1, "no solve ran".into()));
    };
    let runs = Runs::of(&mut times);
    let states = solution.stored_positions();
    let solved = Solved {
        states,
        ns_per_state: round(median(&times) * 1e6 / states.max(1) as f64, 2),
        runs,
    };
    emit(Line::Solve(BoxLine::new("solve", size, solved)));

    // Decision latency over every stored position of the box.
    let mut positions = Vec::new();
    for (cap, hi) in solution.layers() {
        for s in (cap + 1)..=hi {
            for a in 0..=resets {
                for b in 0..=resets {
                    for f in [false, true] {
                        if let Ok(p) = Position::new(s, cap, a, b, f, init_max) {
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
    let positions = positions.len();
    emit(Line::Decide(BoxLine::new(
        "decide",
        size,
        Decided { positions, timing },
    )));
    Ok(())
}
