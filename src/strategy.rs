//! Choosing a move from won/lost knowledge: any source of that knowledge (the
//! in-memory solver, the flash table) is an [`Oracle`], and [`best_move`] turns it
//! into a legal move that wins whenever the position is won. How to move in a lost
//! position is a [`Policy`](crate::Policy): see [`policy`](crate::policy).

use crate::rules::{Move, Position};
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

/// Knows, for some set of positions whose cap still binds (`c < s`), whether the
/// player to move wins.
pub trait Oracle {
    /// The value of `pos` for its mover; [`DecideError::OutOfRange`] outside the
    /// oracle's limits. Only asked about positions with `c < s`.
    fn value(&self, pos: &Position) -> Result<Value, DecideError>;

    /// The largest pile `p` in `lo..=hi` such that `layer` with `p` stones (its own
    /// pile is ignored) is lost for its mover; `lo` is at least the cap + 1.
    ///
    /// The default asks [`Oracle::value`] pile by pile; a table answers with one pass
    /// over the layer.
    fn largest_loss_in(
        &self,
        layer: &Position,
        lo: u32,
        hi: u32,
    ) -> Result<Option<u32>, DecideError> {
        let lo = lo.max(layer.cap().saturating_add(1));
        for p in (lo..=hi).rev() {
            let Some(pos) = layer.with_stones(p) else {
                continue;
            };
            if self.value(&pos)? == Value::Lost {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// How many piles `p` in `lo..=hi` leave `layer` (its own pile ignored) lost for
    /// its mover; `lo` is at least the cap + 1. The default asks pile by pile.
    fn count_losses_in(&self, layer: &Position, lo: u32, hi: u32) -> Result<u32, DecideError> {
        let mut n = 0u32;
        for p in lo.max(layer.cap().saturating_add(1))..=hi {
            if let Some(pos) = layer.with_stones(p) {
                if self.value(&pos)? == Value::Lost {
                    n += 1;
                }
            }
        }
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
    for &reset in pos.reset_choices() {
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
