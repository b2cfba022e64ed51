//! The position-by-position path of the solver: one cap solved a position at a
//! time ([`ScalarCap`], the reference the windowed masks are tested against and
//! the path for more than 7 resets) and the capless game's table
//! ([`CaplessTable`]) both paths read.

use alloc::vec::Vec;

use super::base::{filled, storage, SolveBox, SolveError};
use nimbot::Position;

/// One cap solved position by position: the reference the windowed solver's
/// masks are tested against, and the only path for boxes with more than 7
/// resets (whose masks would not fit a word).
pub(crate) struct ScalarCap<'a> {
    pub(crate) bx: &'a SolveBox,
    pub(crate) capless: &'a CaplessTable,
    pub(crate) c: u32,
    pub(crate) hi: u32,
}

impl ScalarCap<'_> {
    /// Solve piles `c + 1 ..= hi` into `cur` (zeroed first, [`storage`]'s words
    /// a pile), reading the cap above's piles `c + 2 ..` (of that cap) from
    /// `above` (`None` above the top cap). `last` is a work array of `2 (R+1)^2`
    /// piles: per layer `(x, y, f)`, the largest losing pile below the current
    /// one (0 if none).
    pub(crate) fn solve(&self, last: &mut [u32], cur: &mut [u64], above: Option<&[u64]>) {
        let (c, hi) = (self.c, self.hi);
        let m = self.bx.init_max;
        let r = usize::from(self.bx.resets) + 1;
        let (stride, wpp) = storage(self.bx.resets);
        let bit = |words: &[u64], at: usize, b: usize| {
            words
                .get(at + b / 64)
                .is_some_and(|w| w >> (b % 64) & 1 == 1)
        };
        // The layer (x, y, f): its bit in a pile and its slot in `last`.
        let layer = |x: usize, y: usize, f: usize| (f * stride + x * r + y, (x * r + y) * 2 + f);
        let last_at = |last: &[u32], x: usize, y: usize, f: usize| {
            last.get(layer(x, y, f).1).copied().unwrap_or(0)
        };
        if let Some(cur) = cur.get_mut(..(hi - c) as usize * wpp) {
            cur.fill(0);
        }
        for s in c..=hi {
            let at = (s.saturating_sub(c + 1)) as usize * wpp;
            for x in 0..r {
                for y in 0..r {
                    for f in 0..2 {
                        let (b, slot) = layer(x, y, f);
                        if s == c {
                            // Piles up to c are decided by the rules: without a
                            // pending reset the mover takes everything; with one it
                            // is the capless game (its last loss is found here).
                            if let Some(l) = last.get_mut(slot) {
                                *l = if f == 0 {
                                    0
                                } else {
                                    (1..=c)
                                        .rev()
                                        .find(|&p| !self.capless.wins(p, x as u8, y as u8))
                                        .unwrap_or(0)
                                };
                            }
                            continue;
                        }
                        let limit = if f == 1 { m } else { c };
                        let lo = s - limit.min(c - 1);
                        let mut win = last_at(last, y, x, 0) >= lo
                            || (x > 0 && last_at(last, y, x - 1, 1) >= lo);
                        if !win && limit >= c {
                            // Take exactly c: the cap becomes c + 1.
                            let s2 = s - c;
                            if s2 <= c + 1 {
                                win = x > 0 && !self.capless.wins(s2, y as u8, (x - 1) as u8);
                            } else if let Some(above) = above {
                                let up = (s2 - c - 2) as usize * wpp;
                                win = !bit(above, up, layer(y, x, 0).0)
                                    || (x > 0 && !bit(above, up, layer(y, x - 1, 1).0));
                            }
                        }
                        if let Some(w) = cur.get_mut(at + b / 64) {
                            *w |= u64::from(win) << (b % 64);
                        }
                    }
                }
            }
            // The pile's losses, now that every layer of it is known (its moves
            // read only lower piles).
            if s > c {
                for x in 0..r {
                    for y in 0..r {
                        for f in 0..2 {
                            let (b, slot) = layer(x, y, f);
                            if !bit(cur, at, b) {
                                if let Some(l) = last.get_mut(slot) {
                                    *l = s;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The capless game (see [`Position::capless_wins`]) tabulated by a plain window DP
/// over piles, for the solver's inner loop. Beyond `M (x + y + 1)` stones nobody can
/// finish before someone runs out of resets, and the mover wins iff `x > y`.
#[derive(Debug)]
pub(crate) struct CaplessTable {
    init_max: u32,
    r: usize,
    /// `wins[s * r * r + x * r + y]` for piles `1 ..= stored` (index 0 unused).
    wins: Vec<bool>,
    stored: u32,
    /// `M (2R + 1)`: every pile above is decided by the resets alone.
    settled: u32,
}

impl CaplessTable {
    /// The table for piles up to `up_to` (larger ones are answered by
    /// [`Position::capless_wins`]).
    pub(crate) fn new(init_max: u32, resets: u8, up_to: u32) -> Result<Self, SolveError> {
        let r = usize::from(resets) + 1;
        let settled = init_max.saturating_mul(2 * u32::from(resets) + 1);
        let stored = settled.min(up_to);
        let mut wins = filled((stored as usize + 1) * r * r, false)?;
        // Largest losing pile so far per (x, y).
        let mut last = filled(r * r, 0u32)?;
        for (s, piles) in (1..=stored).zip(wins.chunks_exact_mut((r * r).max(1)).skip(1)) {
            for x in 0..r {
                for y in 0..r {
                    let w = s <= init_max
                        || (x > 0 && {
                            let lo = s.saturating_sub(init_max).max(1);
                            last.get(y * r + x - 1).is_some_and(|&l| l >= lo)
                        });
                    if let Some(p) = piles.get_mut(x * r + y) {
                        *p = w;
                    }
                }
            }
            for (l, &won) in last.iter_mut().zip(piles.iter()) {
                if !won {
                    *l = s;
                }
            }
        }
        Ok(CaplessTable {
            init_max,
            r,
            wins,
            stored,
            settled,
        })
    }

    pub(crate) fn wins(&self, s: u32, x: u8, y: u8) -> bool {
        if s <= self.init_max {
            return true;
        }
        if s > self.settled {
            return x > y;
        }
        if s > self.stored {
            return Position::capless_wins(s, x, y, self.init_max);
        }
        let at = s as usize * self.r * self.r + usize::from(x) * self.r + usize::from(y);
        self.wins.get(at).copied().unwrap_or(false)
    }
}
