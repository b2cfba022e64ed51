//! Helpers shared by the tests that run the `nimbot` binary: child processes that
//! are always killed, a referee on a free loopback port, bounded waits, and a judge
//! of the rules written here from docs/rules.md alone (no rules code of nimbot's),
//! which every end-to-end game is checked against move by move.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use nimbot::{Engine, Params, Policy};
use nimbot_judge::Judge;
use nimbot_solve::SolvingEngine;

pub const BIN: &str = env!("CARGO_BIN_EXE_nimbot");

/// `nimbot ARGS` with `stdin` written to it, run to its end.
pub fn nimbot_with(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write as _;
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nimbot runs");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin.as_bytes()).expect("stdin written");
    }
    child.wait_with_output().expect("nimbot ran")
}

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

/// A running referee: the child, its address, its log (stderr) once it exits, and
/// the platform-format game log it writes (`--game-log`) for the judge.
pub struct Referee {
    pub kid: Kid,
    pub addr: String,
    pub port: String,
    log: Option<JoinHandle<String>>,
    /// The game log this helper asked for (removed when the referee is dropped).
    game_log: Option<PathBuf>,
}

impl Drop for Referee {
    fn drop(&mut self) {
        if let Some(path) = &self.game_log {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Referee {
    /// `nimbot serve ARGS -p 0 -a 127.0.0.1` with a short join timeout, and a game
    /// log in a file of its own unless ARGS name one.
    pub fn start(args: &[&str]) -> Referee {
        static LOGS: AtomicU32 = AtomicU32::new(0);
        let mut all: Vec<&str> = vec!["serve"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-p", "0", "-a", "127.0.0.1", "--join-timeout", "20"]);
        let game_log = (!args.contains(&"--game-log")).then(|| {
            std::env::temp_dir().join(format!(
                "nimbot-test-game-log-{}-{}.txt",
                std::process::id(),
                LOGS.fetch_add(1, Ordering::Relaxed)
            ))
        });
        let game_log_arg = game_log.as_ref().map(|p| p.display().to_string());
        if let Some(path) = &game_log_arg {
            all.extend_from_slice(&["--game-log", path]);
        }
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
            game_log,
        }
    }

    /// Wait (bounded) for the referee to exit: its exit code and log.
    pub fn end(mut self, secs: f64) -> (Option<i32>, String) {
        let code = self.kid.wait(secs).and_then(|s| s.code());
        let log = self.log.take().unwrap().join().unwrap();
        (code, log)
    }

    /// [`Referee::end`], and the game log's text.
    pub fn end_with_game_log(mut self, secs: f64) -> (Option<i32>, String, String) {
        let path = self.game_log.take().expect("a game log of this helper's");
        let (code, log) = self.end(secs);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        (code, log, text)
    }

    /// [`Referee::end`], then the game of (n, r, m) judged from the referee's game
    /// log by [`judge_game_log`]: it must have been played to a win by the rules.
    pub fn end_judged(self, secs: f64, n: u32, r: u8, m: u32) -> (Option<i32>, String, Judged) {
        let (code, log, text) = self.end_with_game_log(secs);
        match judge_game_log(&text, n, r, m) {
            Ok(judged) => (code, log, judged),
            Err(e) => {
                panic!("the game log of N={n} R={r} M={m} breaks the rules: {e}\n{text}\n{log}")
            }
        }
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

/// Whether the first player wins the start of (n, r, m) with perfect play: the
/// solver's answer, which the judge's own search ([`nimbot_judge::first_wins`]) must give
/// too for a pile it reaches.
pub fn first_wins(n: u32, r: u8, m: u32) -> bool {
    let params = Params::new(n, r, m).unwrap();
    let mut e = SolvingEngine::default();
    let won = e.decide(&params.start(), Policy::Trap).unwrap().value == nimbot::Value::Won;
    if let Some(searched) = nimbot_judge::first_wins(n, u32::from(r), m) {
        assert_eq!(
            won, searched,
            "the value of N={n} R={r} M={m}: the solver against the rules"
        );
    }
    won
}

// ---------------------------------------------------------------------------
// The judge: docs/rules.md, written from the text apart from nimbot
// (`nimbot-judge`).

/// A game the judge saw to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The winner's seat (0: the first player).
    pub winner: usize,
    /// Moves played.
    pub plies: u32,
}

/// Replays the platform-format game log of a game of (n, r, m) that ended with a
/// win on the board (docs/tournament.md; `Player NAME took K stones[ and used
/// reset].`, `Current max: L - 1`, `Stones left: S`, dashes, then `Game over` and
/// `Player NAME won the game! Congrats!`) under the judge: every move legal, in
/// turn, the log's limit and pile the judge's, the end where the pile empties, the
/// winner the player who emptied it.
pub fn judge_game_log(text: &str, n: u32, r: u8, m: u32) -> Result<Judged, String> {
    let mut judge = Judge::new(n, u32::from(r), m);
    let mut names: [Option<&str>; 2] = [None, None];
    let mut lines = text.lines();
    loop {
        let line = lines.next().ok_or("the log ends before `Game over`")?;
        if line == "Game over" {
            break;
        }
        let ply = judge.plies() + 1;
        let (name, rest) = line
            .strip_prefix("Player ")
            .and_then(|l| l.rsplit_once(" took "))
            .ok_or(format!("ply {ply}: not a move: {line:?}"))?;
        let (take, reset) = match rest.strip_suffix(" stones and used reset.") {
            Some(k) => (k, true),
            None => (
                rest.strip_suffix(" stones.")
                    .ok_or(format!("ply {ply}: {line:?}"))?,
                false,
            ),
        };
        let take: u32 = take.parse().map_err(|_| format!("ply {ply}: {line:?}"))?;
        let seat = judge.turn();
        match names[seat] {
            None => names[seat] = Some(name),
            Some(known) if known == name => {}
            Some(known) => return Err(format!("ply {ply}: {name} moved in {known}'s turn")),
        }
        judge
            .play(seat, take, reset)
            .map_err(|e| format!("ply {ply}: {e}"))?;
        // `nimbot serve`'s default current_max, the course's latest server's: the
        // limit minus one (docs/tournament.md).
        let max = lines.next().unwrap_or_default();
        if judge.winner().is_none() && max != format!("Current max: {}", judge.limit() - 1) {
            return Err(format!(
                "ply {ply}: {max:?}, the rules' limit is {}",
                judge.limit()
            ));
        }
        let left = lines.next().unwrap_or_default();
        if left != format!("Stones left: {}", judge.stones())
            || lines.next() != Some("-".repeat(39).as_str())
        {
            return Err(format!(
                "ply {ply}: {left:?}, the rules leave {}",
                judge.stones()
            ));
        }
    }
    let winner = judge
        .winner()
        .ok_or(format!("`Game over` with {} stones left", judge.stones()))?;
    let name = names[winner].unwrap_or_default();
    let reason = lines.next().unwrap_or_default();
    if reason != format!("Player {name} won the game! Congrats!") {
        return Err(format!("the log ends {reason:?}; by the rules {name} won"));
    }
    Ok(Judged {
        winner,
        plies: judge.plies(),
    })
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

/// Replays a game record (`--record`, the tournament's `records/`: JSON lines of a
/// header with the game's N, R and M, a line per ply with its seat, take and reset,
/// then the end with the winner's seat) of a game won on the board under the
/// judge: every ply legal and in turn, none refused, the record's winner the
/// judge's.
pub fn judge_record(text: &str) -> Result<Judged, String> {
    let mut judge = None;
    let mut said = None;
    for line in text.lines() {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{line}: {e}"))?;
        let num = |k: &str| {
            v[k].as_u64()
                .and_then(|x| u32::try_from(x).ok())
                .ok_or(format!("{k} in {line}"))
        };
        match v["kind"].as_str() {
            Some("header") => {
                judge = Some(Judge::new(num("stones")?, num("resets")?, num("init_max")?));
            }
            Some("ply") => {
                let judge = judge.as_mut().ok_or("a ply before the header")?;
                if v["refused"] != false {
                    return Err(format!("a refused ply in a game won on the board: {line}"));
                }
                let reset = v["reset"].as_bool().ok_or(format!("reset in {line}"))?;
                judge
                    .play(num("seat")? as usize, num("take")?, reset)
                    .map_err(|e| format!("{line}: {e}"))?;
            }
            Some("end") => said = Some(num("winner")? as usize),
            _ => return Err(format!("not a record line: {line}")),
        }
    }
    let judge = judge.ok_or("no header")?;
    match (judge.winner(), said) {
        (Some(w), Some(s)) if w == s => Ok(Judged {
            winner: w,
            plies: judge.plies(),
        }),
        (w, s) => Err(format!("the record's winner {s:?}, the judge's {w:?}")),
    }
}

/// The processes whose command line holds `marker`.
pub fn processes_with(marker: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|p| {
            std::fs::read(p.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
        .count()
}
