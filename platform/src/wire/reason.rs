//! Why a game ended: the kinds of the platform's reason texts, read from a text's
//! ending and written back with the player's name.

use heapless::Vec;

use nimbot::Player;

use super::limits::MAX_REASON;

/// How a `reason` string ends a game (names are ignored: they can collide).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// "Player X won the game! Congrats!": the last move emptied the pile.
    Won,
    /// "Player X made an illegal move".
    IllegalMove,
    /// "Player X used too many resets".
    TooManyResets,
    /// "Player X moved out of turn" (X is the player who was not to move).
    OutOfTurn,
    /// "Player X exceeded time limit".
    TimeLimit,
    /// Anything else, or no reason.
    Unknown,
}

impl Reason {
    /// Classify a reason text by its ending.
    pub fn classify(text: &[u8]) -> Reason {
        for kind in Reason::KINDS {
            if text.starts_with(b"Player ") && text.ends_with(kind.suffix().as_bytes()) {
                return kind;
            }
        }
        Reason::Unknown
    }

    /// Every kind of a reason text ([`Reason::Unknown`] aside).
    pub const KINDS: [Reason; 5] = [
        Reason::Won,
        Reason::IllegalMove,
        Reason::TooManyResets,
        Reason::OutOfTurn,
        Reason::TimeLimit,
    ];

    /// The fixed ending of the platform's reason text ("" for [`Reason::Unknown`]).
    pub const fn suffix(self) -> &'static str {
        match self {
            Reason::Won => " won the game! Congrats!",
            Reason::IllegalMove => " made an illegal move",
            Reason::TooManyResets => " used too many resets",
            Reason::OutOfTurn => " moved out of turn",
            Reason::TimeLimit => " exceeded time limit",
            Reason::Unknown => "",
        }
    }

    /// A short description for summaries.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Won => "took the last stone",
            Reason::IllegalMove => "illegal move",
            Reason::TooManyResets => "too many resets",
            Reason::OutOfTurn => "moved out of turn",
            Reason::TimeLimit => "time limit",
            Reason::Unknown => "unknown reason",
        }
    }

    /// The reason text the platform sends for a game `offender` ended this way
    /// (the winner for [`Reason::Won`], the loser otherwise), e.g.
    /// `Player alice won the game! Congrats!`.
    pub fn text(self, offender: &[u8]) -> Vec<u8, MAX_REASON> {
        let mut out = Vec::new();
        for part in [b"Player ".as_slice(), offender, self.suffix().as_bytes()] {
            for &b in part {
                // Names are at most MAX_NAME bytes: the text always fits.
                let _ = out.push(b);
            }
        }
        out
    }

    /// The winner of a game ended by a fault of the player whose message was judged
    /// (`mover`): out of turn, the sender was not to move and its opponent wins; an
    /// illegal move, a reset too many or the clock, the mover loses. `None` for
    /// [`Reason::Won`] and [`Reason::Unknown`], which the moves must decide.
    pub fn fault_winner(self, mover: Player) -> Option<Player> {
        match self {
            Reason::OutOfTurn => Some(mover),
            Reason::IllegalMove | Reason::TooManyResets | Reason::TimeLimit => Some(mover.other()),
            Reason::Won | Reason::Unknown => None,
        }
    }
}
