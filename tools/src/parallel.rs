//! The windowed solve on several threads (`--threads`): caps side by side
//! ([`SharedSolve`]), each thread handing its caps to a sink of its own.

use std::num::NonZeroUsize;
use std::thread;

use nimbot_solve::{solve_windowed, PileSink, SharedSolve, SolveBox, SolveError};

/// Threads to solve with unless told: the machine's cores.
pub fn default_threads() -> NonZeroUsize {
    thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

/// Solve `bx` on `threads` threads (this one among them), each with a sink made
/// by `make`, calling `progress(done, total)` (stored positions) as caps finish.
/// Returns the sinks (those that could be made) and the first error, if any
/// (a sink that refused its piles is among the sinks, to be asked why).
pub fn solve<S: PileSink + Send>(
    bx: SolveBox,
    threads: NonZeroUsize,
    make: &(dyn Fn() -> Result<S, SolveError> + Sync),
    progress: &(dyn Fn(u64, u64) + Sync),
) -> (Vec<S>, Result<(), SolveError>) {
    if threads.get() == 1 {
        return match make() {
            Ok(mut sink) => {
                let done = solve_windowed(bx, &mut sink, &mut |d, t| progress(d, t));
                (vec![sink], done)
            }
            Err(e) => (Vec::new(), Err(e)),
        };
    }
    let shared = match SharedSolve::new(bx) {
        Ok(shared) => shared,
        Err(e) => return (Vec::new(), Err(e)),
    };
    let work = || -> (Option<S>, Result<(), SolveError>) {
        match make() {
            Ok(mut sink) => {
                let done = shared.work(&mut sink, &mut thread::yield_now, &mut |d, t| {
                    progress(d, t)
                });
                (Some(sink), done)
            }
            Err(e) => (None, Err(e)),
        }
    };
    thread::scope(|scope| {
        // A thread that cannot be started leaves its caps to the others.
        let others: Vec<_> = (1..threads.get())
            .filter_map(|_| thread::Builder::new().spawn_scoped(scope, work).ok())
            .collect();
        let mut all = vec![work()];
        for handle in others {
            all.push(
                handle
                    .join()
                    .unwrap_or((None, Err(SolveError::OutOfMemory))),
            );
        }
        let mut sinks = Vec::new();
        let mut result = Ok(());
        for (sink, done) in all {
            sinks.extend(sink);
            if result.is_ok() {
                result = done;
            }
        }
        (sinks, result)
    })
}
