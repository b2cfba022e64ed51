//! `nimbot serve` against a stock-like Python client and against bad clients: every
//! case ends with the documented outcome, quickly, and the referee exits cleanly.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::thread;
use std::time::{Duration, Instant};

use common::{both_seats, connect, exit_codes, first_wins, judge_game_log, spawn, Referee, BIN};

const PEER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/peers/stock_client.py");

#[test]
fn stock_python_client_plays_serve_in_both_seats() {
    for (n, python_first) in [
        (20, true),
        (20, false),
        (100, true),
        (100, false),
        (7, true),
        (9, false),
    ] {
        let referee = Referee::start(&[&n.to_string(), "4", "-t", "30"]);
        let order = if python_first { "0" } else { "1" };
        let py = spawn("python3", &[PEER, "127.0.0.1", &referee.port, order, "py"]);
        thread::sleep(Duration::from_millis(20));
        let bot = connect(&referee.addr, !python_first, "nimbot", 3);
        let (pc, pout, perr) = py.finish(30.0);
        let (bc, _, berr) = bot.finish(30.0);
        let (code, log, judged) = referee.end_judged(10.0, n, 4, 3);
        let ctx = format!("N={n} python_first={python_first}\n{pout}{perr}{berr}{log}");
        assert_eq!(code, Some(0), "{ctx}");
        assert_eq!(pc, Some(0), "{ctx}");
        let py_won = pout.contains("result won");
        assert_eq!(
            py_won,
            (judged.winner == 0) == python_first,
            "the judge's winner: {ctx}"
        );
        assert_eq!(bc, Some(if py_won { 1 } else { 0 }), "{ctx}");
        if first_wins(n, 4, 3) != python_first {
            assert_eq!(bc, Some(0), "nimbot had the won start: {ctx}");
        }
    }
}

/// A hand-driven client: sends its hello and reads the welcome.
fn raw(addr: &str, name: &str, order: u32) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(format!("{{\"name\": \"{name}\", \"order\": {order}}}").as_bytes())
        .unwrap();
    s
}

fn read_some(s: &mut TcpStream) -> String {
    let mut buf = [0u8; 2048];
    let n = s.read(&mut buf).unwrap_or(0);
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// Run a game of N = 10, R = 1 where the first seat is a hand-driven client doing
/// `bad` after the welcome, and the second is `nimbot connect`. Returns the referee's
/// log, nimbot's exit code and the time the whole thing took.
fn bad_first(time: &str, bad: impl FnOnce(&mut TcpStream)) -> (String, Option<i32>, Duration) {
    let start = Instant::now();
    let referee = Referee::start(&["10", "1", "-t", time]);
    let mut s = raw(&referee.addr, "bad", 0);
    let bot = connect(&referee.addr, false, "good", 3);
    let welcome = read_some(&mut s);
    assert!(welcome.contains("\"init_stones\": 10"), "{welcome}");
    bad(&mut s);
    let (bc, _, berr) = bot.finish(15.0);
    let (code, log) = referee.end(15.0);
    assert_eq!(code, Some(0), "{log}{berr}");
    assert_eq!(berr.lines().count(), 1, "{berr}");
    drop(s);
    (log, bc, start.elapsed())
}

#[test]
fn garbage_instead_of_a_move_is_an_illegal_move() {
    let (log, bc, _) = bad_first("30", |s| s.write_all(b"take three please").unwrap());
    assert!(
        log.contains("\"reason\": \"Player bad made an illegal move\"")
            || log.contains("Player bad made an illegal move"),
        "{log}"
    );
    assert_eq!(bc, Some(0));
}

#[test]
fn oversized_and_wrongly_typed_moves_are_illegal() {
    let (log, bc, _) = bad_first("30", |s| {
        let big = format!("{{\"num_stones\": 1, \"pad\": \"{}\"}}", "x".repeat(5000));
        let _ = s.write_all(big.as_bytes());
    });
    assert!(
        log.contains("message too long") && log.contains("Player bad made an illegal move"),
        "{log}"
    );
    assert_eq!(bc, Some(0));
    let (log, bc, _) = bad_first("30", |s| {
        s.write_all(br#"{"num_stones": "2", "reset": false}"#)
            .unwrap()
    });
    assert!(log.contains("Player bad made an illegal move"), "{log}");
    assert_eq!(bc, Some(0));
}

#[test]
fn split_move_is_accepted_then_a_disconnect_loses_on_time_at_once() {
    let (log, bc, took) = bad_first("30", |s| {
        s.set_nodelay(true).unwrap();
        s.write_all(br#"{"order": 0, "num_"#).unwrap();
        thread::sleep(Duration::from_millis(50));
        s.write_all(br#"stones": 1, "reset": false}"#).unwrap();
        let state = read_some(s);
        assert!(state.contains("\"stones_removed\": 1"), "{state}");
        s.shutdown(std::net::Shutdown::Both).unwrap();
    });
    assert!(
        log.contains(r#"bad sends {"order": 0, "num_stones": 1, "reset": false}"#),
        "{log}"
    );
    assert!(log.contains("Player bad exceeded time limit"), "{log}");
    assert_eq!(bc, Some(0));
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn silent_or_partial_client_loses_on_its_clock() {
    let (log, bc, took) = bad_first("1", |s| s.write_all(br#"{"order": 0, "num_st"#).unwrap());
    assert!(log.contains("Player bad exceeded time limit"), "{log}");
    assert_eq!(bc, Some(0));
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn a_move_out_of_turn_loses() {
    let referee = Referee::start(&["10", "1", "-t", "30"]);
    let mut s = TcpStream::connect(&referee.addr).unwrap();
    s.write_all(br#"{"name": "bad", "order": 1}{"order": 1, "num_stones": 1, "reset": false}"#)
        .unwrap();
    thread::sleep(Duration::from_millis(100));
    let bot = connect(&referee.addr, true, "good", 3);
    let (bc, _, berr) = bot.finish(15.0);
    let (code, log) = referee.end(15.0);
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("Player bad moved out of turn"), "{log}");
    assert_eq!(bc, Some(0), "{berr}");
}

#[test]
fn bad_hellos_are_dropped_and_the_game_still_happens() {
    let referee = Referee::start(&["30", "2", "-t", "30"]);
    let mut junk = TcpStream::connect(&referee.addr).unwrap();
    junk.write_all(b"GET / HTTP/1.0\r\n\r\n").unwrap();
    let mut wrong = TcpStream::connect(&referee.addr).unwrap();
    wrong.write_all(br#"{"order": 7, "name": "x"}"#).unwrap();
    let mut half = TcpStream::connect(&referee.addr).unwrap();
    half.write_all(br#"{"name": "hal"#).unwrap();
    drop(half);
    thread::sleep(Duration::from_millis(50));
    let ((ac, _), (bc, _)) = both_seats(&referee.addr);
    let (code, log, judged) = referee.end_judged(15.0, 30, 2, 3);
    assert_eq!(code, Some(0), "{log}");
    assert_eq!(
        judged.winner == 0,
        first_wins(30, 2, 3),
        "the judge's winner: {log}"
    );
    assert!(
        log.contains("bytes outside a JSON object, dropped"),
        "{log}"
    );
    assert!(log.contains("hello has no order 0 or 1, dropped"), "{log}");
    assert_eq!((ac, bc), exit_codes(first_wins(30, 2, 3)));
}

#[test]
fn no_players_means_exit_3_after_the_join_timeout() {
    let kid = spawn(
        BIN,
        &[
            "serve",
            "10",
            "1",
            "-p",
            "0",
            "-a",
            "127.0.0.1",
            "--join-timeout",
            "0.3",
        ],
    );
    let (code, out, err) = kid.finish(10.0);
    assert_eq!(code, Some(3), "{out}{err}");
    assert!(err.contains("join timeout"), "{err}");
}

#[test]
fn current_max_is_the_largest_take_by_default_and_the_limit_on_request() {
    // N = 10, M = 3: the first seat takes 2, then (after the second seat's 1) takes
    // 3 with a reset. The course's latest server reports the largest take so far
    // (M - 1 after a reset); `--current-max limit` the next move's limit (M after
    // a reset), as before its "reset fix".
    for (flags, want) in [
        (&[][..], [2, 2, 2]),
        (&["--current-max", "largest"][..], [2, 2, 2]),
        (&["--current-max", "limit"][..], [3, 3, 3]),
    ] {
        let mut args = vec!["10", "1"];
        args.extend(flags);
        let referee = Referee::start(&args);
        let mut a = raw(&referee.addr, "a", 0);
        let mut b = raw(&referee.addr, "b", 1);
        let mut states = Vec::new();
        let mut play = |s: &mut TcpStream, o: &mut TcpStream, mv: &str, wanted: usize| {
            s.write_all(mv.as_bytes()).unwrap();
            let mut got = String::new();
            while got.matches("current_max").count() < wanted {
                got.push_str(&read_some(o));
            }
            states.push(got);
        };
        // The welcome first (read until the first state comes, on the other end).
        let _ = (read_some(&mut a), read_some(&mut b));
        play(
            &mut a,
            &mut b,
            r#"{"order": 0, "num_stones": 2, "reset": false}"#,
            1,
        );
        play(
            &mut b,
            &mut a,
            r#"{"order": 1, "num_stones": 1, "reset": false}"#,
            2,
        );
        play(
            &mut a,
            &mut b,
            r#"{"order": 0, "num_stones": 3, "reset": true}"#,
            2,
        );
        let sent: Vec<u32> = states
            .iter()
            .map(|s| {
                let last = s.rsplit("\"current_max\": ").next().unwrap();
                last.split(',').next().unwrap().parse().unwrap()
            })
            .collect();
        assert_eq!(sent, want, "{flags:?}: {states:?}");
        drop((a, b));
        let _ = referee.end(15.0);
    }
}

#[test]
fn limit_meaning_and_welcome_extras_are_understood_by_connect() {
    let referee = Referee::start(&[
        "50",
        "3",
        "--current-max",
        "limit",
        "--welcome-extras",
        "-m",
        "2",
    ]);
    // The client is told M = 3 on its command line; the welcome's init_max (2) wins.
    let ((ac, ae), (bc, be)) = both_seats(&referee.addr);
    let (code, log) = referee.end(15.0);
    assert_eq!(code, Some(0), "{log}{ae}{be}");
    assert_eq!((ac, bc), exit_codes(first_wins(50, 3, 2)), "{log}");
}

#[test]
fn the_judge_finds_every_kind_of_rule_break_in_a_game_log() {
    // A real game's log passes; the same log with one thing wrong does not (the
    // judge of the test support is what every end-to-end game is checked with).
    let referee = Referee::start(&["20", "1", "-t", "30"]);
    let ((ac, _), (bc, _)) = both_seats(&referee.addr);
    let (code, log, text) = referee.end_with_game_log(15.0);
    assert_eq!(code, Some(0), "{log}");
    assert_eq!((ac, bc), exit_codes(first_wins(20, 1, 3)));
    let judged = judge_game_log(&text, 20, 1, 3).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(judged.plies >= 2, "{text}");
    let first = text.lines().next().unwrap();
    let take: u32 = first
        .rsplit_once(" took ")
        .and_then(|(_, rest)| rest.split(' ').next())
        .and_then(|k| k.parse().ok())
        .unwrap();
    let broken = [
        // A take above the opening limit of M = 3.
        text.replacen(
            first,
            &first.replacen(&format!(" took {take} "), " took 4 ", 1),
            1,
        ),
        // A reset the first player does not have after using its one.
        text.replacen(" stones.", " stones and used reset.", 3),
        // The pile the log reports, off by one.
        text.replacen("Stones left: ", "Stones left: 1", 1),
        // The other player named the winner.
        text.replace("Player a won", "Player X won")
            .replace("Player b won", "Player a won"),
        // The log cut before the end.
        text.lines().take(4).map(|l| format!("{l}\n")).collect(),
        // Other parameters than the game's.
        text.clone(),
    ];
    for (i, bad) in broken.iter().enumerate() {
        let (n, r) = if i == 5 { (21, 1) } else { (20, 1) };
        assert!(
            judge_game_log(bad, n, r, 3).is_err(),
            "case {i} passed the judge:\n{bad}"
        );
    }
}
