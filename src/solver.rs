//! The exact solver: won/lost for every normalized position of a box of games.
//!
//! # The box
//! A cap `c` above M can only exist after takes of M, M+1, ..., c-1 were all made, so in
//! a game of at most `n_max` stones a position satisfies `s + U(c) <= n_max`, where
//! `U(c) = c_min + ... + (c - 1)` and `c_min = M` for whole games. That set is closed
//! under moves, so solving it needs nothing outside it. Positions with `c >= s` are not
//! stored: their cap can never bind again and [`Position::trivial_value`] decides them.
//! A solve may start from a higher `c_min` to answer one arbitrary position cheaply.
//!
//! # The recurrence, all layers of a cap at once
//! Takes below the cap keep the cap, so from `(s, c, a, b, f)` they lead into two
//! fixed *layers* at the same `c`: `(c, b, a, 0)` without a reset and `(c, b, a-1, 1)`
//! with one. The mover wins iff one of those layers has a lost pile among the last
//! `w` piles (`w = c - 1`, or `min(M, c - 1)` right after a reset), or taking exactly
//! `c` (when the limit allows it) leaves a lost position in the layer above, which is
//! solved first.
//!
//! The solver keeps, per pile, the lost positions of all `(a, b)` pairs as one bit
//! mask per value of f, in two bit orders (`a` major and `b` major), so that "the
//! layer with the resets swapped" is a plain bit position and the reset move is a
//! shift. The "a loss among the last `w` piles" masks come from sliding-window ORs
//! (prefix and suffix ORs of blocks of `w` piles, O(1) a pile). A pile of all
//! `2 (R+1)^2` positions costs a few dozen word operations. Boxes with more than 7
//! resets, whose masks would not fit a word, take the per-position path.

use alloc::vec;
use alloc::vec::Vec;

use crate::rules::{Position, MAX_RESETS, MAX_STONES};
use crate::table::geometry::Layers;
use crate::value::Value;

/// Why a box could not be solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolveError {
    /// `n_max` is 0 or above [`MAX_STONES`], or `init_max` is 0.
    BadParams,
    /// More resets than [`MAX_RESETS`].
    TooManyResets,
    /// `c_min` is below `init_max`.
    CapBelowInitMax,
}

impl SolveError {
    /// A short, static description.
    pub const fn as_str(self) -> &'static str {
        match self {
            SolveError::BadParams => "stones or init max out of range",
            SolveError::TooManyResets => "resets exceed 32",
            SolveError::CapBelowInitMax => "cap is below init max",
        }
    }
}

impl core::fmt::Display for SolveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The limits of one solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SolveBox {
    /// Largest pile of a game in the box.
    pub n_max: u32,
    /// Resets per player; a box for R covers every smaller number.
    pub resets: u8,
    /// M, the initial maximum.
    pub init_max: u32,
    /// Smallest cap in the box: M for whole games.
    pub c_min: u32,
}

impl SolveBox {
    /// The box of all games with at most `n_max` stones, `resets` resets and initial max M.
    pub const fn games(n_max: u32, resets: u8, init_max: u32) -> Self {
        SolveBox {
            n_max,
            resets,
            init_max,
            c_min: init_max,
        }
    }

    /// The smallest box that holds `pos` (and so every position reachable from it).
    pub fn around(pos: &Position) -> Self {
        SolveBox {
            n_max: pos.stones(),
            resets: pos.own_resets().max(pos.opp_resets()),
            init_max: pos.init_max(),
            c_min: pos.cap(),
        }
    }

    fn validate(&self) -> Result<(), SolveError> {
        if self.n_max == 0 || self.n_max > MAX_STONES || self.init_max == 0 {
            return Err(SolveError::BadParams);
        }
        if self.resets > MAX_RESETS {
            return Err(SolveError::TooManyResets);
        }
        if self.c_min < self.init_max {
            return Err(SolveError::CapBelowInitMax);
        }
        Ok(())
    }

    /// Layers `(c, highest stored pile)` of the box, lowest cap first.
    fn layer_bounds(&self) -> Vec<(u32, u32)> {
        Layers::new(self.n_max, self.c_min).collect()
    }

    /// Bytes a solve of this box takes at its peak: the solution's bit array (kept)
    /// plus the solver's per-pile work arrays (freed after the solve). Cheap: use it
    /// to refuse a box too large before solving it.
    pub fn memory_bytes(&self) -> u64 {
        if self.validate().is_err() {
            return 0;
        }
        let (_, words) = storage(self.resets);
        let solution: u64 = self
            .layer_bounds()
            .iter()
            .map(|&(c, hi)| u64::from(hi - c) * words as u64 * 8)
            .sum();
        solution + MaskSolver::work_bytes(u64::from(self.n_max))
    }

    /// Positions the box stores (those with `c < s`), counting every reset pair and
    /// both values of f. Cheap: use it to refuse a box too large to solve.
    pub fn stored_positions(&self) -> u64 {
        if self.validate().is_err() {
            return 0;
        }
        let per_pile = 2 * (u64::from(self.resets) + 1).pow(2);
        self.layer_bounds()
            .iter()
            .map(|&(c, hi)| u64::from(hi - c) * per_pile)
            .sum()
    }
}

/// Storage of one pile: the bit offset of the f = 1 plane, and words per pile. A
/// position `(a, b, f)` is bit `f * stride + a (R+1) + b`.
const fn storage(resets: u8) -> (usize, usize) {
    let r = resets as usize + 1;
    let rr = r * r;
    let stride = if 2 * rr <= 64 {
        rr
    } else {
        rr.div_ceil(64) * 64
    };
    (stride, (stride + rr).div_ceil(64))
}

/// The solved box: one bit per stored position, 1 = the mover wins.
#[derive(Clone, Debug)]
pub struct Solution {
    bx: SolveBox,
    /// Offset of the f = 1 plane in a pile's bits.
    stride: usize,
    /// Words per pile.
    words_per_pile: usize,
    /// Per layer (index c - c_min): highest stored pile and first word.
    layers: Vec<(u32, usize)>,
    bits: Vec<u64>,
}

impl Solution {
    /// Solve every position of `bx`.
    pub fn solve(bx: SolveBox) -> Result<Self, SolveError> {
        Self::solve_with_progress(bx, &mut |_, _| {})
    }

    /// Solve every position of `bx`, calling `progress(done, total)` (in stored
    /// positions) after each layer, for a progress bar on long solves.
    pub fn solve_with_progress(
        bx: SolveBox,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<Self, SolveError> {
        Self::solve_by(bx, progress, true)
    }

    /// Solve with the mask path when the box allows it (`masks`), else position by
    /// position.
    fn solve_by(
        bx: SolveBox,
        progress: &mut dyn FnMut(u64, u64),
        masks: bool,
    ) -> Result<Self, SolveError> {
        bx.validate()?;
        let total_positions = bx.stored_positions();
        let r = usize::from(bx.resets) + 1;
        let per_pile = 2 * r * r;
        let (stride, words_per_pile) = storage(bx.resets);
        let bounds = bx.layer_bounds();
        let mut layers = Vec::with_capacity(bounds.len());
        let mut total = 0usize;
        for &(c, hi) in &bounds {
            layers.push((hi, total));
            total += (hi - c) as usize * words_per_pile;
        }
        let mut sol = Solution {
            bx,
            stride,
            words_per_pile,
            layers,
            bits: vec![0; total],
        };
        let c_top = bounds.last().map_or(bx.c_min, |&(c, _)| c);
        let capless = CaplessTable::new(bx.init_max, bx.resets);
        let mut done = 0u64;
        let mut step = |c: u32, hi: u32| {
            done += u64::from(hi - c) * per_pile as u64;
            progress(done, total_positions);
        };
        if masks && r * r <= 64 {
            let mut masks =
                MaskSolver::new(&bx, &capless, c_top, bounds.first().map_or(0, |b| b.1));
            for (i, &(c, hi)) in bounds.iter().enumerate().rev() {
                masks.solve_layer(&mut sol, i, c, hi);
                step(c, hi);
            }
        } else {
            // `last[layer]`: the largest losing pile below the current one, 0 if none.
            let mut last = vec![0u32; per_pile];
            for (i, &(c, hi)) in bounds.iter().enumerate().rev() {
                sol.solve_layer_scalar(i, c, hi, &capless, &mut last);
                step(c, hi);
            }
        }
        Ok(sol)
    }

    /// Bit of position `(x, y, f)` within a pile.
    fn bit(&self, x: usize, y: usize, f: usize) -> usize {
        let r = usize::from(self.bx.resets) + 1;
        f * self.stride + x * r + y
    }

    /// The per-position path, for boxes whose masks do not fit a word.
    fn solve_layer_scalar(
        &mut self,
        i: usize,
        c: u32,
        hi: u32,
        capless: &CaplessTable,
        last: &mut [u32],
    ) {
        let m = self.bx.init_max;
        let r = usize::from(self.bx.resets) + 1;
        let wpp = self.words_per_pile;
        let idx = |x: usize, y: usize, f: usize| (x * r + y) * 2 + f;
        // Piles s' <= c are decided by the rules: without a pending reset the mover
        // takes everything (never losing); with one it is the capless game.
        for x in 0..r {
            for y in 0..r {
                last[idx(x, y, 0)] = 0;
                last[idx(x, y, 1)] = (1..=c)
                    .rev()
                    .find(|&s| !capless.wins(s, x as u8, y as u8))
                    .unwrap_or(0);
            }
        }
        let base = self.layers[i].1;
        let above = self.layers.get(i + 1).map(|&(_, off)| off);
        let mut word = vec![0u64; wpp];
        for s in (c + 1)..=hi {
            word.iter_mut().for_each(|w| *w = 0);
            for x in 0..r {
                for y in 0..r {
                    for f in 0..2 {
                        let limit = if f == 1 { m } else { c };
                        let lo = s - limit.min(c - 1);
                        let mut win =
                            last[idx(y, x, 0)] >= lo || (x > 0 && last[idx(y, x - 1, 1)] >= lo);
                        if !win && limit >= c {
                            // Take exactly c: the cap becomes c + 1.
                            let s2 = s - c;
                            if s2 <= c + 1 {
                                win = x > 0 && !capless.wins(s2, y as u8, (x - 1) as u8);
                            } else if let Some(off) = above {
                                let at = off + (s2 - c - 2) as usize * wpp;
                                let probe = |b: usize| self.bits[at + b / 64] >> (b % 64) & 1;
                                win = probe(self.bit(y, x, 0)) == 0
                                    || (x > 0 && probe(self.bit(y, x - 1, 1)) == 0);
                            }
                        }
                        if win {
                            let b = self.bit(x, y, f);
                            word[b / 64] |= 1 << (b % 64);
                        }
                    }
                }
            }
            let at = base + (s - c - 1) as usize * wpp;
            self.bits[at..at + wpp].copy_from_slice(&word);
            for x in 0..r {
                for y in 0..r {
                    for f in 0..2 {
                        let b = self.bit(x, y, f);
                        if word[b / 64] >> (b % 64) & 1 == 0 {
                            last[idx(x, y, f)] = s;
                        }
                    }
                }
            }
        }
    }

    /// The box this solution covers.
    pub const fn solve_box(&self) -> SolveBox {
        self.bx
    }

    /// Stored positions (see [`SolveBox::stored_positions`]).
    pub fn stored_positions(&self) -> u64 {
        self.bx.stored_positions()
    }

    /// Whether the mover wins `pos`, or `None` if `pos` lies outside the box.
    /// Positions whose cap no longer binds are answered by the rules.
    pub fn is_win(&self, pos: &Position) -> Option<bool> {
        if pos.init_max() != self.bx.init_max {
            return None;
        }
        if let Some(v) = pos.trivial_value() {
            return Some(v);
        }
        if pos.own_resets() > self.bx.resets || pos.opp_resets() > self.bx.resets {
            return None;
        }
        let c = pos.cap();
        let s = pos.stones();
        let i = c.checked_sub(self.bx.c_min)? as usize;
        let &(hi, off) = self.layers.get(i)?;
        if s > hi {
            return None;
        }
        let b = self.bit(
            usize::from(pos.own_resets()),
            usize::from(pos.opp_resets()),
            usize::from(pos.reset_pending()),
        );
        let at = off + (s - c - 1) as usize * self.words_per_pile + b / 64;
        Some(self.bits.get(at)? >> (b % 64) & 1 == 1)
    }

    /// The value of `pos` for its mover, or `None` if `pos` lies outside the box
    /// ([`Solution::is_win`] as a [`Value`]).
    pub fn value(&self, pos: &Position) -> Option<Value> {
        self.is_win(pos).map(Value::from_mover_wins)
    }

    /// The values of one layer: whether the mover wins with `own` and `opp` resets
    /// left, `pending` as f, cap `cap` and piles `cap + 1 ..= hi` (in that order).
    /// `None` if the layer is not in the box.
    pub fn layer_values(
        &self,
        cap: u32,
        own: u8,
        opp: u8,
        pending: bool,
    ) -> Option<impl Iterator<Item = bool> + '_> {
        if own > self.bx.resets || opp > self.bx.resets {
            return None;
        }
        let i = cap.checked_sub(self.bx.c_min)? as usize;
        let &(hi, off) = self.layers.get(i)?;
        let b = self.bit(usize::from(own), usize::from(opp), usize::from(pending));
        let words = self.bits.get(off..)?;
        let piles = (hi - cap) as usize;
        Some(
            words
                .chunks(self.words_per_pile)
                .take(piles)
                .map(move |w| w.get(b / 64).is_some_and(|x| x >> (b % 64) & 1 == 1)),
        )
    }

    /// The runs of every layer of cap `cap`, in key order (own resets, opponent
    /// resets, pending flag): alternating won/lost run lengths over piles
    /// `cap + 1 ..= hi`, starting with a won run (possibly empty), the last run left
    /// out (it continues to the end). `None` if the cap is not in the box.
    pub fn cap_runs(&self, cap: u32) -> Option<Vec<Vec<u32>>> {
        let i = cap.checked_sub(self.bx.c_min)? as usize;
        let &(hi, off) = self.layers.get(i)?;
        let r = usize::from(self.bx.resets) + 1;
        let wpp = self.words_per_pile;
        let piles = (hi - cap) as usize;
        let words = self.bits.get(off..off + piles * wpp)?;
        // Runs per storage bit, then put in key order.
        let mut by_bit = vec![Vec::new(); wpp * 64];
        let mut since = vec![0u32; wpp * 64];
        let mut prev = vec![!0u64; wpp];
        for (i, &now) in words.iter().enumerate() {
            let (t, w) = (i / wpp, i % wpp);
            let mut changed = now ^ prev[w];
            if changed == 0 {
                continue;
            }
            prev[w] = now;
            while changed != 0 {
                let bit = w * 64 + changed.trailing_zeros() as usize;
                changed &= changed - 1;
                by_bit[bit].push(t as u32 - since[bit]);
                since[bit] = t as u32;
            }
        }
        let mut runs = Vec::with_capacity(2 * r * r);
        for x in 0..r {
            for y in 0..r {
                for f in 0..2 {
                    runs.push(core::mem::take(&mut by_bit[self.bit(x, y, f)]));
                }
            }
        }
        Some(runs)
    }

    /// Layers of the box as `(cap, highest stored pile)`, lowest cap first.
    pub fn layers(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.layers
            .iter()
            .enumerate()
            .map(move |(i, &(hi, _))| (self.bx.c_min + i as u32, hi))
    }
}

/// The prefix and suffix ORs of the two sliding windows (the cap's, then the one
/// after a reset) at one pile, for the four lost masks: window `w`'s OR of mask `j`
/// at `[4 w + j]`. Only the last few blocks are kept, in a ring.
#[derive(Clone, Copy, Debug, Default)]
struct WindowOrs {
    pre: [u64; 8],
    suf: [u64; 8],
}

/// The mask solver: state reused from layer to layer.
///
/// Per pile it keeps four lost masks `[a-major f=0, a-major f=1, b-major f=0,
/// b-major f=1]` (bit `a (R+1) + b`, or `b (R+1) + a`) for the layer being solved
/// and the one above. The "loss among the last `w` piles" masks come from
/// sliding-window ORs: piles are cut into blocks of `w`, and a window is the suffix
/// OR of one block and the prefix OR of the next (van Herk / Gil-Werman), O(1) a
/// pile, kept in a ring of the last few blocks so that the work stays in cache.
struct MaskSolver {
    r: usize,
    init_max: u32,
    full: u64,
    /// b-major order: positions with own resets above 0 (bit index not a multiple
    /// of R + 1).
    own_nonzero_tr: u64,
    /// Lost masks of the capless game (the rules with f = 1) per pile: a-major,
    /// b-major.
    capless: Vec<[u64; 2]>,
    cur: Vec<[u64; 4]>,
    above: Vec<[u64; 4]>,
    ring: Vec<WindowOrs>,
    /// `ring.len() - 1` (a power of two minus one).
    ring_mask: usize,
    /// The two window widths and how far into its current block each is.
    width: [usize; 2],
    fill: [usize; 2],
}

impl MaskSolver {
    /// Bytes of work arrays for piles up to `n_max` (an upper bound).
    const fn work_bytes(n_max: u64) -> u64 {
        (n_max + 2) * 2 * 32 + (2 * n_max + 4) * core::mem::size_of::<WindowOrs>() as u64
    }

    fn new(bx: &SolveBox, capless: &CaplessTable, c_top: u32, max_hi: u32) -> Self {
        let r = usize::from(bx.resets) + 1;
        let rr = r * r;
        let full = if rr == 64 { !0 } else { (1u64 << rr) - 1 };
        let mut own_nonzero_tr = 0u64;
        for i in 0..rr {
            if i % r != 0 {
                own_nonzero_tr |= 1 << i;
            }
        }
        let top = c_top as usize + 2;
        let mut lost = vec![[0u64; 2]; top + 1];
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
        let len = max_hi.max(c_top + 1) as usize + 1;
        // Windows are at most c_top - 1 wide; the ring holds two blocks and more.
        let ring = (2 * c_top as usize + 2).next_power_of_two();
        MaskSolver {
            r,
            init_max: bx.init_max,
            full,
            own_nonzero_tr,
            capless: lost,
            cur: vec![[0; 4]; len],
            above: vec![[0; 4]; len],
            ring: vec![WindowOrs::default(); ring],
            ring_mask: ring - 1,
            width: [0; 2],
            fill: [0; 2],
        }
    }

    /// The rules' lost masks for pile `p <= cap`: nothing lost without a pending
    /// reset, the capless game with one.
    fn rules(&self, p: usize) -> [u64; 4] {
        let [nat, tr] = self.capless[p];
        [0, nat, 0, tr]
    }

    /// Solve cap `c` (layer `i` of `sol`, piles `c + 1 ..= hi`); the layer above
    /// must be in `self.above` (or absent: then only the rules' piles are read).
    fn solve_layer(&mut self, sol: &mut Solution, i: usize, c: u32, hi: u32) {
        let r = self.r;
        let full = self.full;
        let nz_tr = self.own_nonzero_tr;
        let c_us = c as usize;
        self.width = [c_us - 1, self.init_max.min(c - 1) as usize];
        self.fill = [0; 2];
        for p in 1..=c_us {
            self.cur[p] = self.rules(p);
            self.push(p);
        }
        // Above the top layer there is only the rules' part of cap c + 1.
        if i + 1 == sol.layers.len() {
            for p in 1..=(c_us + 1) {
                self.above[p] = self.rules(p);
            }
        }
        let cap_after_reset = self.init_max >= c;
        let (stride, wpp) = (sol.stride, sol.words_per_pile);
        let base = sol.layers[i].1;
        let mask = self.ring_mask;
        for s in (c_us + 1)..=(hi as usize) {
            let win = |w: usize| -> [u64; 4] {
                let width = self.width[w];
                if width == 0 {
                    return [0; 4];
                }
                let (a, b) = (&self.ring[(s - width) & mask], &self.ring[(s - 1) & mask]);
                core::array::from_fn(|j| a.suf[4 * w + j] | b.pre[4 * w + j])
            };
            // Losses within reach: a-major / b-major, f = 0 / 1 of the reply layer.
            let [a_n0, a_n1, a_t0, a_t1] = win(0);
            let [b_n0, b_n1, b_t0, b_t1] = win(1);
            // Taking exactly c: the opponent's position in the layer above.
            let up = self.above[s - c_us];
            let cap_nat = up[2] | ((up[3] << r) & full);
            let cap_tr = up[0] | ((up[1] << 1) & nz_tr);
            let win_nat0 = (a_t0 | ((a_t1 << r) & full) | cap_nat) & full;
            let mut win_nat1 = b_t0 | ((b_t1 << r) & full);
            let win_tr0 = a_n0 | ((a_n1 << 1) & nz_tr) | cap_tr;
            let mut win_tr1 = b_n0 | ((b_n1 << 1) & nz_tr);
            if cap_after_reset {
                win_nat1 |= cap_nat;
                win_tr1 |= cap_tr;
            }
            self.cur[s] = [
                !win_nat0 & full,
                !win_nat1 & full,
                !win_tr0 & full,
                !win_tr1 & full,
            ];
            self.push(s);
            let at = base + (s - c_us - 1) * wpp;
            if wpp == 1 {
                sol.bits[at] = win_nat0 | (win_nat1 << stride);
            } else {
                sol.bits[at] = win_nat0;
                sol.bits[at + 1] = win_nat1;
            }
        }
        core::mem::swap(&mut self.cur, &mut self.above);
    }

    /// Pile `p`'s lost masks were just set: extend both windows' ORs.
    fn push(&mut self, p: usize) {
        let mask = self.ring_mask;
        let lost = self.cur[p];
        for w in 0..2 {
            let width = self.width[w];
            if width == 0 {
                continue;
            }
            self.fill[w] += 1;
            let prev = if self.fill[w] == 1 {
                [0; 4]
            } else {
                let pre = &self.ring[(p - 1) & mask].pre;
                [pre[4 * w], pre[4 * w + 1], pre[4 * w + 2], pre[4 * w + 3]]
            };
            let slot = &mut self.ring[p & mask];
            for j in 0..4 {
                slot.pre[4 * w + j] = prev[j] | lost[j];
            }
            if self.fill[w] == width {
                let mut acc = [0u64; 4];
                for q in (p + 1 - width..=p).rev() {
                    let slot = &mut self.ring[q & mask];
                    for (j, (a, &l)) in acc.iter_mut().zip(&self.cur[q]).enumerate() {
                        *a |= l;
                        slot.suf[4 * w + j] = *a;
                    }
                }
                self.fill[w] = 0;
            }
        }
    }
}

/// The capless game (see [`Position::capless_wins`]) tabulated by a plain window DP
/// over piles, for the solver's inner loop. Beyond `M (x + y + 1)` stones nobody can
/// finish before someone runs out of resets, and the mover wins iff `x > y`.
struct CaplessTable {
    init_max: u32,
    r: usize,
    /// `wins[s * r * r + x * r + y]` for piles `1 ..= max_pile` (index 0 unused).
    wins: Vec<bool>,
    max_pile: u32,
}

impl CaplessTable {
    fn new(init_max: u32, resets: u8) -> Self {
        let r = usize::from(resets) + 1;
        let max_pile = init_max.saturating_mul(2 * u32::from(resets) + 1);
        let mut wins = vec![false; (max_pile as usize + 1) * r * r];
        // Largest losing pile so far per (x, y).
        let mut last = vec![0u32; r * r];
        for s in 1..=max_pile {
            for x in 0..r {
                for y in 0..r {
                    let w = s <= init_max
                        || (x > 0 && {
                            let lo = s.saturating_sub(init_max).max(1);
                            last[y * r + x - 1] >= lo
                        });
                    wins[s as usize * r * r + x * r + y] = w;
                }
            }
            for (xy, l) in last.iter_mut().enumerate() {
                if !wins[s as usize * r * r + xy] {
                    *l = s;
                }
            }
        }
        CaplessTable {
            init_max,
            r,
            wins,
            max_pile,
        }
    }

    fn wins(&self, s: u32, x: u8, y: u8) -> bool {
        if s <= self.init_max {
            return true;
        }
        if s > self.max_pile {
            return x > y;
        }
        self.wins[s as usize * self.r * self.r + usize::from(x) * self.r + usize::from(y)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capless_table_matches_interval_evaluation() {
        for m in 1..=6 {
            for r in 0..=5u8 {
                let t = CaplessTable::new(m, r);
                for s in 1..=(m * (2 * u32::from(r) + 3)) {
                    for x in 0..=r {
                        for y in 0..=r {
                            assert_eq!(
                                t.wins(s, x, y),
                                Position::capless_wins(s, x, y, m),
                                "s={s} x={x} y={y} m={m}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn mask_path_equals_the_position_path() {
        let boxes = [
            SolveBox::games(300, 0, 1),
            SolveBox::games(400, 2, 3),
            SolveBox::games(999, 4, 3),
            SolveBox::games(500, 5, 4),
            SolveBox::games(300, 7, 2),
            SolveBox::games(200, 3, 7),
            SolveBox {
                n_max: 250,
                resets: 3,
                init_max: 3,
                c_min: 9,
            },
        ];
        for bx in boxes {
            let fast = Solution::solve_by(bx, &mut |_, _| {}, true).unwrap();
            let slow = Solution::solve_by(bx, &mut |_, _| {}, false).unwrap();
            assert_eq!(fast.bits, slow.bits, "{bx:?}");
        }
    }

    #[test]
    fn box_sizes_for_the_tournament() {
        let bx = SolveBox::games(999, 4, 3);
        let layers = bx.layer_bounds();
        // Caps 3..=44 are reachable with 999 stones (3 + 4 + ... + 43 = 943 <= 998).
        assert_eq!(layers.first(), Some(&(3, 999)));
        assert_eq!(layers.last().map(|l| l.0), Some(44));
        assert!(bx.stored_positions() > 1_000_000);
    }
}
