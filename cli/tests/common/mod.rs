//! Helpers shared by the tests that run the `nimbot` binary: child processes that
//! are always killed, a referee on a free loopback port, bounded waits.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use nimbot::{Engine, Params, Policy, SolvingEngine};

pub const BIN: &str = env!("CARGO_BIN_EXE_nimbot");

/// A child process killed when dropped.
pub struct Kid(pub Child);

impl Drop for Kid {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Kid {
    /// Wait at most `secs` seconds; `None` (and the child killed) on timeout.
    pub fn wait(&mut self, secs: f64) -> Option<ExitStatus> {
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        while Instant::now() < deadline {
            if let Ok(Some(s)) = self.0.try_wait() {
                return Some(s);
            }
            thread::sleep(Duration::from_millis(2));
        }
        let _ = self.0.kill();
        None
    }

    /// Wait (bounded) and return exit code, stdout and stderr.
    pub fn finish(mut self, secs: f64) -> (Option<i32>, String, String) {
        let status = self.wait(secs);
        let mut out = String::new();
        let mut err = String::new();
        if let Some(o) = self.0.stdout.as_mut() {
            let _ = o.read_to_string(&mut out);
        }
        if let Some(e) = self.0.stderr.as_mut() {
            let _ = e.read_to_string(&mut err);
        }
        (status.and_then(|s| s.code()), out, err)
    }
}

pub fn spawn(program: &str, args: &[&str]) -> Kid {
    Kid(Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn"))
}

/// A running referee: the child, its address and its log (stderr) once it exits.
pub struct Referee {
    pub kid: Kid,
    pub addr: String,
    pub port: String,
    log: Option<JoinHandle<String>>,
}

impl Referee {
    /// `nimbot serve ARGS -p 0 -a 127.0.0.1` with a short join timeout.
    pub fn start(args: &[&str]) -> Referee {
        let mut all: Vec<&str> = vec!["serve"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-p", "0", "-a", "127.0.0.1", "--join-timeout", "20"]);
        let mut kid = spawn(BIN, &all);
        let mut line = String::new();
        BufReader::new(kid.0.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on ")
            .expect("address line")
            .to_string();
        let port = addr.rsplit_once(':').unwrap().1.to_string();
        let mut err = kid.0.stderr.take().unwrap();
        let log = Some(thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        }));
        Referee {
            kid,
            addr,
            port,
            log,
        }
    }

    /// Wait (bounded) for the referee to exit: its exit code and log.
    pub fn end(mut self, secs: f64) -> (Option<i32>, String) {
        let code = self.kid.wait(secs).and_then(|s| s.code());
        let log = self.log.take().unwrap().join().unwrap();
        (code, log)
    }
}

/// `connect` in both seats (named a and b, told M = 3), each run to its end: the
/// exit code and stderr of the first seat, then of the second.
pub fn both_seats(addr: &str) -> ((Option<i32>, String), (Option<i32>, String)) {
    let a = connect(addr, true, "a", 3);
    let b = connect(addr, false, "b", 3);
    let (ac, _, ae) = a.finish(15.0);
    let (bc, _, be) = b.finish(15.0);
    ((ac, ae), (bc, be))
}

/// The exit statuses of the first and the second seat's `connect` when the first
/// seat wins (`first_wins`) or loses: 0 for the winner, 1 for the loser.
pub fn exit_codes(first_wins: bool) -> (Option<i32>, Option<i32>) {
    if first_wins {
        (Some(0), Some(1))
    } else {
        (Some(1), Some(0))
    }
}

/// Whether the first player wins the start of (n, r, m) with perfect play.
pub fn first_wins(n: u32, r: u8, m: u32) -> bool {
    let params = Params::new(n, r, m).unwrap();
    let mut e = SolvingEngine::default();
    e.decide(&params.start(), Policy::Trap).unwrap().value == nimbot::Value::Won
}

/// `nimbot connect` to `addr` in a seat, told M = `m`, with a 30 s timeout.
pub fn connect(addr: &str, first: bool, name: &str, m: u32) -> Kid {
    connect_with(
        addr,
        first,
        name,
        &["--init-max", &m.to_string(), "--timeout", "30"],
    )
}

/// `nimbot connect` to `addr` in a seat under `name`, with `more` arguments.
pub fn connect_with(addr: &str, first: bool, name: &str, more: &[&str]) -> Kid {
    let seat = if first { "--first" } else { "--second" };
    let mut args = vec!["connect", addr, seat, "--name", name];
    args.extend_from_slice(more);
    spawn(BIN, &args)
}
