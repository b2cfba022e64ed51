//! What both ends of the platform's wire agree on: its messages, typed once
//! ([`message`]: hello, welcome, move, state and the end, in JSON; [`lines`]:
//! `exp-nim`'s lines, the server's game log and the reason texts), message and
//! name limits, and a finished game's result. The clients
//! ([`tcp_client`](super::tcp_client), [`text_client`](super::text_client)) read
//! these; the [`referee`](super::referee) writes them. No key of a message and no
//! text of a line is spelled outside this module.

pub mod lines;
pub mod message;

pub use lines::{Ending, Line, Mover};
pub use message::{
    safe_name, End, Hello, MoveMessage, SeatState, State, StateFields, Welcome, WireError,
};

use heapless::Vec;

use nimbot::{text::Decimal, Player};

/// The largest server message a peer should buffer (a state message is about 300
/// bytes; names are what can make it longer).
pub const MAX_MESSAGE: usize = 4096;
/// The longest player name, in bytes: what the client sends and the referee keeps.
pub const MAX_NAME: usize = 64;
/// Each player's thinking time in a game, in seconds, unless the server says
/// otherwise (docs/rules.md's T): the referee's default and what a client
/// assumes when the welcome has no `game_time`.
pub const DEFAULT_CLOCK: u32 = 120;
/// Room for a reason text (`Player NAME` and the longest ending).
pub const MAX_REASON: usize = MAX_NAME + 40;

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
}

/// How a finished game ended, as the client sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The seat that won.
    pub winner: Player,
    /// True if that is this client's seat.
    pub won: bool,
    /// Why the game ended.
    pub reason: Reason,
    /// Moves applied (the final winning move included).
    pub moves: u32,
}

impl Reason {
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
}

impl GameResult {
    /// The result for the client in `seat` of a game `winner` won after `moves` moves.
    pub fn new(winner: Player, seat: Player, reason: Reason, moves: u32) -> Self {
        GameResult {
            winner,
            won: winner == seat,
            reason,
            moves,
        }
    }
}

impl Reason {
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

/// Room for a [`GameResult::summary`] line.
pub const MAX_SUMMARY: usize = 128;

impl GameResult {
    /// The seat this client played.
    pub fn seat(&self) -> Player {
        if self.won {
            self.winner
        } else {
            self.winner.other()
        }
    }

    /// The one-line summary a command prints (without a line end), e.g.
    /// `nimbot connect: won as first after 7 moves (took the last stone)`.
    pub fn summary(&self, cmd: &str) -> Vec<u8, MAX_SUMMARY> {
        let seat = self.seat().name().as_bytes();
        let (how, why): (&[u8], &[u8]) = match (self.won, self.reason) {
            (true, Reason::Won) => (b"took the last stone", b""),
            (false, Reason::Won) => (b"the opponent took the last stone", b""),
            (true, other) => (b"the opponent lost by ", other.as_str().as_bytes()),
            (false, other) => (b"lost by ", other.as_str().as_bytes()),
        };
        let moves = Decimal::new(self.moves);
        let mut out = Vec::new();
        for part in [
            b"nimbot ".as_slice(),
            cmd.as_bytes(),
            if self.won {
                b": won as "
            } else {
                b": lost as "
            },
            seat,
            b" after ",
            &moves,
            b" moves (",
            how,
            why,
            b")",
        ] {
            for &b in part {
                let _ = out.push(b);
            }
        }
        out
    }

    /// The exit status of a command that played this game: [`EXIT_WON`] or
    /// [`EXIT_LOST`].
    pub fn exit_status(&self) -> u8 {
        if self.won {
            EXIT_WON
        } else {
            EXIT_LOST
        }
    }
}

/// Exit status of `connect` and `exp-nim` (host and tiny binary): the game was won.
pub const EXIT_WON: u8 = 0;
/// Exit status: the game was lost.
pub const EXIT_LOST: u8 = 1;
/// Exit status: the command line cannot make a game.
pub const EXIT_USAGE: u8 = 2;
/// Exit status: no result (protocol, connection or state-mismatch error).
pub const EXIT_FAILED: u8 = 3;
