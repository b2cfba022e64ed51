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
//! The solver ([`solve_windowed`], the `windowed` module) keeps, per pile, the lost
//! positions of all `(a, b)` pairs as one bit mask per value of f, in two bit
//! orders (`a` major and `b` major), so that "the layer with the resets swapped" is
//! a plain bit position and the reset move is a shift. The "a loss among the last
//! `w` piles" masks come from sliding-window ORs (prefix and suffix ORs of blocks of
//! `w` piles, O(1) a pile). A pile of all `2 (R+1)^2` positions costs a few dozen
//! word operations. Boxes with more than 7 resets, whose masks would not fit a
//! word, take the per-position path ([`ScalarCap`]), which is also the reference
//! the masks are tested against. [`Solution::solve`] is that solver with every
//! pile kept.
//!
//! # No panics
//! Small programs (the tiny binary) solve on a bounded heap and link only if no
//! panic is reachable, so a failed allocation is [`SolveError::OutOfMemory`] (every
//! array is reserved with `try_reserve_exact` and only then filled) and the inner
//! loops read their arrays with `get`: an index out of range would be a bug of this
//! module, and reads as "no loss there" instead of aborting.

use alloc::vec::Vec;

// The writing side of the table's format lives here, beside the solver it codes:
// the bit writer, the cap coder (solutions kept coded in memory) and the table
// writer (feature `encode`). The reader (the core's `nimbot::table`) imports none
// of it: this crate depends on the core, never the other way. The crate's root
// re-exports each public name from the file that defines it; the files below
// import what they share from `base` and `scalar`, never from this file.
pub(crate) mod base;
mod bits;
pub(crate) mod code;
#[cfg(feature = "encode")]
pub(crate) mod encode;
mod scalar;
pub(crate) mod windowed;

use base::{filled, storage, SolveBox, SolveError};
use code::CodedSolution;
use nimbot::table::Layout;
use nimbot::{DecideError, Position, Value};
use scalar::{CaplessTable, ScalarCap};
use windowed::{solve_windowed, PileSink};

/// One solution kept for the next question, and a memory budget: a box is solved
/// only when the kept solution does not answer, and only if it fits the budget
/// ([`SolveBox::memory_bytes`]). What every solving engine shares (the host's
/// `engine::SolvingEngine`, the tiny binary's). The solution is kept coded
/// ([`CodedSolution`]): the windowed solver makes it in memory that grows with N.
#[derive(Debug)]
pub struct SolutionCache {
    budget: u64,
    solution: Option<CodedSolution>,
}

impl SolutionCache {
    /// An empty cache that refuses boxes needing more than `budget` bytes.
    pub const fn new(budget: u64) -> Self {
        SolutionCache {
            budget,
            solution: None,
        }
    }

    /// The kept solution, if any.
    pub fn get(&self) -> Option<&CodedSolution> {
        self.solution.as_ref()
    }

    /// A solution that answers `pos` (or, without a position, the solution of `bx`
    /// itself): the kept one if it does, else a solution of `bx`, which replaces it.
    ///
    /// # Errors
    /// [`DecideError::TooLarge`] if `bx` needs more memory than the budget, or the
    /// solver's error ([`SolveError`]) as a [`DecideError`].
    pub fn ensure(
        &mut self,
        bx: SolveBox,
        pos: Option<&Position>,
    ) -> Result<&CodedSolution, DecideError> {
        let covered = match (&self.solution, pos) {
            (Some(sol), Some(p)) => sol.value(p).is_some(),
            (Some(sol), None) => sol.solve_box() == bx,
            (None, _) => false,
        };
        if !covered {
            if bx.memory_bytes() > self.budget {
                return Err(DecideError::TooLarge);
            }
            // The old solution goes first, so that its memory can be reused.
            self.solution = None;
            self.solution = Some(CodedSolution::solve(bx)?);
        }
        self.solution.as_ref().ok_or(DecideError::OutOfRange)
    }
}

/// What a solve needs in memory, by solver (the windowed solver's and the coder's
/// own estimates: this file is their parent).
impl SolveBox {
    /// Bytes a coded solve of this box ([`CodedSolution::solve`], what the
    /// solving engines keep) takes at its peak: the windowed solver's work
    /// ([`SolveBox::windowed_bytes`]), the coder's arrays, and an allowance for
    /// the coded caps and the tokens of the cap being coded (16 bytes a layer and
    /// one byte per 8 piles of N: 1.2 MB for N <= 1,000,000, R = 4, which codes
    /// to 175 KB). It grows with N, not with the stored positions. Cheap: use it
    /// to refuse a box too large before solving it.
    pub fn memory_bytes(&self) -> u64 {
        if self.validate().is_err() {
            return 0;
        }
        let layers = self.layer_bounds().count() as u64 * Layout::keys_per_cap(self.resets) as u64;
        self.windowed_bytes() + code::fixed_bytes(self) + layers * 16 + u64::from(self.n_max) / 8
    }

    /// Bytes the full [`Solution::solve`] takes at its peak: the solution's bit
    /// array (kept, one bit a stored position) plus the solver's per-pile work
    /// arrays.
    pub fn full_bytes(&self) -> u64 {
        if self.validate().is_err() {
            return 0;
        }
        let (_, words) = storage(self.resets);
        let solution: u64 = self
            .layer_bounds()
            .map(|(c, hi)| u64::from(hi - c) * words as u64 * 8)
            .sum();
        solution + windowed::work_bytes(self)
    }

    /// Bytes [`solve_windowed`] takes at its peak for this box, besides what its
    /// sink keeps: a few words per pile of the largest pile N and a ring of
    /// `4 c_top` piles, so it grows with N where [`SolveBox::memory_bytes`] grows
    /// with the N^1.5 stored positions. Cheap, computed before anything is
    /// allocated.
    pub fn windowed_bytes(&self) -> u64 {
        if self.validate().is_err() {
            return 0;
        }
        windowed::work_bytes(self)
    }
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

    /// Solve with the windowed solver (`masks`), or position by position (the
    /// reference it is tested against).
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
        let mut layers = filled(bx.layer_bounds().count(), (0u32, 0usize))?;
        let mut total = 0usize;
        for ((c, hi), layer) in bx.layer_bounds().zip(layers.iter_mut()) {
            *layer = (hi, total);
            total = ((hi - c) as usize)
                .checked_mul(words_per_pile)
                .and_then(|words| total.checked_add(words))
                .ok_or(SolveError::OutOfMemory)?;
        }
        let mut sol = Solution {
            bx,
            stride,
            words_per_pile,
            layers,
            bits: filled(total, 0)?,
        };
        if masks {
            // The windowed solver, its piles stored as they come.
            solve_windowed(bx, &mut sol, progress)?;
            return Ok(sol);
        }
        let c_top = bx.c_min + (sol.layers.len() as u32).saturating_sub(1);
        let capless = CaplessTable::new(bx.init_max, bx.resets, c_top + 2)?;
        let mut last = filled(per_pile, 0u32)?;
        let mut done = 0u64;
        for i in (0..sol.layers.len()).rev() {
            let (c, hi) = sol.layer(i);
            let base = sol.layers.get(i).map_or(0, |l| l.1);
            let above = sol.layers.get(i + 1).map(|&(_, off)| off);
            let (lower, upper) = sol.bits.split_at_mut(above.unwrap_or(total).min(total));
            let cur = lower.get_mut(base..).unwrap_or(&mut []);
            let cap = ScalarCap {
                bx: &bx,
                capless: &capless,
                c,
                hi,
            };
            cap.solve(&mut last, cur, above.map(|_| &*upper));
            done += u64::from(hi - c) * per_pile as u64;
            progress(done, total_positions);
        }
        Ok(sol)
    }

    /// Cap and highest stored pile of layer `i` (`(c_min + i, 0)` past the end).
    fn layer(&self, i: usize) -> (u32, u32) {
        let c = self.bx.c_min + i as u32;
        (c, self.layers.get(i).map_or(0, |l| l.0))
    }

    /// Bit of position `(x, y, f)` within a pile.
    fn bit(&self, x: usize, y: usize, f: usize) -> usize {
        let r = usize::from(self.bx.resets) + 1;
        f * self.stride + x * r + y
    }

    /// The box this solution covers.
    pub const fn solve_box(&self) -> SolveBox {
        self.bx
    }

    /// Stored positions (see [`SolveBox::stored_positions`]).
    pub fn stored_positions(&self) -> u64 {
        self.bx.stored_positions()
    }

    /// The value of `pos` for its mover, or `None` if `pos` lies outside the box.
    /// Positions whose cap no longer binds are answered by the rules.
    pub fn value(&self, pos: &Position) -> Option<Value> {
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
        Some(Value::from_mover_wins(
            self.bits.get(at)? >> (b % 64) & 1 == 1,
        ))
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
                .chunks(self.words_per_pile.max(1))
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
        let mut by_bit = alloc::vec![Vec::new(); wpp * 64];
        let mut since = alloc::vec![0u32; wpp * 64];
        let mut prev = alloc::vec![!0u64; wpp];
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

/// The piles of a [`Solution`] as the windowed solver hands them over.
impl PileSink for Solution {
    fn piles(&mut self, cap: u32, first: u32, words: &[u64]) -> Result<(), SolveError> {
        let i = cap
            .checked_sub(self.bx.c_min)
            .ok_or(SolveError::BadParams)? as usize;
        let &(_, off) = self.layers.get(i).ok_or(SolveError::BadParams)?;
        let at = off + first.saturating_sub(cap + 1) as usize * self.words_per_pile;
        let to = self
            .bits
            .get_mut(at..at + words.len())
            .ok_or(SolveError::BadParams)?;
        to.copy_from_slice(words);
        Ok(())
    }

    fn cap_done(&mut self, _: u32) -> Result<(), SolveError> {
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::base::Layers;
    use super::*;
    use nimbot::MAX_STONES;

    /// The caps of the default table's box, as the core's geometry counts them.
    #[test]
    fn caps_of_the_default_box() {
        let caps: Vec<_> = Layers::new(999, 3).collect();
        assert_eq!(caps.first(), Some(&(3, 999)));
        // 3 + 4 + ... + 43 = 943 stones leave 56 > 44 for cap 44; cap 45 has none.
        assert_eq!(caps.last(), Some(&(44, 56)));
        for &(c, hi) in &caps {
            assert_eq!(Layout::highest_pile(999, 3, c), Some(hi));
        }
    }

    #[test]
    fn the_cache_keeps_a_solution_while_it_answers_and_keeps_to_its_budget() {
        let small = SolveBox::games(30, 1, 3);
        let inside = Position::new(20, 3, 1, 0, false, 3).unwrap();
        let beyond = Position::new(200, 3, 1, 0, false, 3).unwrap();
        let mut cache = SolutionCache::new(small.memory_bytes());
        assert!(cache.get().is_none());
        let first: *const CodedSolution = cache.ensure(small, None).unwrap();
        // A position the kept solution answers is answered by it, whatever box is asked.
        let again: *const CodedSolution = cache
            .ensure(SolveBox::around(&inside), Some(&inside))
            .unwrap();
        assert_eq!(first, again);
        assert_eq!(cache.get().unwrap().solve_box(), small);
        // One it does not answer needs a bigger box, over the budget: refused, and the
        // kept solution stays.
        let big = SolveBox::around(&beyond);
        assert!(big.memory_bytes() > small.memory_bytes());
        assert_eq!(
            cache.ensure(big, Some(&beyond)).err(),
            Some(DecideError::TooLarge)
        );
        assert_eq!(cache.get().unwrap().solve_box(), small);
        // Within a budget that fits, it is solved and replaces the kept one.
        let mut roomy = SolutionCache::new(big.memory_bytes());
        let sol = roomy.ensure(big, Some(&beyond)).unwrap();
        assert!(sol.value(&beyond).is_some());
    }

    #[test]
    fn capless_table_matches_interval_evaluation() {
        for m in 1..=6 {
            for r in 0..=5u8 {
                let t = CaplessTable::new(m, r, m * (2 * u32::from(r) + 1)).unwrap();
                let short = CaplessTable::new(m, r, m + 2).unwrap();
                for s in 1..=(m * (2 * u32::from(r) + 3)) {
                    for x in 0..=r {
                        for y in 0..=r {
                            assert_eq!(
                                t.wins(s, x, y),
                                Position::capless_wins(s, x, y, m),
                                "s={s} x={x} y={y} m={m}"
                            );
                            assert_eq!(t.wins(s, x, y), short.wins(s, x, y));
                        }
                    }
                }
            }
        }
    }

    /// Boxes of every shape the solver's tests want: no resets, M = 1, the
    /// tournament's, more resets than it, a large M, and one whose caps start above M.
    pub(crate) const SAMPLE_BOXES: [SolveBox; 7] = [
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

    /// Both paths give the same bits, and each reports progress that never goes
    /// back and ends at every stored position.
    #[test]
    fn mask_path_equals_the_position_path() {
        for bx in SAMPLE_BOXES {
            let [fast, slow] = [true, false].map(|masks| {
                let mut seen = Vec::new();
                let sol = Solution::solve_by(bx, &mut |done, _| seen.push(done), masks).unwrap();
                assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{bx:?}: {seen:?}");
                assert_eq!(seen.last(), Some(&bx.stored_positions()), "{bx:?}");
                sol
            });
            assert_eq!(fast.bits, slow.bits, "{bx:?}");
        }
    }

    #[test]
    fn a_box_without_stones_or_without_m_or_past_the_largest_pile_is_refused() {
        for bx in [
            SolveBox::games(0, 1, 3),
            SolveBox::games(MAX_STONES + 1, 1, 3),
            SolveBox::games(10, 1, 0),
        ] {
            assert_eq!(
                Solution::solve(bx).err(),
                Some(SolveError::BadParams),
                "{bx:?}"
            );
            assert_eq!(bx.memory_bytes(), 0, "{bx:?}");
        }
        assert!(Solution::solve(SolveBox::games(MAX_STONES.min(10), 1, 3)).is_ok());
    }

    /// A solution answers only inside its box: a side with more resets than the box
    /// has is outside it; and a layer's values are its piles' values, one a pile.
    #[test]
    fn a_solution_answers_inside_its_box_and_its_layers_read_pile_by_pile() {
        let (r, m) = (2u8, 3);
        let sol = Solution::solve(SolveBox::games(300, r, m)).unwrap();
        for (a, b) in [(3, 0), (0, 3), (3, 3)] {
            let pos = Position::new(100, 5, a, b, false, m).unwrap();
            assert_eq!(sol.value(&pos), None, "{pos}");
            assert!(sol.layer_values(5, a, b, false).is_none());
        }
        let mut piles = 0;
        for (c, hi) in sol.layers() {
            for a in 0..=r {
                for b in 0..=r {
                    for f in [false, true] {
                        let got: Vec<bool> = sol.layer_values(c, a, b, f).unwrap().collect();
                        let want: Vec<bool> = (c + 1..=hi)
                            .map(|s| {
                                let pos = Position::new(s, c, a, b, f, m).unwrap();
                                sol.value(&pos).unwrap().is_won()
                            })
                            .collect();
                        assert_eq!(got, want, "cap {c}, {a} {b} {f}");
                        piles += got.len();
                    }
                }
            }
        }
        assert!(piles > 10_000, "{piles}");
    }

    #[test]
    fn box_sizes_for_the_tournament() {
        let bx = SolveBox::games(999, 4, 3);
        let layers: Vec<_> = bx.layer_bounds().collect();
        // Caps 3..=44 are reachable with 999 stones (3 + 4 + ... + 43 = 943 <= 998).
        assert_eq!(layers.first(), Some(&(3, 999)));
        assert_eq!(layers.last().map(|l| l.0), Some(44));
        assert!(bx.stored_positions() > 1_000_000);
    }
}
