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
//! # The recurrence, O(1) per position
//! Takes below the cap keep the cap, so from `(s, c, a, b, f)` they lead into two
//! fixed *layers* at the same `c`: `(c, b, a, 0)` without a reset and `(c, b, a-1, 1)`
//! with one. Solving `s` upward while remembering, per layer, the largest losing pile
//! seen so far turns "is there a losing reply among the next w piles" into one
//! comparison. The only other move, taking exactly `c` when the limit allows it, raises
//! the cap to `c + 1`: one look-up in the layer above, which is solved first.

use alloc::vec;
use alloc::vec::Vec;

use crate::rules::{Position, MAX_RESETS, MAX_STONES};

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
        let mut out = Vec::new();
        let mut c = u64::from(self.c_min);
        let mut hi = u64::from(self.n_max);
        while hi > c {
            // Stored piles for cap c are c+1 ..= hi.
            out.push((c as u32, hi as u32));
            hi -= c.min(hi);
            c += 1;
        }
        out
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

/// The solved box: one bit per stored position, 1 = the mover wins.
#[derive(Clone, Debug)]
pub struct Solution {
    bx: SolveBox,
    /// Bits per pile: 2 (R+1)^2, rounded up to whole words.
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
        bx.validate()?;
        let total_positions = bx.stored_positions();
        let r = usize::from(bx.resets) + 1;
        let per_pile = 2 * r * r;
        let words_per_pile = per_pile.div_ceil(64);
        let bounds = bx.layer_bounds();
        let mut layers = Vec::with_capacity(bounds.len());
        let mut total = 0usize;
        for &(c, hi) in &bounds {
            layers.push((hi, total));
            total += (hi - c) as usize * words_per_pile;
        }
        let mut sol = Solution {
            bx,
            words_per_pile,
            layers,
            bits: vec![0; total],
        };
        let capless = CaplessTable::new(bx.init_max, bx.resets);
        // `last[layer]`: the largest losing pile below the current one, 0 if none.
        let mut last = vec![0u32; per_pile];
        let mut done = 0u64;
        for (i, &(c, hi)) in bounds.iter().enumerate().rev() {
            sol.solve_layer(i, c, hi, &capless, &mut last);
            done += u64::from(hi - c) * per_pile as u64;
            progress(done, total_positions);
        }
        Ok(sol)
    }

    fn solve_layer(&mut self, i: usize, c: u32, hi: u32, capless: &CaplessTable, last: &mut [u32]) {
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
                                win = probe(idx(y, x, 0)) == 0
                                    || (x > 0 && probe(idx(y, x - 1, 1)) == 0);
                            }
                        }
                        if win {
                            let b = idx(x, y, f);
                            word[b / 64] |= 1 << (b % 64);
                        }
                    }
                }
            }
            let at = base + (s - c - 1) as usize * wpp;
            self.bits[at..at + wpp].copy_from_slice(&word);
            for (b, l) in last.iter_mut().enumerate() {
                if word[b / 64] >> (b % 64) & 1 == 0 {
                    *l = s;
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
        let r = usize::from(self.bx.resets) + 1;
        let b = (usize::from(pos.own_resets()) * r + usize::from(pos.opp_resets())) * 2
            + usize::from(pos.reset_pending());
        let at = off + (s - c - 1) as usize * self.words_per_pile + b / 64;
        Some(self.bits.get(at)? >> (b % 64) & 1 == 1)
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
        let r = usize::from(self.bx.resets) + 1;
        let b = (usize::from(own) * r + usize::from(opp)) * 2 + usize::from(pending);
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
        let keys = 2 * r * r;
        let wpp = self.words_per_pile;
        let piles = (hi - cap) as usize;
        let words = self.bits.get(off..off + piles * wpp)?;
        let mut runs = vec![Vec::new(); keys];
        // Per key: where the current run started, and the value it has.
        let mut since = vec![0u32; keys];
        let mut prev = vec![!0u64; wpp];
        for (t, pile) in words.chunks(wpp).enumerate() {
            for (w, (&now, before)) in pile.iter().zip(prev.iter_mut()).enumerate() {
                let mut changed = now ^ *before;
                *before = now;
                while changed != 0 {
                    let bit = changed.trailing_zeros() as usize;
                    changed &= changed - 1;
                    let k = w * 64 + bit;
                    if let (Some(list), Some(s)) = (runs.get_mut(k), since.get_mut(k)) {
                        list.push(t as u32 - *s);
                        *s = t as u32;
                    }
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
    fn box_sizes_for_the_tournament() {
        let bx = SolveBox::games(999, 4, 3);
        let layers = bx.layer_bounds();
        // Caps 3..=44 are reachable with 999 stones (3 + 4 + ... + 43 = 943 <= 998).
        assert_eq!(layers.first(), Some(&(3, 999)));
        assert_eq!(layers.last().map(|l| l.0), Some(44));
        assert!(bx.stored_positions() > 1_000_000);
    }
}
