//! The game-theoretic value of a position, always from the side of the player to
//! move: a type rather than a `bool`, so no function has to say which way it reads;
//! and what an engine knows of a position ([`Evaluation`]: the value, and the
//! distance to the end when it knows it).

use crate::text::{match_text, Text};

/// Whether the player to move wins a position with perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The player to move wins.
    Won,
    /// The player to move loses against perfect play.
    Lost,
}

impl Value {
    /// [`Value::Won`] if `mover_wins`, else [`Value::Lost`]: the bridge from the
    /// oracles' bits (1 = the mover wins).
    pub const fn from_mover_wins(mover_wins: bool) -> Self {
        if mover_wins {
            Value::Won
        } else {
            Value::Lost
        }
    }

    /// True for [`Value::Won`].
    pub const fn is_won(self) -> bool {
        matches!(self, Value::Won)
    }

    /// `win` or `lose`, as `query` answers.
    pub const fn word(self) -> Text {
        match_text!(self, {
            Value::Won => "win",
            Value::Lost => "lose",
        })
    }

    /// The [`word`](Self::word) as a `&str` (not on the AVR, whose text stays in
    /// program memory).
    #[cfg(not(target_arch = "avr"))]
    pub const fn as_word(self) -> &'static str {
        self.word().as_str()
    }
}

/// What an engine knows of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The value for the player to move.
    pub value: Value,
    /// Plies to the end with best play (the move that empties the pile counts 1),
    /// if the engine knows it. Odd exactly when the position is won.
    pub distance: Option<u16>,
}
