//! `nimbot connect --board` against a board written here (the firmware's protocol
//! session, `nimbot_protocol::Session` on the embedded table, served on a TCP
//! socket as QEMU's socket chardev or ser2net would), through `nimbot serve`; and
//! `connect --retry` against a server that comes up late. The firmware itself plays
//! through the bridge in `tools/firmware.sh test` (firmware/bridge_test.py).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use common::{first_wins, judge_game_log, spawn, Kid, Referee, BIN};
use nimbot::TableEngine;
use nimbot_protocol::Session;

/// What the fake board does once it has read `at` command lines (counted over every
/// connection).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Then {
    /// Nothing: a good board.
    Nothing,
    /// Close the connection (a lost device); the next connection is served anew.
    Hang,
    /// Read on, answer nothing more.
    Silence,
    /// Forget the game and say the banner (a reset), the command lost.
    Reset,
}

/// A board on a TCP socket; its address (`tcp:127.0.0.1:PORT`).
fn fake_board(at: usize, then: Then) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = format!("tcp:{}", listener.local_addr().unwrap());
    let seen = Arc::new(AtomicUsize::new(0));
    thread::spawn(move || {
        let mut session = Session::new(TableEngine::embedded());
        for conn in listener.incoming().take(8) {
            let Ok(conn) = conn else { return };
            let mut out = conn.try_clone().unwrap();
            for line in BufReader::new(conn).lines() {
                let Ok(line) = line else { break };
                if line.trim().is_empty() {
                    continue;
                }
                let n = seen.fetch_add(1, Ordering::SeqCst) + 1;
                if n >= at && then == Then::Silence {
                    continue;
                }
                if n == at && then == Then::Hang {
                    break;
                }
                if n == at && then == Then::Reset {
                    session = Session::new(TableEngine::embedded());
                    let _ = writeln!(out, "{}", nimbot_protocol::BANNER);
                    continue;
                }
                if let Some(reply) = session.handle_line(line.as_bytes()) {
                    let _ = out.write_all(&reply);
                    let _ = out.write_all(b"\n");
                }
            }
        }
    });
    addr
}

fn bridge(addr: &str, first: bool, board: &str, extra: &[&str]) -> Kid {
    let seat = if first { "--first" } else { "--second" };
    let mut args = vec![
        "connect",
        addr,
        seat,
        "--name",
        "board",
        "--board",
        board,
        "--board-timeout",
        "0.3",
    ];
    args.extend_from_slice(extra);
    spawn(BIN, &args)
}

fn opponent(addr: &str, first: bool) -> Kid {
    let seat = if first { "--first" } else { "--second" };
    spawn(
        BIN,
        &["connect", addr, seat, "--name", "other", "--policy", "trap"],
    )
}

/// A game through the bridge against a perfect opponent: the bridge's exit status,
/// its one stderr line, the referee's log and its game log.
fn game(n: u32, first: bool, board: &str, extra: &[&str]) -> (Option<i32>, String, String, String) {
    let referee = Referee::start(&[&n.to_string(), "4", "-t", "60"]);
    let b = bridge(&referee.addr, first, board, extra);
    let o = opponent(&referee.addr, !first);
    let (code, _, err) = b.finish(60.0);
    o.finish(30.0);
    let (_, log, game_log) = referee.end_with_game_log(30.0);
    assert_eq!(err.lines().count(), 1, "one summary line: {err}\n{log}");
    (code, err, log, game_log)
}

/// Against a perfect opponent the board's seat wins exactly the won starts, and
/// the judge, replaying the referee's game log, gives the game to the same seat.
fn assert_played_out(n: u32, first: bool, code: Option<i32>, err: &str, game_log: &str) {
    let wins = first_wins(n, 4, 3) == first;
    let judged = judge_game_log(game_log, n, 4, 3).unwrap_or_else(|e| panic!("{e}\n{game_log}"));
    assert_eq!(
        judged.winner == 0,
        wins == first,
        "the judge's winner: {err}"
    );
    let seat = if first { "first" } else { "second" };
    let word = if wins { "won" } else { "lost" };
    assert_eq!(code, Some(if wins { 0 } else { 1 }), "{err}");
    assert!(
        err.starts_with(&format!("nimbot connect: {word} as {seat} after ")),
        "{err}"
    );
}

#[test]
fn a_good_board_plays_every_move() {
    for (n, first) in [(100, true), (999, false), (57, false)] {
        let board = fake_board(0, Then::Nothing);
        let (code, err, _, game_log) = game(n, first, &board, &[]);
        assert_played_out(n, first, code, &err, &game_log);
        assert!(err.contains("; the board played all "), "{err}");
        assert!(!err.contains("faults"), "{err}");
    }
}

#[test]
fn a_reset_and_a_lost_link_are_survived() {
    for (then, fault) in [(Then::Reset, "board reset"), (Then::Hang, "device lost")] {
        let board = fake_board(12, then);
        let (code, err, _, game_log) = game(300, true, &board, &[]);
        assert_played_out(300, true, code, &err, &game_log);
        assert!(err.contains("; the board played all "), "{err}");
        assert!(err.contains(fault), "{err}");
    }
}

#[test]
fn a_silent_board_leaves_the_game_to_the_host_or_to_a_forfeit() {
    let board = fake_board(12, Then::Silence);
    let (code, err, _, game_log) = game(300, false, &board, &["--board-budget", "1"]);
    assert_played_out(300, false, code, &err, &game_log);
    assert!(err.contains(", the host "), "{err}");
    assert!(err.contains("(after: no reply)"), "{err}");
    assert!(err.contains("budget for faults ran out"), "{err}");

    let board = fake_board(12, Then::Silence);
    let (code, err, log, _) = game(300, false, &board, &["--board-fallback", "forfeit"]);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.starts_with("nimbot connect: gave the game up (the board failed: no reply"));
    assert!(log.contains("Player board exceeded time limit"), "{log}");
}

#[test]
fn a_board_that_cannot_play_stops_before_a_seat_is_taken() {
    // Port 9 on loopback: nobody listens, so reaching the server would fail with 3.
    let cases: Vec<(String, Vec<&str>, &str)> = vec![
        (
            fake_board(0, Then::Nothing),
            vec!["--init-max", "4"],
            "cannot play this game (M = 4)",
        ),
        (
            fake_board(1, Then::Silence),
            vec![],
            "does not answer the line protocol",
        ),
        (
            "/dev/nimbot-no-such-port".into(),
            vec![],
            "cannot open the board at /dev/nimbot-no-such-port",
        ),
        ("/dev/null".into(), vec![], "not a serial port"),
    ];
    for (board, extra, expected) in cases {
        let mut args = vec!["connect", "127.0.0.1:9", "--first", "--board", &board];
        args.extend_from_slice(&["--board-timeout", "0.2"]);
        args.extend_from_slice(&extra);
        let (code, _, err) = spawn(BIN, &args).finish(20.0);
        assert_eq!(code, Some(2), "{board}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(expected), "{board}: {err}");
    }
    // The board's options need --board.
    let (code, _, err) = spawn(
        BIN,
        &["connect", "127.0.0.1:9", "--first", "--baud", "9600"],
    )
    .finish(20.0);
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn retry_waits_for_a_server_that_comes_up_late() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let started = Instant::now();
    let bot = spawn(BIN, &["connect", &addr, "--first", "--retry", "30"]);
    thread::sleep(Duration::from_millis(800));
    let mut server = spawn(
        BIN,
        &[
            "serve",
            "20",
            "4",
            "-p",
            &port.to_string(),
            "-a",
            "127.0.0.1",
            "-t",
            "30",
        ],
    );
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("listening on"), "{line}");
    let other = spawn(BIN, &["connect", &addr, "--second", "--name", "other"]);
    let (code, _, err) = bot.finish(40.0);
    other.finish(20.0);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(&format!("nimbot connect: cannot connect to {addr}: "))
            && lines[0].ends_with("; retrying for up to 30 s"),
        "{err}"
    );
    let wins = first_wins(20, 4, 3);
    assert_eq!(code, Some(if wins { 0 } else { 1 }), "{err}");
    assert!(started.elapsed() < Duration::from_secs(20));
    server.wait(10.0);

    // A server that never comes: the retry runs out, exit status 3.
    let (code, _, err) = spawn(BIN, &["connect", &addr, "--first", "--retry", "0.5"]).finish(20.0);
    assert_eq!(code, Some(3), "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
    // A server that drops mid-game: one summary line, exit status 3.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_addr = silent.local_addr().unwrap().to_string();
    let kid = spawn(BIN, &["connect", &silent_addr, "--first", "--retry", "5"]);
    let (mut conn, _) = silent.accept().unwrap();
    conn.write_all(br#"{"init_stones": 50, "init_resets": 4}"#)
        .unwrap();
    let mut hello = [0u8; 256];
    let _ = std::io::Read::read(&mut conn, &mut hello);
    drop(conn);
    let (code, _, err) = kid.finish(20.0);
    assert_eq!(code, Some(3), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("closed the connection before the end"),
        "{err}"
    );
}

#[test]
fn a_game_beyond_the_board_s_table_is_the_host_s() {
    // `connect` learns N from the welcome, after the seat is taken.
    let board = fake_board(0, Then::Nothing);
    let (code, err, _, game_log) = game(1200, true, &board, &[]);
    assert_played_out(1200, true, code, &err, &game_log);
    assert!(err.contains("; the board played 0 of "), "{err}");
    assert!(
        err.trim_end()
            .ends_with("(the board's table does not cover this game)"),
        "{err}"
    );

    let board = fake_board(0, Then::Nothing);
    let (code, err, log, _) = game(1200, true, &board, &["--board-fallback", "forfeit"]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.starts_with("nimbot connect: gave the game up (the board's table covers N <= 999"),
        "{err}"
    );
    assert!(log.contains("Player board exceeded time limit"), "{log}");
}
