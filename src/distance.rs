//! Distance to the end: how many plies a game lasts from a position when the winner
//! finishes as fast as it can and the loser holds out as long as it can (the
//! "remoteness" of Gamesman solvers, the "longest resistance" of endgame tables).
//! Host and tiny binary only (`alloc`): two bytes per position of a box. It powers
//! [`Policy::Longest`], the fastest win and the distances of a root probe
//! ([`crate::probe`]).
//!
//! # The recurrence
//! A position whose limit reaches the pile is 1 ply from the end. Otherwise its
//! distance is one more than the least distance among its successors that are lost
//! for their mover, if there is one (the mover wins: it hurries), else one more than
//! the greatest distance among all its successors (the mover loses: it holds out).
//! So the mover wins exactly when its distance is odd (it makes the last ply): the
//! distances carry the values too, and nothing here reads the solver's bits. A test
//! checks that parity against the solver on whole boxes.
//!
//! # Linear time
//! As in the solver, takes below the cap lead into two layers of the same cap, to
//! the last `w` piles below. Per layer and window width the module keeps two
//! monotone queues over those piles: the greatest distance, and the least distance
//! among lost piles. Each pile enters and leaves each queue once, so a box costs
//! O(positions): 1,345,400 positions (N <= 999, R = 4) take a few milliseconds.
//!
//! # No panics
//! Every array is reserved fallibly ([`SolveError::OutOfMemory`]), reads go
//! through `get`, and a distance above [`MAX_DISTANCE`] is
//! [`SolveError::TooLong`], never a wrapped number.
//!
//! [`Policy::Longest`]: crate::Policy::Longest

use alloc::vec::Vec;

use crate::rules::{Move, Position};
use crate::solver::{filled, Solution, SolveBox, SolveError};
use crate::strategy::{best_move, reply_counts, DecideError, Decision};
use crate::table::geometry;
use crate::value::Value;

/// The largest distance [`Distances`] keeps (two bytes a position).
pub const MAX_DISTANCE: u16 = u16::MAX - 1;

/// Plies to the end for every position of a box, and for the small open-cap
/// positions after a reset.
#[derive(Clone, Debug)]
pub struct Distances {
    bx: SolveBox,
    /// Per cap from the box's lowest: (cap, highest stored pile, first entry).
    caps: Vec<(u32, u32, usize)>,
    /// Per cap, layer by layer in key order, piles `cap + 1 ..= hi`.
    dist: Vec<u16>,
    /// Open-cap positions right after a reset (limit M, cap no longer binding):
    /// `capless[(s * r + own) * r + opp]` for piles up to `capless_max`.
    capless: Vec<u16>,
    capless_max: u32,
}

impl Distances {
    /// Distances for every position of `bx` (the box [`Solution::solve`] would
    /// solve), computed from the rules alone.
    ///
    /// # Errors
    /// What [`Solution::solve`] refuses, [`SolveError::OutOfMemory`] if the
    /// allocator refuses the memory (see [`Distances::memory_bytes`]) and
    /// [`SolveError::TooLong`] if a distance exceeds [`MAX_DISTANCE`].
    pub fn solve(bx: SolveBox) -> Result<Self, SolveError> {
        bx.validate()?;
        let keys = geometry::keys_per_cap(bx.resets);
        let r = usize::from(bx.resets) + 1;
        let mut caps = filled(bx.layer_bounds().count(), (0u32, 0u32, 0usize))?;
        let mut total = 0usize;
        for ((c, hi), slot) in bx.layer_bounds().zip(caps.iter_mut()) {
            *slot = (c, hi, total);
            total = ((hi - c) as usize)
                .checked_mul(keys)
                .and_then(|n| total.checked_add(n))
                .ok_or(SolveError::OutOfMemory)?;
        }
        let c_top = caps.last().map_or(bx.c_min, |&(c, _, _)| c);
        let capless_max = c_top + 1;
        let mut d = Distances {
            bx,
            caps,
            dist: filled(total, 0)?,
            capless: filled((capless_max as usize + 1) * r * r, 0)?,
            capless_max,
        };
        d.solve_capless()?;
        let mut windows = Windows::new(keys, c_top)?;
        let mut pile = filled(keys, 0u16)?;
        for i in (0..d.caps.len()).rev() {
            d.solve_cap(i, &mut windows, &mut pile)?;
        }
        Ok(d)
    }

    /// Bytes [`Distances::solve`] takes at its peak for `bx` (two per stored
    /// position, plus small work arrays): check it before solving a large box.
    pub fn memory_bytes(bx: &SolveBox) -> u64 {
        let positions = bx.stored_positions();
        if positions == 0 {
            return 0;
        }
        let keys = geometry::keys_per_cap(bx.resets) as u64;
        let r = u64::from(bx.resets) + 1;
        let c_top = bx.layer_bounds().last().map_or(bx.c_min, |(c, _)| c);
        let ring = u64::from(c_top + 2).next_power_of_two();
        positions * 2 + (u64::from(c_top) + 2) * r * r * 2 + keys * ring * (2 + 4 * 4) + keys * 64
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
        if pos.init_max() != self.bx.init_max
            || pos.own_resets() > self.bx.resets
            || pos.opp_resets() > self.bx.resets
        {
            return None;
        }
        if pos.cap() >= pos.stones() {
            // The cap no longer binds: with no pending reset the mover takes all
            // (1 ply), else this is the capless game after a reset.
            if !pos.reset_pending() {
                return (pos.cap() >= self.bx.c_min).then_some(1);
            }
            return self.capless_at(pos.stones(), pos.own_resets(), pos.opp_resets());
        }
        let key = geometry::key(
            self.bx.resets,
            pos.own_resets(),
            pos.opp_resets(),
            pos.reset_pending(),
        );
        let i = pos.cap().checked_sub(self.bx.c_min)? as usize;
        self.stored(i, key, pos.stones())
    }

    /// The distance at pile `s` of layer `key` of cap index `i` (`s` above the cap).
    fn stored(&self, i: usize, key: usize, s: u32) -> Option<u16> {
        let &(c, hi, off) = self.caps.get(i)?;
        if s <= c || s > hi {
            return None;
        }
        let at = off + key * (hi - c) as usize + (s - c - 1) as usize;
        self.dist.get(at).copied()
    }

    fn capless_at(&self, s: u32, own: u8, opp: u8) -> Option<u16> {
        if s > self.capless_max {
            return None;
        }
        let r = usize::from(self.bx.resets) + 1;
        let i = (s as usize * r + usize::from(own)) * r + usize::from(opp);
        self.capless.get(i).copied()
    }

    /// The capless game: every move is held to M and one that leaves stones must
    /// reset (else the opponent takes the rest, 1 ply later). Piles only shrink.
    fn solve_capless(&mut self) -> Result<(), SolveError> {
        let m = self.bx.init_max;
        let resets = self.bx.resets;
        for s in 1..=self.capless_max {
            for x in 0..=resets {
                for y in 0..=resets {
                    let d = if s <= m {
                        1
                    } else if x == 0 {
                        // Every take leaves the opponent a pile it empties.
                        2
                    } else {
                        let mut best = Best::default();
                        best.add(1);
                        for k in 1..=m.min(s - 1) {
                            best.add(self.capless_at(s - k, y, x - 1).unwrap_or(0));
                        }
                        best.distance()?
                    };
                    let r = usize::from(resets) + 1;
                    let i = (s as usize * r + usize::from(x)) * r + usize::from(y);
                    if let Some(slot) = self.capless.get_mut(i) {
                        *slot = d;
                    }
                }
            }
        }
        Ok(())
    }

    /// The distance of a position in the rules' part of a layer (pile `p` at most
    /// its cap): 1 with no pending reset (take everything), else the capless game.
    fn rules(&self, p: u32, own: u8, opp: u8, pending: bool) -> u16 {
        if pending {
            self.capless_at(p, own, opp).unwrap_or(0)
        } else {
            1
        }
    }

    /// Solve cap index `i` (the cap above is solved): pile by pile, every layer of
    /// a pile from the windows of lower piles and the cap above, then the pile
    /// enters the windows.
    fn solve_cap(
        &mut self,
        i: usize,
        win: &mut Windows,
        pile: &mut [u16],
    ) -> Result<(), SolveError> {
        let Some(&(c, hi, off)) = self.caps.get(i) else {
            return Ok(());
        };
        let m = self.bx.init_max;
        let resets = self.bx.resets;
        let len = (hi - c) as usize;
        win.start(c - 1, m.min(c - 1));
        // The rules' piles of every layer, as far down as a window reaches.
        // (A window reaches down to pile 2 at most: s - (c - 1) with s > c.)
        for p in 2..=c {
            for x in 0..=resets {
                for y in 0..=resets {
                    for f in [false, true] {
                        let d = self.rules(p, x, y, f);
                        win.push(geometry::key(resets, x, y, f), p, d);
                    }
                }
            }
        }
        for s in (c + 1)..=hi {
            for a in 0..=resets {
                for b in 0..=resets {
                    for f in [false, true] {
                        let w = usize::from(f);
                        let mut best = Best::default();
                        // Takes below the cap: the two layers, over the window.
                        win.add_to(&mut best, geometry::key(resets, b, a, false), s, w);
                        if a > 0 {
                            win.add_to(&mut best, geometry::key(resets, b, a - 1, true), s, w);
                        }
                        // Taking exactly the cap, when the limit allows it.
                        if !f || m >= c {
                            let s2 = s - c;
                            let mut above = |opp_pending: bool, own_after: u8| {
                                let d = if s2 <= c + 1 {
                                    self.rules(s2, b, own_after, opp_pending)
                                } else {
                                    let key = geometry::key(resets, b, own_after, opp_pending);
                                    self.stored(i + 1, key, s2).unwrap_or(0)
                                };
                                best.add(d);
                            };
                            above(false, a);
                            if a > 0 {
                                above(true, a - 1);
                            }
                        }
                        let key = geometry::key(resets, a, b, f);
                        let d = best.distance()?;
                        if let Some(slot) = pile.get_mut(key) {
                            *slot = d;
                        }
                        let at = off + key * len + (s - c - 1) as usize;
                        if let Some(slot) = self.dist.get_mut(at) {
                            *slot = d;
                        }
                    }
                }
            }
            for (key, &d) in pile.iter().enumerate() {
                win.push(key, s, d);
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
/// wins through it) and the greatest of all.
#[derive(Default)]
struct Best {
    lost: Option<u16>,
    all: Option<u16>,
}

impl Best {
    fn add(&mut self, d: u16) {
        if d % 2 == 0 {
            self.lost = Some(self.lost.map_or(d, |l| l.min(d)));
        }
        self.all = Some(self.all.map_or(d, |a| a.max(d)));
    }

    /// One more than the best successor: the winner's fastest, the loser's longest.
    fn distance(&self) -> Result<u16, SolveError> {
        let d = self.lost.or(self.all).unwrap_or(0);
        if d >= MAX_DISTANCE {
            return Err(SolveError::TooLong);
        }
        Ok(d + 1)
    }
}

/// The sliding windows of one cap: per layer and window width, two monotone queues
/// of `(pile, distance)` (greatest distance first; least distance among lost piles
/// first), each a ring of a fixed length. Queue `(key * 2 + w) * 2 + kind`, kind 0
/// = greatest, 1 = least lost.
struct Windows {
    /// Ring length (a power of two, above any window) minus one.
    mask: usize,
    /// Per layer, the last piles' distances (a ring): short windows are scanned.
    recent: Vec<u16>,
    queue: Vec<(u32, u16)>,
    /// Per queue: (first slot, length).
    ends: Vec<(usize, usize)>,
    /// The two window widths: the cap's (c - 1) and after a reset (min(M, c - 1)).
    width: [u32; 2],
    /// How the reset window is read: the cap's queues (same width), its own
    /// queues, or (a short one) by scanning `recent`.
    reset_window: ResetWindow,
}

/// Windows up to this wide are scanned rather than queued (M = 3: after a reset).
const SCAN: u32 = 8;

#[derive(Clone, Copy, PartialEq, Eq)]
enum ResetWindow {
    SameAsCap,
    Queued,
    Scanned,
}

impl Windows {
    fn new(keys: usize, c_top: u32) -> Result<Self, SolveError> {
        let ring = (c_top as usize + 2).next_power_of_two();
        Ok(Windows {
            mask: ring - 1,
            recent: filled(keys * ring, 0)?,
            queue: filled(keys * 4 * ring, (0, 0))?,
            ends: filled(keys * 4, (0, 0))?,
            width: [0; 2],
            reset_window: ResetWindow::SameAsCap,
        })
    }

    /// Empty every queue for a cap whose windows have these widths.
    fn start(&mut self, cap_width: u32, reset_width: u32) {
        self.width = [cap_width, reset_width];
        self.reset_window = if reset_width == cap_width {
            ResetWindow::SameAsCap
        } else if reset_width <= SCAN {
            ResetWindow::Scanned
        } else {
            ResetWindow::Queued
        };
        for e in &mut self.ends {
            *e = (0, 0);
        }
    }

    /// The distance at the front of queue `q`.
    fn front(&self, q: usize) -> Option<u16> {
        let &(head, len) = self.ends.get(q)?;
        if len == 0 {
            return None;
        }
        let at = q * (self.mask + 1) + (head & self.mask);
        self.queue.get(at).map(|e| e.1)
    }

    /// Add to `best` the piles below `s` in window `w` (0: the cap's, 1: after a
    /// reset) of layer `key`.
    fn add_to(&self, best: &mut Best, key: usize, s: u32, w: usize) {
        let w = match (w, self.reset_window) {
            (0, _) | (_, ResetWindow::SameAsCap) => 0,
            (_, ResetWindow::Queued) => 1,
            (_, ResetWindow::Scanned) => {
                let base = key * (self.mask + 1);
                for p in s.saturating_sub(self.width[1])..s {
                    let at = base + (p as usize & self.mask);
                    best.add(self.recent.get(at).copied().unwrap_or(0));
                }
                return;
            }
        };
        if let Some(d) = self.front((key * 2 + w) * 2 + 1) {
            best.lost = Some(best.lost.map_or(d, |l| l.min(d)));
        }
        if let Some(d) = self.front((key * 2 + w) * 2) {
            best.all = Some(best.all.map_or(d, |a| a.max(d)));
        }
    }

    /// Pile `p` of layer `key` has distance `d`: it enters the queues, and piles
    /// out of reach of the next pile's windows leave them.
    fn push(&mut self, key: usize, p: u32, d: u16) {
        let (mask, ring) = (self.mask, self.mask + 1);
        if let Some(slot) = self.recent.get_mut(key * ring + (p as usize & mask)) {
            *slot = d;
        }
        let [w0, w1] = self.width;
        let queued = if self.reset_window == ResetWindow::Queued {
            4
        } else {
            2
        };
        let first = key * 4;
        let (Some(queues), Some(ends)) = (
            self.queue.get_mut(first * ring..(first + 4) * ring),
            self.ends.get_mut(first..first + 4),
        ) else {
            return;
        };
        let lanes = queues
            .chunks_exact_mut(ring)
            .zip(ends)
            .zip(0..)
            .take(queued);
        for ((queue, end), i) in lanes {
            let width = if i < 2 { w0 } else { w1 };
            if width == 0 {
                continue;
            }
            let lowest = (p + 1).saturating_sub(width);
            if i % 2 == 0 {
                enqueue::<true>(queue, end, mask, lowest, (p, d));
            } else {
                enqueue::<false>(queue, end, mask, lowest, (p, d));
            }
        }
    }
}

/// Add `(pile, d)` to a monotone queue (`GREATEST`: greatest distance first, else
/// least distance among lost piles first) after dropping piles below `lowest`.
#[inline(always)]
fn enqueue<const GREATEST: bool>(
    queue: &mut [(u32, u16)],
    end: &mut (usize, usize),
    mask: usize,
    lowest: u32,
    (p, d): (u32, u16),
) {
    let (mut head, mut len) = *end;
    while len > 0 && queue.get(head & mask).is_some_and(|e| e.0 < lowest) {
        head += 1;
        len -= 1;
    }
    if GREATEST || d % 2 == 0 {
        while len > 0 {
            let Some(&(_, back)) = queue.get((head + len - 1) & mask) else {
                break;
            };
            if (GREATEST && back > d) || (!GREATEST && back < d) {
                break;
            }
            len -= 1;
        }
        if let Some(slot) = queue.get_mut((head + len) & mask) {
            *slot = (p, d);
            len += 1;
        }
    }
    *end = (head, len);
}

/// [`Policy::Longest`](crate::Policy::Longest)'s move: a winning move whenever `pos` is
/// won (as [`best_move`]); in a lost position the move after which the game lasts
/// longest with best play, then the one leaving the opponent the fewest winning
/// replies, then the smallest take, then no reset.
pub fn longest_move(
    solution: &Solution,
    distances: &Distances,
    pos: &Position,
) -> Result<Decision, DecideError> {
    let d = best_move(solution, pos)?;
    if d.value == Value::Won {
        return Ok(d);
    }
    let mut best: Option<(Move, u16, u32)> = None;
    for take in 1..=pos.limit().min(pos.stones()) {
        for reset in [false, true] {
            if reset && pos.own_resets() == 0 {
                continue;
            }
            let mv = Move::new(take, reset);
            let Ok(Some(next)) = pos.after(mv) else {
                continue;
            };
            let length = distances.get(&next).ok_or(DecideError::OutOfRange)?;
            let (w, _) = reply_counts(solution, &next)?;
            if best.is_none_or(|(_, bl, bw)| length > bl || (length == bl && w < bw)) {
                best = Some((mv, length, w));
            }
        }
    }
    Ok(Decision {
        mv: best.map_or(d.mv, |(mv, _, _)| mv),
        value: Value::Lost,
    })
}
