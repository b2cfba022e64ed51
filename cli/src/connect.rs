//! `nimbot connect`: play one game against the platform's TCP server.
//!
//! The protocol is `nimbot::platform::tcp_client::Client`; this file only moves bytes: one
//! socket with TCP_NODELAY, TCP_QUICKACK re-armed before every read (so the server's
//! state messages are not held back by delayed ACKs, which the server charges to our
//! clock), a bounded splitter, and one write per outgoing message.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use nimbot::platform::json::{Feed, Splitter};
use nimbot::platform::tcp_client::{Client, Step};
use nimbot::platform::wire::{GameResult, EXIT_FAILED, EXIT_USAGE, MAX_MESSAGE};
use nimbot::Player;

#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("seat").required(true))]
#[command(
    after_help = "Examples:\n  nimbot connect 127.0.0.1:9000 --first --name alice\n  nimbot connect game.example.org:9000 --second --init-max 3"
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
    /// Send each move no sooner than MS milliseconds after the server's last message.
    /// The stock Python clients read one recv() per message and crash when two state
    /// messages arrive together, which a bot answering in microseconds provokes; a
    /// pace of 20-50 ms avoids that. The wait is charged to nimbot's clock (about
    /// pace x 500 moves at most, e.g. 10 s of the 120 s at 20 ms for 999 stones).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pace: u64,
}

/// One summary line on stderr and the exit status for a finished game.
pub fn report(cmd: &str, r: &GameResult) -> ExitCode {
    eprintln!("{}", String::from_utf8_lossy(&r.summary(cmd)));
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

/// A game that could not be played to its end: one line, exit status 3.
pub fn fail(cmd: &str, msg: &str) -> ExitCode {
    eprintln!("nimbot {cmd}: error: {msg}");
    ExitCode::from(EXIT_FAILED)
}

pub fn run(args: &ConnectArgs, policy: nimbot::Policy) -> ExitCode {
    const CMD: &str = "connect";
    let seat = seat(args.first);
    if args.init_max == 0 || !(args.timeout >= 0.0 && args.timeout.is_finite()) {
        eprintln!(
            "nimbot connect: --init-max must be at least 1 and --timeout a number of seconds"
        );
        return ExitCode::from(EXIT_USAGE);
    }
    let mut client = match Client::new(seat, args.name.as_bytes(), args.init_max) {
        Ok(c) => c.with_policy(policy),
        Err(e) => {
            eprintln!("nimbot connect: {}", e.as_str());
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let mut engine = crate::engine();
    let addrs = match args.addr.to_socket_addrs() {
        Ok(a) => a.collect::<Vec<_>>(),
        Err(e) => return fail(CMD, &format!("cannot resolve {}: {e}", args.addr)),
    };
    let mut stream = None;
    let mut last_err = String::from("no address");
    for a in addrs {
        match TcpStream::connect_timeout(&a, Duration::from_secs(10)) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last_err = e.to_string(),
        }
    }
    let Some(mut stream) = stream else {
        return fail(CMD, &format!("cannot connect to {}: {last_err}", args.addr));
    };
    let _ = stream.set_nodelay(true);
    if args.timeout > 0.0 {
        let _ = stream.set_read_timeout(Some(Duration::from_secs_f64(args.timeout)));
    }
    if let Err(e) = stream.write_all(&client.hello()) {
        return fail(CMD, &format!("send failed: {e}"));
    }
    let mut splitter: Splitter<MAX_MESSAGE> = Splitter::new();
    let mut buf = [0u8; 4096];
    let pace = Duration::from_millis(args.pace);
    loop {
        let _ = socket2::SockRef::from(&stream).set_tcp_quickack(true);
        let read = stream.read(&mut buf);
        let arrived = Instant::now();
        let n = match read {
            Ok(0) => {
                return fail(
                    CMD,
                    "the server closed the connection before the end (no result)",
                )
            }
            Ok(n) => n,
            Err(e) => return fail(CMD, &format!("read failed: {e}")),
        };
        for &b in buf.get(..n).unwrap_or(&[]) {
            match splitter.feed(b) {
                Ok(Feed::Pending) => continue,
                Ok(Feed::Complete) => {}
                Err(e) => return fail(CMD, e.as_str()),
            }
            let msg = splitter.object().unwrap_or(&[]);
            match client.handle(msg, &mut engine) {
                Ok(Step::Wait) => {}
                Ok(Step::Send(bytes)) => {
                    let wait = pace.saturating_sub(arrived.elapsed());
                    if !wait.is_zero() {
                        std::thread::sleep(wait);
                    }
                    if let Err(e) = stream.write_all(&bytes) {
                        return fail(CMD, &format!("send failed: {e}"));
                    }
                }
                Ok(Step::Finished(r)) => return report(CMD, &r),
                Err(e) => return fail(CMD, e.as_str()),
            }
        }
    }
}
