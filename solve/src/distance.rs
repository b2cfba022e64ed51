//! Distance to the end: how many plies a game lasts from a position when the winner
//! finishes as fast as it can and the loser holds out as long as it can (the
//! "remoteness" of Gamesman solvers, the "longest resistance" of endgame tables).
//! Host and tiny binary only (`alloc`): two bytes per position of a box. It powers
//! [`Policy::Longest`] ([`longest_move`](crate::policy::longest_move)), the fastest
//! win and the distances of a root probe ([`crate::probe`]).
//!
//! # The recurrence
//! A position whose limit reaches the pile is 1 ply from the end. Otherwise its
//! distance is one more than the least distance among its successors that are lost
//! for their mover, if there is one (the mover wins: it hurries), else one more than
//! the greatest distance among all its successors (the mover loses: it holds out).
//! So the mover wins exactly when its distance is odd (it makes the last ply): the
//! distances carry the values too, and nothing here reads the solver's bits. The
//! tests check that parity against the solver on whole boxes, and the distances
//! against a raw minimax.
//!
//! # Layout and cost
//! As in the solver, takes below the cap lead into two layers of the same cap, at
//! the last `w` piles below (`w = c - 1`, or `min(M, c - 1)` after a reset), and a
//! layer's piles are contiguous here: a position reads two short slices and, for
//! taking exactly the cap, one entry of the cap above. Positions whose cap no
//! longer binds form one more block in front, piles from 1 (those right after a
//! reset are the "capless" game; the others end in 1 ply), so a window that reaches
//! below the cap reads a slice there. The cost is about `w` reads a position: the
//! box of N <= 999, R = 4 (1,345,400 positions) in a few tens of milliseconds.
//!
//! # No panics
//! Every array is reserved fallibly ([`SolveError::OutOfMemory`]), reads go
//! through `get`, and a distance above [`MAX_DISTANCE`] is
//! [`SolveError::TooLong`], never a wrapped number.
//!
//! [`Policy::Longest`]: crate::Policy::Longest

use alloc::vec::Vec;

use crate::solver::base::{filled, SolveBox, SolveError};
use nimbot::table::Layout;
use nimbot::Position;

/// The largest distance [`Distances`] keeps (two bytes a position).
pub const MAX_DISTANCE: u16 = u16::MAX - 1;

/// Plies to the end for every position of a box, and for the open-cap positions
/// its moves reach.
#[derive(Clone, Debug)]
pub struct Distances {
    bx: SolveBox,
    /// The open-cap block's piles (`1 ..= open`): one more than the top cap.
    open: u32,
    /// Where each cap's layers start in `dist` (cap `c_min + i` at `first[i]`), and
    /// one more entry for the end. A cap's layers take `keys * (hi - c)` entries,
    /// layer by layer in key order, piles `c + 1 ..= hi`.
    first: Vec<usize>,
    /// The open-cap block (layer by layer, piles `1 ..= open`), then the caps.
    dist: Vec<u16>,
}

impl Distances {
    /// Distances for every position of `bx` (the box [`Solution::solve`](crate::solver::Solution::solve) would
    /// solve), computed from the rules alone.
    ///
    /// # Errors
    /// What [`Solution::solve`](crate::solver::Solution::solve) refuses, [`SolveError::OutOfMemory`] if the
    /// allocator refuses the memory (see [`Distances::memory_bytes`]) and
    /// [`SolveError::TooLong`] if a distance exceeds [`MAX_DISTANCE`].
    pub fn solve(bx: SolveBox) -> Result<Self, SolveError> {
        let (open, first, total) = Self::layout(bx)?;
        let mut d = Distances {
            bx,
            open,
            first,
            dist: filled(total, 0)?,
        };
        // The open caps first (their piles only shrink), then the caps from the top
        // (a move keeps the cap or raises it), piles upward.
        // (Block usize::MAX is the open caps: its end is the first cap's start.)
        let caps = d.first.len().saturating_sub(1);
        for block in core::iter::once(usize::MAX).chain((0..caps).rev()) {
            d.solve_block(block)?;
        }
        Ok(d)
    }

    /// The open-cap block's piles, where each cap's layers start, and the number of
    /// entries of `bx`.
    fn layout(bx: SolveBox) -> Result<(u32, Vec<usize>, usize), SolveError> {
        bx.validate()?;
        let keys = Layout::keys_per_cap(bx.resets);
        let caps = bx.layer_bounds().count();
        let open = bx.c_min + caps as u32;
        let mut first = filled(caps + 1, 0usize)?;
        let mut total = open as usize * keys;
        for ((c, hi), slot) in bx.layer_bounds().zip(first.iter_mut()) {
            *slot = total;
            total = ((hi - c) as usize)
                .checked_mul(keys)
                .and_then(|n| total.checked_add(n))
                .ok_or(SolveError::OutOfMemory)?;
        }
        if let Some(end) = first.last_mut() {
            *end = total;
        }
        Ok((open, first, total))
    }

    /// Every stored distance, in the order [`Distances::from_entries`] takes them
    /// back: the open-cap block, then the caps from the lowest, each layer by layer
    /// (own resets, then the opponent's, then the pending flag, ascending), piles
    /// ascending. To keep distances made once (the browser's site ships those of
    /// its table's box rather than solving them on every load).
    pub fn entries(&self) -> &[u16] {
        &self.dist
    }

    /// Distances of `bx` from its [`Distances::entries`], as they were made.
    /// Nothing checks that they are the box's distances: keep them with a
    /// checksum, or compare them with [`Distances::solve`].
    ///
    /// # Errors
    /// What [`Distances::solve`] refuses of `bx`, and [`SolveError::BadParams`]
    /// if `entries` is not as long as `bx` needs.
    pub fn from_entries(bx: SolveBox, entries: Vec<u16>) -> Result<Self, SolveError> {
        let (open, first, total) = Self::layout(bx)?;
        if entries.len() != total {
            return Err(SolveError::BadParams);
        }
        Ok(Distances {
            bx,
            open,
            first,
            dist: entries,
        })
    }

    /// Bytes [`Distances::solve`] takes for `bx` (two per stored position and per
    /// open-cap one): check it before solving a large box.
    pub fn memory_bytes(bx: &SolveBox) -> u64 {
        let keys = Layout::keys_per_cap(bx.resets) as u64;
        let open = u64::from(bx.c_min) + bx.layer_bounds().count() as u64;
        (bx.stored_positions() + open * keys) * 2
    }

    /// The box these distances cover.
    pub const fn solve_box(&self) -> SolveBox {
        self.bx
    }

    /// Plies to the end from `pos` (the move that empties the pile counts 1), or
    /// `None` outside the box. Odd: the mover wins; even: it loses.
    pub fn get(&self, pos: &Position) -> Option<u16> {
        if pos.stones() <= pos.limit() {
            return Some(1);
        }
        self.lookup(pos)
    }

    /// Whether `pos` lies in the box (and with it every position it leads to).
    pub fn covers(&self, pos: &Position) -> bool {
        self.lookup(pos).is_some()
    }

    fn lookup(&self, pos: &Position) -> Option<u16> {
        let (s, c, own, opp) = (pos.stones(), pos.cap(), pos.own_resets(), pos.opp_resets());
        if pos.init_max() != self.bx.init_max || own.max(opp) > self.bx.resets || c < self.bx.c_min
        {
            return None;
        }
        let key = Layout::key(self.bx.resets, own, opp, pos.reset_pending());
        if c >= s {
            // The cap no longer binds: with no pending reset the mover takes all.
            if !pos.reset_pending() {
                return Some(1);
            }
            return self
                .layer(usize::MAX, key)?
                .get(s.checked_sub(1)? as usize)
                .copied();
        }
        let i = (c - self.bx.c_min) as usize;
        self.layer(i, key)?.get((s - c - 1) as usize).copied()
    }

    /// The cap of block `i` (`usize::MAX`: the open caps) and its layers' range.
    fn block(&self, i: usize) -> Option<(u32, usize, usize)> {
        let keys = Layout::keys_per_cap(self.bx.resets);
        let start = match i {
            usize::MAX => 0,
            _ => *self.first.get(i)?,
        };
        let end = *self.first.get(i.wrapping_add(1))?;
        let cap = match i {
            usize::MAX => self.open,
            _ => self.bx.c_min + i as u32,
        };
        Some((cap, start, (end - start) / keys))
    }

    /// Layer `key` of block `i`: its piles from the lowest.
    fn layer(&self, i: usize, key: usize) -> Option<&[u16]> {
        let (_, start, piles) = self.block(i)?;
        self.dist
            .get(start + key * piles..start + (key + 1) * piles)
    }

    /// Solve block `i` pile by pile, every layer of a pile from lower piles (of
    /// this block and the open one) and the cap above.
    fn solve_block(&mut self, i: usize) -> Result<(), SolveError> {
        let (Some((c, start, piles)), Some((_, open_start, open_piles))) =
            (self.block(i), self.block(usize::MAX))
        else {
            return Ok(());
        };
        let (above_start, above_piles) =
            self.block(i.wrapping_add(1)).map_or((0, 0), |b| (b.1, b.2));
        let is_open = i == usize::MAX;
        let lowest = if is_open { 1 } else { c + 1 };
        let (m, resets) = (self.bx.init_max, self.bx.resets);
        let r = usize::from(resets) + 1;
        let dist = &mut self.dist;
        // Piles `from .. to` (from the block's lowest pile) of layer `key` of the
        // block at `start` with `piles` piles.
        let slice =
            |dist: &[u16], (start, piles): (usize, usize), key: usize, from: u32, to: u32| {
                let at = start + key * piles;
                dist.get(at + from as usize..at + (to as usize).min(piles))
                    .unwrap_or(&[])
                    .iter()
                    .fold((u16::MAX, 0u16), |(lost, all), &d| {
                        // Odd (won for its mover) never counts as lost: it becomes MAX.
                        (lost.min(d | (d & 1).wrapping_neg()), all.max(d))
                    })
            };
        for (s, at) in (lowest..).zip(0..piles) {
            for key in 0..2 * r * r {
                let (a, b, f) = ((key / 2 / r) as u8, (key / 2 % r) as u8, key % 2 == 1);
                let limit = if f { m } else { c };
                let mut best = Best::new();
                if limit < s {
                    // Takes below the cap: the opponent's two layers, over the window
                    // (its piles up to the cap in the open block); taking the cap: the
                    // same layers of the cap above.
                    let lo = s - limit.min(c - 1);
                    // The opponent's layer without a reset, then (one key lower) with one.
                    let nat = Layout::key(resets, b, a, false);
                    for layer in (nat - usize::from(a > 0))..=nat {
                        let open = (open_start, open_piles);
                        best.merge(slice(dist, open, layer, lo - 1, c.min(s - 1)));
                        if !is_open && s > c + 1 {
                            let from = lo.max(c + 1) - c - 1;
                            best.merge(slice(dist, (start, piles), layer, from, s - c - 1));
                        }
                        // Taking exactly the cap, when the limit allows it.
                        if limit >= c {
                            let s2 = s - c;
                            let d = if s2 > c + 1 {
                                let at = above_start + layer * above_piles + (s2 - c - 2) as usize;
                                dist.get(at).copied().unwrap_or(0)
                            } else if layer != nat {
                                let at = open_start + layer * open_piles + (s2 - 1) as usize;
                                dist.get(at).copied().unwrap_or(0)
                            } else {
                                1
                            };
                            best.merge((d | (d & 1).wrapping_neg(), d));
                        }
                    }
                } else {
                    // The mover takes the whole pile.
                    best.merge((0, 0));
                }
                let d = best.distance()?;
                if let Some(slot) = dist.get_mut(start + key * piles + at) {
                    *slot = d;
                }
            }
        }
        Ok(())
    }
}

/// The distances of one box, made when first asked for and kept for the next
/// question: how the engines with the solver answer distances.
#[derive(Clone, Debug, Default)]
pub struct DistanceCache {
    kept: Option<Distances>,
}

impl DistanceCache {
    /// An empty cache.
    pub const fn new() -> Self {
        DistanceCache { kept: None }
    }

    /// Distances that cover `pos`: the kept ones if they do, else those of `bx`
    /// (which must hold `pos`), made now in place of the kept ones, if
    /// [`Distances::memory_bytes`] of `bx` is within `budget` and they can be made.
    pub fn covering(&mut self, pos: &Position, bx: SolveBox, budget: u64) -> Option<&Distances> {
        if !self.kept.as_ref().is_some_and(|d| d.covers(pos)) {
            // The old distances go first, so that their memory can be reused.
            self.kept = None;
            if Distances::memory_bytes(&bx) > budget {
                return None;
            }
            self.kept = Distances::solve(bx).ok();
        }
        self.kept.as_ref().filter(|d| d.covers(pos))
    }

    /// The distance of `pos` (see [`DistanceCache::covering`]); 1 without any
    /// solving when the mover can take the whole pile.
    pub fn get(&mut self, pos: &Position, bx: SolveBox, budget: u64) -> Option<u16> {
        if pos.stones() <= pos.limit() {
            return Some(1);
        }
        self.covering(pos, bx, budget)?.get(pos)
    }
}

/// The best successor seen so far: the least distance of a lost one (the mover
/// wins through it; `u16::MAX` for none yet) and the greatest of all.
struct Best {
    lost: u16,
    all: u16,
}

impl Best {
    const fn new() -> Self {
        Best {
            lost: u16::MAX,
            all: 0,
        }
    }

    /// Take in `(least lost, greatest)` of some successors.
    fn merge(&mut self, (lost, all): (u16, u16)) {
        self.lost = self.lost.min(lost);
        self.all = self.all.max(all);
    }

    /// One more than the best successor: the winner's fastest, the loser's longest.
    fn distance(&self) -> Result<u16, SolveError> {
        let d = if self.lost == u16::MAX {
            self.all
        } else {
            self.lost
        };
        if d >= MAX_DISTANCE {
            return Err(SolveError::TooLong);
        }
        Ok(d + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::tests::SAMPLE_BOXES;
    use crate::solver::Solution;

    /// Distances to the end (a separate retrograde pass) against the solver's values:
    /// a position is won exactly when its distance is odd (the mover makes the last
    /// move). Beyond the box, no distance rather than a wrong one.
    #[test]
    fn distance_parity_is_the_value_on_whole_boxes() {
        for bx in SAMPLE_BOXES {
            let sol = Solution::solve(bx).unwrap();
            let dist = Distances::solve(bx).unwrap();
            let mut checked = 0u64;
            for (c, hi) in sol.layers() {
                for s in 1..=hi {
                    for a in 0..=bx.resets {
                        for b in 0..=bx.resets {
                            for f in [false, true] {
                                let pos = Position::new(s, c, a, b, f, bx.init_max).unwrap();
                                let won = sol.value(&pos).unwrap().is_won();
                                let d = dist.get(&pos).unwrap();
                                assert_eq!(d % 2 == 1, won, "{bx:?} {pos:?}");
                                checked += 1;
                            }
                        }
                    }
                }
            }
            assert!(checked > 5_000, "{bx:?}: {checked}");
            let outside = Position::new(bx.n_max + 50, bx.c_min, 0, 0, false, bx.init_max).unwrap();
            assert!(!dist.covers(&outside));
        }
    }

    #[test]
    fn entries_give_back_the_same_distances() {
        let bx = SolveBox::games(120, 2, 3);
        let d = Distances::solve(bx).unwrap();
        let back = Distances::from_entries(bx, d.entries().to_vec()).unwrap();
        assert_eq!(back.entries(), d.entries());
        let pos = Position::new(120, 3, 2, 2, false, 3).unwrap();
        assert_eq!(back.get(&pos), d.get(&pos));
        assert!(back.get(&pos).is_some());
        // One entry short, or the entries of another box: refused.
        let short = d.entries()[1..].to_vec();
        assert_eq!(
            Distances::from_entries(bx, short).unwrap_err(),
            SolveError::BadParams
        );
        let other = SolveBox::games(121, 2, 3);
        assert!(Distances::from_entries(other, d.entries().to_vec()).is_err());
    }
}
