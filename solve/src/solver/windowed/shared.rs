//! Several threads solving the caps of one box at once (the host's
//! `nimbot-table`; the crate itself starts no thread).
//!
//! Cap `c` reads, at its pile `s`, what cap `c + 1` left at pile `s - c`, which cap
//! `c + 1` rewrites at its own step `s + 1`: so caps run side by side, each a few
//! hundred piles behind the one above it, on one shared array of entries (atomics,
//! read and written without ordering, the order coming from each cap's published
//! progress: release when published, acquire when waited for). Every thread takes
//! the next cap down when it is free, solves it with its own ring and hands it to
//! its own sink; the values are the single thread's, bit for bit.

use alloc::vec::Vec;
use core::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use super::PileSink;
use super::{solve_wide, Above, Window};
use crate::solver::base::{filled_with, SolveBox, SolveError};
use crate::solver::scalar::CaplessTable;
use nimbot::table::Layout;

/// A windowed solve shared by several threads: each calls [`SharedSolve::work`]
/// with a sink of its own, which receives whole caps (from the top, not
/// consecutive ones: the other threads take the others). What the sinks receive
/// together is what [`solve_windowed`](crate::solve_windowed) hands one sink.
///
/// Memory: the single-threaded solve's per-pile array (16 bytes a pile of N),
/// once, and per thread its ring of recent piles and its sink.
#[derive(Debug)]
pub struct SharedSolve {
    bx: SolveBox,
    c_top: u32,
    capless: CaplessTable,
    above: Vec<[AtomicU64; 2]>,
    /// Per cap from `c_min`: the last step solved, `usize::MAX` once done.
    progress: Vec<AtomicUsize>,
    /// Caps taken so far (from the top).
    taken: AtomicUsize,
    /// Stored positions of the caps done.
    done: AtomicU64,
    /// A thread has failed: the others stop.
    failed: AtomicBool,
}

impl SharedSolve {
    /// The shared state for solving `bx`.
    ///
    /// # Errors
    /// What [`solve_windowed`](crate::solve_windowed) refuses.
    pub fn new(bx: SolveBox) -> Result<Self, SolveError> {
        bx.validate()?;
        let caps = bx.layer_bounds().count();
        let c_top = (bx.c_min + caps as u32).saturating_sub(1);
        Ok(SharedSolve {
            bx,
            c_top,
            capless: CaplessTable::new(bx.init_max, bx.resets, c_top + 2)?,
            above: filled_with(bx.n_max as usize + 2, || {
                [AtomicU64::new(0), AtomicU64::new(0)]
            })?,
            progress: filled_with(caps, || AtomicUsize::new(0))?,
            taken: AtomicUsize::new(0),
            done: AtomicU64::new(0),
            failed: AtomicBool::new(caps == 0),
        })
    }

    /// Solve caps, the next one down each time, into `sink` until none is left,
    /// calling `pause` while waiting for the cap above (a thread yield, say) and
    /// `progress(done, total)` (stored positions, all threads together) after each
    /// cap. A box with more than 7 resets is solved by the first thread alone.
    ///
    /// # Errors
    /// What the solve or `sink` returns; a thread stopped by another's failure
    /// returns `Ok` (the failing thread reports it).
    pub fn work(
        &self,
        sink: &mut dyn PileSink,
        pause: &mut dyn FnMut(),
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<(), SolveError> {
        match self.run(sink, pause, progress) {
            Err(e) if !self.failed.swap(true, Ordering::AcqRel) => Err(e),
            _ => Ok(()),
        }
    }

    fn run(
        &self,
        sink: &mut dyn PileSink,
        pause: &mut dyn FnMut(),
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<(), SolveError> {
        let bx = &self.bx;
        let total = bx.stored_positions();
        let per_pile = Layout::keys_per_cap(bx.resets) as u64;
        let r = usize::from(bx.resets) + 1;
        if self.failed.load(Ordering::Acquire) {
            return Ok(());
        }
        if r * r > 64 {
            if self.taken.fetch_add(1, Ordering::Relaxed) == 0 {
                let mut step = |c: u32, hi: u32| {
                    let n = u64::from(hi - c) * per_pile;
                    progress(self.done.fetch_add(n, Ordering::Relaxed) + n, total);
                };
                solve_wide(bx, self.c_top, &self.capless, sink, &mut step)?;
            }
            return Ok(());
        }
        let mut window = Window::new(bx, &self.capless, self.c_top)?;
        let mut link = Link {
            shared: self,
            pause,
        };
        loop {
            let k = self.taken.fetch_add(1, Ordering::Relaxed);
            let Some(c) = u32::try_from(k)
                .ok()
                .and_then(|k| self.c_top.checked_sub(k))
                .filter(|&c| c >= bx.c_min)
            else {
                return Ok(());
            };
            let hi = Layout::highest_pile(bx.n_max, bx.c_min, c)
                .unwrap_or(c)
                .max(c);
            window.solve_cap(c, hi, c == self.c_top, &mut link, sink)?;
            let n = u64::from(hi - c) * per_pile;
            progress(self.done.fetch_add(n, Ordering::Relaxed) + n, total);
        }
    }
}

/// One thread's view of the shared entries.
struct Link<'s, 'p> {
    shared: &'s SharedSolve,
    pause: &'p mut dyn FnMut(),
}

impl Above for Link<'_, '_> {
    #[inline]
    fn entry(&self, p: usize) -> [u64; 2] {
        match self.shared.above.get(p) {
            Some([a, b]) => [a.load(Ordering::Relaxed), b.load(Ordering::Relaxed)],
            None => [0; 2],
        }
    }

    #[inline]
    fn set_entry(&mut self, p: usize, v: [u64; 2]) {
        if let Some([a, b]) = self.shared.above.get(p) {
            a.store(v[0], Ordering::Relaxed);
            b.store(v[1], Ordering::Relaxed);
        }
    }

    fn wait(&mut self, cap: u32, step: usize) -> Result<usize, SolveError> {
        let s = self.shared;
        if cap >= s.c_top {
            return Ok(usize::MAX);
        }
        let Some(above) = s.progress.get((cap + 1 - s.bx.c_min) as usize) else {
            return Ok(usize::MAX);
        };
        let mut spins = 0u32;
        loop {
            let got = above.load(Ordering::Acquire);
            if got >= step {
                return Ok(got);
            }
            if s.failed.load(Ordering::Relaxed) {
                return Err(SolveError::BadParams);
            }
            if spins < 64 {
                spins += 1;
                core::hint::spin_loop();
            } else {
                (self.pause)();
            }
        }
    }

    fn publish(&mut self, cap: u32, step: usize) {
        let s = self.shared;
        if let Some(p) = s.progress.get((cap - s.bx.c_min) as usize) {
            p.store(step, Ordering::Release);
        }
    }
}
