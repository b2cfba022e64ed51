//! The words every JSON line of the CLI and the page share (`query`, `moves`, `line`,
//! `analyze`, game records): a value is `"win"` or `"lose"` for the player who
//! moves (as the line protocol and `query` answer), a distance is plies to the
//! end or `null`, and a move is an object `{"take":K,"reset":B}`, with its
//! `value` and `distance` when it is evaluated. The schema test of
//! `cli/tests/answers.rs` pins it.

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

/// An answer about one position with the move played there (`query --json`):
/// the position's head (its fields at the top level), then `"move"`.
#[derive(Serialize, Debug)]
pub struct WithMove<H, M> {
    #[serde(flatten)]
    pub head: H,
    #[serde(rename = "move")]
    pub mv: M,
}

/// An answer about one position with every move there (`moves --json`).
#[derive(Serialize, Debug)]
pub struct WithMoves<H, M> {
    #[serde(flatten)]
    pub head: H,
    pub moves: Vec<M>,
}

/// An answer about one position with the best-play line from it (`line --json`).
#[derive(Serialize, Debug)]
pub struct WithLine<H, M> {
    #[serde(flatten)]
    pub head: H,
    pub line: Vec<M>,
}

/// `value` as one line of JSON, with its newline: the one writer of every JSON
/// line a command prints, a record holds or the page reads, so that names are
/// escaped and numbers spelled by one serializer, never by hand.
pub fn line<T: Serialize>(value: &T) -> String {
    // The vocabulary's structs (numbers, strings, options, arrays and maps with
    // string keys) always serialize; anything else would be a bug shown as such.
    let mut text = serde_json::to_string(value)
        .unwrap_or_else(|e| format!("{{\"error\":\"not serialized: {e}\"}}"));
    text.push('\n');
    text
}

/// `x` rounded to `places` decimals: figures keep the precision they are measured
/// to (JSON prints the shortest spelling, e.g. 0.25 for 0.2500).
pub fn round(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}
