//! The referee's server for one game on the platform's wire protocol (`nimbot
//! serve`): the sockets, one reader thread per connection, the clocks and the log.
//! The judging and the bytes of every message come from `nimbot_platform::referee`;
//! this module is the std adapter around it, here rather than in the CLI so that a
//! test or another front end can referee a game on a listener of its own.
//!
//! Readers split their stream with a bounded splitter and pass events (an object,
//! bytes that are not an object, a close) with their arrival time over a bounded
//! channel; the main thread judges them in arrival order. Memory is bounded by the
//! splitter size, the channel size and [`MAX_CONNECTIONS`]; time by the players'
//! clocks, the join timeout and socket write timeouts.

use std::fs::File;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use nimbot::{Params, Player};
use nimbot_platform::json::{Feed, Splitter};
use nimbot_platform::referee::{parse_hello, welcome, CurrentMax, Referee, MAX_WELCOME};
use nimbot_platform::wire::MAX_NAME;

use crate::recorder::Recorder;
use nimbot_study::game_log;

/// Longest message accepted from a client (the stock server reads 1024 bytes).
const MAX_IN: usize = 1024;
/// Connections kept open at once while waiting for two valid hellos.
pub const MAX_CONNECTIONS: usize = 16;
/// A connection that sends no hello within this time is dropped.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// A client that does not take a message within this time is skipped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// Objects held from a seated client before the game starts.
const MAX_EARLY: usize = 4;

/// The game a server referees and its rules of the house.
#[derive(Clone, Copy, Debug)]
pub struct ServeOptions {
    /// N, R and M.
    pub params: Params,
    /// Thinking time per player for the whole game, in seconds (positive).
    pub time: f64,
    /// What the state messages' `current_max` reports.
    pub current_max: CurrentMax,
    /// Add "init_max" and "game_time" to the welcome, as some copies of the
    /// platform's server do.
    pub welcome_extras: bool,
    /// Give up if two players have not joined by then; `None` waits forever.
    pub join_timeout: Option<Duration>,
    /// The least time between two messages to the same player (on nobody's clock),
    /// for clients that read once per message.
    pub pace: Duration,
}

impl ServeOptions {
    /// The game's referee, the players named `names` (first seat first), and the
    /// welcome both players get: how every referee of the platform's wire starts
    /// a game (`nimbot serve`, each game of a tournament).
    pub fn start(
        &self,
        names: [heapless::Vec<u8, MAX_NAME>; 2],
    ) -> (Referee, heapless::Vec<u8, MAX_WELCOME>) {
        let limit_us = micros(Duration::from_secs_f64(self.time));
        let referee = Referee::new(self.params, names, limit_us, self.current_max);
        let extras = self
            .welcome_extras
            .then_some(self.time.ceil().min(f64::from(u32::MAX)) as u32);
        (referee, welcome(&self.params, extras))
    }
}

/// What a client's connection brought.
#[derive(Debug)]
pub enum Kind {
    /// One JSON object, as the splitter cut it.
    Object(Vec<u8>),
    /// Bytes that are not one (the reason); nothing more is read after them.
    Garbage(&'static str),
    /// The connection closed (or failed to read).
    Closed,
}

/// What a connection brought, and when it arrived.
#[derive(Debug)]
pub struct Event {
    /// The connection's number, in the order of acceptance.
    pub conn: usize,
    /// When its bytes were read.
    pub at: Instant,
    pub kind: Kind,
}

/// The server's log: what happened, a timestamped line each, on stderr or in a
/// file.
pub struct Log {
    start: Instant,
    out: Box<dyn Write + Send>,
}

impl Log {
    /// A log to `out`, its clock starting now.
    pub fn new(out: Box<dyn Write + Send>) -> Log {
        Log {
            start: Instant::now(),
            out,
        }
    }

    /// One line, with the seconds since the log began.
    pub fn line(&mut self, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        let _ = writeln!(self.out, "[{t:9.4}] {text}");
        let _ = self.out.flush();
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

fn reader(conn: usize, stream: TcpStream, tx: SyncSender<Event>) {
    read_events(conn, stream, |ev| tx.send(ev).is_ok());
}

/// Read `stream` (connection `conn`) to its end, cutting it into JSON objects
/// with the platform's bounded splitter, and hand each to `send` with its arrival
/// time: an object, bytes that are not one (after which reading stops), or the
/// close. Stops early when `send` says no one listens any more. Every referee of
/// the platform's wire reads its clients with it (`nimbot serve`, each game of a
/// tournament).
pub fn read_events(conn: usize, mut stream: TcpStream, mut send: impl FnMut(Event) -> bool) {
    let mut splitter: Splitter<MAX_IN> = Splitter::new();
    let mut buf = [0u8; 1024];
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) | Err(_) => {
                send(Event {
                    conn,
                    at: Instant::now(),
                    kind: Kind::Closed,
                });
                return;
            }
            Ok(n) => n,
        };
        let at = Instant::now();
        for &b in buf.get(..n).unwrap_or(&[]) {
            let kind = match splitter.feed(b) {
                Ok(Feed::Pending) => continue,
                Ok(Feed::Complete) => Kind::Object(splitter.object().unwrap_or(&[]).to_vec()),
                Err(e) => Kind::Garbage(e.as_str()),
            };
            let last = matches!(kind, Kind::Garbage(_));
            if !send(Event { conn, at, kind }) || last {
                // After bad bytes nothing more from this client matters.
                return;
            }
        }
    }
}

/// The two seated connections (first seat first), their ids and what they sent early.
type Seated = (Vec<Conn>, [usize; 2], Vec<Event>);

struct Conn {
    stream: TcpStream,
    joined: Instant,
    hello: Option<(Vec<u8>, Player)>,
    early: Vec<Event>,
}

/// Accept connections until two valid hellos; return them seated (first seat first).
fn join(
    options: &ServeOptions,
    listener: &TcpListener,
    tx: &SyncSender<Event>,
    rx: &Receiver<Event>,
    log: &mut Log,
) -> Result<Seated, String> {
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("listener: {e}"))?;
    let deadline = options.join_timeout.map(|t| Instant::now() + t);
    let mut conns: Vec<Option<Conn>> = Vec::new();
    let mut early: Vec<Event> = Vec::new();
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err("join timeout: two players did not join".into());
        }
        while let Ok((stream, addr)) = listener.accept() {
            let open = conns.iter().filter(|c| c.is_some()).count();
            if open >= MAX_CONNECTIONS {
                log.line(&format!("refused {addr}: too many connections"));
                let _ = stream.shutdown(Shutdown::Both);
                continue;
            }
            let id = conns.len();
            let _ = stream.set_nonblocking(false);
            let _ = stream.set_nodelay(true);
            let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
            let Ok(rd) = stream.try_clone() else {
                continue;
            };
            let tx = tx.clone();
            thread::spawn(move || reader(id, rd, tx));
            log.line(&format!("connection #{id} from {addr}"));
            conns.push(Some(Conn {
                stream,
                joined: Instant::now(),
                hello: None,
                early: Vec::new(),
            }));
        }
        // Drop connections that never said hello.
        for (id, slot) in conns.iter_mut().enumerate() {
            if let Some(c) = slot {
                if c.hello.is_none() && c.joined.elapsed() > HELLO_TIMEOUT {
                    log.line(&format!("connection #{id}: no hello, dropped"));
                    let _ = c.stream.shutdown(Shutdown::Both);
                    *slot = None;
                }
            }
        }
        if let Ok(ev) = rx.recv_timeout(Duration::from_millis(10)) {
            let id = ev.conn;
            let Some(Some(c)) = conns.get_mut(id) else {
                continue;
            };
            let drop_it = match (&c.hello, ev.kind) {
                (None, Kind::Object(bytes)) => match parse_hello(&bytes) {
                    Ok(h) => {
                        log.line(&format!(
                            "connection #{id}: {} asks for order {}",
                            text(&h.name),
                            h.seat.index()
                        ));
                        c.hello = Some((h.name.to_vec(), h.seat));
                        false
                    }
                    Err(e) => {
                        log.line(&format!("connection #{id}: {}, dropped", e.as_str()));
                        true
                    }
                },
                (None, Kind::Garbage(why)) => {
                    log.line(&format!("connection #{id}: {why}, dropped"));
                    true
                }
                (None, Kind::Closed) => {
                    log.line(&format!("connection #{id} closed before its hello"));
                    true
                }
                (Some(_), kind) => {
                    if c.early.len() < MAX_EARLY {
                        c.early.push(Event {
                            conn: id,
                            at: ev.at,
                            kind,
                        });
                    }
                    false
                }
            };
            if drop_it {
                let _ = c.stream.shutdown(Shutdown::Both);
                if let Some(slot) = conns.get_mut(id) {
                    *slot = None;
                }
            }
        }
        let ready: Vec<usize> = conns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.as_ref().is_some_and(|c| c.hello.is_some()))
            .map(|(i, _)| i)
            .collect();
        if ready.len() >= 2 {
            // Seat by order; equal orders keep the order of arrival (first hello first).
            let mut two = [ready[0], ready[1]];
            let seat = |i: usize| {
                conns[i]
                    .as_ref()
                    .and_then(|c| c.hello.as_ref())
                    .map_or(1, |h| h.1.index())
            };
            if seat(two[0]) > seat(two[1]) {
                two.swap(0, 1);
            }
            let mut kept = Vec::new();
            for &i in &two {
                if let Some(mut c) = conns[i].take() {
                    early.append(&mut c.early);
                    kept.push(c);
                }
            }
            for (id, c) in conns.iter_mut().enumerate() {
                if let Some(c) = c.take() {
                    log.line(&format!("connection #{id}: the game is full, dropped"));
                    let _ = c.stream.shutdown(Shutdown::Both);
                }
            }
            early.sort_by_key(|e| e.at);
            return Ok((kept, two, early));
        }
    }
}

/// The platform-format game log, if asked for.
pub type GameLog = game_log::Writer<io::BufWriter<File>>;

/// Write the record of a judged move (`by` sent it) and, at the end, the reason,
/// from the state message the players get.
fn log_state(game_log: &mut Option<GameLog>, by: Option<&[u8]>, state: &[u8]) {
    let Some(w) = game_log.as_mut() else { return };
    let Ok(obj) = nimbot_platform::json::Object::parse(state) else {
        return;
    };
    let num = |k: &str| obj.get(k).and_then(|v| v.as_u32()).unwrap_or(0);
    if let Some(name) = by {
        let _ = w.record(&game_log::Record {
            name: text(name),
            take: num("stones_removed"),
            reset: obj.get("reset_used").and_then(|v| v.as_bool()) == Some(true),
            current_max: num("current_max"),
            stones_left: num("stones_left"),
        });
    }
    if obj.get("finished").and_then(|v| v.as_bool()) == Some(true) {
        let reason = obj.get("reason").and_then(|v| v.as_str()).unwrap_or(b"");
        let _ = w.game_over(&text(reason));
    }
}

/// Referee one game on `listener`: seat the first two clients with a valid hello
/// (by the order they ask for; connections beyond [`MAX_CONNECTIONS`], without a
/// hello in time, or past the two are dropped), play it to its end, writing the
/// log, the platform's game log and the record as it goes. The winner, `None` if
/// the game ended without one.
///
/// # Errors
/// No game: two players did not join in time, or the server could not go on.
pub fn referee(
    options: &ServeOptions,
    listener: TcpListener,
    log: &mut Log,
    game_log: &mut Option<GameLog>,
    recorder: &mut Option<Recorder>,
) -> Result<Option<Player>, String> {
    let (tx, rx) = sync_channel::<Event>(64);
    let (mut seats, ids, early) = join(options, &listener, &tx, &rx, log)?;
    drop(listener);
    let names: [heapless::Vec<u8, MAX_NAME>; 2] = [0, 1].map(|i| {
        let raw = seats[i].hello.as_ref().map_or(&[][..], |h| h.0.as_slice());
        heapless::Vec::from_slice(raw).unwrap_or_default()
    });
    log.line(&format!(
        "player_0 = {} (#{}), player_1 = {} (#{})",
        text(&names[0]),
        ids[0],
        text(&names[1]),
        ids[1]
    ));
    if let Some(r) = recorder.as_mut() {
        r.names(names.clone().map(|n| text(&n)));
    }
    let (mut referee, hello) = options.start(names);
    let mut pace = Pace::new(options.pace);
    if let Some(r) = recorder.as_mut() {
        r.game(Some(referee.game()), None);
    }
    broadcast(&mut seats, &hello, &mut pace, log);
    let mut turn_start = Instant::now();
    let seat_of = |conn: usize| {
        if conn == ids[0] {
            Some(Player::First)
        } else if conn == ids[1] {
            Some(Player::Second)
        } else {
            None
        }
    };
    let mut pending = early.into_iter();
    while referee.verdict().is_none() {
        let waited = turn_start.elapsed();
        if let Some(state) = referee.closed_mover(micros(waited)) {
            log.line("the player to move has closed its connection");
            log_state(game_log, None, &state);
            if let Some(r) = recorder.as_mut() {
                r.state(Some(referee.game()), &state, false);
            }
            broadcast(&mut seats, &state, &mut pace, log);
            break;
        }
        let remaining = Duration::from_micros(referee.remaining_us(referee.to_move()));
        let ev = match pending.next() {
            Some(ev) => ev,
            None => match rx.recv_timeout(remaining.saturating_sub(waited)) {
                Ok(ev) => ev,
                Err(RecvTimeoutError::Timeout) => {
                    log.line("the player to move ran out of time");
                    if let Some(state) = referee.on_timeout(micros(turn_start.elapsed())) {
                        log_state(game_log, None, &state);
                        if let Some(r) = recorder.as_mut() {
                            r.state(Some(referee.game()), &state, false);
                        }
                        broadcast(&mut seats, &state, &mut pace, log);
                    }
                    break;
                }
                Err(RecvTimeoutError::Disconnected) => return Err("event channel closed".into()),
            },
        };
        let Some(player) = seat_of(ev.conn) else {
            continue;
        };
        let elapsed = micros(ev.at.saturating_duration_since(turn_start));
        let before = referee.game().stones();
        let state = match &ev.kind {
            Kind::Object(bytes) => {
                log.line(&format!(
                    "{} sends {}",
                    text(referee.name(player)),
                    text(bytes)
                ));
                referee.on_message(player, bytes, elapsed)
            }
            Kind::Garbage(why) => {
                log.line(&format!(
                    "{} sends bad bytes: {why}",
                    text(referee.name(player))
                ));
                referee.on_garbage(player, elapsed)
            }
            Kind::Closed => {
                log.line(&format!(
                    "{} closed its connection",
                    text(referee.name(player))
                ));
                referee.on_closed(player, elapsed)
            }
        };
        if let Some(state) = state {
            if referee.game().stones() != before || referee.verdict().is_some() {
                log.line(&format!(
                    "{} left, limit {}, clocks {:.4} s / {:.4} s",
                    referee.game().stones(),
                    referee.game().limit(),
                    referee.used_us(Player::First) as f64 / 1e6,
                    referee.used_us(Player::Second) as f64 / 1e6,
                ));
            }
            let mover = matches!(ev.kind, Kind::Object(_)).then(|| referee.name(player));
            log_state(game_log, mover, &state);
            if let Some(r) = recorder.as_mut() {
                r.state(Some(referee.game()), &state, mover.is_some());
            }
            broadcast(&mut seats, &state, &mut pace, log);
            turn_start = Instant::now();
        }
    }
    if let (Some(v), Some(reason)) = (referee.verdict(), referee.reason_text()) {
        log.line(&format!(
            "game over after {} moves: {} (winner: player_{} {})",
            referee.game().moves(),
            text(&reason),
            v.winner.index(),
            text(referee.name(v.winner))
        ));
    }
    for c in &seats {
        let _ = c.stream.shutdown(Shutdown::Both);
    }
    Ok(referee.verdict().map(|v| v.winner))
}

/// Send `msg` to both players in one write each, each at least the pace after
/// its last message (the wait comes before the turn starts, so it is on nobody's
/// clock); a failed write is logged, and that player will lose on time if it
/// cannot move.
fn broadcast(seats: &mut [Conn], msg: &[u8], pace: &mut Pace, log: &mut Log) {
    for (i, c) in seats.iter_mut().enumerate() {
        pace.wait(i, || None);
        pace.sent(i);
        if let Err(e) = c.stream.write_all(msg) {
            log.line(&format!("write to player_{i} failed: {e}"));
        }
    }
}

/// With a pace, how long a client is given to read its last message before the
/// next is sent all the same.
const READ_WAIT: Duration = Duration::from_secs(2);

/// The pace of the messages to each seat, for clients that read once per
/// message: at least `every` between two to the same seat and, where the
/// referee can see how much a client has not read yet, not before it has read
/// the last one (up to 2 s). The waits come before a message goes out,
/// so they are on nobody's clock. Every referee of the platform's wire paces
/// with it (`nimbot serve --pace`, a tournament's `--pace`).
#[derive(Debug)]
pub struct Pace {
    every: Duration,
    last: [Option<Instant>; 2],
}

impl Pace {
    /// At least `every` between two messages to the same seat (zero: no pace).
    pub fn new(every: Duration) -> Pace {
        Pace {
            every,
            last: [None, None],
        }
    }

    /// Wait until `seat` may be sent its next message; `unread` tells how many
    /// bytes its client has not read yet (`None`: the referee cannot tell).
    pub fn wait(&self, seat: usize, unread: impl Fn() -> Option<u64>) {
        let Some(Some(last)) = self.last.get(seat) else {
            return;
        };
        let wait = self.every.saturating_sub(last.elapsed());
        if !wait.is_zero() {
            thread::sleep(wait);
        }
        if !self.every.is_zero() {
            let until = Instant::now() + READ_WAIT;
            while unread().is_some_and(|n| n > 0) && Instant::now() < until {
                thread::sleep(Duration::from_millis(1));
            }
        }
    }

    /// A message has gone to `seat` now.
    pub fn sent(&mut self, seat: usize) {
        if let Some(last) = self.last.get_mut(seat) {
            *last = Some(Instant::now());
        }
    }
}
