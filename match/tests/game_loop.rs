//! The game loop's promises to its hooks, one at a time: a referee written for
//! the test (`Probe`) that records what the loop tells it and does what each test
//! asks, and raw TCP clients playing on a loopback listener. Each test checks an
//! outcome the loop's documentation promises (who is heard, who is dropped, when
//! a message goes out, who loses), not the loop's own log of itself.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use nimbot::{Params, Player};
use nimbot_match::game_loop::{
    run_game, Answer, Cause, Events, Hooks, Join, Kind, Log, ServeOptions, Status,
};
use nimbot_match::serve::referee;
use nimbot_platform::referee::{CurrentMax, Referee};
use nimbot_platform::wire::MAX_NAME;
use serde_json::Value;

const WAIT: Duration = Duration::from_secs(20);

fn options(stones: u32, time: f64, join: Duration, pace: Duration) -> ServeOptions {
    ServeOptions {
        params: Params::new(stones, 0, 3).unwrap(),
        time,
        current_max: CurrentMax::Limit,
        welcome_extras: false,
        join_timeout: Some(join),
        pace,
    }
}

/// A log the test can read while the loop writes it.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// The test's referee: seats the first two hellos by the order they ask for
/// (or waits for a third hello to start, `start_on_third`), and records what the
/// loop tells it.
#[derive(Default)]
struct Probe {
    // What the test asks of it.
    hello_timeout: Option<Duration>,
    refuse: Vec<usize>,
    keep_early: bool,
    start_on_third: bool,
    /// After the start, the first wake-up asks for this seat to be counted closed.
    close_seat: Option<usize>,
    /// After the start, the hooks want to look again this long after it.
    wake_after: Option<Duration>,
    unread: Option<Arc<[AtomicU64; 2]>>,
    // What it saw.
    connects: Vec<usize>,
    hellos: Vec<(usize, Vec<u8>, Player)>,
    wake_at: Option<Instant>,
    wakes: usize,
    answers: Vec<(Option<Player>, bool)>,
    cause: Option<(Player, bool)>,
    closed_at_end: Option<[bool; 2]>,
}

impl Hooks for Probe {
    type Extra = ();
    const CLOSE_AT_START: bool = false;

    fn on_connect(&mut self, conn: usize, _stream: &TcpStream, _open: usize) -> bool {
        self.connects.push(conn);
        !self.refuse.contains(&conn)
    }

    fn hello_timeout(&self) -> Option<Duration> {
        self.hello_timeout
    }

    fn on_hello(&mut self, conn: usize, name: &[u8], asked: Player) -> Join {
        self.hellos.push((conn, name.to_vec(), asked));
        let seated: Vec<&(usize, Vec<u8>, Player)> = self.hellos.iter().take(2).collect();
        let ready = if self.start_on_third {
            self.hellos.len() == 3
        } else {
            self.hellos.len() == 2
        };
        if !ready {
            return Join::Wait;
        }
        let (a, b) = (seated[0], seated[1]);
        if a.2 == Player::First {
            Join::Start([a.0, b.0])
        } else {
            Join::Start([b.0, a.0])
        }
    }

    /// Bytes that are not an object before a hello: the connection is kept
    /// (as a tournament keeps its bots'), only unheard.
    fn on_stray(&mut self, _conn: usize) -> bool {
        false
    }

    fn early(&mut self, _conn: usize, _kind: &Kind, _events: &Events<()>) -> bool {
        self.keep_early
    }

    fn names(&mut self, hellos: [&[u8]; 2]) -> [heapless::Vec<u8, MAX_NAME>; 2] {
        hellos.map(|h| heapless::Vec::from_slice(h).unwrap())
    }

    fn on_start(&mut self, _referee: &Referee) {
        self.wake_at = self.wake_after.map(|d| Instant::now() + d);
    }

    fn wake(&self, _status: Status) -> Option<Instant> {
        self.wake_at
    }

    fn on_wake(&mut self, now: Instant, status: Status) -> Option<usize> {
        self.wakes += 1;
        if self.wake_at.is_some_and(|t| now >= t) {
            self.wake_at = None;
        }
        if status.started {
            return self.close_seat.take();
        }
        None
    }

    fn unread(&self, seat: usize) -> Option<u64> {
        let unread = self.unread.as_ref()?;
        Some(unread[seat].load(Ordering::SeqCst))
    }

    fn on_state(&mut self, _referee: &Referee, _state: &[u8], answer: Answer) {
        self.answers.push((answer.from, answer.in_turn));
    }

    fn on_end(
        &mut self,
        _referee: &Referee,
        cause: Option<&Cause>,
        status: Status,
        _events: &Events<()>,
    ) {
        self.cause = cause.map(|c| (c.seat, c.in_turn));
        self.closed_at_end = Some(status.closed);
    }
}

/// The game's result: the referee's winner and the number of moves played
/// (`None`: no game), and the hooks as the game left them.
type Played = (Result<Option<(Option<Player>, u32)>, String>, Probe);

fn play(options: ServeOptions, probe: Probe) -> (SocketAddr, thread::JoinHandle<Played>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = thread::spawn(move || {
        let mut probe = probe;
        let events = Events::new();
        let result = run_game(listener, &options, &mut probe, &events)
            .map(|r| r.map(|r| (r.verdict().map(|v| v.winner), r.game().moves())));
        (result, probe)
    });
    (addr, server)
}

/// A client: its connection and the messages it has read, one JSON object each.
struct Peer {
    stream: TcpStream,
    read: serde_json::StreamDeserializer<'static, serde_json::de::IoRead<TcpStream>, Value>,
}

impl Peer {
    fn connect(addr: SocketAddr) -> Peer {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(WAIT)).unwrap();
        let read = serde_json::Deserializer::from_reader(stream.try_clone().unwrap()).into_iter();
        Peer { stream, read }
    }

    fn join(addr: SocketAddr, name: &str, order: u8) -> Peer {
        let mut p = Peer::connect(addr);
        p.send(&format!(r#"{{"name": "{name}", "order": {order}}}"#));
        p
    }

    fn send(&mut self, text: &str) {
        self.stream.write_all(text.as_bytes()).unwrap();
    }

    fn take(&mut self, order: u8, stones: u32) {
        self.send(&format!(
            r#"{{"order": {order}, "num_stones": {stones}, "reset": false}}"#
        ));
    }

    /// The next message (panics at the end of the connection).
    fn next(&mut self) -> Value {
        self.read.next().expect("a message").expect("JSON")
    }

    /// Whether the server closed the connection within `within`, having sent
    /// nothing.
    fn is_closed_within(&mut self, within: Duration) -> bool {
        self.stream.set_read_timeout(Some(within)).unwrap();
        let mut byte = [0u8; 1];
        match self.stream.read(&mut byte) {
            Ok(0) => true,
            Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
            Ok(_) => false,
        }
    }
}

fn winner(state: &Value) -> Option<String> {
    state["winner"].as_str().map(str::to_owned)
}

#[test]
fn the_hooks_events_reach_the_game_and_a_closed_channel_is_told() {
    let events: Events<u32> = Events::new();
    let sender = events.sender();
    assert!(sender.send(7));
    assert!(sender.clone().send(8));
    let until = Instant::now() + Duration::from_secs(5);
    assert_eq!(events.next_extra(until), Some(7));
    assert_eq!(events.next_extra(until), Some(8));
    assert_eq!(
        events.next_extra(Instant::now() + Duration::from_millis(50)),
        None
    );
    drop(events);
    assert!(!sender.send(9), "the game's channel is gone");
}

#[test]
fn a_refused_connection_is_closed_and_its_hello_never_heard() {
    let probe = Probe {
        refuse: vec![0],
        ..Probe::default()
    };
    let (addr, server) = play(
        options(10, 5.0, Duration::from_millis(800), Duration::ZERO),
        probe,
    );
    let mut refused = Peer::join(addr, "refused", 0);
    assert!(refused.is_closed_within(WAIT));
    let (result, probe) = server.join().unwrap();
    assert!(result.is_err(), "no game: {result:?}");
    assert_eq!(probe.connects, [0], "the hooks were asked");
    assert!(probe.hellos.is_empty(), "{:?}", probe.hellos);
}

#[test]
fn nothing_is_read_from_a_connection_after_its_bytes_outside_an_object() {
    // The hooks keep a stray connection open (as a tournament does), but what it
    // sends after its bad bytes, a valid hello here, is not heard.
    let (addr, server) = play(
        options(10, 5.0, Duration::from_millis(800), Duration::ZERO),
        Probe::default(),
    );
    let mut stray = Peer::connect(addr);
    stray.send(r#"hello {"name": "late", "order": 0}"#);
    let (result, probe) = server.join().unwrap();
    assert!(result.is_err(), "no game: {result:?}");
    assert!(probe.hellos.is_empty(), "{:?}", probe.hellos);
}

#[test]
fn a_silent_connection_is_dropped_after_the_hello_timeout_and_the_loop_sleeps_meanwhile() {
    let probe = Probe {
        hello_timeout: Some(Duration::from_millis(300)),
        ..Probe::default()
    };
    let start = Instant::now();
    // The join timeout (3 s) would close it too: the drop must come well before.
    let (addr, server) = play(
        options(10, 5.0, Duration::from_secs(3), Duration::ZERO),
        probe,
    );
    let mut silent = Peer::connect(addr);
    assert!(
        silent.is_closed_within(Duration::from_millis(1500)),
        "not dropped"
    );
    assert!(start.elapsed() >= Duration::from_millis(300));
    let (result, probe) = server.join().unwrap();
    assert!(result.is_err(), "no game: {result:?}");
    // The loop woke for the connection, the drop and the join timeout: a few
    // turns, not a spin.
    assert!(probe.wakes < 50, "{} turns of the loop", probe.wakes);
}

#[test]
fn a_seat_the_hooks_count_closed_loses_when_its_turn_comes() {
    let probe = Probe {
        close_seat: Some(1),
        ..Probe::default()
    };
    let (addr, server) = play(options(20, 2.0, WAIT, Duration::ZERO), probe);
    let mut a = Peer::join(addr, "a", 0);
    let mut b = Peer::join(addr, "b", 1);
    a.next();
    b.next();
    a.take(0, 1);
    let state = a.next();
    assert_eq!(state["stones_left"], 19, "{state}");
    let end = a.next();
    assert_eq!(winner(&end).as_deref(), Some("a"), "{end}");
    let (result, probe) = server.join().unwrap();
    assert_eq!(result.unwrap(), Some((Some(Player::First), 1)));
    assert_eq!(probe.closed_at_end, Some([false, true]));
}

#[test]
fn the_hooks_own_wake_up_during_a_turn_is_no_timeout() {
    let probe = Probe {
        wake_after: Some(Duration::from_millis(100)),
        ..Probe::default()
    };
    let (addr, server) = play(options(20, 10.0, WAIT, Duration::ZERO), probe);
    let mut a = Peer::join(addr, "a", 0);
    let mut b = Peer::join(addr, "b", 1);
    a.next();
    b.next();
    thread::sleep(Duration::from_millis(400));
    a.take(0, 1);
    let state = a.next();
    assert_eq!(state["finished"], false, "{state}");
    assert_eq!(state["stones_left"], 19, "{state}");
    drop(b);
    let end = a.next();
    assert_eq!(winner(&end).as_deref(), Some("a"), "{end}");
    let (result, probe) = server.join().unwrap();
    assert_eq!(result.unwrap(), Some((Some(Player::First), 1)));
    assert!(probe.wakes >= 2);
}

#[test]
fn the_hooks_hear_whether_a_move_came_in_turn() {
    let (addr, server) = play(options(20, 10.0, WAIT, Duration::ZERO), Probe::default());
    let mut a = Peer::join(addr, "a", 0);
    let mut b = Peer::join(addr, "b", 1);
    a.next();
    b.next();
    a.take(0, 1);
    a.next();
    // Again, out of turn: the first player loses.
    a.take(0, 1);
    let end = a.next();
    assert_eq!(winner(&end).as_deref(), Some("b"), "{end}");
    let (result, probe) = server.join().unwrap();
    assert_eq!(result.unwrap(), Some((Some(Player::Second), 1)));
    assert_eq!(
        probe.answers,
        [(Some(Player::First), true), (Some(Player::First), false)]
    );
    assert_eq!(probe.cause, Some((Player::First, false)));
}

#[test]
fn what_the_hooks_do_not_keep_before_the_start_is_not_judged() {
    // The first player moves before the game starts; the hooks do not keep it,
    // so once the game starts it is still that player's turn, and it loses on
    // its clock.
    let (addr, server) = play(options(20, 0.5, WAIT, Duration::ZERO), Probe::default());
    let mut a = Peer::join(addr, "a", 0);
    a.take(0, 1);
    thread::sleep(Duration::from_millis(200));
    let mut b = Peer::join(addr, "b", 1);
    a.next();
    b.next();
    let end = b.next();
    assert_eq!(winner(&end).as_deref(), Some("b"), "{end}");
    let (result, _) = server.join().unwrap();
    assert_eq!(result.unwrap(), Some((Some(Player::Second), 0)));
}

#[test]
fn at_most_four_objects_of_each_seat_are_kept_before_the_start() {
    // Both seated players send moves, alternating, before a third hello starts
    // the game: four of each are judged in the order they came, the first
    // player's fifth is not (the first player is then to move and loses on
    // its clock). The moves go 100 ms apart: their order is their arrival's.
    let probe = Probe {
        keep_early: true,
        start_on_third: true,
        ..Probe::default()
    };
    let (addr, server) = play(options(30, 0.5, WAIT, Duration::ZERO), probe);
    let mut a = Peer::join(addr, "a", 0);
    let mut b = Peer::join(addr, "b", 1);
    thread::sleep(Duration::from_millis(100));
    for i in 0..9 {
        thread::sleep(Duration::from_millis(100));
        if i % 2 == 0 {
            a.take(0, 1);
        } else {
            b.take(1, 1);
        }
    }
    thread::sleep(Duration::from_millis(200));
    let _c = Peer::join(addr, "c", 0);
    let (result, probe) = server.join().unwrap();
    assert_eq!(result.unwrap(), Some((Some(Player::Second), 8)));
    assert_eq!(probe.answers.len(), 9, "eight moves and the timeout");
}

#[test]
fn with_a_pace_a_message_waits_until_the_client_has_read_the_last_one() {
    let unread = Arc::new([AtomicU64::new(0), AtomicU64::new(0)]);
    let probe = Probe {
        unread: Some(unread.clone()),
        ..Probe::default()
    };
    let (addr, server) = play(options(20, 10.0, WAIT, Duration::from_millis(20)), probe);
    let mut a = Peer::join(addr, "a", 0);
    let mut b = Peer::join(addr, "b", 1);
    a.next();
    b.next();
    // The second player's client has not read the welcome, says the hook, until
    // 400 ms after the first player's move.
    unread[1].store(1, Ordering::SeqCst);
    let reader = thread::spawn(move || {
        let state = b.next();
        (state, Instant::now(), b)
    });
    a.take(0, 1);
    thread::sleep(Duration::from_millis(400));
    let read = Instant::now();
    unread[1].store(0, Ordering::SeqCst);
    let (state, arrived, b) = reader.join().unwrap();
    assert_eq!(state["stones_left"], 19, "{state}");
    let after = arrived.saturating_duration_since(read);
    assert!(
        arrived >= read && after < Duration::from_millis(1000),
        "the state came {after:?} after the read"
    );
    drop(a);
    drop(b);
    let (result, _) = server.join().unwrap();
    assert!(result.unwrap().is_some());
}

/// `nimbot serve`'s referee for a game of 20 stones on a free port: its
/// address, its log, and the thread that returns the winner.
fn serve_twenty_stones() -> (
    std::net::SocketAddr,
    Shared,
    thread::JoinHandle<Result<Option<Player>, String>>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let options = options(20, 10.0, WAIT, Duration::ZERO);
    let log = Shared::default();
    let out = log.clone();
    let server = thread::spawn(move || {
        let mut log = Log::new(Box::new(out));
        referee(&options, listener, &mut log, &mut None, &mut None)
    });
    (addr, log, server)
}

#[test]
fn a_game_on_a_fixed_port_frees_it_once_the_game_has_started() {
    // `nimbot serve` stops listening when two are seated, so that the next game
    // can bind the same port while this one is played.
    let (addr, log, server) = serve_twenty_stones();
    let mut a = Peer::join(addr, "a", 0);
    let mut b = Peer::join(addr, "b", 1);
    a.next();
    b.next();
    let again = TcpListener::bind(addr);
    assert!(again.is_ok(), "{again:?}\n{}", log.text());
    drop(again);
    a.take(0, 1);
    assert_eq!(a.next()["stones_left"], 19);
    drop(b);
    let end = a.next();
    assert_eq!(winner(&end).as_deref(), Some("a"), "{end}");
    assert_eq!(server.join().unwrap().unwrap(), Some(Player::First));
}

#[test]
fn serves_log_says_the_pile_after_every_move() {
    // The log's lines after each move: the pile and limit the rules give
    // (recounted here: 20 stones, takes of 3, 2 and 1, M = 3, the limit
    // max(M, largest take + 1)).
    let (addr, log, server) = serve_twenty_stones();
    let mut a = Peer::join(addr, "a", 0);
    let mut b = Peer::join(addr, "b", 1);
    a.next();
    b.next();
    let mut left = 20;
    let mut largest = 0;
    for (i, take) in [3u32, 2, 1].into_iter().enumerate() {
        let (mover, order) = if i % 2 == 0 { (&mut a, 0) } else { (&mut b, 1) };
        mover.take(order, take);
        left -= take;
        largest = largest.max(take);
        let limit = (largest + 1).max(3);
        a.next();
        b.next();
        let text = log.text();
        assert!(
            text.contains(&format!("] {left} left, limit {limit}, clocks ")),
            "after a take of {take}: {text}"
        );
    }
    // The second player, to move, leaves: it loses.
    drop(b);
    let end = a.next();
    assert_eq!(winner(&end).as_deref(), Some("a"), "{end}");
    assert_eq!(server.join().unwrap().unwrap(), Some(Player::First));
    let text = log.text();
    assert!(text.contains("b closed its connection"), "{text}");
    assert!(text.contains("game over after 3 moves"), "{text}");
}
