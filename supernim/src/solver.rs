//! The exact Super-Nim solver (feature `alloc`): the value of a position with
//! the cap in the state, and the value of each of its moves, or a plain "cannot
//! finish" when a node bound runs out first.
//!
//! A position is its heaps and the plies left before the cap; its value is the
//! margin (the mover's points from here on minus the opponent's) under best play
//! by both, 0 with no plies left or no sticks. Every result of the game follows
//! from it: a mover ahead by `lead` wins exactly when `lead + value > 0` (the sign
//! is monotone, so the minimax of the margin is the minimax of the result).
//!
//! The search is alpha-beta (negamax) over the distinct moves with a
//! transposition table keyed on the sorted heaps, the plies left and the kind of
//! search; an entry holds an interval known to contain the value. The table keeps
//! at most its entry bound (entries past it are simply not stored: slower, never
//! wrong), and every call counts nodes against its node bound.
//!
//! [`Solver::horizon`] searches the same way to a depth below the plies left and
//! scores the positions at the horizon by the parity of their 2s: the mover gets 2
//! points more than the opponent when it holds an odd number of 2s, none with an
//! even number. That is the exact value of every small start the exact search
//! finishes (docs/other-games.md), the player's estimate beyond its reach.

use alloc::vec::Vec;

use super::memo::Memo;
use super::rules::{Cursor, Heaps, Move};

/// A bound on any margin: more than twice any cap.
const INF: i32 = 1 << 20;

/// The mover's margin at a horizon that is not the end of the game: 2 with an odd
/// number of 2s, else 0.
pub fn parity_leaf(heaps: &Heaps) -> i32 {
    let twos = heaps.sizes().iter().filter(|&&h| h == 2).count();
    if twos % 2 == 1 {
        2
    } else {
        0
    }
}

/// The largest margin a mover can take in `plies` plies: 2 points on each of its
/// moves (it moves on the odd plies), at most [`INF`] (a larger cap changes no
/// bound).
fn most(plies: u32) -> i32 {
    let most = plies.div_ceil(2).saturating_mul(2).min(1 << 20);
    i32::try_from(most).unwrap_or(INF)
}

fn clamp16(v: i32) -> i16 {
    v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// A move and its value for the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// The mover's margin from here on if it plays `mv` and both play best after.
    pub value: i32,
}

/// The exact solver with its transposition table (kept between calls).
#[derive(Debug)]
pub struct Solver {
    table: Memo<(i16, i16)>,
    nodes: u64,
    node_bound: u64,
    key: Vec<u16>,
}

/// What is searched: the game to its cap, or to a horizon scored by the parity of
/// the 2s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Exact = 0,
    Horizon = 1,
}

impl Solver {
    /// A solver keeping at most `entries` positions (about 24 bytes each plus the
    /// heaps) that gives up on a call after `nodes` nodes.
    pub fn new(nodes: u64, entries: usize) -> Solver {
        Solver {
            table: Memo::new(entries),
            nodes: 0,
            node_bound: nodes,
            key: Vec::new(),
        }
    }

    /// Sets the node bound of the next calls.
    pub fn set_node_bound(&mut self, nodes: u64) {
        self.node_bound = nodes;
    }

    /// Nodes the last call visited.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Positions stored.
    pub fn entries(&self) -> usize {
        self.table.len()
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The value of `heaps` with `plies_left` plies before the cap (the mover's
    /// margin from here on), or `None` if the node bound ran out first.
    pub fn value(&mut self, heaps: &Heaps, plies_left: u32) -> Option<i32> {
        self.nodes = 0;
        let mut h = heaps.clone();
        self.search(&mut h, plies_left, plies_left, Kind::Exact, -INF, INF)
    }

    /// The value of each move of `heaps` with `plies_left` plies before the cap, in
    /// the order of [`Heaps::moves`], or `None` if the node bound ran out first
    /// (also for a position with no move or no plies left: it has no moves).
    pub fn move_values(&mut self, heaps: &Heaps, plies_left: u32) -> Option<Vec<MoveValue>> {
        self.nodes = 0;
        self.root(heaps, plies_left, plies_left, Kind::Exact)
    }

    /// Like [`Solver::move_values`], searching `depth` plies (below `plies_left`)
    /// and scoring the positions at that horizon by their parity of 2s (2 for the mover
    /// with an odd number of 2s, else 0): estimates, not values. With
    /// `depth >= plies_left` this is `move_values`.
    pub fn horizon(
        &mut self,
        heaps: &Heaps,
        plies_left: u32,
        depth: u32,
    ) -> Option<Vec<MoveValue>> {
        self.nodes = 0;
        if depth >= plies_left {
            return self.root(heaps, plies_left, plies_left, Kind::Exact);
        }
        self.root(heaps, depth, plies_left, Kind::Horizon)
    }

    /// Every root move's value: `depth` plies searched, `kind` at the leaves.
    fn root(
        &mut self,
        heaps: &Heaps,
        depth: u32,
        plies_left: u32,
        kind: Kind,
    ) -> Option<Vec<MoveValue>> {
        if plies_left == 0 || depth == 0 {
            return None;
        }
        // Fallible: the heaps (up to MAX_HEAPS of them) decide how many moves.
        let count = heaps.move_iter().count();
        let mut out = Vec::new();
        out.try_reserve_exact(count).ok()?;
        let mut h = heaps.clone();
        let mut cursor = Cursor::default();
        while let Some(mv) = cursor.next(&h) {
            let points = h.play(mv).ok()? as i32;
            let child = self.search(&mut h, depth - 1, plies_left - 1, kind, -INF, INF);
            h.undo(mv).ok()?;
            out.push(MoveValue {
                mv,
                value: points - child?,
            });
        }
        Some(out)
    }

    /// The table's key of `h` searched `depth` plies by `kind`; false if it could
    /// not be made (no memory), and the key is then empty.
    fn make_key(&mut self, h: &Heaps, depth: u32, kind: Kind) -> bool {
        self.key.clear();
        if self.key.try_reserve(h.len() + 3).is_err() {
            return false;
        }
        self.key.push(depth.min(u32::from(u16::MAX)) as u16);
        self.key.push(kind as u16);
        self.key.push(h.limit() as u16);
        self.key.extend_from_slice(h.sizes());
        true
    }

    /// Negamax with alpha-beta and the table: the mover's margin over the next
    /// `depth` plies of `h` (fail-soft: a value at or below `alpha` is an upper
    /// bound, at or above `beta` a lower one). `plies_left` (at least `depth`) says
    /// whether the game goes on after the horizon. `None`: out of nodes (`h` is
    /// then as it was).
    fn search(
        &mut self,
        h: &mut Heaps,
        depth: u32,
        plies_left: u32,
        kind: Kind,
        mut alpha: i32,
        mut beta: i32,
    ) -> Option<i32> {
        if h.is_empty() {
            return Some(0);
        }
        if depth == 0 {
            return Some(if plies_left == 0 { 0 } else { parity_leaf(h) });
        }
        self.nodes = self.nodes.saturating_add(1);
        if self.nodes > self.node_bound {
            return None;
        }
        // The margin over `depth` plies lies within +-most(depth), plus the
        // leaf's 2 at a horizon.
        let slack = if kind == Kind::Horizon { 2 } else { 0 };
        let (mut lo, mut hi) = (-most(depth - 1) - slack, most(depth) + slack);
        if self.make_key(h, depth, kind) {
            if let Some((l, u)) = self.table.get(&self.key) {
                lo = lo.max(i32::from(l));
                hi = hi.min(i32::from(u));
            }
        }
        if lo >= hi || lo >= beta {
            return Some(lo);
        }
        if hi <= alpha {
            return Some(hi);
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let (a0, b0) = (alpha, beta);
        let mut best = -INF;
        let mut cursor = Cursor::default();
        let mut any = false;
        while let Some(mv) = cursor.next(h) {
            any = true;
            let Ok(points) = h.play(mv) else {
                continue;
            };
            let points = points as i32;
            let child = self.search(
                h,
                depth - 1,
                plies_left - 1,
                kind,
                points - beta,
                points - alpha,
            );
            // Just played, so it can be taken back.
            let undone = h.undo(mv);
            let v = points - child?;
            undone.ok()?;
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        if !any {
            // No move within the heap limit: the game ends here (a board's stall).
            best = 0;
        }
        if !self.make_key(h, depth, kind) {
            return Some(best);
        }
        let key = core::mem::take(&mut self.key);
        let (l, u) = if !any || (best > a0 && best < b0) {
            (best, best)
        } else if best <= a0 {
            (lo, best)
        } else {
            (best, hi)
        };
        // Narrow what is stored to the new interval.
        let (l, u) = (clamp16(l), clamp16(u));
        self.table.update(&key, |old| {
            old.map_or((l, u), |(ol, ou)| (ol.max(l), ou.min(u)))
        });
        self.key = key;
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mover_takes_at_most_2_points_on_each_of_its_plies() {
        for plies in 0..60u32 {
            let own = (1..=plies).filter(|p| p % 2 == 1).count() as i32;
            assert_eq!(most(plies), 2 * own, "{plies}");
        }
        // Past any game: at most INF.
        for plies in [INF as u32 * 4, u32::MAX - 1, u32::MAX] {
            assert_eq!(most(plies), INF, "{plies}");
        }
    }
}
