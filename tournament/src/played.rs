//! What a game of a tournament is and how it ended, as `tournament.json` and the
//! results file keep them: the rules, a scheduled pairing, the ending's kind and
//! its details, and the finished game with its record ([`crate::game`] plays it).

use nimbot_analysis::record;
use serde::{Deserialize, Serialize};

/// The rules every game of a tournament is played by.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Rules {
    pub resets: u8,
    pub init_max: u32,
    /// Seconds of thinking per player and game.
    pub time: f64,
    /// Seconds a bot has to join.
    pub join_timeout: f64,
    /// `current_max` as the course's server sends it since its "reset fix" of
    /// 2018-09-20 (the largest take so far), else as before (the next move's limit).
    pub largest: bool,
    /// `init_max` and `game_time` in the welcome.
    pub welcome_extras: bool,
    /// Milliseconds the referee keeps between two messages to the same bot (on
    /// nobody's clock), for clients that read once per message.
    #[serde(default)]
    pub pace_ms: u64,
    /// The port every game's referee listens on (for bots that hard-code one);
    /// `None`: a free loopback port per game.
    #[serde(default)]
    pub port: Option<u16>,
}

/// One scheduled game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Pairing {
    /// From 1, in schedule order.
    pub game: usize,
    pub stones: u32,
    /// The bots' indices, first seat first.
    pub bots: [usize; 2],
}

/// How a game ended.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// The winner took the last stone.
    Won,
    /// A take outside 1..=limit, or a message that is no move.
    IllegalMove,
    /// A reset with none left.
    TooManyResets,
    /// A message when the other player was to move.
    OutOfTurn,
    /// The mover's clock ran out.
    Time,
    /// The bot's process ended (status or signal) before the game did.
    Exited,
    /// No hello within the join timeout.
    NeverJoined,
    /// The bot's connection closed before the game ended (its process still ran).
    Closed,
    /// Bytes that are not a JSON object (or a message over 1 KB).
    Garbage,
    /// A second hello for a seat already taken.
    JoinedTwice,
    /// A hello asking for the seat the schedule gave its opponent.
    WrongSeat,
    /// No valid result (both bots failed to join, or the runner could not start the
    /// game).
    NoResult,
}

impl EndKind {
    pub fn word(self) -> &'static str {
        match self {
            EndKind::Won => "won",
            EndKind::IllegalMove => "illegal move",
            EndKind::TooManyResets => "too many resets",
            EndKind::OutOfTurn => "out of turn",
            EndKind::Time => "time",
            EndKind::Exited => "exited",
            EndKind::NeverJoined => "never joined",
            EndKind::Closed => "connection closed",
            EndKind::Garbage => "garbage",
            EndKind::JoinedTwice => "joined twice",
            EndKind::WrongSeat => "wrong seat",
            EndKind::NoResult => "no result",
        }
    }
}

/// The ending: what happened, to whom, when.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Ending {
    pub kind: EndKind,
    /// The seat it is about: the winner for `won`, else the seat at fault.
    pub seat: Option<u8>,
    /// One line for people.
    pub text: String,
    /// The ply it happened at: plies played, or for a refused move the ply it
    /// tried (an illegal first move is ply 1), as the text says.
    pub ply: u32,
    /// Seconds since the game's referee started.
    pub after: f64,
    /// The offender's clock, for `time`.
    pub clock: Option<f64>,
    /// For `exited`: the exit status or the signal.
    pub status: Option<i32>,
    pub signal: Option<i32>,
    /// For `exited`: seconds from the process's end to the verdict.
    pub detected_in: Option<f64>,
    /// For `illegal_move`: the take would have been legal had the bot read
    /// `current_max` in its other meaning (it took `current_max + 1` from a referee
    /// sending the next move's limit, as the course's bots since 2018 do).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub other_meaning: bool,
}

/// A finished game, as written to the results file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Played {
    pub game: usize,
    pub stones: u32,
    pub resets: u8,
    pub init_max: u32,
    /// Bot indices, first seat first.
    pub bots: [usize; 2],
    pub names: [String; 2],
    /// The winning seat; `null` when the game has no valid result.
    pub winner: Option<u8>,
    pub ending: Ending,
    pub plies: u32,
    /// Both clocks at the end, seconds.
    pub clocks: [f64; 2],
    /// Wall time of the game, seconds.
    pub seconds: f64,
    /// The seat whose start was won (the value of the first position), if known.
    pub won_start: Option<u8>,
    /// Per seat: whether the first position it had to move in was won (`null`: it
    /// never moved). The second seat's start follows the first seat's first move,
    /// so both can be won (after a blunder on ply 1) or neither.
    #[serde(default)]
    pub starts: [Option<bool>; 2],
    /// Blunders per seat and the seat of the game's first one (from the record).
    pub blunders: [u32; 2],
    pub first_blunder: Option<u8>,
    /// The last bytes of each bot's stderr (the whole of it, up to 1 MB, is in
    /// `stderr/`), and its length.
    pub stderr_tail: [String; 2],
    pub stderr_bytes: [u64; 2],
    /// The game's record, line by line, as `nimbot analyze` reads it (also in
    /// `records/`).
    pub record: Vec<record::Line>,
}
