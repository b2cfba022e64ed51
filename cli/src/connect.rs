//! `nimbot connect`: play one game against the platform's TCP server.
//!
//! The protocol is `nimbot_platform::tcp_client::Client`, the game's loop
//! `nimbot_match::client::play_tcp`; this file checks the options, reaches the
//! server (with `--retry`, one that is not up yet is waited for) and says how the
//! game went. With `--board` the moves come from a board on a serial line
//! (`crate::board`); with `--record` the game is written down
//! (`nimbot_match::recorder`, in the format of `nimbot_analysis::record`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use nimbot::{Engine, Player, Policy};
use nimbot_bridge::engine::BoardEngine;
use nimbot_match::client::{play_tcp, reach};
use nimbot_match::recorder::Recorder;
use nimbot_platform::tcp_client::Client;
use nimbot_platform::wire::{GameResult, EXIT_FAILED, EXIT_USAGE};

use crate::board::BoardArgs;
use crate::policy::PolicyArgs;

#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("seat").required(true))]
#[command(
    after_help = "Examples:\n  nimbot connect 127.0.0.1:9000 --first --name alice\n  nimbot connect game.example.org:9000 --second --init-max 3 --retry 60\n  nimbot connect 127.0.0.1:9000 --first --board /dev/ttyACM0     a board decides the moves\n  nimbot connect 127.0.0.1:9000 --second --board 127.0.0.1:5555  (QEMU's -serial tcp:...)"
)]
pub struct ConnectArgs {
    /// The server, HOST:PORT.
    addr: String,
    /// Ask for the first seat (order 0).
    #[arg(long, group = "seat")]
    first: bool,
    /// Ask for the second seat (order 1).
    #[arg(long, group = "seat")]
    second: bool,
    /// The name sent to the server.
    #[arg(long, short = 'n', default_value = "nimbot")]
    name: String,
    /// M, used unless the server's welcome says otherwise.
    #[arg(long, short = 'm', default_value_t = 3)]
    init_max: u32,
    /// Give up (exit 3) after this many seconds without a byte from the server; 0 waits forever.
    #[arg(long, default_value_t = 600.0)]
    timeout: f64,
    /// Keep trying to reach a server that is not up yet for this many seconds
    /// (pauses from 0.1 s doubling to 2 s, one line on stderr); 0 tries once.
    #[arg(long, value_name = "SECS", default_value_t = 0.0)]
    retry: f64,
    /// Send each move no sooner than MS milliseconds after the server's last message.
    /// The stock Python clients read one recv() per message and crash when two state
    /// messages arrive together, which a bot answering in microseconds provokes; a
    /// pace of 20-50 ms avoids that. The wait is charged to nimbot's clock (about
    /// pace x 500 moves at most, e.g. 10 s of the 120 s at 20 ms for 999 stones).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pace: u64,
    /// Write the game's record to FILE (JSON lines: a header, one line per ply
    /// with the mover's value, distance, blunder flag and clock, the end), for
    /// `nimbot analyze`; written when the game is over.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// No summary line on stderr when the game ends (errors are still said); the
    /// exit status tells the result. The tournament runs nimbot's policies so.
    #[arg(long, short = 'q')]
    quiet: bool,
    #[command(flatten)]
    side: SideArgs,
}

/// One summary line on stderr and the exit status for a finished game; with a
/// board, the bridge's part follows the result.
fn report(cmd: &str, r: &GameResult, board: Option<&BoardEngine>) -> ExitCode {
    let summary = String::from_utf8_lossy(&r.summary(cmd)).into_owned();
    match board {
        Some(b) => eprintln!("{summary}; {}", b.describe()),
        None => eprintln!("{summary}"),
    }
    ExitCode::from(r.exit_status())
}

/// The seat `--first` (else `--second`) asks for.
pub fn seat(first: bool) -> Player {
    if first {
        Player::First
    } else {
        Player::Second
    }
}

/// A game that could not be played to its end: one line, exit status 3. A game
/// the bridge gave up (`--board-fallback forfeit`) says so.
fn fail(cmd: &str, msg: &str, board: Option<&BoardEngine>) -> ExitCode {
    match board {
        Some(b) if b.forfeited().is_some() => {
            let why = b.forfeited().unwrap_or_default();
            eprintln!(
                "nimbot {cmd}: gave the game up ({why}; --board-fallback forfeit); {}",
                b.describe()
            );
        }
        Some(b) => eprintln!("nimbot {cmd}: error: {msg}; {}", b.describe()),
        None => eprintln!("nimbot {cmd}: error: {msg}"),
    }
    ExitCode::from(EXIT_FAILED)
}

/// The game's exit status; `Err`: the status of what stopped it before it began,
/// already said on stderr.
pub fn run(args: &ConnectArgs) -> Result<ExitCode, ExitCode> {
    const CMD: &str = "connect";
    let seat = seat(args.first);
    let mut side = Side::new(CMD, &args.side, seat)?;
    side.quiet = args.quiet;
    let policy = side.policy;
    let seconds = |x: f64| x >= 0.0 && x.is_finite();
    if args.init_max == 0 || !seconds(args.timeout) || !seconds(args.retry) {
        eprintln!(
            "nimbot connect: --init-max must be at least 1, --timeout and --retry numbers of seconds"
        );
        return Err(ExitCode::from(EXIT_USAGE));
    }
    let client = Client::new(seat, args.name.as_bytes(), args.init_max).map_err(|e| {
        eprintln!("nimbot connect: {}", e.as_str());
        ExitCode::from(EXIT_USAGE)
    })?;
    let client = client.with_policy(policy);
    // The board is met, and checked for what is known of the game, before a seat
    // is taken.
    side.meet((None, None, args.init_max))?;
    side.record(args.record.as_deref())?;
    let stream = reach(&args.addr, args.retry, &mut |e| {
        eprintln!("nimbot {CMD}: {e}; retrying for up to {} s", args.retry);
    })
    .map_err(|e| side.fail(&e))?;
    let timeout = (args.timeout > 0.0).then(|| Duration::from_secs_f64(args.timeout));
    let pace = Duration::from_millis(args.pace);
    let outcome =
        side.play(|engine, recorder| play_tcp(stream, client, engine, timeout, pace, recorder));
    Ok(side.finish(outcome))
}

/// Who decides the moves of `connect` and `exp-nim`: a board (`--board`) or the
/// host, with its `--policy` and `--win`.
#[derive(Args, Debug)]
pub struct SideArgs {
    #[command(flatten)]
    board: BoardArgs,
    #[command(flatten)]
    play: PolicyArgs,
}

/// What plays a game of `connect` or `exp-nim` besides its client: the engine
/// (a board with `--board`, else the host's) and the recorder of `--record`, with
/// the command's name for what they say on stderr.
pub struct Side {
    cmd: &'static str,
    board_args: BoardArgs,
    play: PolicyArgs,
    /// The policy asked for, which the engine that will play plays.
    pub policy: Policy,
    seat: Player,
    board: Option<BoardEngine>,
    /// The record of `--record`, if asked for.
    pub recorder: Option<Recorder>,
    /// No summary line for a game played to its end.
    pub quiet: bool,
}

impl Side {
    /// The host's engine for `seat`, the board not met yet, no record; or the
    /// usage error's status if the policy asked for is not played by the engine
    /// that would play it (`PolicyArgs::policy`).
    pub fn new(cmd: &'static str, args: &SideArgs, seat: Player) -> Result<Side, ExitCode> {
        let policy = args.play.policy(cmd, args.board.board.is_some())?;
        Ok(Side {
            cmd,
            board_args: args.board.clone(),
            play: args.play,
            policy,
            seat,
            board: None,
            recorder: None,
            quiet: false,
        })
    }

    /// With `--board`, the board instead of the host, met and checked for the
    /// `known` N, R and M before a seat is taken ([`BoardArgs::meet`]).
    pub fn meet(&mut self, known: (Option<u32>, Option<u8>, u32)) -> Result<(), ExitCode> {
        let (cmd, play) = (self.cmd, self.play);
        self.board = self
            .board_args
            .meet(cmd, play, self.policy, self.seat, known)?;
        Ok(())
    }

    /// With `--record FILE`, a recorder writing to it; a file that cannot be
    /// created is a usage error (one line on stderr).
    pub fn record(&mut self, path: Option<&Path>) -> Result<(), ExitCode> {
        let cmd = self.cmd;
        self.recorder = path
            .map(|p| Recorder::create(p, cmd, Some(self.seat), Some(self.policy)))
            .transpose()
            .map_err(|e| {
                eprintln!("nimbot {cmd}: --record: {e}");
                ExitCode::from(EXIT_USAGE)
            })?;
        Ok(())
    }

    /// Play the game with the board or the host's engine and the recorder.
    pub fn play<T>(&mut self, game: impl FnOnce(&mut dyn Engine, Option<&mut Recorder>) -> T) -> T {
        let recorder = self.recorder.as_mut();
        match self.board.as_mut() {
            Some(b) => game(b, recorder),
            None => game(&mut self.play.host(), recorder),
        }
    }

    /// A game that could not be played: [`fail`]'s line and exit status.
    pub fn fail(&self, msg: &str) -> ExitCode {
        fail(self.cmd, msg, self.board.as_ref())
    }

    /// The end of a game that ended with `outcome`: its record written (one line on
    /// stderr if it cannot be; the game's exit status stands), then the summary
    /// line and exit status of [`report`] or [`fail`].
    pub fn finish(self, outcome: Result<GameResult, String>) -> ExitCode {
        let cmd = self.cmd;
        if let Some(recorder) = self.recorder {
            let (winner, reason) = match &outcome {
                Ok(r) => (Some(r.winner), r.reason.as_str().to_owned()),
                Err(e) => (None, e.clone()),
            };
            if let Err(e) = recorder.finish(winner, &reason) {
                eprintln!("nimbot {cmd}: --record: {e}");
            }
        }
        match outcome {
            Ok(r) if self.quiet => ExitCode::from(r.exit_status()),
            Ok(r) => report(cmd, &r, self.board.as_ref()),
            Err(e) => fail(cmd, &e, self.board.as_ref()),
        }
    }
}
