//! The exact Super-Nim solver (host, feature `alloc`): the value of a position with
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
/// moves (it moves on the odd plies).
fn most(plies: u32) -> i32 {
    i32::try_from(plies.div_ceil(2)).unwrap_or(INF / 2) * 2
}

/// One stored interval `[lo, hi]` containing a value, and where its key is.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    hash: u64,
    /// Start of the key in `Table::keys` (0 with `len` 0: an empty slot).
    at: u32,
    len: u16,
    lo: i16,
    hi: i16,
}

/// An open-addressing hash table from keys (`[u16]`) to value intervals.
struct Table {
    slots: Vec<Slot>,
    keys: Vec<u16>,
    used: usize,
    /// Most entries kept.
    bound: usize,
}

fn hash_key(key: &[u16]) -> u64 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
    for &k in key {
        h = (h.rotate_left(5) ^ u64::from(k)).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h ^ (h >> 29)) | 1
}

impl Table {
    fn new(bound: usize) -> Table {
        Table {
            slots: Vec::new(),
            keys: Vec::new(),
            used: 0,
            bound,
        }
    }

    fn find(&self, key: &[u16], hash: u64) -> Result<usize, usize> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = (hash as usize) & mask;
        for _ in 0..self.slots.len() {
            let Some(s) = self.slots.get(i) else {
                break;
            };
            if s.hash == 0 {
                return Err(i);
            }
            if s.hash == hash {
                let at = s.at as usize;
                if self.keys.get(at..at + usize::from(s.len)) == Some(key) {
                    return Ok(i);
                }
            }
            i = (i + 1) & mask;
        }
        Err(usize::MAX)
    }

    fn get(&self, key: &[u16]) -> Option<(i32, i32)> {
        if self.slots.is_empty() {
            return None;
        }
        let s = self.slots.get(self.find(key, hash_key(key)).ok()?)?;
        Some((i32::from(s.lo), i32::from(s.hi)))
    }

    /// Narrows the interval of `key` to `[lo, hi]` (stores it if new and there is
    /// room).
    fn narrow(&mut self, key: &[u16], lo: i32, hi: i32) {
        let hash = hash_key(key);
        if self.used * 2 >= self.slots.len() {
            if self.used >= self.bound {
                // Full: an existing entry may still be narrowed.
                if let Ok(i) = self.find(key, hash) {
                    self.narrow_at(i, lo, hi);
                }
                return;
            }
            self.grow();
        }
        match self.find(key, hash) {
            Ok(i) => self.narrow_at(i, lo, hi),
            Err(i) => {
                let at = self.keys.len() as u32;
                self.keys.extend_from_slice(key);
                if let Some(s) = self.slots.get_mut(i) {
                    *s = Slot {
                        hash,
                        at,
                        len: key.len() as u16,
                        lo: clamp16(lo),
                        hi: clamp16(hi),
                    };
                    self.used += 1;
                }
            }
        }
    }

    fn narrow_at(&mut self, i: usize, lo: i32, hi: i32) {
        if let Some(s) = self.slots.get_mut(i) {
            s.lo = s.lo.max(clamp16(lo));
            s.hi = s.hi.min(clamp16(hi));
        }
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(1 << 12);
        let old = core::mem::replace(&mut self.slots, alloc::vec![Slot::default(); size]);
        let mask = size - 1;
        for s in old.into_iter().filter(|s| s.hash != 0) {
            let mut i = (s.hash as usize) & mask;
            while self.slots.get(i).is_some_and(|t| t.hash != 0) {
                i = (i + 1) & mask;
            }
            if let Some(t) = self.slots.get_mut(i) {
                *t = s;
            }
        }
    }

    fn clear(&mut self) {
        self.slots = Vec::new();
        self.keys = Vec::new();
        self.used = 0;
    }
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
pub struct Solver {
    table: Table,
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
            table: Table::new(entries),
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
        self.table.used
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
    /// and scoring the positions at that horizon by [`parity_leaf`]: estimates,
    /// not values. With `depth >= plies_left` this is `move_values`.
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
        let mut out = Vec::new();
        let mut h = heaps.clone();
        let moves: Vec<Move> = heaps.move_iter().collect();
        for mv in moves {
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

    fn make_key(&mut self, h: &Heaps, depth: u32, kind: Kind) {
        self.key.clear();
        self.key.push(depth.min(u32::from(u16::MAX)) as u16);
        self.key.push(kind as u16);
        self.key.push(h.limit() as u16);
        self.key.extend_from_slice(h.sizes());
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
        self.nodes += 1;
        if self.nodes > self.node_bound {
            return None;
        }
        // The margin over `depth` plies lies within +-most(depth), plus the
        // leaf's 2 at a horizon.
        let slack = if kind == Kind::Horizon { 2 } else { 0 };
        let (mut lo, mut hi) = (-most(depth - 1) - slack, most(depth) + slack);
        self.make_key(h, depth, kind);
        if let Some((l, u)) = self.table.get(&self.key) {
            lo = lo.max(l);
            hi = hi.min(u);
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
        self.make_key(h, depth, kind);
        let key = core::mem::take(&mut self.key);
        if !any || (best > a0 && best < b0) {
            self.table.narrow(&key, best, best);
        } else if best <= a0 {
            self.table.narrow(&key, lo, best);
        } else {
            self.table.narrow(&key, best, hi);
        }
        self.key = key;
        Some(best)
    }
}

/// The default node budget of [`Perfect`] per move: some milliseconds on a PC.
pub const PERFECT_NODE_BUDGET: u64 = 200_000;
/// The default entry bound of [`Perfect`]'s table (about 70 bytes an entry).
pub const PERFECT_ENTRIES: usize = 1 << 20;
/// Plies left at or below which [`Perfect`] breaks ties between moves of equal
/// value by the opponent's chances to go wrong.
pub const TIE_BREAK_PLIES: u32 = 40;

/// What [`Perfect`] knows of its opponent, to choose between moves of equal value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Every legal move equally likely (also the random opponent).
    Uniform,
    /// Splits a 2 whenever it can, else any move equally likely (the greedy
    /// opponent).
    Greedy,
    /// No tie-break: the first move of best value in the order of
    /// [`Heaps::moves`].
    None,
}

/// What [`Perfect::decide`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerfectDecision {
    /// The move; `None` only with no move or no plies left.
    pub mv: Option<Move>,
    /// Its value (the mover's margin from here on), exact when `exact`, else the
    /// estimate at the horizon `depth`.
    pub value: i32,
    /// Whether the search reached the cap (the value is exact).
    pub exact: bool,
    /// Plies searched by the last complete iteration (0: none completed).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
}

/// The host's Super-Nim player: iterative deepening on [`Solver::horizon`] with one
/// table for the whole game, exact as soon as the search reaches the cap (it then
/// never plays a move of lower value), and among the moves of the best value the
/// one whose replies hold the most expected loss for the opponent under a
/// [`Model`], near the cap.
pub struct Perfect {
    solver: Solver,
    /// Nodes per move.
    pub budget: u64,
    /// The opponent model of the tie-break.
    pub model: Model,
}

impl Perfect {
    /// A player with `budget` nodes a move and the opponent model `model`.
    pub fn new(budget: u64, model: Model) -> Perfect {
        Perfect {
            solver: Solver::new(budget, PERFECT_ENTRIES),
            budget,
            model,
        }
    }

    /// The move for `heaps` with `plies_left` plies before the cap.
    pub fn decide(&mut self, heaps: &Heaps, plies_left: u32) -> PerfectDecision {
        let mut decision = PerfectDecision {
            mv: if plies_left == 0 {
                None
            } else {
                heaps.move_iter().next()
            },
            value: 0,
            exact: false,
            depth: 0,
            nodes: 0,
        };
        let mut values = None;
        // The whole game first (cheap with the table of the moves before, near the
        // cap), then deepening from 1 on what is left of the budget.
        self.solver.set_node_bound(self.budget);
        if let Some(found) = self.solver.horizon(heaps, plies_left, plies_left) {
            decision.depth = plies_left;
            decision.exact = true;
            values = Some(found);
        }
        decision.nodes += self.solver.nodes();
        let deepen = if decision.exact { 0 } else { plies_left };
        for depth in 1..=deepen {
            let left = self.budget.saturating_sub(decision.nodes);
            self.solver.set_node_bound(left);
            let found = self.solver.horizon(heaps, plies_left, depth);
            decision.nodes += self.solver.nodes();
            let Some(found) = found else {
                break;
            };
            decision.depth = depth;
            decision.exact = depth >= plies_left;
            values = Some(found);
            if decision.exact {
                break;
            }
        }
        let Some(values) = values else {
            return decision;
        };
        let Some(best) = values.iter().map(|m| m.value).max() else {
            return decision;
        };
        decision.value = best;
        let mut ties = values.iter().filter(|m| m.value == best).map(|m| m.mv);
        decision.mv = ties.next();
        if self.model == Model::None || plies_left > TIE_BREAK_PLIES || !decision.exact {
            return decision;
        }
        // Among the moves of the best value, the one leaving the opponent the most
        // expected loss under the model (moves after it: first of the best).
        let mut best_loss = -1.0;
        for mv in values.iter().filter(|m| m.value == best).map(|m| m.mv) {
            let left = self.budget.saturating_sub(decision.nodes);
            self.solver.set_node_bound(left);
            let Ok((child, _)) = heaps.apply(mv) else {
                continue;
            };
            let replies = self.solver.move_values(&child, plies_left - 1);
            decision.nodes += self.solver.nodes();
            let Some(replies) = replies else {
                // Out of nodes: keep what was found.
                break;
            };
            let loss = expected_loss(self.model, &replies);
            if loss > best_loss {
                best_loss = loss;
                decision.mv = Some(mv);
            }
        }
        decision
    }
}

/// The opponent's expected loss of value when it replies as `model` says, over
/// its replies' values (none: no loss).
fn expected_loss(model: Model, replies: &[MoveValue]) -> f64 {
    let Some(best) = replies.iter().map(|m| m.value).max() else {
        return 0.0;
    };
    let loss = |m: &MoveValue| f64::from(best - m.value);
    if model == Model::Greedy {
        if let Some(split) = replies.iter().find(|m| m.mv == Move::Split(2)) {
            return loss(split);
        }
    }
    replies.iter().map(loss).sum::<f64>() / replies.len() as f64
}

impl super::players::Chooser for Perfect {
    fn choose(&mut self, game: &super::rules::Game) -> Option<Move> {
        self.decide(game.heaps(), game.plies_left()).mv
    }
}
