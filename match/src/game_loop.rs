//! The one game loop every referee of the platform's wire runs on ([`run_game`]):
//! `nimbot serve` ([`crate::serve::referee`]) and each game of a tournament
//! (`nimbot_tournament::game`). The judging and the bytes of every message come
//! from `nimbot_platform::referee`; the loop is the std adapter around it.
//!
//! An acceptor thread and one reader thread per connection pass events (a
//! connection, an object, bytes that are not an object, a close) with their
//! arrival time over one bounded channel ([`Events`]), which also carries the
//! hooks' own events (a tournament's process exits); the loop judges them in
//! arrival order, and paces what it sends. What differs between
//! referees is a [`Hooks`] implementation: which connections are kept, how hellos
//! are seated (or blamed), what is done with messages before the game, the hooks'
//! events and wake-ups, what is written of each state, and the ending's name.
//! Memory is bounded by the splitter size, the channel size and what the hooks
//! keep open; time by the players' clocks, the join timeout and socket write
//! timeouts.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use nimbot::{Params, Player};
use nimbot_platform::json::{Feed, Splitter};
use nimbot_platform::referee::{welcome, CurrentMax, Referee, MAX_WELCOME};
use nimbot_platform::wire::Hello;
use nimbot_platform::wire::MAX_NAME;

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
    /// welcome both players get: how [`run_game`] starts a game.
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

/// Longest message accepted from a client (the stock server reads 1024 bytes).
const MAX_IN: usize = 1024;
/// A client that does not take a message within this time is skipped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// Objects held from a seated client before the game starts.
const MAX_EARLY: usize = 4;

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

/// Bytes as text, for the log.
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub(crate) fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// Read `stream` (connection `conn`) to its end, cutting it into JSON objects
/// with the platform's bounded splitter, and hand each to `send` with its arrival
/// time: an object, bytes that are not one (after which reading stops), or the
/// close. Stops early when `send` says no one listens any more. Each connection
/// of [`run_game`] is read with it.
fn read_events(conn: usize, mut stream: TcpStream, mut send: impl FnMut(Event) -> bool) {
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

/// What a hello'd connection's hello decided (see [`Hooks::on_hello`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    /// Close the connection (its later events are not heard).
    Drop,
    /// Keep it; the game does not start yet.
    Wait,
    /// Start the game with these two connections, first seat first.
    Start([usize; 2]),
}

/// What the loop knows that hooks may need.
#[derive(Clone, Copy, Debug)]
pub struct Status {
    /// The referee has started (both seated, the welcome sent).
    pub started: bool,
    /// Each seat's connection is known closed (its close was read, or a hook
    /// counted it closed).
    pub closed: [bool; 2],
}

/// The state message a hook is told of, and what it answered.
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    /// The seat whose object it answers; `None`: a close, bytes that are not an
    /// object, or a clock that ran out.
    pub from: Option<Player>,
    /// Whether that seat was the one to move.
    pub in_turn: bool,
}

/// The event that brought the verdict, when one of the seats' did.
#[derive(Debug)]
pub struct Cause {
    pub seat: Player,
    pub kind: Kind,
    /// The limit and the stones left before it.
    pub limit: u32,
    pub stones: u32,
    /// Whether that seat was the one to move.
    pub in_turn: bool,
}

/// What differs between the referees that run on [`run_game`]: who is
/// accepted and seated, what happens before the game, the hooks' own events and
/// wake-ups, what is written of each state, and how the ending is named.
/// `nimbot serve` ([`crate::serve::referee`]) and each game of a tournament implement it.
pub trait Hooks {
    /// Events of the hooks' own sources, sent with [`Events::sender`] (a
    /// tournament: its bots' exits).
    type Extra: Send + 'static;
    /// Once two are seated, drop every other connection and stop listening
    /// (`nimbot serve`); otherwise keep accepting, and a late hello is judged by
    /// [`Hooks::on_hello`] during the game.
    const CLOSE_AT_START: bool;

    /// Where the loop logs what happens (`None`: nowhere).
    fn log(&mut self) -> Option<&mut Log> {
        None
    }
    /// How threads the loop starts (its acceptor, a reader per connection) run
    /// their work, e.g. to count their CPU time.
    fn thread_wrap(&self) -> fn(Box<dyn FnOnce() + Send>) {
        |work| work()
    }
    /// Connection `conn` came, `open` others are open: keep it? (No default:
    /// each referee says whom it keeps.)
    fn on_connect(&mut self, conn: usize, stream: &TcpStream, open: usize) -> bool;
    /// How long a connection has to say hello before it is dropped (`None`:
    /// as long as it likes). No default: each referee says.
    fn hello_timeout(&self) -> Option<Duration>;
    /// Connection `conn` said hello (the hello's name and asked seat): seat,
    /// wait or drop. A hook that ends the game here says so in [`Hooks::over`].
    fn on_hello(&mut self, conn: usize, name: &[u8], asked: Player) -> Join;
    /// Connection `conn` sent bytes that are not an object before its hello:
    /// drop it?
    fn on_stray(&mut self, _conn: usize) -> bool {
        true
    }
    /// What a hello'd connection brought before the game started: keep it for
    /// the referee to judge once the game starts?
    fn early(&mut self, conn: usize, kind: &Kind, events: &Events<Self::Extra>) -> bool;
    /// The names the referee gives the players, from the seated hellos'.
    fn names(&mut self, hellos: [&[u8]; 2]) -> [heapless::Vec<u8, MAX_NAME>; 2];
    /// The game has started (before the welcome goes out).
    fn on_start(&mut self, referee: &Referee);
    /// One of the hooks' own events.
    fn on_extra(&mut self, _extra: Self::Extra, _status: Status) {}
    /// When the hooks next want to look ([`Hooks::on_wake`]).
    fn wake(&self, _status: Status) -> Option<Instant> {
        None
    }
    /// Called at every turn of the loop: a seat to count closed now (called
    /// again while it returns one).
    fn on_wake(&mut self, _now: Instant, _status: Status) -> Option<usize> {
        None
    }
    /// How many bytes `seat`'s client has not read yet, if the hooks can tell
    /// (for the pace).
    fn unread(&self, _seat: usize) -> Option<u64> {
        None
    }
    /// A state message the referee made, before it goes to both players.
    fn on_state(&mut self, referee: &Referee, state: &[u8], answer: Answer);
    /// The hooks have ended the game (a verdict of their own).
    fn over(&self) -> bool {
        false
    }
    /// Two players did not join in time.
    ///
    /// # Errors
    /// No game (the default).
    fn join_timeout(&mut self) -> Result<(), String> {
        Err("join timeout: two players did not join".into())
    }
    /// The referee's verdict is in (the last state has gone out): name the ending.
    fn on_end(
        &mut self,
        _referee: &Referee,
        _cause: Option<&Cause>,
        _status: Status,
        _events: &Events<Self::Extra>,
    ) {
    }
}

enum Ev<X> {
    Conn(TcpStream),
    Wire(Event),
    Extra(X),
}

/// One game's event channel: what the acceptor and the readers bring, and the
/// hooks' own events, in arrival order.
pub struct Events<X> {
    tx: SyncSender<Ev<X>>,
    rx: Receiver<Ev<X>>,
    /// Events taken off the channel while the acceptor stopped, first to come.
    held: RefCell<VecDeque<Ev<X>>>,
}

/// Sends a hooks' event to its game's loop (see [`Events::sender`]).
pub struct ExtraSender<X>(SyncSender<Ev<X>>);

impl<X> Clone for ExtraSender<X> {
    fn clone(&self) -> Self {
        ExtraSender(self.0.clone())
    }
}

impl<X> ExtraSender<X> {
    /// Send `extra`; false if the game's channel is gone.
    pub fn send(&self, extra: X) -> bool {
        self.0.send(Ev::Extra(extra)).is_ok()
    }
}

impl<X: Send + 'static> Default for Events<X> {
    fn default() -> Self {
        Self::new()
    }
}

impl<X: Send + 'static> Events<X> {
    /// A new channel, bounded.
    pub fn new() -> Events<X> {
        let (tx, rx) = sync_channel(256);
        Events {
            tx,
            rx,
            held: RefCell::new(VecDeque::new()),
        }
    }

    /// The next event, waiting until `until` (`None`: as long as it takes).
    fn next(&self, until: Option<Instant>) -> Result<Ev<X>, RecvTimeoutError> {
        if let Some(ev) = self.held.borrow_mut().pop_front() {
            return Ok(ev);
        }
        match until {
            Some(t) => self
                .rx
                .recv_timeout(t.saturating_duration_since(Instant::now())),
            None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        }
    }

    /// A sender of the hooks' own events (e.g. for a thread watching a process).
    pub fn sender(&self) -> ExtraSender<X> {
        ExtraSender(self.tx.clone())
    }

    /// The next of the hooks' events before `until`; what connections bring
    /// meanwhile is dropped (for an ending that waits, or after the game).
    pub fn next_extra(&self, until: Instant) -> Option<X> {
        loop {
            match self.next(Some(until)) {
                Ok(Ev::Extra(x)) => return Some(x),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }
}

/// The thread accepting a game's connections, until stopped.
struct Acceptor {
    stop: Arc<AtomicBool>,
    addr: SocketAddr,
    thread: thread::JoinHandle<()>,
}

impl Acceptor {
    fn start<X: Send + 'static>(
        listener: TcpListener,
        tx: SyncSender<Ev<X>>,
        wrap: fn(Box<dyn FnOnce() + Send>),
    ) -> Result<Acceptor, String> {
        listener
            .set_nonblocking(false)
            .map_err(|e| format!("listener: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("listener: {e}"))?;
        let stop = Arc::new(AtomicBool::new(false));
        let seen = stop.clone();
        let thread = thread::spawn(move || {
            wrap(Box::new(move || {
                for s in listener.incoming() {
                    if seen.load(Ordering::Relaxed) {
                        break;
                    }
                    if let Ok(s) = s {
                        if tx.send(Ev::Conn(s)).is_err() {
                            break;
                        }
                    }
                }
            }))
        });
        Ok(Acceptor { stop, addr, thread })
    }

    /// Stop listening: the thread is woken by a connection of our own, and the
    /// channel is kept moving (into `events`' held queue) until it has ended, so
    /// that the listener is closed when this returns (a fixed port is free for
    /// the next game).
    fn stop<X>(self, events: &Events<X>) {
        self.stop.store(true, Ordering::Relaxed);
        let mut to = self.addr;
        if to.ip().is_unspecified() {
            to.set_ip(match to {
                SocketAddr::V4(_) => Ipv4Addr::LOCALHOST.into(),
                SocketAddr::V6(_) => Ipv6Addr::LOCALHOST.into(),
            });
        }
        if TcpStream::connect_timeout(&to, WRITE_TIMEOUT).is_err() {
            return;
        }
        while !self.thread.is_finished() {
            if let Ok(ev) = events.rx.recv_timeout(Duration::from_millis(1)) {
                events.held.borrow_mut().push_back(ev);
            }
        }
        let _ = self.thread.join();
    }
}

struct Conn {
    stream: TcpStream,
    since: Instant,
    hello: Option<Vec<u8>>,
    early: Vec<Event>,
}

fn say<H: Hooks>(hooks: &mut H, line: impl FnOnce() -> String) {
    if let Some(log) = hooks.log() {
        log.line(&line());
    }
}

/// Referee one game on `listener`, the way `hooks` say: accept connections,
/// seat two (see [`Hooks::on_hello`]), start the referee with `options` and
/// welcome both, judge what they send in arrival order against their clocks,
/// send every state to both (paced), until a verdict or the hooks end the game.
/// The referee at the end (`None`: the game never started).
///
/// # Errors
/// No game: the listener failed, or two players did not join in time (unless
/// the hooks decide otherwise).
pub fn run_game<H: Hooks>(
    listener: TcpListener,
    options: &ServeOptions,
    hooks: &mut H,
    events: &Events<H::Extra>,
) -> Result<Option<Referee>, String> {
    let wrap = hooks.thread_wrap();
    let acceptor = Acceptor::start(listener, events.tx.clone(), wrap)?;
    let mut table = Table {
        options,
        hooks,
        events,
        wrap,
        acceptor: Some(acceptor),
        conns: Vec::new(),
        referee: None,
        seats: [usize::MAX; 2],
        closed: [false; 2],
        cause: None,
        turn_start: Instant::now(),
        pace: Pace::new(options.pace),
        pending: VecDeque::new(),
    };
    let result = table.run();
    if let Some(a) = table.acceptor.take() {
        a.stop(events);
    }
    for c in table.conns.iter().flatten() {
        let _ = c.stream.shutdown(Shutdown::Both);
    }
    result.map(|()| table.referee)
}

/// The loop's state.
struct Table<'a, H: Hooks> {
    options: &'a ServeOptions,
    hooks: &'a mut H,
    events: &'a Events<H::Extra>,
    wrap: fn(Box<dyn FnOnce() + Send>),
    acceptor: Option<Acceptor>,
    conns: Vec<Option<Conn>>,
    referee: Option<Referee>,
    /// The seated connections, first seat first, once started.
    seats: [usize; 2],
    closed: [bool; 2],
    cause: Option<Cause>,
    turn_start: Instant,
    pace: Pace,
    /// What the seated sent before the start, to judge first.
    pending: VecDeque<Event>,
}

impl<H: Hooks> Table<'_, H> {
    fn status(&self) -> Status {
        Status {
            started: self.referee.is_some(),
            closed: self.closed,
        }
    }

    fn run(&mut self) -> Result<(), String> {
        let deadline = self.options.join_timeout.map(|t| Instant::now() + t);
        let hello_timeout = self.hooks.hello_timeout();
        loop {
            if self.hooks.over() {
                return Ok(());
            }
            while let Some(seat) = self.hooks.on_wake(Instant::now(), self.status()) {
                self.close(seat);
            }
            if self.hooks.over() {
                return Ok(());
            }
            if let Some(r) = self.referee.as_mut() {
                if r.verdict().is_none() {
                    if let Some(st) = r.closed_mover(micros(self.turn_start.elapsed())) {
                        say(self.hooks, || {
                            "the player to move has closed its connection".into()
                        });
                        self.state(&st, None, false);
                    }
                }
            }
            if let Some(r) = self.referee.as_ref() {
                if r.verdict().is_some() {
                    let status = self.status();
                    self.hooks
                        .on_end(r, self.cause.as_ref(), status, self.events);
                    self.game_over();
                    return Ok(());
                }
            }
            if self.referee.is_none() && deadline.is_some_and(|d| Instant::now() >= d) {
                self.hooks.join_timeout()?;
                if self.hooks.over() {
                    return Ok(());
                }
            }
            if let Some(t) = hello_timeout {
                self.drop_silent(t);
            }
            let ev = match self.pending.pop_front() {
                Some(ev) => Ev::Wire(ev),
                None => {
                    let mut wake = match self.referee.as_ref() {
                        None => deadline,
                        Some(r) => Some(
                            self.turn_start + Duration::from_micros(r.remaining_us(r.to_move())),
                        ),
                    };
                    let hooks_wake = self.hooks.wake(self.status());
                    let hello_wake = hello_timeout.and_then(|t| {
                        let silent = self.conns.iter().flatten().filter(|c| c.hello.is_none());
                        silent.map(|c| c.since + t).min()
                    });
                    for t in hooks_wake.iter().chain(hello_wake.iter()) {
                        wake = Some(wake.map_or(*t, |w| w.min(*t)));
                    }
                    match self.events.next(wake) {
                        Ok(ev) => ev,
                        Err(RecvTimeoutError::Disconnected) => {
                            return Err("event channel closed".into())
                        }
                        Err(RecvTimeoutError::Timeout) => {
                            let now = Instant::now();
                            if hooks_wake
                                .iter()
                                .chain(hello_wake.iter())
                                .any(|t| now >= *t)
                            {
                                continue;
                            }
                            match self.referee.as_mut() {
                                // The join deadline: seen at the top of the loop.
                                None => {}
                                Some(r) => {
                                    say(self.hooks, || "the player to move ran out of time".into());
                                    if let Some(st) =
                                        r.on_timeout(micros(self.turn_start.elapsed()))
                                    {
                                        self.state(&st, None, false);
                                    }
                                }
                            }
                            continue;
                        }
                    }
                }
            };
            match ev {
                Ev::Extra(x) => {
                    let status = self.status();
                    self.hooks.on_extra(x, status);
                }
                Ev::Conn(stream) => self.connect(stream),
                Ev::Wire(ev) => self.wire(ev),
            }
        }
    }

    /// Count `seat` closed now.
    fn close(&mut self, seat: usize) {
        if let Some(c) = self.closed.get_mut(seat) {
            *c = true;
        }
        if let Some(r) = self.referee.as_mut() {
            if let Some(st) =
                r.on_closed(Player::from_index(seat), micros(self.turn_start.elapsed()))
            {
                self.state(&st, None, false);
            }
        }
    }

    /// Drop connections that said no hello within `t`.
    fn drop_silent(&mut self, t: Duration) {
        for (id, slot) in self.conns.iter_mut().enumerate() {
            if let Some(c) = slot {
                if c.hello.is_none() && c.since.elapsed() > t {
                    say(self.hooks, || {
                        format!("connection #{id}: no hello, dropped")
                    });
                    let _ = c.stream.shutdown(Shutdown::Both);
                    *slot = None;
                }
            }
        }
    }

    fn connect(&mut self, stream: TcpStream) {
        let id = self.conns.len();
        let open = self.conns.iter().flatten().count();
        if (H::CLOSE_AT_START && self.referee.is_some())
            || !self.hooks.on_connect(id, &stream, open)
        {
            let _ = stream.shutdown(Shutdown::Both);
            return;
        }
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
        let Ok(rd) = stream.try_clone() else {
            return;
        };
        let tx = self.events.tx.clone();
        let wrap = self.wrap;
        thread::spawn(move || {
            wrap(Box::new(move || {
                read_events(id, rd, |ev| tx.send(Ev::Wire(ev)).is_ok());
            }))
        });
        say(self.hooks, || {
            let addr = stream
                .peer_addr()
                .map_or_else(|_| "?".into(), |a| a.to_string());
            format!("connection #{id} from {addr}")
        });
        self.conns.push(Some(Conn {
            stream,
            since: Instant::now(),
            hello: None,
            early: Vec::new(),
        }));
    }

    fn wire(&mut self, ev: Event) {
        let id = ev.conn;
        let Some(Some(c)) = self.conns.get_mut(id) else {
            return;
        };
        if c.hello.is_none() {
            let join = match &ev.kind {
                Kind::Object(bytes) => match Hello::parse(bytes) {
                    Ok(h) => {
                        let (name, seat) = (h.safe_name(), h.seat);
                        c.hello = Some(name.to_vec());
                        say(self.hooks, || {
                            format!(
                                "connection #{id}: {} asks for order {}",
                                text(&name),
                                seat.index()
                            )
                        });
                        self.hooks.on_hello(id, &name, seat)
                    }
                    Err(e) => {
                        say(self.hooks, || {
                            format!("connection #{id}: {}, dropped", e.as_str())
                        });
                        Join::Drop
                    }
                },
                Kind::Garbage(why) => {
                    if self.hooks.on_stray(id) {
                        say(self.hooks, || format!("connection #{id}: {why}, dropped"));
                        Join::Drop
                    } else {
                        Join::Wait
                    }
                }
                Kind::Closed => {
                    say(self.hooks, || {
                        format!("connection #{id} closed before its hello")
                    });
                    Join::Drop
                }
            };
            match join {
                Join::Drop => {
                    if let Some(slot) = self.conns.get_mut(id) {
                        if let Some(c) = slot.take() {
                            let _ = c.stream.shutdown(Shutdown::Both);
                        }
                    }
                }
                Join::Wait => {}
                Join::Start(two) => self.start(two),
            }
            return;
        }
        if self.referee.is_none() {
            if self.hooks.early(id, &ev.kind, self.events) && c.early.len() < MAX_EARLY {
                c.early.push(ev);
            }
            return;
        }
        if let Some(seat) = self.seats.iter().position(|&s| s == id) {
            self.judge(seat, ev);
        }
    }

    /// Both seated: the referee starts, the welcome goes out.
    fn start(&mut self, two: [usize; 2]) {
        let hellos = two.map(|i| {
            self.conns
                .get(i)
                .and_then(|c| c.as_ref())
                .and_then(|c| c.hello.clone())
                .unwrap_or_default()
        });
        if H::CLOSE_AT_START {
            for (id, slot) in self.conns.iter_mut().enumerate() {
                if two.contains(&id) {
                    continue;
                }
                if let Some(c) = slot.take() {
                    say(self.hooks, || {
                        format!("connection #{id}: the game is full, dropped")
                    });
                    let _ = c.stream.shutdown(Shutdown::Both);
                }
            }
            if let Some(a) = self.acceptor.take() {
                a.stop(self.events);
            }
        }
        let names = self.hooks.names([&hellos[0], &hellos[1]]);
        say(self.hooks, || {
            format!(
                "player_0 = {} (#{}), player_1 = {} (#{})",
                text(&names[0]),
                two[0],
                text(&names[1]),
                two[1]
            )
        });
        let (referee, welcome) = self.options.start(names);
        self.hooks.on_start(&referee);
        let mut early: Vec<Event> = Vec::new();
        for &i in &two {
            if let Some(Some(c)) = self.conns.get_mut(i) {
                early.append(&mut c.early);
            }
        }
        early.sort_by_key(|e| e.at);
        self.pending.extend(early);
        self.referee = Some(referee);
        self.seats = two;
        self.broadcast(&welcome);
        self.turn_start = Instant::now();
    }

    /// Judge what `seat` sent.
    fn judge(&mut self, seat: usize, ev: Event) {
        let Some(r) = self.referee.as_mut() else {
            return;
        };
        let who = Player::from_index(seat);
        let elapsed = micros(ev.at.saturating_duration_since(self.turn_start));
        let (limit, stones) = (r.game().limit(), r.game().stones());
        let in_turn = r.to_move() == who;
        // Names are written out only when there is a log to say them in.
        let st = match &ev.kind {
            Kind::Object(bytes) => {
                say(self.hooks, || {
                    format!("{} sends {}", text(r.name(who)), text(bytes))
                });
                r.on_message(who, bytes, elapsed)
            }
            Kind::Garbage(why) => {
                say(self.hooks, || {
                    format!("{} sends bad bytes: {why}", text(r.name(who)))
                });
                r.on_garbage(who, elapsed)
            }
            Kind::Closed => {
                say(self.hooks, || {
                    format!("{} closed its connection", text(r.name(who)))
                });
                if let Some(c) = self.closed.get_mut(seat) {
                    *c = true;
                }
                r.on_closed(who, elapsed)
            }
        };
        let Some(st) = st else { return };
        if r.game().stones() != stones || r.verdict().is_some() {
            say(self.hooks, || {
                format!(
                    "{} left, limit {}, clocks {:.4} s / {:.4} s",
                    r.game().stones(),
                    r.game().limit(),
                    r.used_us(Player::First) as f64 / 1e6,
                    r.used_us(Player::Second) as f64 / 1e6,
                )
            });
        }
        let object = matches!(ev.kind, Kind::Object(_));
        if r.verdict().is_some() {
            self.cause = Some(Cause {
                seat: who,
                kind: ev.kind,
                limit,
                stones,
                in_turn,
            });
        }
        self.state(&st, object.then_some(who), in_turn);
    }

    /// A state message: told to the hooks, sent to both, the next turn begins.
    fn state(&mut self, st: &[u8], from: Option<Player>, in_turn: bool) {
        if let Some(r) = self.referee.as_ref() {
            self.hooks.on_state(r, st, Answer { from, in_turn });
        }
        self.broadcast(st);
        self.turn_start = Instant::now();
    }

    /// Send `msg` to both players in one write each, each at least the pace
    /// after its last message and, with a pace, once it has read that one when
    /// the hooks can tell (`Pace`). The waits come before the turn starts, so
    /// they are on nobody's clock; a failed write is logged, and that player
    /// will lose on time if it cannot move.
    fn broadcast(&mut self, msg: &[u8]) {
        for (i, &id) in self.seats.iter().enumerate() {
            let hooks = &*self.hooks;
            self.pace.wait(i, || hooks.unread(i));
            if let Some(Some(c)) = self.conns.get_mut(id) {
                if let Err(e) = c.stream.write_all(msg) {
                    say(self.hooks, || format!("write to player_{i} failed: {e}"));
                }
            }
            self.pace.sent(i);
        }
    }

    fn game_over(&mut self) {
        let Some(r) = self.referee.as_ref() else {
            return;
        };
        if let (Some(v), Some(reason)) = (r.verdict(), r.reason_text()) {
            say(self.hooks, || {
                format!(
                    "game over after {} moves: {} (winner: player_{} {})",
                    r.game().moves(),
                    text(&reason),
                    v.winner.index(),
                    text(r.name(v.winner))
                )
            });
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
/// so they are on nobody's clock. [`run_game`] paces every message with it
/// (`nimbot serve --pace`, a tournament's `--pace`).
#[derive(Debug)]
struct Pace {
    every: Duration,
    last: [Option<Instant>; 2],
}

impl Pace {
    /// At least `every` between two messages to the same seat (zero: no pace).
    fn new(every: Duration) -> Pace {
        Pace {
            every,
            last: [None, None],
        }
    }

    /// Wait until `seat` may be sent its next message; `unread` tells how many
    /// bytes its client has not read yet (`None`: the referee cannot tell).
    fn wait(&self, seat: usize, unread: impl Fn() -> Option<u64>) {
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
    fn sent(&mut self, seat: usize) {
        if let Some(last) = self.last.get_mut(seat) {
            *last = Some(Instant::now());
        }
    }
}
