//! `nimbot connect`: play one game against the platform's TCP server.
//!
//! The protocol is `nimbot::platform::tcp_client::Client`; this file only moves bytes: one
//! socket with TCP_NODELAY, TCP_QUICKACK re-armed before every read (so the server's
//! state messages are not held back by delayed ACKs, which the server charges to our
//! clock), a bounded splitter, and one write per outgoing message. With `--board`
//! the moves come from a board on a serial line (`crate::board`); with `--retry`
//! a server that is not up yet is waited for; with `--record` the game is written
//! down (`crate::record`).

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use nimbot::platform::json::{Feed, Splitter};
use nimbot::platform::tcp_client::{Client, Step};
use nimbot::platform::wire::{GameResult, EXIT_FAILED, EXIT_USAGE, MAX_MESSAGE};
use nimbot::{Engine, Player};

use nimbot_bridge::engine::BoardEngine;

use crate::board::BoardArgs;
use crate::PolicyArgs;
use nimbot_host::record::Recorder;

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
    #[command(flatten)]
    board: BoardArgs,
    #[command(flatten)]
    play: PolicyArgs,
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

pub fn run(args: &ConnectArgs) -> ExitCode {
    const CMD: &str = "connect";
    let seat = seat(args.first);
    let policy = match args.play.policy(CMD, args.board.board.is_some()) {
        Ok(p) => p,
        Err(status) => return status,
    };
    let seconds = |x: f64| x >= 0.0 && x.is_finite();
    if args.init_max == 0 || !seconds(args.timeout) || !seconds(args.retry) {
        eprintln!(
            "nimbot connect: --init-max must be at least 1, --timeout and --retry numbers of seconds"
        );
        return ExitCode::from(EXIT_USAGE);
    }
    let client = match Client::new(seat, args.name.as_bytes(), args.init_max) {
        Ok(c) => c.with_policy(policy),
        Err(e) => {
            eprintln!("nimbot connect: {}", e.as_str());
            return ExitCode::from(EXIT_USAGE);
        }
    };
    // The board is met, and checked for what is known of the game, before a seat
    // is taken.
    let known = (None, None, args.init_max);
    let (mut board, mut recorder) = match board_and_record(
        CMD,
        &args.board,
        args.play,
        (policy, seat),
        known,
        args.record.as_deref(),
    ) {
        Ok(both) => both,
        Err(code) => return code,
    };
    let stream = match reach(CMD, &args.addr, args.retry) {
        Ok(s) => s,
        Err(e) => return fail(CMD, &e, board.as_ref()),
    };
    let outcome = match board.as_mut() {
        Some(b) => play(stream, client, b, args, recorder.as_mut()),
        None => play(
            stream,
            client,
            &mut args.play.host(),
            args,
            recorder.as_mut(),
        ),
    };
    finish(CMD, recorder, outcome, board.as_ref())
}

/// What `connect` and `exp-nim` play with besides their client, before a seat is
/// taken: the board of `--board` (met and checked for the `known` N, R and M, see
/// [`BoardArgs::meet`]) and the recorder of `--record`; or the exit status of the
/// first that cannot be had, after one line on stderr.
pub fn board_and_record(
    cmd: &'static str,
    board: &BoardArgs,
    play: PolicyArgs,
    (policy, seat): (nimbot::Policy, Player),
    known: (Option<u32>, Option<u8>, u32),
    record: Option<&std::path::Path>,
) -> Result<(Option<BoardEngine>, Option<Recorder>), ExitCode> {
    let board = board.meet(cmd, play, policy, seat, known)?;
    let recorder = record
        .map(|p| Recorder::create(p, cmd, Some(seat), Some(policy)))
        .transpose()
        .map_err(|e| {
            eprintln!("nimbot {cmd}: --record: {e}");
            ExitCode::from(EXIT_USAGE)
        })?;
    Ok((board, recorder))
}

/// The end of a game of `connect` or `exp-nim` that ended with `outcome`: its
/// record written (one line on stderr if it cannot be; the game's exit status
/// stands), then the summary line and exit status of [`report`] or [`fail`].
pub fn finish(
    cmd: &str,
    recorder: Option<Recorder>,
    outcome: Result<GameResult, String>,
    board: Option<&BoardEngine>,
) -> ExitCode {
    if let Some(recorder) = recorder {
        let (winner, reason) = match &outcome {
            Ok(r) => (Some(r.winner), r.reason.as_str().to_owned()),
            Err(e) => (None, e.clone()),
        };
        if let Err(e) = recorder.finish(winner, &reason) {
            eprintln!("nimbot {cmd}: --record: {e}");
        }
    }
    match outcome {
        Ok(r) => report(cmd, &r, board),
        Err(e) => fail(cmd, &e, board),
    }
}

/// Connect to `addr`; with `retry` seconds, keep trying a server that is not up
/// yet, with growing pauses, and say so once on stderr.
fn reach(cmd: &str, addr: &str, retry: f64) -> Result<TcpStream, String> {
    let deadline = Instant::now() + Duration::from_secs_f64(retry);
    let mut pause = RETRY_FIRST_PAUSE;
    let mut said = false;
    loop {
        let err = match connect_once(addr) {
            Ok(s) => return Ok(s),
            Err(e) => e,
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(err);
        }
        if !said {
            eprintln!("nimbot {cmd}: {err}; retrying for up to {retry} s");
            said = true;
        }
        std::thread::sleep(pause.min(left));
        pause = (pause * 2).min(RETRY_MAX_PAUSE);
    }
}

/// The first pause between attempts of `--retry`, doubled after each up to
/// [`RETRY_MAX_PAUSE`].
const RETRY_FIRST_PAUSE: Duration = Duration::from_millis(100);
const RETRY_MAX_PAUSE: Duration = Duration::from_secs(2);

fn connect_once(addr: &str) -> Result<TcpStream, String> {
    let addrs = addr
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {addr}: {e}"))?;
    let mut last_err = String::from("no address");
    for a in addrs {
        match TcpStream::connect_timeout(&a, Duration::from_secs(10)) {
            Ok(s) => return Ok(s),
            Err(e) => last_err = e.to_string(),
        }
    }
    Err(format!("cannot connect to {addr}: {last_err}"))
}

/// Play the game on `stream` to its end: the result, or why there is none.
fn play<E: Engine + ?Sized>(
    mut stream: TcpStream,
    mut client: Client,
    engine: &mut E,
    args: &ConnectArgs,
    mut recorder: Option<&mut Recorder>,
) -> Result<GameResult, String> {
    let _ = stream.set_nodelay(true);
    if args.timeout > 0.0 {
        let _ = stream.set_read_timeout(Some(Duration::from_secs_f64(args.timeout)));
    }
    stream
        .write_all(&client.hello())
        .map_err(|e| format!("send failed: {e}"))?;
    let mut splitter: Splitter<MAX_MESSAGE> = Splitter::new();
    let mut buf = [0u8; 4096];
    let pace = Duration::from_millis(args.pace);
    loop {
        let _ = socket2::SockRef::from(&stream).set_tcp_quickack(true);
        let read = stream.read(&mut buf);
        let arrived = Instant::now();
        let n = match read {
            Ok(0) => {
                return Err("the server closed the connection before the end (no result)".into())
            }
            Ok(n) => n,
            Err(e) => return Err(format!("read failed: {e}")),
        };
        for &b in buf.get(..n).unwrap_or(&[]) {
            match splitter.feed(b) {
                Ok(Feed::Pending) => continue,
                Ok(Feed::Complete) => {}
                Err(e) => return Err(e.as_str().into()),
            }
            let msg = splitter.object().unwrap_or(&[]);
            let step = client.handle(msg, engine);
            if let Some(r) = recorder.as_deref_mut() {
                r.state(client.game(), msg, true);
            }
            match step {
                Ok(Step::Wait) => {}
                Ok(Step::Send(bytes)) => {
                    let wait = pace.saturating_sub(arrived.elapsed());
                    if !wait.is_zero() {
                        std::thread::sleep(wait);
                    }
                    stream
                        .write_all(&bytes)
                        .map_err(|e| format!("send failed: {e}"))?;
                }
                Ok(Step::Finished(r)) => return Ok(r),
                Err(e) => return Err(e.as_str().into()),
            }
        }
    }
}
