//! `--board` on `connect` and `exp-nim`: the flags, checked and turned into the
//! bridge's [`BoardOptions`], and the board met before a seat is taken. The bridge
//! itself (the conversation, the device, the engine) is `nimbot_bridge`; this file
//! only says in the command line's words what goes wrong, with exit status 2.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use nimbot::{Player, Policy};
use nimbot_bridge::device::Device;
use nimbot_bridge::engine::{BoardEngine, BoardOptions, Fallback};

use crate::policy::PolicyArgs;

/// The exit status for a board that cannot play, before any seat is taken.
const EXIT_BOARD: u8 = 2;

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

impl BoardArgs {
    /// With `--board`, the board met and checked for what is known of the game
    /// (`known`: N and R when the command line gives them, M always) before the
    /// caller takes a seat; without, `None`. `--win fastest` (a board has no
    /// distances), flags out of range, and a board that cannot play are one line on
    /// stderr and exit status 2.
    pub fn meet(
        &self,
        cmd: &str,
        play: PolicyArgs,
        policy: Policy,
        seat: Player,
        known: (Option<u32>, Option<u8>, u32),
    ) -> Result<Option<BoardEngine>, ExitCode> {
        let Some(board) = self.board.as_deref() else {
            return Ok(None);
        };
        play.board_win(cmd)?;
        let fail = |msg: String| {
            eprintln!("nimbot {cmd}: {msg}");
            ExitCode::from(EXIT_BOARD)
        };
        let seconds = |x: f64| x >= 0.0 && x.is_finite();
        let sane = self.board_timeout > 0.0
            && seconds(self.board_timeout)
            && seconds(self.board_budget)
            && self.board_tries > 0
            && self.baud > 0;
        if !sane {
            return Err(fail(
                "--board-timeout must be positive seconds, --board-budget seconds, --board-tries and --baud at least 1".into(),
            ));
        }
        let options = BoardOptions {
            device: Device::parse(board, self.baud),
            tries: self.board_tries,
            timeout: Duration::from_secs_f64(self.board_timeout),
            budget: Duration::from_secs_f64(self.board_budget),
            log: self.board_log.clone(),
            fallback: self.board_fallback,
        };
        let engine = BoardEngine::meet(&options, policy, seat).map_err(fail)?;
        let (stones, resets, init_max) = known;
        engine.check(stones, resets, init_max).map_err(fail)?;
        Ok(Some(engine))
    }
}
