//! The host's side of a board in the tournament.
//!
//! `nimbot connect --board` and `nimbot exp-nim --board` keep the tournament side
//! (the platform's TCP/JSON server or the `exp-nim` client) on the host and let a
//! board decide every move through the line protocol (docs/protocol.md) on its
//! serial line. This crate holds all of it but the command line:
//!
//! - [`link`]: the conversation with the board, a state machine with no I/O, which
//!   believes nothing the board says before the rules have checked it;
//! - [`device`]: the serial port or socket it runs over, a line at a time with a
//!   deadline;
//! - [`engine`]: the link driven over the device with timeouts and the fallback, as
//!   an `nimbot::Engine` the tournament clients play with;
//! - [`replies`]: the line protocol's replies as JSON, for the scripts that
//!   drive a board (`nimbot protocol parse`).
//!
//! The CLI keeps the flags (`BoardArgs`), turns them into [`engine::BoardOptions`]
//! and prints what goes wrong with its own exit status.

pub mod device;
pub mod engine;
pub mod link;
pub mod replies;

#[cfg(test)]
mod fake;
