//! The host's side of a board in the tournament.
//!
//! `nimbot connect --board` and `nimbot exp-nim --board` keep the tournament side
//! (the platform's TCP/JSON server or the `exp-nim` client) on the host and let a
//! board decide every move through the line protocol (docs/protocol.md) on its
//! serial line. This crate holds what that needs beyond bytes: [`link`], the
//! conversation with the board as a state machine with no I/O, which believes
//! nothing the board says before the rules have checked it. The CLI owns the device
//! (a serial port or a socket), the clock and the options.

pub mod link;

#[cfg(test)]
mod fake;
