//! The words every JSON line of the CLI shares (`query`, `moves`, `line`,
//! `analyze`, game records): a value is `"win"` or `"lose"` for the player who
//! moves (as the line protocol and `query` answer), a distance is plies to the
//! end or `null`, and a move is an object `{"take":K,"reset":B}`, with its
//! `value` and `distance` when it is evaluated. `tests/schema.rs` pins it.

use nimbot::{Move, MoveEvaluation, Position, Value};
use serde::Serialize;

/// The head of every JSON answer about one position (`query`, `moves`, `line`):
/// its six numbers at the top level, then its value and distance for the mover.
/// The answer's own fields follow it (`#[serde(flatten)]`).
#[derive(Serialize, Clone, Copy, Debug)]
pub struct PositionJson {
    #[serde(flatten)]
    pub position: Position,
    /// "win" or "lose", for the player to move.
    pub value: &'static str,
    /// Plies to the end, `null` if unknown.
    pub distance: Option<u16>,
}

impl PositionJson {
    pub fn new(position: Position, value: Value, distance: Option<u16>) -> Self {
        PositionJson {
            position,
            value: value.as_word(),
            distance,
        }
    }
}

/// A move, with its value and distance for its mover when known.
#[derive(Serialize, Clone, Copy, Debug)]
pub struct MoveJson {
    pub take: u32,
    pub reset: bool,
    /// "win" or "lose" for the mover; absent for a bare move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<&'static str>,
    /// Plies to the end after the move, counting it (absent for a bare move,
    /// `null` if unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<Option<u16>>,
}

impl From<Move> for MoveJson {
    fn from(m: Move) -> Self {
        MoveJson {
            take: m.take,
            reset: m.reset,
            value: None,
            distance: None,
        }
    }
}

impl From<&MoveEvaluation> for MoveJson {
    fn from(m: &MoveEvaluation) -> Self {
        MoveJson {
            take: m.mv.take,
            reset: m.mv.reset,
            value: Some(m.value.as_word()),
            distance: Some(m.distance),
        }
    }
}

/// A move as the text tables and `--after` write it: `3`, or `2r` with a reset.
pub fn move_text(m: Move) -> String {
    format!("{}{}", m.take, if m.reset { "r" } else { "" })
}
