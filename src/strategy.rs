//! Choosing a move from won/lost knowledge: any source of that knowledge (the
//! in-memory solver, the flash table) is an [`Oracle`], and [`best_move`] turns it
//! into a legal move that wins whenever the position is won. How to move in a lost
//! position is a [`Policy`](crate::Policy): see [`policy`](crate::policy).

use crate::rules::{Move, Position, MAX_STONES};
use crate::text::{match_text, Text};
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
    /// The engine does not play the policy asked for (it lacks the knowledge the
    /// policy needs: [`Policy::needs`](crate::Policy::needs)).
    Unsupported,
}

impl DecideError {
    /// A short, static description (also used by the line protocol).
    pub const fn text(self) -> Text {
        match_text!(self, {
            DecideError::OutOfRange => "position outside the engine's limits",
            DecideError::TooLarge => "position too large to solve here",
            DecideError::BadTable => "table data damaged",
            DecideError::Unsupported => "policy not played by this engine",
        })
    }
}

crate::text::error_from_text!(DecideError);

/// What a pass over a layer's values calls for each run: `(first, last, value)`,
/// the piles `first..=last` all of that value ([`Oracle::runs`]).
pub type Visit<'a> = dyn FnMut(u32, u32, Value) + 'a;

/// Knows, for some set of positions whose cap still binds (`c < s`), whether the
/// player to move wins.
pub trait Oracle {
    /// The value of `pos` for its mover; [`DecideError::OutOfRange`] outside the
    /// oracle's limits. Only asked about positions with `c < s`.
    fn value(&self, pos: &Position) -> Result<Value, DecideError>;

    /// Visit the values of `layer` (its own pile ignored) over piles `lo..=hi`, as
    /// runs `f(first, last, value)`, lowest first, that cover every pile of the
    /// range (neighbouring runs may share a value); `lo` is at least the cap + 1.
    ///
    /// The default asks [`Oracle::value`] pile by pile; a table answers from one
    /// pass over the coded layer, which is what makes a decision cheap.
    fn runs(&self, layer: &Position, lo: u32, hi: u32, f: &mut Visit) -> Result<(), DecideError> {
        for p in lo.max(layer.cap().saturating_add(1))..=hi {
            if let Some(pos) = layer.with_stones(p) {
                f(p, p, self.value(&pos)?);
            }
        }
        Ok(())
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

/// The values of `layer` (its own pile ignored) over piles `lo..=hi`, `lo` at least
/// 1, as runs `visit(first, last, value)`, lowest first: the piles up to the cap by
/// the rules ([`Position::trivial_value`]), the others by the oracle, in one pass.
pub(crate) fn layer_runs<O: Oracle + ?Sized>(
    oracle: &O,
    layer: &Position,
    lo: u32,
    hi: u32,
    visit: &mut Visit,
) -> Result<(), DecideError> {
    let c = layer.cap();
    // The open piles a run at time (a run of the rules' values is found in O(1)), so
    // the cost does not grow with M or the cap.
    let (mut p, last) = (lo.max(1), hi.min(c).min(MAX_STONES));
    while p <= last {
        let end = layer.trivial_run_end(p).min(last);
        if let Some(v) = layer.with_stones(p).and_then(|q| q.trivial_value()) {
            visit(p, end, v);
        }
        match end.checked_add(1) {
            Some(next) => p = next,
            None => break,
        }
    }
    if hi > c {
        oracle.runs(layer, lo.max(c.saturating_add(1)), hi, visit)?;
    }
    Ok(())
}

/// A winning move whenever `pos` is won, else a legal move.
///
/// A win takes the whole pile when the limit allows (never with a reset). Otherwise
/// moves without a reset are tried before moves with one, so resets are kept: first
/// takes below the cap (which keep it, so the replies form one layer, read in a
/// single pass; the smallest take to a lost pile wins), then taking the cap itself.
/// A reset is never proposed without one left. In a lost position the move is
/// "take 1, no reset": the refined choice belongs to the trap-play policy.
pub fn best_move<O: Oracle + ?Sized>(oracle: &O, pos: &Position) -> Result<Decision, DecideError> {
    let (s, c, limit) = (pos.stones(), pos.cap(), pos.limit());
    if limit >= s {
        return Ok(Decision {
            mv: Move::new(s, false),
            value: Value::Won,
        });
    }
    // The largest pile of `layer` in `lo..=hi` that is lost for its mover.
    let largest_loss = |layer: &Position, lo: u32, hi: u32| {
        let mut found = None;
        layer_runs(oracle, layer, lo, hi, &mut |_, last, v| {
            if v == Value::Lost {
                found = Some(last);
            }
        })
        .map(|()| found)
    };
    for &reset in pos.reset_choices() {
        // Takes 1..=w (below the cap, w < s) all land in the layer of this template.
        let w = limit.min(c.saturating_sub(1));
        if w >= 1 {
            if let Ok(Some(template)) = pos.after(Move::new(1, reset)) {
                if let Some(p) = largest_loss(&template, s - w, s - 1)? {
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
                if largest_loss(&next, next.stones(), next.stones())?.is_some() {
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
