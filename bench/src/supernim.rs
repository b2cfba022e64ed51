//! `nimbot bench --supernim CAP`: Super-Nim's exact solver, as one JSON line.

use std::hint::black_box;
use std::time::Instant;

use nimbot_supernim::{Heaps, Solver};

use crate::lines::{Line, SuperNimLine};

/// `supernim-solver`: the exact solver's speed on the small starts (every start
/// of 2..=4 heaps of 1..=6 sticks solved to `cap`, one solver, its table shared),
/// as one JSON line handed to `emit`.
pub fn supernim(cap: u32, runs: usize, emit: &mut dyn FnMut(Line)) -> Result<(), (u8, String)> {
    let starts: Vec<Heaps> = Heaps::small_starts().collect();
    let (mut times, mut nodes, mut entries) = (Vec::new(), 0, 0);
    for _ in 0..runs.max(1) {
        let mut solver = Solver::new(u64::MAX, 1 << 24);
        nodes = 0;
        let t = Instant::now();
        for heaps in &starts {
            if solver.value(black_box(heaps), cap).is_none() {
                return Err((1, "the solver did not finish".into()));
            }
            nodes += solver.nodes();
        }
        times.push(t.elapsed().as_secs_f64());
        entries = solver.entries();
    }
    let line = SuperNimLine::of(cap, starts.len(), nodes, entries, &mut times);
    emit(Line::SuperNim(line));
    Ok(())
}
