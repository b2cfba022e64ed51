//! Choosing a move from won/lost knowledge: any source of that knowledge (the
//! in-memory solver, the flash table) is an [`Oracle`], and [`best_move`] turns it
//! into a legal move that wins whenever the position is won.

use crate::rules::{Move, Position};
use crate::text::{text, Text};
use crate::value::Value;

/// The position lies outside what an oracle or engine knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecideError {
    /// Outside the limits of the table or solution (stones, resets, cap or M).
    OutOfRange,
    /// Solving it on the fly would take more memory or time than allowed.
    TooLarge,
    /// The table's data is damaged (it passed its checksum, so this is a bug or an
    /// attack, never a panic).
    BadTable,
}

impl DecideError {
    /// A short, static description (also used by the line protocol).
    pub const fn text(self) -> Text {
        match self {
            DecideError::OutOfRange => text!("position outside the engine's limits"),
            DecideError::TooLarge => text!("position too large to solve here"),
            DecideError::BadTable => text!("table data damaged"),
        }
    }

    /// The [`text`](Self::text) as a `&str` (not on the AVR, whose text stays in
    /// program memory).
    #[cfg(not(target_arch = "avr"))]
    pub const fn as_str(self) -> &'static str {
        self.text().as_str()
    }
}

crate::text::error_from_text!(DecideError);

/// Knows, for some set of positions whose cap still binds (`c < s`), whether the
/// player to move wins.
pub trait Oracle {
    /// The value of `pos` for its mover; [`DecideError::OutOfRange`] outside the
    /// oracle's limits. Only asked about positions with `c < s`.
    fn value(&self, pos: &Position) -> Result<Value, DecideError>;

    /// Visit the values of `layer` (its own pile ignored) over piles `lo..=hi`, as
    /// runs `visit(first, last, value)`, lowest first, that cover every pile of the
    /// range (neighbouring runs may share a value); `lo` is at least the cap + 1.
    ///
    /// The default asks [`Oracle::value`] pile by pile; a table answers from one
    /// pass over the coded layer, which is what makes a decision cheap.
    fn runs(
        &self,
        layer: &Position,
        lo: u32,
        hi: u32,
        visit: &mut dyn FnMut(u32, u32, Value),
    ) -> Result<(), DecideError> {
        for p in lo.max(layer.cap().saturating_add(1))..=hi {
            if let Some(pos) = layer.with_stones(p) {
                visit(p, p, self.value(&pos)?);
            }
        }
        Ok(())
    }

    /// The largest pile `p` in `lo..=hi` such that `layer` with `p` stones (its own
    /// pile ignored) is lost for its mover; `lo` is at least the cap + 1. One
    /// [`Oracle::runs`] pass.
    fn largest_loss_in(
        &self,
        layer: &Position,
        lo: u32,
        hi: u32,
    ) -> Result<Option<u32>, DecideError> {
        let mut found = None;
        self.runs(layer, lo, hi, &mut |_, last, v| {
            if v == Value::Lost {
                found = Some(last);
            }
        })?;
        Ok(found)
    }

    /// How many piles `p` in `lo..=hi` leave `layer` (its own pile ignored) lost for
    /// its mover; `lo` is at least the cap + 1. One [`Oracle::runs`] pass.
    fn count_losses_in(&self, layer: &Position, lo: u32, hi: u32) -> Result<u32, DecideError> {
        let mut n = 0u32;
        self.runs(layer, lo, hi, &mut |first, last, v| {
            if v == Value::Lost {
                n = n.saturating_add(last - first + 1);
            }
        })?;
        Ok(n)
    }
}

/// How to move in a lost position. Won positions always get a winning move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The first legal move, "take 1, no reset": the baseline.
    First,
    /// Set a trap (the default): the move after which the opponent has the fewest
    /// winning replies (each take 1..=limit, with and without a reset it has, counted
    /// as one), then the smallest take (the game stays long, with more chances for the
    /// opponent to go wrong), then no reset (resets are kept). Needs only won/lost
    /// knowledge.
    #[default]
    Trap,
    /// Hold out longest (host engines with the solver): the move after which the game
    /// lasts longest when the opponent wins as fast as it can, then as [`Policy::Trap`].
    /// Needs distances to the end, which only an engine with the in-memory solver has;
    /// a table-only engine plays [`Policy::Trap`] instead.
    Longest,
    /// Exploit systematic error (host engines): weigh an ensemble of plausible wrong
    /// models of the game, learn during the game which ones fit the opponent's moves,
    /// and play the lost move after which the likeliest replies are real blunders,
    /// then as [`Policy::Trap`]. Needs the host's ensemble; other engines play it as
    /// [`Policy::Trap`].
    Exploit,
}

impl Policy {
    /// The policy's name in the line protocol and on the command line.
    pub const fn text(self) -> Text {
        match self {
            Policy::First => text!("first"),
            Policy::Trap => text!("trap"),
            Policy::Longest => text!("longest"),
            Policy::Exploit => text!("exploit"),
        }
    }

    /// The [`text`](Self::text) as a `&str` (not on the AVR, whose text stays in
    /// program memory).
    #[cfg(not(target_arch = "avr"))]
    pub const fn as_str(self) -> &'static str {
        self.text().as_str()
    }

    /// The policy called `name`, if any.
    pub fn from_name(name: &[u8]) -> Option<Self> {
        match name {
            b"first" => Some(Policy::First),
            b"trap" => Some(Policy::Trap),
            b"longest" => Some(Policy::Longest),
            b"exploit" => Some(Policy::Exploit),
            _ => None,
        }
    }
}

/// The opponent's replies from `q`: (winning ones, all legal ones), each take in
/// `1..=limit` with and without a reset it has counted as one reply.
pub fn reply_counts<O: Oracle + ?Sized>(
    oracle: &O,
    q: &Position,
) -> Result<(u32, u32), DecideError> {
    let (s, c, limit) = (q.stones(), q.cap(), q.limit());
    let resets: &[bool] = if q.own_resets() > 0 {
        &[false, true]
    } else {
        &[false]
    };
    let (mut winning, mut total) = (0u32, 0u32);
    for &reset in resets {
        total = total.saturating_add(limit);
        // Takes of the whole pile or more end the game.
        if limit >= s {
            winning = winning.saturating_add(limit - s + 1);
        }
        // Takes below the cap (and the pile) land in one layer.
        let w = limit.min(c.saturating_sub(1)).min(s.saturating_sub(1));
        if w >= 1 {
            if let Ok(Some(template)) = q.after(Move::new(1, reset)) {
                let lo = s - w;
                winning = winning.saturating_add(oracle.count_losses_in(
                    &template,
                    lo.max(c + 1),
                    s - 1,
                )?);
                winning = winning.saturating_add(trivial_losses(&template, lo, c.min(s - 1)));
            }
        }
        // Taking exactly the cap (when it is below the pile) raises it.
        if limit >= c && c < s {
            if let Ok(Some(next)) = q.after(Move::new(c, reset)) {
                if position_value(oracle, &next)? == Value::Lost {
                    winning += 1;
                }
            }
        }
    }
    Ok((winning, total))
}

/// The move for `pos` under `policy`: a winning move whenever `pos` is won (as
/// [`best_move`]), otherwise the policy's choice among the legal moves
/// ([`Policy::Longest`] needs distances to the end and [`Policy::Exploit`] the host's
/// ensemble of models: both are played as [`Policy::Trap`] here).
pub fn decide<O: Oracle + ?Sized>(
    oracle: &O,
    pos: &Position,
    policy: Policy,
) -> Result<Decision, DecideError> {
    let d = best_move(oracle, pos)?;
    if d.value == Value::Won || policy == Policy::First {
        return Ok(d);
    }
    trap_move(oracle, pos).map(|mv| Decision {
        mv,
        value: Value::Lost,
    })
}

/// Lost piles in `lo..=hi` of `layer`'s piles at or below its cap, which the rules
/// decide: none without a pending reset (the mover takes everything), the capless
/// game's losses with one.
fn trivial_losses(layer: &Position, lo: u32, hi: u32) -> u32 {
    let hi = hi.min(layer.cap());
    if !layer.reset_pending() || lo > hi || lo == 0 {
        return 0;
    }
    let (own, opp, m) = (layer.own_resets(), layer.opp_resets(), layer.init_max());
    Position::capless_losses(hi, own, opp, m) - Position::capless_losses(lo - 1, own, opp, m)
}

/// Takes decided together by [`trap_move`]: their reply counts live in a stack
/// array this long.
const TRAP_BLOCK: u32 = 32;

/// [`Policy::Trap`]'s move in a lost position: the fewest winning replies, then the
/// smallest take, then no reset.
///
/// Every take `t` below the cap keeps it, so the opponent's replies to all of them
/// lie in the same few layers: takes below the cap in layer `(c, a', b', f')` and
/// the take of the cap in layer `(c + 1, a', b', f')`, per reset choice of each
/// side. One [`Oracle::runs`] pass over each layer counts the winning replies of a
/// whole block of takes (sliding windows over prefix counts); only the take of the
/// cap itself, which raises it, is counted on its own ([`reply_counts`]). The
/// result is the same as counting every move's replies one by one, which the tests
/// check against brute force.
fn trap_move<O: Oracle + ?Sized>(oracle: &O, pos: &Position) -> Result<Move, DecideError> {
    let (s, c) = (pos.stones(), pos.cap());
    let limit = pos.limit();
    let resets: &[bool] = if pos.own_resets() > 0 {
        &[false, true]
    } else {
        &[false]
    };
    // (winning replies, take, reset) of the best move so far: the smallest.
    let mut best: Option<(u32, u32, bool)> = None;
    let mut consider = |w: u32, take: u32, reset: bool| {
        if best.is_none_or(|b| (w, take, reset) < b) {
            best = Some((w, take, reset));
        }
    };
    // Takes that keep the cap (and leave stones).
    let below = limit.min(c.saturating_sub(1)).min(s.saturating_sub(1));
    for &reset in resets {
        let mut t0 = 1;
        while t0 <= below {
            let t1 = below.min(t0 + (TRAP_BLOCK - 1));
            let mut counts = [0u32; TRAP_BLOCK as usize];
            count_block(oracle, pos, reset, t0, t1, &mut counts)?;
            for (t, &w) in (t0..=t1).zip(counts.iter()) {
                consider(w, t, reset);
            }
            t0 = t1 + 1;
        }
        // Taking the cap raises it: its replies are counted on their own.
        if limit >= c && c < s {
            if let Ok(Some(next)) = pos.after(Move::new(c, reset)) {
                consider(reply_counts(oracle, &next)?.0, c, reset);
            }
        }
    }
    Ok(best.map_or(Move::new(1, false), |(_, take, reset)| {
        Move::new(take, reset)
    }))
}

/// The opponent's winning replies after each take `t0..=t1` (all below the cap and
/// the pile) with `reset`, into `counts[t - t0]`: as [`reply_counts`] move by move,
/// but with one [`Oracle::runs`] pass per layer for the whole block.
fn count_block<O: Oracle + ?Sized>(
    oracle: &O,
    pos: &Position,
    reset: bool,
    t0: u32,
    t1: u32,
    counts: &mut [u32],
) -> Result<(), DecideError> {
    let (s, c) = (pos.stones(), pos.cap());
    // The position after the smallest take: the opponent's layer (c, b, a', f').
    let Ok(Some(q0)) = pos.after(Move::new(t0, reset)) else {
        return Ok(());
    };
    let opp_limit = q0.limit();
    let opp_resets: &[bool] = if q0.own_resets() > 0 {
        &[false, true]
    } else {
        &[false]
    };
    let counts = counts.get_mut(..=(t1 - t0) as usize).unwrap_or_default();
    for &r2 in opp_resets {
        // Replies that take the whole pile.
        for (t, n) in (t0..=t1).zip(counts.iter_mut()) {
            if opp_limit >= s - t {
                *n += opp_limit - (s - t) + 1;
            }
        }
        // Replies below the cap: the window of piles [s - t - w, s - t - 1] of layer
        // (c, a', b', r2), w = min(limit, c - 1, s - t - 1).
        let wide = opp_limit.min(c - 1);
        let window_lo = |t: u32| (s - t).saturating_sub(wide).max(1);
        if wide >= 1 {
            if let Ok(Some(layer)) = q0.after(Move::new(1, r2)) {
                for (t, n) in (t0..=t1).zip(counts.iter_mut()) {
                    *n += trivial_losses(&layer, window_lo(t), s - t - 1);
                }
                let lo = window_lo(t1).max(c + 1);
                let hi = s - t0 - 1;
                if lo <= hi {
                    // counts[t] += P(s - t - 1) - P(window_lo(t) - 1), with P(x) the
                    // lost piles in [lo, x]: both points rise as t falls, so one
                    // ascending pass answers them (the difference is never negative,
                    // so wrapping arithmetic gives it exactly).
                    let mut upper = PrefixPoints::new(t0, t1, |t| s - t - 1);
                    let mut lower = PrefixPoints::new(t0, t1, |t| window_lo(t) - 1);
                    let mut lost_before = 0u32;
                    oracle.runs(&layer, lo, hi, &mut |first, last, v| {
                        let lost = v == Value::Lost;
                        upper.answer(
                            first,
                            last,
                            lost,
                            lost_before,
                            lo,
                            t0,
                            counts,
                            u32::wrapping_add,
                        );
                        lower.answer(
                            first,
                            last,
                            lost,
                            lost_before,
                            lo,
                            t0,
                            counts,
                            u32::wrapping_sub,
                        );
                        if lost {
                            lost_before += last - first + 1;
                        }
                    })?;
                }
            }
        }
        // The reply that takes exactly the cap: pile s - t - c of layer
        // (c + 1, a', b', r2), when the opponent may take c and stones remain.
        if opp_limit >= c && c < s - t0 {
            if let Ok(Some(layer)) = q0.after(Move::new(c, r2)) {
                let top = c + 1;
                for (t, n) in (t0..=t1).zip(counts.iter_mut()) {
                    if c < s - t {
                        *n += trivial_losses(&layer, s - t - c, s - t - c);
                    }
                }
                let lo = (s - t1).saturating_sub(c).max(top + 1);
                let hi = s - t0 - c;
                if lo <= hi {
                    oracle.runs(&layer, lo, hi, &mut |first, last, v| {
                        if v == Value::Lost {
                            for p in first.max(lo)..=last.min(hi) {
                                // Pile p is the reply after take s - p - c.
                                if let Some(n) = counts.get_mut((s - p - c - t0) as usize) {
                                    *n += 1;
                                }
                            }
                        }
                    })?;
                }
            }
        }
    }
    Ok(())
}

/// Query points `point(t)` for `t = t1` down to `t0` (rising piles), answered with
/// the lost piles from `lo` up to each point as the runs of a layer go by.
struct PrefixPoints<F> {
    /// The next take to answer, or `None` when all are.
    next: Option<u32>,
    t0: u32,
    point: F,
}

impl<F: Fn(u32) -> u32> PrefixPoints<F> {
    fn new(t0: u32, t1: u32, point: F) -> Self {
        PrefixPoints {
            next: Some(t1),
            t0,
            point,
        }
    }

    /// Answer every point up to `last`, the run `first..=last` having `lost_before`
    /// lost piles from `lo` before it, into `counts[t - base]` with `op`. Points
    /// below `lo` count nothing.
    #[allow(clippy::too_many_arguments)]
    fn answer(
        &mut self,
        first: u32,
        last: u32,
        lost: bool,
        lost_before: u32,
        lo: u32,
        base: u32,
        counts: &mut [u32],
        op: fn(u32, u32) -> u32,
    ) {
        while let Some(t) = self.next {
            let x = (self.point)(t);
            if x > last {
                return;
            }
            let prefix = if x < lo {
                0
            } else if lost && x >= first {
                lost_before + (x - first + 1)
            } else {
                lost_before
            };
            if let Some(n) = counts.get_mut((t - base) as usize) {
                *n = op(*n, prefix);
            }
            self.next = (t > self.t0).then(|| t - 1);
        }
    }
}

/// A chosen move, and the value of the position it was chosen in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The move to play; always legal in the position it was chosen for.
    pub mv: Move,
    /// [`Value::Won`] if the position is won, and then `mv` keeps it won.
    pub value: Value,
}

/// The value of `pos` for its mover: positions whose cap no longer binds are
/// decided by the rules, the rest by `oracle`.
pub fn position_value<O: Oracle + ?Sized>(
    oracle: &O,
    pos: &Position,
) -> Result<Value, DecideError> {
    match pos.trivial_value() {
        Some(v) => Ok(v),
        None => oracle.value(pos),
    }
}

/// A winning move whenever `pos` is won, else a legal move.
///
/// A win takes the whole pile when the limit allows (never with a reset). Otherwise
/// moves without a reset are tried before moves with one, so resets are kept: first
/// takes below the cap (which keep it, so the replies form one layer and the oracle
/// finds a lost one in a single pass; the smallest such take wins), then taking the
/// cap itself. A reset is never proposed without one left. In a lost position the
/// move is "take 1, no reset": the refined choice belongs to the trap-play policy.
pub fn best_move<O: Oracle + ?Sized>(oracle: &O, pos: &Position) -> Result<Decision, DecideError> {
    let (s, c, limit) = (pos.stones(), pos.cap(), pos.limit());
    if limit >= s {
        return Ok(Decision {
            mv: Move::new(s, false),
            value: Value::Won,
        });
    }
    let resets: &[bool] = if pos.own_resets() > 0 {
        &[false, true]
    } else {
        &[false]
    };
    for &reset in resets {
        // Replies to takes 1..=w (w < c) all sit in the layer of this template.
        let Ok(Some(template)) = pos.after(Move::new(1, reset)) else {
            continue;
        };
        let w = limit.min(c.saturating_sub(1));
        if w >= 1 {
            let lo = s - w;
            // Piles above the cap: ask the oracle for the largest lost one.
            if let Some(p) = oracle.largest_loss_in(&template, lo.max(c + 1), s - 1)? {
                return Ok(Decision {
                    mv: Move::new(s - p, reset),
                    value: Value::Won,
                });
            }
            // Piles at or below the cap are decided by the rules.
            for p in (lo..=c.min(s - 1)).rev() {
                if template.with_stones(p).and_then(|t| t.trivial_value()) == Some(Value::Lost) {
                    return Ok(Decision {
                        mv: Move::new(s - p, reset),
                        value: Value::Won,
                    });
                }
            }
        }
        if limit >= c {
            let mv = Move::new(c, reset);
            if let Ok(Some(next)) = pos.after(mv) {
                if position_value(oracle, &next)? == Value::Lost {
                    return Ok(Decision {
                        mv,
                        value: Value::Won,
                    });
                }
            }
        }
    }
    Ok(Decision {
        mv: Move::new(1, false),
        value: Value::Lost,
    })
}
