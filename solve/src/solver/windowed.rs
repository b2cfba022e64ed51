//! The windowed solver: the values of [`Solution::solve`](super::Solution::solve),
//! handed out pile by pile instead of kept, in memory that grows with the box's
//! largest pile N rather than with its N^1.5 positions.
//!
//! # What is kept
//! Caps are solved from the top, each cap's piles upward (as the full solver does).
//! A position reads its own cap's piles at most `c - 1` below it and one pile of the
//! cap above, `c` below it. So per cap the solver keeps the lost masks of its last
//! few blocks of piles in a ring (the sliding-window ORs need two blocks of `c`),
//! and for the cap above only what "take exactly the cap" reads from each of its
//! piles: two masks of `(R+1)^2` bits. That array is rewritten in place: the new
//! cap's pile `p` replaces the old cap's pile `p` once the new cap has read it, `c`
//! piles later, from the ring. Boxes with more than 7 resets take the per-position
//! path, which keeps the two caps' pile bits whole.
//!
//! Finished piles go to a [`PileSink`] a block at a time (the table writer codes
//! them as they come), so nothing of a cap is kept once it is handed over.
//! [`SolveBox::memory_bytes`] is this solver's peak, computed before anything is
//! allocated; every array is reserved fallibly and read with `get`.

use alloc::vec::Vec;

#[cfg(all(target_has_atomic = "64", target_has_atomic = "ptr"))]
pub(crate) mod shared;

use super::base::{filled, storage, SolveBox, SolveError};
use super::scalar::CaplessTable;
#[cfg(not(feature = "small-solver"))]
use super::scalar::ScalarCap;
use nimbot::table::Layout;

/// Where the windowed solver hands its values: caps from the top, each cap's piles
/// upward, a block of piles at a time.
pub trait PileSink {
    /// The values of piles `first, first + 1, ...` of cap `cap`, [`PileBits::words`]
    /// words a pile (see [`PileBits`]), lowest pile first.
    ///
    /// # Errors
    /// Whatever the sink cannot do; the solve stops with it.
    fn piles(&mut self, cap: u32, first: u32, words: &[u64]) -> Result<(), SolveError>;

    /// Every pile of `cap` has been handed over.
    ///
    /// # Errors
    /// As [`PileSink::piles`].
    fn cap_done(&mut self, cap: u32) -> Result<(), SolveError>;
}

/// How one pile's values sit in its words: position `(own, opp, pending)` is bit
/// `pending * stride + own (R+1) + opp`, 1 when the mover wins (the layout of
/// [`Solution`](super::Solution)'s piles too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PileBits {
    resets: u8,
    stride: usize,
    words: usize,
}

impl PileBits {
    /// The layout for boxes with `resets` resets.
    pub const fn new(resets: u8) -> Self {
        let (stride, words) = storage(resets);
        PileBits {
            resets,
            stride,
            words,
        }
    }

    /// Words a pile takes.
    pub const fn words(&self) -> usize {
        self.words
    }

    /// The bit of `(own, opp, pending)` in a pile's words (for resets within the
    /// layout's).
    pub const fn bit(&self, own: u8, opp: u8, pending: bool) -> usize {
        let r = self.resets as usize + 1;
        pending as usize * self.stride + own as usize * r + opp as usize
    }

    /// Whether the mover wins `(own, opp, pending)` in a pile of `words` (false
    /// for a position outside the layout).
    pub fn wins(&self, words: &[u64], own: u8, opp: u8, pending: bool) -> bool {
        if own > self.resets || opp > self.resets {
            return false;
        }
        let b = self.bit(own, opp, pending);
        words.get(b / 64).is_some_and(|w| w >> (b % 64) & 1 == 1)
    }
}

/// Piles handed to the sink at once.
const BLOCK: usize = 4096;

/// What a cap reads of the cap above and leaves for the cap below: per pile, the
/// positions the mover wins by taking exactly the cap (see [`Window::cap_take`]),
/// rewritten in place; and, when several threads solve caps at once
/// ([`SharedSolve`]), how far each cap has got.
trait Above {
    /// The entry of pile `p` (nothing won that way outside the array).
    fn entry(&self, p: usize) -> [u64; 2];
    /// Set the entry of pile `p`.
    fn set_entry(&mut self, p: usize, v: [u64; 2]);
    /// Wait until the cap above `cap` has solved its pile `step` (and so rewritten
    /// the entry cap `cap` reads at step `step - 1`); returns the step it has
    /// reached, `usize::MAX` once it is done.
    fn wait(&mut self, cap: u32, step: usize) -> Result<usize, SolveError>;
    /// Cap `cap` has solved its piles up to `step` (`usize::MAX`: all, its
    /// entries all rewritten).
    fn publish(&mut self, cap: u32, step: usize);
}

/// One thread: the caps one after another, nothing to wait for.
impl Above for Vec<[u64; 2]> {
    #[inline]
    fn entry(&self, p: usize) -> [u64; 2] {
        self.as_slice().get(p).copied().unwrap_or_default()
    }

    #[inline]
    fn set_entry(&mut self, p: usize, v: [u64; 2]) {
        if let Some(slot) = self.get_mut(p) {
            *slot = v;
        }
    }

    #[inline]
    fn wait(&mut self, _: u32, _: usize) -> Result<usize, SolveError> {
        Ok(usize::MAX)
    }

    #[inline]
    fn publish(&mut self, _: u32, _: usize) {}
}

/// Whether a window this wide (at most 4 piles: the one after a reset, for small
/// M) is ORed pile by pile rather than through prefix and suffix ORs, which cost
/// more for it; the tiny binary (`small-solver`) keeps one way for all.
const fn direct(width: usize) -> bool {
    !cfg!(feature = "small-solver") && width <= 4
}

/// Piles between two reports of a cap's progress to the cap below it.
const PUBLISH: usize = 256;

/// Solve every position of `bx` and hand the values to `sink` (see [`PileSink`]),
/// calling `progress(done, total)` (stored positions) after each cap.
///
/// # Errors
/// What [`Solution::solve`](super::Solution::solve) refuses, and the sink's errors.
pub fn solve_windowed(
    bx: SolveBox,
    sink: &mut dyn PileSink,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(), SolveError> {
    bx.validate()?;
    let caps = bx.layer_bounds().count() as u32;
    let Some(c_top) = (bx.c_min + caps).checked_sub(1).filter(|_| caps > 0) else {
        return Ok(());
    };
    let total = bx.stored_positions();
    let per_pile = Layout::keys_per_cap(bx.resets) as u64;
    let capless = CaplessTable::new(bx.init_max, bx.resets, c_top + 2)?;
    let r = usize::from(bx.resets) + 1;
    let mut done = 0u64;
    let mut step = |c: u32, hi: u32| {
        done += u64::from(hi - c) * per_pile;
        progress(done, total);
    };
    let hi_of = |c: u32| {
        Layout::highest_pile(bx.n_max, bx.c_min, c)
            .unwrap_or(c)
            .max(c)
    };
    if r * r <= 64 {
        let mut w = Window::new(&bx, &capless, c_top)?;
        let mut above = filled(bx.n_max as usize + 2, [0u64; 2])?;
        for c in (bx.c_min..=c_top).rev() {
            let hi = hi_of(c);
            w.solve_cap(c, hi, c == c_top, &mut above, sink)?;
            step(c, hi);
        }
    } else {
        solve_wide(&bx, c_top, &capless, sink, &mut step)?;
    }
    Ok(())
}

/// The caps of a box with more than 7 resets, position by position (refused
/// with feature `small-solver`, which leaves that path out).
fn solve_wide(
    bx: &SolveBox,
    c_top: u32,
    capless: &CaplessTable,
    sink: &mut dyn PileSink,
    step: &mut dyn FnMut(u32, u32),
) -> Result<(), SolveError> {
    #[cfg(feature = "small-solver")]
    {
        let _ = (bx, c_top, capless, sink, step);
        Err(SolveError::TooManyResets)
    }
    #[cfg(not(feature = "small-solver"))]
    {
        let mut s = Scalar::new(bx)?;
        for c in (bx.c_min..=c_top).rev() {
            let hi = Layout::highest_pile(bx.n_max, bx.c_min, c)
                .unwrap_or(c)
                .max(c);
            let cap = ScalarCap { bx, capless, c, hi };
            s.solve_cap(cap, sink)?;
            step(c, hi);
        }
        Ok(())
    }
}

/// Bytes [`solve_windowed`] takes at its peak for `bx` (a valid box), besides what
/// its sink keeps.
pub(super) fn work_bytes(bx: &SolveBox) -> u64 {
    let caps = bx.layer_bounds().count() as u64;
    let c_top = u64::from(bx.c_min) + caps;
    let r = u64::from(bx.resets) + 1;
    let piles = u64::from(bx.n_max) + 2;
    let capless = (u64::from(bx.init_max) * (2 * r + 1) + 1).min(c_top + 3) * r * r;
    let (_, words) = storage(bx.resets);
    let words = words as u64;
    if r * r <= 64 {
        let ring = (2 * c_top + 2).next_power_of_two();
        let slot = core::mem::size_of::<WindowOrs>() as u64 + 32;
        piles * 16 + ring * slot + (c_top + 3) * 16 + BLOCK as u64 * words * 8 + capless
    } else {
        2 * piles * words * 8 + capless
    }
}

/// The prefix and suffix ORs of the two sliding windows (the cap's, then the one
/// after a reset) at one pile, for the four lost masks: window `w`'s OR of mask `j`
/// at `[w][j]`.
#[derive(Clone, Copy, Debug, Default)]
struct WindowOrs {
    pre: [[u64; 4]; 2],
    suf: [[u64; 4]; 2],
}

/// The mask path's state: the lost masks of the cap being solved in a ring, and
/// the sliding-window ORs over them.
///
/// Per pile it keeps four lost masks `[a-major f=0, a-major f=1, b-major f=0,
/// b-major f=1]` (bit `a (R+1) + b`, or `b (R+1) + a`), so that "the layer with
/// the resets swapped" is a plain bit position and the reset move a shift. The
/// "loss among the last `w` piles" masks come from sliding-window ORs: piles are
/// cut into blocks of `w`, and a window is the suffix OR of one block and the
/// prefix OR of the next (van Herk / Gil-Werman), O(1) a pile, kept in a ring of
/// the last few blocks so that the work stays in cache.
struct Window {
    r: usize,
    init_max: u32,
    full: u64,
    /// b-major order: positions with own resets above 0.
    own_nonzero_tr: u64,
    /// Lost masks of the capless game per pile: a-major, b-major.
    capless: Vec<[u64; 2]>,
    /// Lost masks `[a-major f=0, a-major f=1, b-major f=0, b-major f=1]` of the
    /// cap's recent piles, at `p & ring_mask`.
    lost: Vec<[u64; 4]>,
    ors: Vec<WindowOrs>,
    ring_mask: usize,
    width: [usize; 2],
    fill: [usize; 2],
    stride: usize,
    wpp: usize,
    /// Finished piles waiting for the sink.
    out: Vec<u64>,
}

impl Window {
    fn new(bx: &SolveBox, capless: &CaplessTable, c_top: u32) -> Result<Self, SolveError> {
        let r = usize::from(bx.resets) + 1;
        let rr = r * r;
        let full = if rr == 64 { !0 } else { (1u64 << rr) - 1 };
        let mut own_nonzero_tr = 0u64;
        for i in 0..rr {
            if i % r != 0 {
                own_nonzero_tr |= 1 << i;
            }
        }
        let mut lost = filled(c_top as usize + 3, [0u64; 2])?;
        for (p, masks) in lost.iter_mut().enumerate().skip(1) {
            for x in 0..r {
                for y in 0..r {
                    if !capless.wins(p as u32, x as u8, y as u8) {
                        masks[0] |= 1 << (x * r + y);
                        masks[1] |= 1 << (y * r + x);
                    }
                }
            }
        }
        let ring = (2 * c_top as usize + 2).next_power_of_two();
        let (stride, wpp) = storage(bx.resets);
        Ok(Window {
            r,
            init_max: bx.init_max,
            full,
            own_nonzero_tr,
            capless: lost,
            lost: filled(ring, [0; 4])?,
            ors: filled(ring, WindowOrs::default())?,
            ring_mask: ring - 1,
            width: [0; 2],
            fill: [0; 2],
            stride,
            wpp,
            out: filled(BLOCK * wpp, 0)?,
        })
    }

    /// The rules' lost masks for pile `p <= cap`.
    fn rules(&self, p: usize) -> [u64; 4] {
        let [nat, tr] = self.capless.get(p).copied().unwrap_or_default();
        [0, nat, 0, tr]
    }

    /// What taking exactly the cap reads of a pile with lost masks `up`: the
    /// positions the mover wins that way without and with a reset (bits in
    /// a-major order of the mover's layer).
    fn cap_take(&self, up: [u64; 4]) -> [u64; 2] {
        [
            up[2] | ((up[3] << self.r) & self.full),
            up[0] | ((up[1] << 1) & self.own_nonzero_tr),
        ]
    }

    fn lost_at(&self, p: usize) -> [u64; 4] {
        self.lost
            .get(p & self.ring_mask)
            .copied()
            .unwrap_or_default()
    }

    fn set_lost(&mut self, p: usize, lost: [u64; 4]) {
        if let Some(slot) = self.lost.get_mut(p & self.ring_mask) {
            *slot = lost;
        }
    }

    /// Pile `p` of the cap being solved replaces pile `p` of the cap above.
    #[inline]
    fn retire(&self, p: usize, above: &mut impl Above) {
        above.set_entry(p, self.cap_take(self.lost_at(p)));
    }

    /// Solve cap `c` (piles `c + 1 ..= hi`); `top`: no cap above it is stored;
    /// `above`: what taking exactly the cap reads, of the cap above, per pile (see
    /// [`Above`]).
    fn solve_cap(
        &mut self,
        c: u32,
        hi: u32,
        top: bool,
        above: &mut impl Above,
        sink: &mut dyn PileSink,
    ) -> Result<(), SolveError> {
        let r = self.r;
        let full = self.full;
        let nz_tr = self.own_nonzero_tr;
        let c_us = c as usize;
        self.width = [c_us - 1, self.init_max.min(c - 1) as usize];
        self.fill = [0; 2];
        if top {
            // Above the top cap there is only the rules' part of cap c + 1.
            for p in 1..=(c_us + 1) {
                above.set_entry(p, self.cap_take(self.rules(p)));
            }
        }
        let cap_after_reset = self.init_max >= c;
        let (stride, wpp) = (self.stride, self.wpp);
        let mut first = c + 1;
        let mut filled_piles = 0usize;
        let mut ready = 0;
        // Piles up to c are the rules' (one push for all piles: the tiny binary
        // carries it once).
        for s in 1..=(hi as usize).max(c_us) {
            let lost = if s <= c_us {
                self.rules(s)
            } else {
                if s >= ready {
                    ready = above.wait(c, s + 1)?;
                }
                let [a_n0, a_n1, a_t0, a_t1] = self.window(0, s);
                let [b_n0, b_n1, b_t0, b_t1] = self.window(1, s);
                // Taking exactly c: the opponent's position in the cap above, read
                // for the last time here, so this cap's pile s - c takes its place.
                let [cap_nat, cap_tr] = above.entry(s - c_us);
                self.retire(s - c_us, above);
                let win_nat0 = (a_t0 | ((a_t1 << r) & full) | cap_nat) & full;
                let mut win_nat1 = b_t0 | ((b_t1 << r) & full);
                let win_tr0 = a_n0 | ((a_n1 << 1) & nz_tr) | cap_tr;
                let mut win_tr1 = b_n0 | ((b_n1 << 1) & nz_tr);
                if cap_after_reset {
                    win_nat1 |= cap_nat;
                    win_tr1 |= cap_tr;
                }
                let at = filled_piles * wpp;
                match self.out.get_mut(at..at + wpp) {
                    Some([one]) => *one = win_nat0 | (win_nat1 << stride),
                    Some([nat0, nat1, ..]) => (*nat0, *nat1) = (win_nat0, win_nat1),
                    _ => {}
                }
                filled_piles += 1;
                [
                    !win_nat0 & full,
                    !win_nat1 & full,
                    !win_tr0 & full,
                    !win_tr1 & full,
                ]
            };
            self.push(s, lost);
            if s % PUBLISH == 0 && s > c_us {
                above.publish(c, s);
            }
            if filled_piles == BLOCK {
                sink.piles(c, first, self.out.get(..BLOCK * wpp).unwrap_or(&[]))?;
                first += BLOCK as u32;
                filled_piles = 0;
            }
        }
        if filled_piles > 0 {
            sink.piles(c, first, self.out.get(..filled_piles * wpp).unwrap_or(&[]))?;
        }
        // The piles not yet read by this cap take their places too.
        let lowest_left = (hi as usize).saturating_sub(c_us) + 1;
        for p in lowest_left..=(hi as usize) {
            self.retire(p, above);
        }
        above.publish(c, usize::MAX);
        sink.cap_done(c)
    }

    /// The lost masks of window `w` (0: the cap's, 1: after a reset) over the
    /// piles just below `s`.
    fn window(&self, w: usize, s: usize) -> [u64; 4] {
        let width = self.width.get(w).copied().unwrap_or(0);
        if width == 0 {
            return [0; 4];
        }
        if direct(width) {
            let mut acc = [0u64; 4];
            for q in s - width..s {
                let lost = self.lost_at(q);
                acc = core::array::from_fn(|j| acc[j] | lost[j]);
            }
            return acc;
        }
        let mask = self.ring_mask;
        let a = self.ors.get((s - width) & mask).and_then(|o| o.suf.get(w));
        let b = self.ors.get((s - 1) & mask).and_then(|o| o.pre.get(w));
        match (a, b) {
            (Some(a), Some(b)) => core::array::from_fn(|j| a[j] | b[j]),
            _ => [0; 4],
        }
    }

    /// Pile `p` has lost masks `lost`: keep them and extend both windows' ORs
    /// (from the value, not from memory: reading back what was just stored word
    /// by word stalls the load; so inlined, the value stays in registers).
    #[inline(always)]
    fn push(&mut self, p: usize, lost: [u64; 4]) {
        self.set_lost(p, lost);
        let mask = self.ring_mask;
        for w in 0..2 {
            let (Some(&width), Some(&fill)) = (self.width.get(w), self.fill.get(w)) else {
                continue;
            };
            if width == 0 || direct(width) {
                continue;
            }
            let fill = fill + 1;
            let prev = match self.ors.get((p - 1) & mask).and_then(|o| o.pre.get(w)) {
                Some(pre) if fill > 1 => *pre,
                _ => [0; 4],
            };
            if let Some(pre) = self.ors.get_mut(p & mask).and_then(|o| o.pre.get_mut(w)) {
                *pre = core::array::from_fn(|j| prev[j] | lost[j]);
            }
            if fill == width {
                let mut acc = [0u64; 4];
                for q in (p + 1 - width..=p).rev() {
                    let lost = self.lost_at(q);
                    acc = core::array::from_fn(|j| acc[j] | lost[j]);
                    if let Some(suf) = self.ors.get_mut(q & mask).and_then(|o| o.suf.get_mut(w)) {
                        *suf = acc;
                    }
                }
            }
            if let Some(f) = self.fill.get_mut(w) {
                *f = if fill == width { 0 } else { fill };
            }
        }
    }
}

/// The per-position path for boxes with more than 7 resets: the pile bits of the
/// cap being solved and of the cap above, whole.
#[cfg(not(feature = "small-solver"))]
struct Scalar {
    wpp: usize,
    /// The cap above's piles `c + 2 ..` (of that cap's `c`), `wpp` words each.
    above: Vec<u64>,
    /// The cap being solved, piles `c + 1 ..= hi`.
    cur: Vec<u64>,
    /// Whether `above` holds a stored cap.
    has_above: bool,
    /// Per layer `(x, y, f)`: the largest losing pile below the current one.
    last: Vec<u32>,
}

#[cfg(not(feature = "small-solver"))]
impl Scalar {
    fn new(bx: &SolveBox) -> Result<Self, SolveError> {
        let (_, wpp) = storage(bx.resets);
        let piles = bx.n_max as usize + 1;
        let r = usize::from(bx.resets) + 1;
        Ok(Scalar {
            wpp,
            above: filled(piles * wpp, 0)?,
            cur: filled(piles * wpp, 0)?,
            has_above: false,
            last: filled(2 * r * r, 0)?,
        })
    }

    fn solve_cap(&mut self, cap: ScalarCap<'_>, sink: &mut dyn PileSink) -> Result<(), SolveError> {
        let (c, wpp) = (cap.c, self.wpp);
        let above = self.has_above.then_some(self.above.as_slice());
        cap.solve(&mut self.last, &mut self.cur, above);
        let piles = (cap.hi - c) as usize;
        let mut at = 0;
        while at < piles {
            let end = (at + BLOCK).min(piles);
            let block = self.cur.get(at * wpp..end * wpp).unwrap_or(&[]);
            sink.piles(c, c + 1 + at as u32, block)?;
            at = end;
        }
        core::mem::swap(&mut self.above, &mut self.cur);
        self.has_above = true;
        sink.cap_done(c)
    }
}

// Its tests compare it with the full `Solution` (solver.rs), which imports this
// file: they live in a file of their own so that this one does not import it back.
#[cfg(test)]
mod tests;
