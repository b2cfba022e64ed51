//! Choosing a move from won/lost knowledge: any source of that knowledge (the
//! in-memory solver, the flash table) is an [`Oracle`], and [`best_move`] turns it
//! into a legal move that wins whenever the position is won.

use core::fmt;

use crate::rules::{Move, Position};

/// The position lies outside what an oracle or engine knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecideError {
    /// Outside the limits of the table or solution (stones, resets, cap or M).
    OutOfRange,
    /// Solving it on the fly would take more memory or time than allowed.
    TooLarge,
}

impl DecideError {
    /// A short, static description (also used by the line protocol).
    pub const fn as_str(self) -> &'static str {
        match self {
            DecideError::OutOfRange => "position outside the engine's limits",
            DecideError::TooLarge => "position too large to solve here",
        }
    }
}

impl fmt::Display for DecideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Knows, for some set of positions whose cap still binds (`c < s`), whether the
/// player to move wins.
pub trait Oracle {
    /// `Ok(true)` if the mover wins `pos`; [`DecideError::OutOfRange`] outside the
    /// oracle's limits. Only asked about positions with `c < s`.
    fn is_win(&self, pos: &Position) -> Result<bool, DecideError>;
}

/// A chosen move, and whether it keeps a won game won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The move to play; always legal in the position it was chosen for.
    pub mv: Move,
    /// True if the position is won and `mv` keeps it won.
    pub wins: bool,
}

/// Whether the mover wins `pos`: positions whose cap no longer binds are decided by
/// the rules, the rest by `oracle`.
pub fn position_value<O: Oracle + ?Sized>(oracle: &O, pos: &Position) -> Result<bool, DecideError> {
    match pos.trivial_value() {
        Some(v) => Ok(v),
        None => oracle.is_win(pos),
    }
}

/// A winning move whenever `pos` is won, else a legal move.
///
/// A win takes the whole pile when the limit allows (never with a reset), otherwise
/// the first move that leaves the opponent lost, trying moves without a reset
/// (largest take first) before moves with one, so resets are kept for later. A reset
/// is never proposed without one left. In a lost position the move is "take 1, no
/// reset": the refined choice belongs to the trap-play policy.
pub fn best_move<O: Oracle + ?Sized>(oracle: &O, pos: &Position) -> Result<Decision, DecideError> {
    let limit = pos.limit();
    if limit >= pos.stones() {
        return Ok(Decision {
            mv: Move::new(pos.stones(), false),
            wins: true,
        });
    }
    let resets: &[bool] = if pos.own_resets() > 0 {
        &[false, true]
    } else {
        &[false]
    };
    for &reset in resets {
        for take in (1..=limit).rev() {
            let mv = Move::new(take, reset);
            if let Ok(Some(next)) = pos.after(mv) {
                if !position_value(oracle, &next)? {
                    return Ok(Decision { mv, wins: true });
                }
            }
        }
    }
    Ok(Decision {
        mv: Move::new(1, false),
        wins: false,
    })
}
