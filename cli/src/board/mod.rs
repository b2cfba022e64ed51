//! The bridge between the tournament and a board: `connect --board` and
//! `exp-nim --board` keep the tournament side on the host and let the board, on a
//! serial line or a TCP socket, decide every move through the line protocol.
//!
//! - `nimbot_bridge::link`: the conversation with the board, a state machine with
//!   no I/O;
//! - `device`: the serial port or socket it runs over;
//! - `engine`: the link driven over the device with timeouts and the fallback.

pub mod device;
mod engine;

use clap::{Args, ValueEnum};

pub use engine::BoardEngine;

/// What the bridge does with a move the board fails to give.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// The host plays it from its own engine; the summary line counts such moves.
    Host,
    /// Give up the game (exit status 3) rather than send a move the board did not
    /// choose.
    Forfeit,
}

/// The options of `connect --board` and `exp-nim --board`.
#[derive(Args, Clone, Debug)]
pub struct BoardArgs {
    /// Let a board decide every move: a serial port (/dev/ttyACM0, /dev/ttyUSB0, a
    /// pty) or a TCP address, HOST:PORT or tcp:HOST:PORT (QEMU's socket chardev,
    /// ser2net). The host keeps the tournament side and checks every move the board
    /// sends (docs/firmware.md, "Your board in the tournament").
    #[arg(long, value_name = "DEVICE")]
    pub board: Option<String>,
    /// The serial port's speed in baud (raw, 8N1, no flow control; not used for TCP).
    #[arg(long, default_value_t = 115_200, requires = "board")]
    pub baud: u32,
    /// Seconds to wait for each reply of the board.
    #[arg(long, value_name = "SECS", default_value_t = 2.0, requires = "board")]
    pub board_timeout: f64,
    /// Faults (no reply, a garbled or illegal reply, a reset) allowed on one move
    /// before the fallback plays it; after a fallback the next move gets one try.
    /// Meeting the board, before a seat is taken, gets twice as many.
    #[arg(long, value_name = "N", default_value_t = 3, requires = "board")]
    pub board_tries: u32,
    /// Seconds of the game's clock a failing board may cost in all; past them the
    /// fallback plays every remaining move. 0: no limit.
    #[arg(long, value_name = "SECS", default_value_t = 30.0, requires = "board")]
    pub board_budget: f64,
    /// Write the conversation with the board to this file, line by line with the
    /// time (for finding out what a misbehaving board or line does).
    #[arg(long, value_name = "FILE", requires = "board")]
    pub board_log: Option<std::path::PathBuf>,
    /// When the board fails a move: `host` plays it (the summary line says how many
    /// it played), `forfeit` gives the game up (exit status 3).
    #[arg(long, value_enum, default_value_t = Fallback::Host, requires = "board")]
    pub board_fallback: Fallback,
}
