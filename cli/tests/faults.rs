//! Fault tests for the network paths, each bounded in time:
//! - `nimbot connect` against fake servers written here: one that closes mid-game,
//!   one that writes every message byte by byte with delays (a whole game, judged by
//!   the core's `Referee`), one that stalls, ones that send garbage or a state that
//!   contradicts the game, and no server at all. The client must end with the
//!   documented exit code (0 won, 1 lost, 3 error) and message.
//! - `nimbot serve` against clients that dribble their messages byte by byte, vanish
//!   before the game starts, or both vanish mid-game (the cases `tests/referee.rs`
//!   does not cover).

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use common::{connect, first_wins, spawn, Kid, Referee, BIN};
use nimbot::{Params, Player};
use nimbot_platform::json::{Feed, Splitter};
use nimbot_platform::referee::{welcome, CurrentMax, Referee as Judge};

/// A fake server on a free loopback port, run by `serve` on the one connection.
fn fake_server(serve: impl FnOnce(TcpStream) + Send + 'static) -> (String, JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let handle = thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        serve(s);
    });
    (addr, handle)
}

/// Read one whole JSON object (the client's hello or move).
fn read_object(s: &mut TcpStream, splitter: &mut Splitter<4096>) -> Option<Vec<u8>> {
    let mut b = [0u8; 1];
    loop {
        if s.read(&mut b).ok()? == 0 {
            return None;
        }
        if let Ok(Feed::Complete) = splitter.feed(b[0]) {
            return splitter.object().map(<[u8]>::to_vec);
        }
    }
}

/// The fake server's start: read the hello, welcome to N = 30, R = 2.
fn welcome_30_2(s: &mut TcpStream) -> Splitter<4096> {
    let mut sp = Splitter::new();
    read_object(s, &mut sp).expect("hello");
    s.write_all(br#"{"init_stones": 30, "init_resets": 2}"#)
        .unwrap();
    sp
}

/// `nimbot connect` with a short `--timeout`.
fn client(addr: &str, first: bool, timeout: &str) -> Kid {
    let seat = if first { "--first" } else { "--second" };
    spawn(
        BIN,
        &["connect", addr, seat, "--name", "bot", "--timeout", timeout],
    )
}

/// Run `client` to its end: exit code, stderr, elapsed time.
fn outcome(kid: Kid, start: Instant) -> (Option<i32>, String, Duration) {
    let (code, _, err) = kid.finish(20.0);
    (code, err, start.elapsed())
}

#[test]
fn connect_reports_a_server_that_closes_mid_game() {
    let (addr, server) = fake_server(|mut s| {
        let mut sp = welcome_30_2(&mut s);
        // The first player's move (the fake's), then gone.
        s.write_all(
            br#"{"finished": false, "reason": null, "winner": null, "current_max": 3, "stones_left": 29, "stones_removed": 1, "reset_used": false}"#,
        )
        .unwrap();
        read_object(&mut s, &mut sp).expect("the client's move");
    });
    let start = Instant::now();
    let (code, err, took) = outcome(client(&addr, false, "10"), start);
    server.join().unwrap();
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains(
            "nimbot connect: error: the server closed the connection before the end (no result)"
        ),
        "{err}"
    );
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn connect_ends_a_stalled_server_by_its_timeout() {
    let (addr, server) = fake_server(|mut s| {
        let mut sp = welcome_30_2(&mut s);
        // Half a state message, then silence until the client gives up.
        s.write_all(br#"{"finished": false, "reason""#).unwrap();
        let _ = read_object(&mut s, &mut sp);
    });
    let start = Instant::now();
    let (code, err, took) = outcome(client(&addr, false, "1"), start);
    server.join().unwrap();
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("nimbot connect: error: read failed"), "{err}");
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(5),
        "{took:?}"
    );
}

/// A fake server that sends `reply` after the hello (and the welcome, if `welcome`).
fn bad_reply(reply: &'static [u8], first: bool) -> (Option<i32>, String, Duration) {
    let (addr, server) = fake_server(move |mut s| {
        let mut sp = Splitter::new();
        read_object(&mut s, &mut sp).expect("hello");
        s.write_all(reply).unwrap();
        // Hold the connection open: the client must stop on the reply itself.
        let _ = read_object(&mut s, &mut sp);
    });
    let start = Instant::now();
    let result = outcome(client(&addr, first, "10"), start);
    server.join().unwrap();
    result
}

#[test]
fn connect_refuses_garbage_and_contradictions() {
    let cases: [(&[u8], bool, &str); 6] = [
        (b"HTTP/1.1 400 Bad Request\r\n\r\n", false, "bytes outside a JSON object"),
        (b"{\"init_stones\": 30 \"init_resets\": 2}", false, "JSON"),
        (br#"{"hello": "world"}"#, false, "first message is not a welcome"),
        (br#"{"init_stones": 0, "init_resets": 2}"#, true, "stones"),
        (
            br#"{"init_stones": 30, "init_resets": 2}{"finished": false, "stones_removed": 9, "reset_used": false, "stones_left": 21}"#,
            false,
            "server accepted an illegal move",
        ),
        (
            br#"{"init_stones": 30, "init_resets": 2}{"finished": false, "stones_removed": 1, "reset_used": false, "stones_left": 5}"#,
            false,
            "stones_left",
        ),
    ];
    for (reply, first, want) in cases {
        let (code, err, took) = bad_reply(reply, first);
        let ctx = format!("{}: {err}", String::from_utf8_lossy(reply));
        assert_eq!(code, Some(3), "{ctx}");
        assert!(err.starts_with("nimbot connect: error: "), "{ctx}");
        assert!(err.contains(want), "{ctx}");
        assert!(took < Duration::from_secs(5), "{ctx} {took:?}");
    }
}

#[test]
fn connect_without_a_server_exits_3() {
    // A port that was free a moment ago.
    let addr = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .to_string();
    let start = Instant::now();
    let (code, err, took) = outcome(client(&addr, true, "5"), start);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains("nimbot connect: error: cannot connect to"),
        "{err}"
    );
    assert!(took < Duration::from_secs(5), "{took:?}");
}

/// Write `bytes` one at a time with a pause between them.
fn dribble(s: &mut TcpStream, bytes: &[u8]) {
    for b in bytes {
        s.write_all(std::slice::from_ref(b)).unwrap();
        thread::sleep(Duration::from_micros(300));
    }
}

#[test]
fn connect_plays_a_whole_game_against_a_byte_by_byte_server() {
    // A won start for the first seat: nimbot must win it through the dribble.
    let (n, r) = (40, 1);
    assert!(first_wins(n, r, 3));
    let (addr, server) = fake_server(move |mut s| {
        let mut sp = Splitter::new();
        read_object(&mut s, &mut sp).expect("hello");
        let params = Params::new(n, r, 3).unwrap();
        let names = [
            heapless::Vec::from_slice(b"bot").unwrap(),
            heapless::Vec::from_slice(b"fake").unwrap(),
        ];
        let mut judge = Judge::new(params, names, 60_000_000, CurrentMax::Limit);
        dribble(&mut s, &welcome(&params, None));
        while judge.verdict().is_none() {
            let msg = match judge.to_move() {
                Player::First => {
                    let mv = read_object(&mut s, &mut sp).expect("the client's move");
                    judge.on_message(Player::First, &mv, 0)
                }
                // The fake takes one stone at a time.
                Player::Second => {
                    judge.on_message(Player::Second, br#"{"num_stones": 1, "reset": false}"#, 0)
                }
            };
            dribble(&mut s, &msg.expect("a state message"));
        }
    });
    let start = Instant::now();
    let (code, err, took) = outcome(client(&addr, true, "10"), start);
    server.join().unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("nimbot connect: won as first after"), "{err}");
    assert!(err.contains("(took the last stone)"), "{err}");
    assert!(took < Duration::from_secs(15), "{took:?}");
}

/// A hand-driven player: its hello, then the welcome.
fn player(addr: &str, name: &str, order: u32, byte_by_byte: bool) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let hello = format!("{{\"name\": \"{name}\", \"order\": {order}}}");
    if byte_by_byte {
        dribble(&mut s, hello.as_bytes());
    } else {
        s.write_all(hello.as_bytes()).unwrap();
    }
    s
}

#[test]
fn serve_referees_a_client_that_dribbles_every_byte() {
    let referee = Referee::start(&["30", "2", "-t", "10"]);
    let mut s = player(&referee.addr, "slow", 0, true);
    thread::sleep(Duration::from_millis(20));
    let bot = connect(&referee.addr, false, "nimbot", 3);
    let mut sp: Splitter<4096> = Splitter::new();
    let welcome = read_object(&mut s, &mut sp).expect("welcome");
    assert!(welcome.starts_with(br#"{"init_stones": 30"#));
    // Take one stone per move, byte by byte, until the game ends.
    let start = Instant::now();
    loop {
        dribble(&mut s, br#"{"order": 0, "num_stones": 1, "reset": false}"#);
        let own = read_object(&mut s, &mut sp).expect("state of our move");
        if own.windows(16).any(|w| w == b"\"finished\": true") {
            break;
        }
        let theirs = read_object(&mut s, &mut sp).expect("state of the bot's move");
        if theirs.windows(16).any(|w| w == b"\"finished\": true") {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "game too long");
    }
    let (bc, _, berr) = bot.finish(10.0);
    let (code, log) = referee.end(10.0);
    assert_eq!(code, Some(0), "{log}");
    // 30 stones with R = 2 is won for the second seat only if nimbot is perfect;
    // whoever wins, the game ended by the last stone, not by a fault.
    assert!(log.contains("won the game! Congrats!"), "{log}");
    assert!(matches!(bc, Some(0) | Some(1)), "{berr}");
}

/// Wait for `referee`, whose client `loser` has gone: it must end the game (exit 0)
/// with `loser` out of time at once, within 3 s of `start`, not after its 5 s clock.
/// Its log; `context` (e.g. the other client's stderr) goes into failure messages.
fn ended_by_time_loss(referee: Referee, start: Instant, loser: &str, context: &str) -> String {
    let (code, log) = referee.end(10.0);
    let ctx = format!("{context}{log}");
    assert_eq!(code, Some(0), "{ctx}");
    let verdict = format!("Player {loser} exceeded time limit");
    assert!(log.contains(&verdict), "{ctx}");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    log
}

#[test]
fn serve_seats_a_client_that_vanished_before_the_game_and_it_loses_on_time() {
    let referee = Referee::start(&["20", "1", "-t", "5"]);
    // Says hello for the first seat, then closes before its opponent arrives.
    drop(player(&referee.addr, "ghost", 0, false));
    thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    let bot = connect(&referee.addr, false, "two", 3);
    let (bc, _, berr) = bot.finish(15.0);
    let log = ended_by_time_loss(referee, start, "ghost", &berr);
    let ctx = format!("{berr}{log}");
    assert_eq!(bc, Some(0), "{ctx}");
    assert!(berr.contains("nimbot connect: won as second"), "{ctx}");
}

#[test]
fn serve_ends_when_both_players_vanish_mid_game() {
    let referee = Referee::start(&["20", "1", "-t", "5"]);
    let mut a = player(&referee.addr, "alpha", 0, false);
    let b = player(&referee.addr, "beta", 1, false);
    let mut sp: Splitter<4096> = Splitter::new();
    read_object(&mut a, &mut sp).expect("welcome");
    a.write_all(br#"{"order": 0, "num_stones": 2, "reset": false}"#)
        .unwrap();
    read_object(&mut a, &mut sp).expect("state");
    let start = Instant::now();
    drop(a);
    drop(b);
    ended_by_time_loss(referee, start, "beta", "");
}
