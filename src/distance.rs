//! Distance to the end: how many plies a game lasts from a position when the winner
//! finishes as fast as it can and the loser holds out as long as it can (the
//! "longest resistance" of endgame tables). Host-only (`alloc`): it needs the solved
//! box and two bytes per position. It powers [`Policy::Longest`]
//! ([`longest_move`](crate::policy::longest_move)).
//!
//! [`Policy::Longest`]: crate::Policy::Longest

use alloc::vec;
use alloc::vec::Vec;

use crate::geometry;
use crate::rules::Position;
use crate::solver::{Solution, SolveBox};
use crate::strategy::position_value;
use crate::value::Value;

/// Plies to the end for every position of a solved box, and for the small open-cap
/// positions after a reset.
#[derive(Clone, Debug)]
pub struct Distances {
    bx: SolveBox,
    /// Per cap from the box's lowest: (cap, highest stored pile, first entry).
    caps: Vec<(u32, u32, usize)>,
    dist: Vec<u16>,
    /// Open-cap positions right after a reset (limit M, cap no longer binding):
    /// `capless[(s * r + own) * r + opp]` for piles up to `capless_max`.
    capless: Vec<u16>,
    capless_max: u32,
}

impl Distances {
    /// Distances for every position `solution` stores. About one pass over every
    /// move of every position: a second or so for N <= 999, R = 4.
    pub fn new(solution: &Solution) -> Self {
        let bx = solution.solve_box();
        let r = usize::from(bx.resets) + 1;
        let keys = geometry::keys_per_cap(bx.resets);
        let mut caps = Vec::new();
        let mut total = 0usize;
        for (c, hi) in solution.layers() {
            caps.push((c, hi, total));
            total += (hi - c) as usize * keys;
        }
        let capless_max = caps.last().map_or(bx.c_min, |&(c, _, _)| c + 1);
        let mut d = Distances {
            bx,
            caps,
            dist: vec![0; total],
            capless: vec![0; (capless_max as usize + 1) * r * r],
            capless_max,
        };
        // Open-cap positions only lead to open-cap positions with fewer stones.
        for s in 1..=capless_max {
            for a in 0..=bx.resets {
                for b in 0..=bx.resets {
                    let cap = capless_max.max(bx.c_min);
                    if let Ok(pos) = Position::new(s, cap, a, b, true, bx.init_max) {
                        let v = d.compute(solution, &pos);
                        d.capless[(s as usize * r + usize::from(a)) * r + usize::from(b)] = v;
                    }
                }
            }
        }
        // Successors have fewer stones and the same or a higher cap.
        let caps = d.caps.clone();
        for &(c, hi, _) in caps.iter().rev() {
            for s in (c + 1)..=hi {
                for a in 0..=bx.resets {
                    for b in 0..=bx.resets {
                        for f in [false, true] {
                            if let Ok(pos) = Position::new(s, c, a, b, f, bx.init_max) {
                                let v = d.compute(solution, &pos);
                                if let Some(i) = d.index(&pos) {
                                    d.dist[i] = v;
                                }
                            }
                        }
                    }
                }
            }
        }
        d
    }

    /// The box these distances cover.
    pub const fn solve_box(&self) -> SolveBox {
        self.bx
    }

    fn index(&self, p: &Position) -> Option<usize> {
        let first = self.caps.first()?.0;
        let &(c, hi, off) = self.caps.get(p.cap().checked_sub(first)? as usize)?;
        if p.stones() <= c || p.stones() > hi || p.init_max() != self.bx.init_max {
            return None;
        }
        if p.own_resets() > self.bx.resets || p.opp_resets() > self.bx.resets {
            return None;
        }
        let key = geometry::key(
            self.bx.resets,
            p.own_resets(),
            p.opp_resets(),
            p.reset_pending(),
        );
        Some(off + key * (hi - c) as usize + (p.stones() - c - 1) as usize)
    }

    /// Plies to the end from `pos` (the move that empties the pile counts 1), or
    /// `None` outside the box.
    pub fn get(&self, pos: &Position) -> Option<u16> {
        if pos.stones() <= pos.limit() {
            return Some(1);
        }
        if pos.cap() >= pos.stones() {
            // The cap no longer binds: with no pending reset the mover takes all
            // (handled above), so this is the capless game after a reset.
            let r = usize::from(self.bx.resets) + 1;
            if pos.stones() > self.capless_max
                || pos.own_resets() > self.bx.resets
                || pos.opp_resets() > self.bx.resets
            {
                return None;
            }
            let i = (pos.stones() as usize * r + usize::from(pos.own_resets())) * r
                + usize::from(pos.opp_resets());
            return self.capless.get(i).copied();
        }
        self.index(pos).and_then(|i| self.dist.get(i).copied())
    }

    /// The distance of `pos` from its successors: the winner's shortest win, the
    /// loser's longest loss.
    fn compute(&self, solution: &Solution, pos: &Position) -> u16 {
        if pos.stones() <= pos.limit() {
            return 1;
        }
        let won = position_value(solution, pos) == Ok(Value::Won);
        let mut best: Option<u16> = None;
        for mv in pos.moves() {
            let d = match pos.after(mv) {
                Ok(None) => 1,
                Ok(Some(next)) => {
                    // A winner only counts its winning moves.
                    if won && position_value(solution, &next) != Ok(Value::Lost) {
                        continue;
                    }
                    self.get(&next).unwrap_or(u16::MAX - 1).saturating_add(1)
                }
                Err(_) => continue,
            };
            best = Some(match best {
                None => d,
                Some(b) if won => b.min(d),
                Some(b) => b.max(d),
            });
        }
        best.unwrap_or(1)
    }
}
