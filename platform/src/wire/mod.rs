//! What both ends of the platform's wire agree on: its messages, typed once
//! ([`message`]: hello, welcome, move, state and the end, in JSON; [`lines`]:
//! `exp-nim`'s lines, the server's game log and the reason texts), message and
//! name limits, and a finished game's result. The clients
//! ([`tcp_client`](super::tcp_client), [`text_client`](super::text_client)) read
//! these; the [`referee`](super::referee) writes them. No key of a message and no
//! text of a line is spelled outside this module.

mod limits;
pub mod lines;
pub mod message;
mod outcome;
mod reason;

pub use limits::{DEFAULT_CLOCK, MAX_MESSAGE, MAX_NAME, MAX_REASON};
pub use lines::{Ending, Line, Mover};
pub use message::{
    safe_name, End, Hello, MoveMessage, SeatState, State, StateFields, Welcome, WireError,
};
pub use outcome::{GameResult, EXIT_FAILED, EXIT_LOST, EXIT_USAGE, EXIT_WON, MAX_SUMMARY};
pub use reason::Reason;
