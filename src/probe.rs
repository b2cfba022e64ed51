//! The root probe: every legal move of a position with its value and its distance
//! to the end, as endgame tablebases answer (Fathom's root probe, Gamesman's
//! `query`). The line protocol's `moves` and `query` and the host's `moves` command
//! are built on it.
//!
//! A distance is the number of plies to the end when the winner hurries and the
//! loser holds out ([`crate::distance`]); only engines with the solver know it, so
//! it is an `Option` here: `None` from a table-only engine (the firmware), or when
//! the distances of the game would not fit the engine's memory budget.

use core::iter::Take;

use crate::engine::Engine;
use crate::rules::{Move, Moves, Position};
use crate::strategy::DecideError;
use crate::value::Value;

/// One move of a root probe, seen from the player who makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEvaluation {
    /// The move.
    pub mv: Move,
    /// [`Value::Won`] if the move wins (it empties the pile or leaves the opponent a
    /// lost position), else [`Value::Lost`].
    pub value: Value,
    /// Plies to the end with best play after it, counting the move itself (1 for
    /// the move that empties the pile, which the rules settle for any engine), if
    /// the engine knows it.
    pub distance: Option<u16>,
}

/// The moves a root probe lists, in the order of [`Position::moves`] (the one
/// enumeration of legal moves), bounded by the pile: every take from 1 to the limit
/// (or the whole pile, if less) without a reset, then the same with a reset when
/// the mover has one, except on the take that empties the pile. Takes beyond the
/// pile, and a reset on the take that empties it, are legal but left out: they end
/// the game exactly as taking the pile does. Skipping into it costs nothing (a
/// probe pages through the moves of a pile of any size).
pub fn root_moves(pos: &Position) -> Take<Moves> {
    let top = pos.limit().min(pos.stones());
    let with_reset = pos.own_resets() > 0;
    let count = match (with_reset, top == pos.stones()) {
        (false, _) => u64::from(top),
        (true, false) => 2 * u64::from(top),
        (true, true) => 2 * u64::from(top) - 1,
    };
    Moves::new(top, with_reset).take(usize::try_from(count).unwrap_or(usize::MAX))
}

/// The value and distance of playing `mv` at `pos`, from `engine`.
///
/// # Errors
/// [`DecideError::OutOfRange`] if `mv` is not legal at `pos` or the engine does
/// not cover the position it leads to; the engine's other errors as they come.
pub fn evaluate_move<E: Engine + ?Sized>(
    engine: &mut E,
    pos: &Position,
    mv: Move,
) -> Result<MoveEvaluation, DecideError> {
    let next = pos.after(mv).map_err(|_| DecideError::OutOfRange)?;
    let (value, distance) = match next {
        None => (Value::Won, Some(1)),
        Some(next) => {
            let e = engine.evaluate(&next)?;
            let value = Value::from_mover_wins(!e.value.is_won());
            (value, e.distance.and_then(|d| d.checked_add(1)))
        }
    };
    Ok(MoveEvaluation {
        mv,
        value,
        distance,
    })
}
