//! One game of a tournament: its own referee on its own loopback port, the two bots
//! started as process groups of their own, and the ending named from what happened.
//!
//! The judging and every byte on the wire are the platform referee's
//! (`nimbot_platform::referee`, as `nimbot serve`). Around it, one event channel
//! carries in arrival order what the sockets bring (a hello, an object, bytes that
//! are not one, a close) and what the bots' processes do (an exit, with its status),
//! so that the ending says which: a crash is told from a closed socket, a bot that
//! never joined is seen within the join timeout (at once if its process is gone),
//! and a second hello for a seat is a bot joining twice. Nothing is shared with
//! other games but a CPU counter for the benchmark.

use std::fs::File;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use nimbot::{Params, Player};
use nimbot_games::recorder::Recorder;
use nimbot_games::serve::{read_events, Event, Kind, Pace, ServeOptions};
use nimbot_platform::json::Object;
use nimbot_platform::referee::{parse_hello, parse_move, CurrentMax, Referee};
use nimbot_platform::wire::{Reason, MAX_NAME};
use nimbot_study::record;
use serde::{Deserialize, Serialize};

use crate::engine::{self, Bot, Seat};
use crate::{netns, owner};

/// Nanoseconds of CPU spent refereeing (every thread of every game but the
/// record's analysis), for `--bench`.
pub static REFEREE_NS: AtomicU64 = AtomicU64::new(0);

/// CPU time of the calling thread, in nanoseconds (Linux: /proc/thread-self).
pub fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn count_cpu(start: u64) {
    REFEREE_NS.fetch_add(thread_cpu_ns().saturating_sub(start), Ordering::Relaxed);
}

/// The rules every game of a tournament is played by.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Rules {
    pub resets: u8,
    pub init_max: u32,
    /// Seconds of thinking per player and game.
    pub time: f64,
    /// Seconds a bot has to join.
    pub join_timeout: f64,
    /// `current_max` as the original server (limit) or as the other copy (largest).
    pub largest: bool,
    /// `init_max` and `game_time` in the welcome.
    pub welcome_extras: bool,
    /// Milliseconds the referee keeps between two messages to the same bot (on
    /// nobody's clock), for clients that read once per message.
    #[serde(default)]
    pub pace_ms: u64,
    /// The port every game's referee listens on (for bots that hard-code one);
    /// `None`: a free loopback port per game.
    #[serde(default)]
    pub port: Option<u16>,
}

/// One scheduled game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Pairing {
    /// From 1, in schedule order.
    pub game: usize,
    pub stones: u32,
    /// The bots' indices, first seat first.
    pub bots: [usize; 2],
}

/// How a game ended.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// The winner took the last stone.
    Won,
    /// A take outside 1..=limit, or a message that is no move.
    IllegalMove,
    /// A reset with none left.
    TooManyResets,
    /// A message when the other player was to move.
    OutOfTurn,
    /// The mover's clock ran out.
    Time,
    /// The bot's process ended (status or signal) before the game did.
    Exited,
    /// No hello within the join timeout.
    NeverJoined,
    /// The bot's connection closed before the game ended (its process still ran).
    Closed,
    /// Bytes that are not a JSON object (or a message over 1 KB).
    Garbage,
    /// A second hello for a seat already taken.
    JoinedTwice,
    /// A hello asking for the seat the schedule gave its opponent.
    WrongSeat,
    /// No valid result (both bots failed to join, or the runner could not start the
    /// game).
    NoResult,
}

impl EndKind {
    pub fn word(self) -> &'static str {
        match self {
            EndKind::Won => "won",
            EndKind::IllegalMove => "illegal move",
            EndKind::TooManyResets => "too many resets",
            EndKind::OutOfTurn => "out of turn",
            EndKind::Time => "time",
            EndKind::Exited => "exited",
            EndKind::NeverJoined => "never joined",
            EndKind::Closed => "connection closed",
            EndKind::Garbage => "garbage",
            EndKind::JoinedTwice => "joined twice",
            EndKind::WrongSeat => "wrong seat",
            EndKind::NoResult => "no result",
        }
    }
}

/// The ending: what happened, to whom, when.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Ending {
    pub kind: EndKind,
    /// The seat it is about: the winner for `won`, else the seat at fault.
    pub seat: Option<u8>,
    /// One line for people.
    pub text: String,
    /// The ply it happened at: plies played, or for a refused move the ply it
    /// tried (an illegal first move is ply 1), as the text says.
    pub ply: u32,
    /// Seconds since the game's referee started.
    pub after: f64,
    /// The offender's clock, for `time`.
    pub clock: Option<f64>,
    /// For `exited`: the exit status or the signal.
    pub status: Option<i32>,
    pub signal: Option<i32>,
    /// For `exited`: seconds from the process's end to the verdict.
    pub detected_in: Option<f64>,
}

/// A finished game, as written to the results file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Played {
    pub game: usize,
    pub stones: u32,
    pub resets: u8,
    pub init_max: u32,
    /// Bot indices, first seat first.
    pub bots: [usize; 2],
    pub names: [String; 2],
    /// The winning seat; `null` when the game has no valid result.
    pub winner: Option<u8>,
    pub ending: Ending,
    pub plies: u32,
    /// Both clocks at the end, seconds.
    pub clocks: [f64; 2],
    /// Wall time of the game, seconds.
    pub seconds: f64,
    /// The seat whose start was won (the value of the first position), if known.
    pub won_start: Option<u8>,
    /// Per seat: whether the first position it had to move in was won (`null`: it
    /// never moved). The second seat's start follows the first seat's first move,
    /// so both can be won (after a blunder on ply 1) or neither.
    #[serde(default)]
    pub starts: [Option<bool>; 2],
    /// Blunders per seat and the seat of the game's first one (from the record).
    pub blunders: [u32; 2],
    pub first_blunder: Option<u8>,
    /// The last bytes of each bot's stderr (the whole of it, up to 1 MB, is in
    /// `stderr/`), and its length.
    pub stderr_tail: [String; 2],
    pub stderr_bytes: [u64; 2],
    /// The game's record, line by line, as `nimbot analyze` reads it (also in
    /// `records/`).
    pub record: Vec<record::Line>,
}

enum Ev {
    Conn(TcpStream),
    /// What a connection brought (`nimbot_games::serve`'s reader, as `nimbot serve`).
    Wire(Event),
    Exited(usize, Instant, ExitStatus),
}

/// Whole stderr kept on disk per bot and game; the tail kept in the results.
const STDERR_CAP: u64 = 1 << 20;
const TAIL: usize = 2000;
/// How long a bot whose socket closed is given to show its process ended.
const EXIT_GRACE: Duration = Duration::from_millis(300);
/// How long a bot whose connection closed is given to show it crashed (a Python
/// traceback can take a second on a loaded machine) before the ending says
/// "closed".
const CRASH_GRACE: Duration = Duration::from_secs(2);
/// How long bots are given to exit after the last state message.
const QUIT_GRACE: Duration = Duration::from_secs(2);

fn reader(conn: usize, stream: TcpStream, tx: SyncSender<Ev>) {
    let cpu = thread_cpu_ns();
    read_events(conn, stream, |ev| tx.send(Ev::Wire(ev)).is_ok());
    count_cpu(cpu);
}

/// Read a bot's stderr to the end: the first [`STDERR_CAP`] bytes to `path`, the
/// last [`TAIL`] bytes and the length returned.
fn drain(mut from: impl Read, path: PathBuf) -> (String, u64) {
    let cpu = thread_cpu_ns();
    let mut file = File::create(path).ok();
    let mut tail: Vec<u8> = Vec::new();
    let mut total = 0u64;
    let mut buf = [0u8; 8192];
    while let Ok(n) = from.read(&mut buf) {
        if n == 0 {
            break;
        }
        let chunk = &buf[..n];
        if total < STDERR_CAP {
            if let Some(f) = file.as_mut() {
                let keep = (STDERR_CAP - total).min(n as u64) as usize;
                let _ = f.write_all(&chunk[..keep]);
            }
        }
        total += n as u64;
        tail.extend_from_slice(chunk);
        if tail.len() > 4 * TAIL {
            tail.drain(..tail.len() - TAIL);
        }
    }
    if tail.len() > TAIL {
        tail.drain(..tail.len() - TAIL);
    }
    count_cpu(cpu);
    (String::from_utf8_lossy(&tail).into_owned(), total)
}

fn secs(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e4).round() / 1e4
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

fn seat_of(i: usize) -> Player {
    if i == 0 {
        Player::First
    } else {
        Player::Second
    }
}

fn joined_word(seated: bool) -> &'static str {
    if seated {
        "after joining, before the game began"
    } else {
        "before joining"
    }
}

/// "exited with status 7" / "was killed by signal 9 (SIGKILL)".
fn status_text(s: ExitStatus) -> String {
    if let Some(code) = s.code() {
        format!("exited with status {code}")
    } else if let Some(sig) = s.signal() {
        let name = match sig {
            6 => " (SIGABRT)",
            9 => " (SIGKILL)",
            11 => " (SIGSEGV)",
            15 => " (SIGTERM)",
            _ => "",
        };
        format!("was killed by signal {sig}{name}")
    } else {
        "exited".into()
    }
}

/// The last non-empty line of a bot's stderr, for the ending's text.
fn last_line(tail: &str) -> Option<String> {
    tail.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| l.chars().take(160).collect())
}

struct Bots {
    pgid: [Option<u32>; 2],
    stderr: Vec<Receiver<(String, u64)>>,
    stderr_seat: Vec<usize>,
    helpers: Vec<thread::JoinHandle<()>>,
}

// One of the tournament's two system-call boundaries (the workspace denies
// `unsafe` elsewhere): killing a bot's process group.
#[allow(unsafe_code)]
fn kill_group(pgid: Option<u32>) {
    if let Some(p) = pgid.and_then(|p| i32::try_from(p).ok()) {
        // SAFETY: kill(2) with a negative pid signals a process group; it touches
        // no memory of ours. The group is one this game created and has not reaped
        // the leader of (the watcher reaps it after this call at the earliest).
        unsafe {
            libc::kill(-p, libc::SIGKILL);
        }
    }
}

/// The process groups of the bots of every game under way, for [`kill_all`].
static LIVE_GROUPS: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// Set by [`kill_all`]: a game that starts its bots after it ends them at once.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// End the bots of every game under way (Ctrl-C): their games end at once, and the
/// caller drops their results, to be played again on resuming.
pub fn kill_all() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    if let Ok(groups) = LIVE_GROUPS.lock() {
        for &g in groups.iter() {
            kill_group(Some(g));
        }
    }
}

/// Play one game. `dir` holds `records/` and `stderr/`; `isolated`: the game (its
/// referee and its bots) runs in a network namespace of its own, so that a fixed
/// `--port` can serve several games at once.
pub fn play(pairing: &Pairing, bots: &[Bot], rules: &Rules, dir: &Path, isolated: bool) -> Played {
    let cpu = thread_cpu_ns();
    let started = Instant::now();
    let names = pairing.bots.map(|b| bots[b].name.clone());
    let id = pairing.game;
    let record_path = dir.join("records").join(format!("game-{id:05}.jsonl"));
    let mut g = Game {
        pairing,
        rules,
        names: names.clone(),
        started,
        referee: None,
        recorder: Recorder::create(&record_path, "tournament", None, None).ok(),
        ending: None,
        winner: None,
        pace: Pace::new(Duration::from_millis(rules.pace_ms)),
        inodes: [None, None],
    };
    let (tx, rx) = sync_channel::<Ev>(256);
    if isolated {
        if let Err(e) = netns::enter_new() {
            g.no_result(format!(
                "the runner cannot give the game a network namespace: {e}"
            ));
            return g.finish(None, cpu, dir);
        }
    }
    let listener = match TcpListener::bind(("127.0.0.1", rules.port.unwrap_or(0))) {
        Ok(l) => l,
        Err(e) => {
            let port = rules
                .port
                .map_or("a loopback port".into(), |p| format!("127.0.0.1:{p}"));
            g.no_result(format!("the runner cannot listen on {port}: {e}"));
            return g.finish(None, cpu, dir);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let stop = Arc::new(AtomicBool::new(false));
    let acceptor = {
        let (tx, stop) = (tx.clone(), stop.clone());
        thread::spawn(move || {
            let cpu = thread_cpu_ns();
            for s in listener.incoming() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                if let Ok(s) = s {
                    if tx.send(Ev::Conn(s)).is_err() {
                        break;
                    }
                }
            }
            count_cpu(cpu);
        })
    };
    let mut b = Bots {
        pgid: [None, None],
        stderr: Vec::new(),
        stderr_seat: Vec::new(),
        helpers: Vec::new(),
    };
    let mut exited: [Option<(Instant, ExitStatus)>; 2] = [None, None];
    let mut start_errors: [Option<String>; 2] = [None, None];
    for order in 0..2 {
        let seat = Seat {
            host: "127.0.0.1",
            port,
            order,
            name: &names[order],
            stones: pairing.stones,
            resets: rules.resets,
            init_max: rules.init_max,
        };
        match engine::start(&bots[pairing.bots[order]], &seat) {
            Ok(mut s) => {
                b.pgid[order] = Some(s.child.id());
                if let Ok(mut live) = LIVE_GROUPS.lock() {
                    live.push(s.child.id());
                }
                if INTERRUPTED.load(Ordering::SeqCst) {
                    kill_group(b.pgid[order]);
                }
                if let Some(err) = s.stderr.take() {
                    let path = dir.join("stderr").join(format!("game-{id:05}-{order}.txt"));
                    let (done, got) = sync_channel(1);
                    thread::spawn(move || {
                        let _ = done.send(drain(err, path));
                    });
                    b.stderr.push(got);
                    b.stderr_seat.push(order);
                }
                b.helpers.append(&mut s.helpers);
                let tx = tx.clone();
                let mut child = s.child;
                thread::spawn(move || {
                    let cpu = thread_cpu_ns();
                    if let Ok(st) = child.wait() {
                        let _ = tx.send(Ev::Exited(order, Instant::now(), st));
                    }
                    count_cpu(cpu);
                });
            }
            Err(e) => start_errors[order] = Some(format!("cannot be started: {e}")),
        }
    }
    g.run(&tx, &rx, &mut exited, &start_errors, &b.pgid);
    drop(tx);
    // Wind down: the sockets are shut by `run`; bots get a moment to exit, then
    // their groups are killed; the acceptor is woken to stop.
    let quit = Instant::now() + QUIT_GRACE;
    let mut gone = [exited[0].is_some(), exited[1].is_some()];
    for (i, p) in b.pgid.iter().enumerate() {
        if p.is_none() {
            gone[i] = true;
        }
    }
    while !(gone[0] && gone[1]) {
        match rx.recv_timeout(quit.saturating_duration_since(Instant::now())) {
            Ok(Ev::Exited(o, _, _)) => gone[o] = true,
            Ok(_) => {}
            Err(_) => break,
        }
    }
    for p in b.pgid {
        kill_group(p);
        if let Ok(mut live) = LIVE_GROUPS.lock() {
            live.retain(|g| Some(*g) != p);
        }
    }
    stop.store(true, Ordering::Relaxed);
    let _ = TcpStream::connect(("127.0.0.1", port));
    let _ = acceptor.join();
    let mut tails = [String::new(), String::new()];
    let mut sizes = [0u64; 2];
    for (got, seat) in b.stderr.into_iter().zip(b.stderr_seat) {
        // A process that left the bot's group may hold its stderr open: not waited for.
        match got.recv_timeout(QUIT_GRACE) {
            Ok((t, n)) => (tails[seat], sizes[seat]) = (t, n),
            Err(_) => {
                tails[seat] =
                    "(stderr still open: a process outside the bot's group holds it)".into()
            }
        }
    }
    // Helpers end with the bots' pipes and sockets, all closed by now; a game does
    // not wait for them.
    drop(b.helpers);
    for (i, e) in start_errors.iter().enumerate() {
        if let Some(e) = e {
            tails[i] = e.clone();
        }
    }
    // An exit's text names the bot's last words.
    if let Some(end) = g.ending.as_mut() {
        if matches!(end.kind, EndKind::Exited | EndKind::NeverJoined) {
            if let Some(line) = end.seat.and_then(|s| last_line(&tails[usize::from(s)])) {
                end.text = format!("{} (stderr: {line})", end.text);
            }
        }
    }
    let mut played = g.finish(None, cpu, dir);
    played.stderr_tail = tails;
    played.stderr_bytes = sizes;
    played
}

struct Game<'a> {
    pairing: &'a Pairing,
    rules: &'a Rules,
    names: [String; 2],
    started: Instant,
    referee: Option<Referee>,
    recorder: Option<Recorder>,
    ending: Option<Ending>,
    winner: Option<u8>,
    /// When each seat may be sent its next message (`--pace`).
    pace: Pace,
    /// Each seat's client socket (its inode), to see whether it has read what it
    /// was sent (for `--pace`).
    inodes: [Option<u64>; 2],
}

impl Game<'_> {
    /// Send `msg` to both seats, each at least the pace after its last message and,
    /// with a pace, once it has read that message (its socket's receive queue is
    /// empty; [`Pace`], as `nimbot serve`), so that a client reading once per message never
    /// finds two, however late it reads. The waits come before the send, so they
    /// are on nobody's clock: a turn starts when its state has gone out.
    fn send(&mut self, writers: &mut [Option<TcpStream>], seated: &[Option<usize>; 2], msg: &[u8]) {
        for (seat, c) in seated.iter().enumerate() {
            let Some(c) = c else { continue };
            let inode = self.inodes[seat];
            self.pace.wait(seat, || inode.and_then(owner::unread));
            if let Some(Some(w)) = writers.get_mut(*c) {
                let _ = w.write_all(msg);
            }
            self.pace.sent(seat);
        }
    }

    fn plies(&self) -> u32 {
        self.referee.as_ref().map_or(0, |r| r.game().moves())
    }

    fn end(&mut self, kind: EndKind, seat: Option<usize>, text: String) {
        if self.ending.is_some() {
            return;
        }
        let after = secs(self.started.elapsed());
        self.winner = match kind {
            EndKind::Won => seat.map(|s| s as u8),
            EndKind::NoResult => None,
            _ => seat.map(|s| 1 - s as u8),
        };
        self.ending = Some(Ending {
            kind,
            seat: seat.map(|s| s as u8),
            text,
            ply: self.plies(),
            after,
            clock: None,
            status: None,
            signal: None,
            detected_in: None,
        });
    }

    /// A refused move's ending is at the ply it tried (as its text says: an
    /// illegal first move is ply 1).
    fn refused_ply(&mut self) {
        let next = self.plies() + 1;
        if let Some(e) = self.ending.as_mut() {
            e.ply = next;
        }
    }

    fn no_result(&mut self, text: String) {
        self.end(EndKind::NoResult, None, text);
    }

    fn exited(&mut self, seat: usize, st: ExitStatus, at: Instant, when: &str) {
        let text = format!("{} {} {when}", self.names[seat], status_text(st));
        self.end(EndKind::Exited, Some(seat), text);
        if let Some(e) = self.ending.as_mut() {
            e.status = st.code();
            e.signal = st.signal();
            e.detected_in = Some(secs(at.elapsed()));
        }
    }

    fn at_ply(&self) -> String {
        match self.plies() {
            0 => "before the first move".into(),
            n => format!("after ply {n}"),
        }
    }

    /// The referee's loop, from the bots' start to the ending.
    fn run(
        &mut self,
        tx: &SyncSender<Ev>,
        rx: &Receiver<Ev>,
        exited: &mut [Option<(Instant, ExitStatus)>; 2],
        start_errors: &[Option<String>; 2],
        groups: &[Option<u32>; 2],
    ) {
        let rules = self.rules;
        let failed: Vec<usize> = (0..2).filter(|&i| start_errors[i].is_some()).collect();
        if failed.len() == 2 {
            self.no_result("neither bot could be started".into());
            return;
        }
        if let Some(&i) = failed.first() {
            let text = format!(
                "{} {}",
                self.names[i],
                start_errors[i].clone().unwrap_or_default()
            );
            self.end(EndKind::NeverJoined, Some(i), text);
            return;
        }
        let join_deadline = self.started + Duration::from_secs_f64(rules.join_timeout);
        let mut writers: Vec<Option<TcpStream>> = Vec::new();
        let mut hello: Vec<bool> = Vec::new();
        // The scheduled seat of the bot that made each connection, when known.
        let mut owners: Vec<Option<usize>> = Vec::new();
        let mut inodes: Vec<Option<u64>> = Vec::new();
        let mut seated: [Option<usize>; 2] = [None, None];
        let mut closed: [bool; 2] = [false, false];
        let mut close_wait: [Option<Instant>; 2] = [None, None];
        let mut garbage: Option<(usize, &'static str)> = None;
        let mut refused: Option<(usize, Vec<u8>, u32, u32)> = None;
        let mut turn_start = Instant::now();
        let mut pre_exit: Option<Instant> = None;
        let seat_conn =
            |seated: &[Option<usize>; 2], c: usize| seated.iter().position(|s| *s == Some(c));
        loop {
            if self.ending.is_some() {
                break;
            }
            // A bot whose process ended counts as closed once its socket had its chance.
            for i in 0..2 {
                if close_wait[i].is_some_and(|t| Instant::now() >= t) && !closed[i] {
                    close_wait[i] = None;
                    closed[i] = true;
                    if let Some(r) = self.referee.as_mut() {
                        let st = r.on_closed(seat_of(i), micros(turn_start.elapsed()));
                        if let Some(st) = st {
                            self.after_state(&st, None, &mut writers, &seated);
                        }
                    }
                }
            }
            if let Some(r) = self.referee.as_mut() {
                if r.verdict().is_none() {
                    if let Some(st) = r.closed_mover(micros(turn_start.elapsed())) {
                        self.after_state(&st, None, &mut writers, &seated);
                    }
                }
            }
            if let Some(r) = self.referee.as_ref() {
                if let Some(v) = r.verdict() {
                    self.name_verdict(
                        v.winner,
                        v.reason,
                        &closed,
                        exited,
                        rx,
                        garbage,
                        refused.as_ref(),
                    );
                    break;
                }
            }
            if pre_exit.is_some_and(|t| Instant::now() >= t) {
                if let Some(o) = (0..2).find(|&i| exited[i].is_some()) {
                    if let Some((at, st)) = exited[o] {
                        self.exited(o, st, at, joined_word(seated[o].is_some()));
                    }
                }
                break;
            }
            let now = Instant::now();
            let mut wake = match self.referee.as_ref() {
                None => join_deadline,
                Some(r) => {
                    let left = Duration::from_micros(r.remaining_us(r.to_move()));
                    turn_start + left
                }
            };
            for t in close_wait.iter().flatten().chain(pre_exit.iter()) {
                wake = wake.min(*t);
            }
            let ev = match rx.recv_timeout(wake.saturating_duration_since(now)) {
                Ok(ev) => ev,
                Err(RecvTimeoutError::Disconnected) => {
                    self.no_result("the game's event channel closed".into());
                    break;
                }
                Err(RecvTimeoutError::Timeout) => {
                    if close_wait
                        .iter()
                        .flatten()
                        .chain(pre_exit.iter())
                        .any(|t| Instant::now() >= *t)
                    {
                        continue;
                    }
                    match self.referee.as_mut() {
                        None => {
                            let missing: Vec<usize> =
                                (0..2).filter(|&i| seated[i].is_none()).collect();
                            if missing.len() == 2 {
                                self.no_result(format!(
                                    "neither bot joined within {} s",
                                    rules.join_timeout
                                ));
                            } else {
                                let i = missing[0];
                                let text = format!(
                                    "{} never joined (no hello within {} s)",
                                    self.names[i], rules.join_timeout
                                );
                                self.end(EndKind::NeverJoined, Some(i), text);
                            }
                        }
                        Some(r) => {
                            if let Some(st) = r.on_timeout(micros(turn_start.elapsed())) {
                                self.after_state(&st, None, &mut writers, &seated);
                            }
                        }
                    }
                    continue;
                }
            };
            match ev {
                Ev::Conn(s) => {
                    let _ = s.set_nodelay(true);
                    let _ = s.set_write_timeout(Some(Duration::from_secs(5)));
                    let id = writers.len();
                    owners.push(owner::owner(&s, groups));
                    inodes.push(owner::client_inode(&s));
                    if let Ok(rd) = s.try_clone() {
                        let tx = tx.clone();
                        thread::spawn(move || reader(id, rd, tx));
                    }
                    writers.push(Some(s));
                    hello.push(false);
                }
                Ev::Wire(Event {
                    conn: c,
                    at,
                    kind: Kind::Object(bytes),
                }) => {
                    if !hello.get(c).copied().unwrap_or(true) {
                        let Ok(h) = parse_hello(&bytes) else {
                            // An unattributable first message: that connection is dropped.
                            if let Some(Some(w)) = writers.get(c) {
                                let _ = w.shutdown(Shutdown::Both);
                            }
                            continue;
                        };
                        hello[c] = true;
                        let asked = h.seat.index();
                        // Who sent it: the socket's owner, else the scheduled name,
                        // else (a bot the runner cannot tell) the seat it asks for.
                        let by_name =
                            (0..2).filter(|&i| wire_name(&self.names[i]) == h.name.as_slice());
                        let by_name: Vec<usize> = by_name.collect();
                        let known = owners.get(c).copied().flatten().or(match by_name[..] {
                            [i] => Some(i),
                            _ => None,
                        });
                        let o = match known {
                            Some(o) => o,
                            None => match seated[asked] {
                                None => asked,
                                // The seat went to a bot the runner knows: this is the other.
                                Some(t) if owners.get(t).copied().flatten() == Some(asked) => {
                                    1 - asked
                                }
                                Some(_) => {
                                    self.no_result(format!(
                                        "two hellos asked for the {} seat and the runner cannot tell which bot sent which",
                                        seat_of(asked).name()
                                    ));
                                    continue;
                                }
                            },
                        };
                        if asked != o {
                            let text = format!(
                                "{} asked for the {} seat but the schedule gives it the {} seat (its seat argument: see {{first:TEXT}} and {{second:TEXT}})",
                                self.names[o],
                                seat_of(asked).name(),
                                seat_of(o).name()
                            );
                            self.end(EndKind::WrongSeat, Some(o), text);
                            continue;
                        }
                        if seated[o].is_some() {
                            let text = format!(
                                "{} joined twice (a second hello asking for the {} seat)",
                                self.names[o],
                                seat_of(o).name()
                            );
                            self.end(EndKind::JoinedTwice, Some(o), text);
                            continue;
                        }
                        seated[o] = Some(c);
                        self.inodes[o] = inodes.get(c).copied().flatten();
                        if seated[0].is_some() && seated[1].is_some() {
                            self.begin(&h.name, &mut writers, &seated);
                            turn_start = Instant::now();
                        }
                        continue;
                    }
                    let Some(p) = seat_conn(&seated, c) else {
                        continue;
                    };
                    let Some(r) = self.referee.as_mut() else {
                        continue;
                    };
                    let before = (r.game().limit(), r.game().stones());
                    let elapsed = micros(at.saturating_duration_since(turn_start));
                    let mover = r.to_move();
                    let st = r.on_message(seat_of(p), &bytes, elapsed);
                    if r.verdict().is_some() && mover.index() == p {
                        refused = Some((p, bytes.clone(), before.0, before.1));
                    }
                    if let Some(st) = st {
                        let by = (mover.index() == p).then_some(p);
                        self.after_state(&st, by, &mut writers, &seated);
                        turn_start = Instant::now();
                    }
                }
                Ev::Wire(Event {
                    conn: c,
                    at,
                    kind: Kind::Garbage(why),
                }) => {
                    let Some(p) = seat_conn(&seated, c) else {
                        continue;
                    };
                    let Some(r) = self.referee.as_mut() else {
                        let text = format!(
                            "{} sent bytes that are not a JSON object before the game ({why})",
                            self.names[p]
                        );
                        self.end(EndKind::Garbage, Some(p), text);
                        continue;
                    };
                    garbage = Some((p, why));
                    let st =
                        r.on_garbage(seat_of(p), micros(at.saturating_duration_since(turn_start)));
                    if let Some(st) = st {
                        self.after_state(&st, None, &mut writers, &seated);
                    }
                }
                Ev::Wire(Event {
                    conn: c,
                    at,
                    kind: Kind::Closed,
                }) => {
                    let Some(p) = seat_conn(&seated, c) else {
                        continue;
                    };
                    closed[p] = true;
                    close_wait[p] = None;
                    match self.referee.as_mut() {
                        None => {
                            let ply = self.at_ply();
                            let text = format!("{} closed its connection {ply}", self.names[p]);
                            self.end(EndKind::Closed, Some(p), text);
                            self.rename_exit(p, exited, rx);
                        }
                        Some(r) => {
                            let st = r.on_closed(
                                seat_of(p),
                                micros(at.saturating_duration_since(turn_start)),
                            );
                            if let Some(st) = st {
                                self.after_state(&st, None, &mut writers, &seated);
                            }
                        }
                    }
                }
                Ev::Exited(o, at, st) => {
                    exited[o] = Some((at, st));
                    if self.referee.is_none() {
                        if exited[1 - o].is_some() {
                            self.no_result("both bots exited before the game began".into());
                        } else if seated[1 - o].is_some() {
                            self.exited(o, st, at, joined_word(seated[o].is_some()));
                        } else {
                            // The other bot may be failing too: a moment to see.
                            pre_exit = Some(at + EXIT_GRACE);
                        }
                    } else if !closed[o] {
                        close_wait[o] = Some(at + EXIT_GRACE);
                    }
                }
            }
        }
        for w in writers.iter().flatten() {
            let _ = w.shutdown(Shutdown::Both);
        }
    }

    /// Both seated: the referee starts, the welcome goes out.
    fn begin(
        &mut self,
        _last: &[u8],
        writers: &mut [Option<TcpStream>],
        seated: &[Option<usize>; 2],
    ) {
        let rules = self.rules;
        let Ok(params) = Params::new(self.pairing.stones, rules.resets, rules.init_max) else {
            self.no_result("the game's N, R and M are not a valid game".into());
            return;
        };
        let wire: [heapless::Vec<u8, MAX_NAME>; 2] = [0, 1].map(|i| {
            heapless::Vec::from_slice(
                &self.names[i].as_bytes()[..self.names[i].len().min(MAX_NAME)],
            )
            .unwrap_or_default()
        });
        let options = ServeOptions {
            params,
            time: rules.time,
            current_max: if rules.largest {
                CurrentMax::Largest
            } else {
                CurrentMax::Limit
            },
            welcome_extras: rules.welcome_extras,
            join_timeout: None,
            pace: Duration::from_millis(rules.pace_ms),
        };
        let (referee, hello) = options.start(wire);
        if let Some(r) = self.recorder.as_mut() {
            r.names(self.names.clone());
            r.game(Some(referee.game()), None);
        }
        self.referee = Some(referee);
        self.send(writers, seated, &hello);
    }

    /// A state message: recorded and sent to both.
    fn after_state(
        &mut self,
        st: &[u8],
        by: Option<usize>,
        writers: &mut [Option<TcpStream>],
        seated: &[Option<usize>; 2],
    ) {
        if let (Some(r), Some(rec)) = (self.referee.as_ref(), self.recorder.as_mut()) {
            rec.state(Some(r.game()), st, by.is_some());
        }
        self.send(writers, seated, st);
    }

    /// Name the referee's verdict from what happened.
    #[allow(clippy::too_many_arguments)]
    fn name_verdict(
        &mut self,
        winner: Player,
        reason: Reason,
        closed: &[bool; 2],
        exited: &mut [Option<(Instant, ExitStatus)>; 2],
        rx: &Receiver<Ev>,
        garbage: Option<(usize, &'static str)>,
        refused: Option<&(usize, Vec<u8>, u32, u32)>,
    ) {
        let w = winner.index();
        let loser = 1 - w;
        let name = self.names[loser].clone();
        let ply = self.plies();
        match reason {
            Reason::Won => {
                let text = format!("{} took the last stone at ply {ply}", self.names[w]);
                self.end(EndKind::Won, Some(w), text);
            }
            Reason::TimeLimit if closed[loser] => {
                let text = format!("{name} closed its connection {}", self.at_ply());
                self.end(EndKind::Closed, Some(loser), text);
                self.rename_exit(loser, exited, rx);
            }
            Reason::TimeLimit => {
                let used = self
                    .referee
                    .as_ref()
                    .map_or(0.0, |r| r.used_us(seat_of(loser)) as f64 / 1e6);
                let text = format!(
                    "{name} ran out of time {} (clock {used:.3} s of {} s)",
                    self.at_ply(),
                    self.rules.time
                );
                self.end(EndKind::Time, Some(loser), text);
                if let Some(e) = self.ending.as_mut() {
                    e.clock = Some((used * 1e4).round() / 1e4);
                }
            }
            Reason::IllegalMove if garbage.is_some_and(|g| g.0 == loser) => {
                let why = garbage.map_or("", |g| g.1);
                let text = format!(
                    "{name} sent bytes that are not a JSON object {}: {why}",
                    self.at_ply()
                );
                self.end(EndKind::Garbage, Some(loser), text);
            }
            Reason::IllegalMove
                if refused.is_some_and(|r| r.0 == loser && Object::parse(&r.1).is_err()) =>
            {
                let bytes = refused.map_or(&[][..], |r| &r.1[..r.1.len().min(80)]);
                let text = format!(
                    "{name} sent malformed JSON at ply {}: {}",
                    ply + 1,
                    String::from_utf8_lossy(bytes)
                );
                self.end(EndKind::Garbage, Some(loser), text);
                self.refused_ply();
            }
            Reason::IllegalMove => {
                let text = match refused.filter(|r| r.0 == loser) {
                    Some((_, bytes, limit, stones)) => match parse_move(bytes) {
                        Some(mv) => format!(
                            "{name} made an illegal move at ply {}: took {}{} with limit {limit} and {stones} stones left",
                            ply + 1,
                            mv.take,
                            if mv.reset { " with a reset" } else { "" }
                        ),
                        None => format!(
                            "{name} sent a message that is not a move at ply {}: {}",
                            ply + 1,
                            String::from_utf8_lossy(&bytes[..bytes.len().min(80)])
                        ),
                    },
                    None => format!("{name} made an illegal move at ply {}", ply + 1),
                };
                self.end(EndKind::IllegalMove, Some(loser), text);
                self.refused_ply();
            }
            Reason::TooManyResets => {
                let text = format!("{name} used a reset with none left at ply {}", ply + 1);
                self.end(EndKind::TooManyResets, Some(loser), text);
                self.refused_ply();
            }
            Reason::OutOfTurn => {
                let text = format!("{name} moved out of turn after ply {ply}");
                self.end(EndKind::OutOfTurn, Some(loser), text);
            }
            Reason::Unknown => self.no_result("the referee gave no reason".into()),
        }
    }

    /// A closed connection whose process has ended (or ends within a moment) is
    /// named an exit.
    fn rename_exit(
        &mut self,
        seat: usize,
        exited: &mut [Option<(Instant, ExitStatus)>; 2],
        rx: &Receiver<Ev>,
    ) {
        let until = Instant::now() + CRASH_GRACE;
        while exited[seat].is_none() {
            match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(Ev::Exited(o, at, st)) => exited[o] = Some((at, st)),
                Ok(_) => {}
                Err(_) => break,
            }
        }
        if let Some((at, st)) = exited[seat] {
            let when = self.at_ply();
            let ending = self.ending.take();
            self.exited(seat, st, at, &when);
            if let (Some(old), Some(new)) = (ending, self.ending.as_mut()) {
                // The verdict came with the close; the exit may be seen just after it.
                new.after = old.after;
                let verdict = self.started + Duration::from_secs_f64(old.after);
                new.detected_in = Some(secs(verdict.saturating_duration_since(at)));
            }
        }
    }

    /// The result: the record written and read back, its blunders counted.
    fn finish(mut self, _: Option<()>, cpu: u64, dir: &Path) -> Played {
        count_cpu(cpu);
        let ending = self.ending.take().unwrap_or(Ending {
            kind: EndKind::NoResult,
            seat: None,
            text: "the game ended without a verdict".into(),
            ply: self.plies(),
            after: secs(self.started.elapsed()),
            clock: None,
            status: None,
            signal: None,
            detected_in: None,
        });
        let id = self.pairing.game;
        let path = dir.join("records").join(format!("game-{id:05}.jsonl"));
        let winner = self.winner.map(|w| seat_of(usize::from(w)));
        let mut lines = Vec::new();
        if let Some(mut rec) = self.recorder.take() {
            rec.names(self.names.clone());
            let reason = format!("{}: {}", ending.kind.word(), ending.text);
            if rec.finish(winner, &reason).is_ok() {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    if let Ok(r) = record::parse(&text) {
                        lines.push(record::Line::Header(r.header));
                        lines.extend(r.plies.into_iter().map(record::Line::Ply));
                        lines.extend(r.end.map(record::Line::End));
                    }
                }
            } else {
                let _ = std::fs::remove_file(&path);
            }
        }
        let plies: Vec<&record::PlyLine> = lines
            .iter()
            .filter_map(|l| match l {
                record::Line::Ply(p) => Some(p),
                _ => None,
            })
            .collect();
        let mut blunders = [0u32; 2];
        let mut first_blunder = None;
        for p in &plies {
            if p.blunder {
                blunders[usize::from(p.seat.min(1))] += 1;
                first_blunder.get_or_insert(p.seat);
            }
        }
        let won_start = plies.first().map(|p| {
            if p.value == "win" {
                p.seat
            } else {
                1 - p.seat.min(1)
            }
        });
        let starts = [0u8, 1].map(|seat| {
            plies
                .iter()
                .find(|p| p.seat == seat)
                .map(|p| p.value == "win")
        });
        let clocks = self.referee.as_ref().map_or([0.0; 2], |r| {
            [Player::First, Player::Second].map(|p| (r.used_us(p) as f64 / 1e6 * 1e4).round() / 1e4)
        });
        Played {
            game: id,
            stones: self.pairing.stones,
            resets: self.rules.resets,
            init_max: self.rules.init_max,
            bots: self.pairing.bots,
            names: self.names.clone(),
            winner: self.winner,
            plies: self.plies(),
            ending,
            clocks,
            seconds: secs(self.started.elapsed()),
            won_start,
            starts,
            blunders,
            first_blunder,
            stderr_tail: [String::new(), String::new()],
            stderr_bytes: [0, 0],
            record: lines,
        }
    }
}

/// A name as the wire carries it (as [`parse_hello`] makes it safe).
fn wire_name(name: &str) -> Vec<u8> {
    name.bytes()
        .take(MAX_NAME)
        .map(|b| {
            if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
                b
            } else {
                b'_'
            }
        })
        .collect()
}
