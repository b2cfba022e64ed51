//! The bridge between the tournament and a board: `connect --board` and
//! `exp-nim --board` keep the tournament side on the host and let the board, on a
//! serial line or a TCP socket, decide every move through the line protocol.
//!
//! - [`link`]: the conversation with the board, a state machine with no I/O;
//! - `device`: the serial port or socket it runs over.

#[cfg(test)]
mod fake;
pub mod link;
