//! The solver as it was before the mask solver (one position at a time, with the
//! largest losing pile per layer), kept for `nimbot-table bench` to measure the new
//! one against in the same run. Copied from the core at the commit before; only
//! the bench uses it.
#![allow(dead_code)]

use nimbot::solver::SolveBox;
use nimbot::Position;

/// Layers `(c, highest stored pile)` of the box, lowest cap first.
pub fn layer_bounds(bx: &SolveBox) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut c = u64::from(bx.c_min);
    let mut hi = u64::from(bx.n_max);
    while hi > c {
        out.push((c as u32, hi as u32));
        hi -= c.min(hi);
        c += 1;
    }
    out
}

/// The solved box: one bit per stored position, 1 = the mover wins.
#[derive(Clone, Debug)]
pub struct OldSolution {
    bx: SolveBox,
    /// Bits per pile: 2 (R+1)^2, rounded up to whole words.
    words_per_pile: usize,
    /// Per layer (index c - c_min): highest stored pile and first word.
    layers: Vec<(u32, usize)>,
    bits: Vec<u64>,
}

impl OldSolution {
    /// Solve every position of `bx`.
    pub fn solve(bx: SolveBox) -> Result<Self, String> {
        Self::solve_with_progress(bx, &mut |_, _| {})
    }

    /// Solve every position of `bx`, calling `progress(done, total)` (in stored
    /// positions) after each layer, for a progress bar on long solves.
    pub fn solve_with_progress(
        bx: SolveBox,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<Self, String> {
        let total_positions = bx.stored_positions();
        let _ = total_positions;
        let r = usize::from(bx.resets) + 1;
        let per_pile = 2 * r * r;
        let words_per_pile = per_pile.div_ceil(64);
        let bounds = layer_bounds(&bx);
        let mut layers = Vec::with_capacity(bounds.len());
        let mut total = 0usize;
        for &(c, hi) in &bounds {
            layers.push((hi, total));
            total += (hi - c) as usize * words_per_pile;
        }
        let mut sol = OldSolution {
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
            return Some(v.is_won());
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
