//! `nimbot analyze` on hand-written logs (the worked examples of the rules), and on
//! the log `nimbot serve --game-log` writes of a real game, with `connect --pace`.

mod common;

use std::path::Path;
use std::process::{Command, Output};
use std::thread;
use std::time::Duration;

use common::{connect_with, first_wins, spawn, Referee, BIN};
use nimbot::{best_move, position_value, Game, Move, Outcome, Params};
use nimbot_solve::{Solution, SolveBox};

fn analyze(log: &str, extra: &[&str]) -> Output {
    let dir = std::env::temp_dir().join(format!("nimbot-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("log-{}.txt", log.len()));
    std::fs::write(&path, log).unwrap();
    let mut args = vec!["analyze", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    Command::new(BIN).args(&args).output().unwrap()
}

fn record(name: &str, take: u32, reset: bool, max: u32, left: u32) -> String {
    let r = if reset { " and used reset" } else { "" };
    format!(
        "Player {name} took {take} stones{r}.\nCurrent max: {max}\nStones left: {left}\n{}\n",
        "-".repeat(39)
    )
}

#[test]
fn a_reset_declared_with_none_left_is_the_first_blunder() {
    // N = 10, R = 1 (a worked example of the rules): P1 takes 3 and resets, P2 takes
    // 3, P1 takes 2 and declares a reset it no longer has: the server refuses it.
    let log = [
        record("first noob", 3, true, 3, 7),
        record("first noob", 3, false, 4, 4),
        record("first noob", 2, true, 4, 2),
    ]
    .concat()
        + "Game over\nPlayer first noob used too many resets\n";
    let o = analyze(&log, &["--resets", "1", "--json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("{\"ply\":1,\"seat\":0,\"name\":\"first noob\",\"take\":3,\"reset\":true,\"stones_before\":10,\"limit\":3,"), "{out}");
    assert!(
        lines[2].contains("\"blunder\":true,\"refused\":\"no resets left\""),
        "{out}"
    );
    let summary = lines[3];
    assert!(summary.contains("\"stones\":10,"), "{summary}");
    assert!(summary.contains("\"winner\":1,"), "{summary}");
    // Seat 0's refused move is a blunder; whatever else the replay finds must agree
    // with the solver, so the first blunder of seat 0 is at ply 3 or earlier.
    let blunders = summary.split("\"blunders\":[").nth(1).unwrap();
    let seat0: u32 = blunders.split(',').next().unwrap().parse().unwrap();
    assert!(seat0 >= 1, "{summary}");
    assert!(summary.contains("\"first_blunder_ply\":["), "{summary}");
}

#[test]
fn a_win_thrown_away_is_found_and_a_lost_side_never_blunders() {
    // N = 8, R = 0: the first player's start is won (taking 1 wins). It plays the
    // first take that throws the win away, then both play perfectly.
    let params = Params::new(8, 0, 3).unwrap();
    let sol = Solution::solve(SolveBox::games(8, 0, 3)).unwrap();
    assert_eq!(
        position_value(&sol, &params.start()),
        Ok(nimbot::Value::Won)
    );
    let bad = (1..=3)
        .find(|&t| {
            let next = params.start().after(Move::new(t, false)).unwrap().unwrap();
            position_value(&sol, &next) == Ok(nimbot::Value::Won)
        })
        .expect("some take throws the win away");
    let mut game = Game::new(params);
    let mut log = String::new();
    let names = ["a", "b"];
    let mut mv = Move::new(bad, false);
    loop {
        let seat = game.to_move();
        let out = game.play(seat, mv).unwrap();
        log += &record(
            names[seat.index()],
            mv.take,
            mv.reset,
            game.limit(),
            game.stones(),
        );
        if matches!(out, Outcome::Won(_)) {
            log += &format!(
                "Game over\nPlayer {} won the game! Congrats!\n",
                names[seat.index()]
            );
            break;
        }
        mv = best_move(&sol, &game.position().unwrap()).unwrap().mv;
    }
    let o = analyze(&log, &["--resets", "0"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.starts_with("N = 8 (from the log), R = 0, M = 3; seat 0: a, seat 1: b\n"),
        "{out}"
    );
    let ply1 = out.lines().nth(2).unwrap();
    assert!(ply1.contains("BLUNDER: threw the win away"), "{out}");
    // Taking 1 is among the winning moves listed for the start.
    assert!(ply1.split_whitespace().skip(5).any(|w| w == "1"), "{out}");
    assert!(out.contains("summary: first blunder seat 0 (a) at ply 1; blunders: seat 0 1 (first ply 1), seat 1 0 (first none); winner seat 1 (b): Player b won the game! Congrats!"), "{out}");
}

#[test]
fn bad_logs_are_refused_with_the_line() {
    let o = analyze("Player a took many stones.\n", &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 1: bad take"), "{err}");
    let o = analyze("nothing here\n", &[]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn serve_writes_a_game_log_that_analyze_reads() {
    // N = 57 is lost for the first player (R = 4, M = 3): with perfect play the
    // second seat wins and nobody blunders. The first seat plays with --pace 20.
    let (n, r, m) = (57u32, 4u8, 3u32);
    assert!(!first_wins(n, r, m));
    let dir = std::env::temp_dir().join(format!("nimbot-gamelog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game-log.txt");
    let referee = logging_referee(n, r, &path, &[]);
    let p0 = connect_with(
        &referee.addr,
        true,
        "slow one",
        &["--pace", "20", "--timeout", "60"],
    );
    thread::sleep(Duration::from_millis(5));
    let p1 = connect_with(&referee.addr, false, "fast", &["--timeout", "60"]);
    let (c0, _, e0) = p0.finish(90.0);
    let (c1, _, e1) = p1.finish(90.0);
    let (code, log) = referee.end(10.0);
    assert_eq!(code, Some(0), "{log}");
    assert_eq!((c0, c1), (Some(1), Some(0)), "{e0}{e1}{log}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("Player slow one took "), "{text}");
    assert!(
        text.ends_with("Game over\nPlayer fast won the game! Congrats!\n"),
        "{text}"
    );
    // The paced player's clock: every one of its moves waited 20 ms from the state's
    // arrival. The server starts the mover's clock once it has sent the state to
    // both seats, a little after the mover has it, so on a loaded machine a move is
    // charged somewhat less than the pace; an unpaced move is charged well under 1 ms.
    let moves0 = text.matches("Player slow one took ").count() as f64;
    let last = log.lines().rev().find(|l| l.contains(" clocks ")).unwrap();
    let clock0: f64 = last
        .split(" clocks ")
        .nth(1)
        .unwrap()
        .split(" s /")
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        clock0 >= 0.015 * moves0,
        "{moves0} moves in {clock0} s: {log}"
    );
    let o = Command::new(BIN)
        .args(["analyze", path.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    let summary = out.lines().last().unwrap();
    assert!(summary.contains("\"stones\":57,"), "{summary}");
    assert!(
        summary.contains("\"names\":[\"slow one\",\"fast\"],\"winner\":1,"),
        "{summary}"
    );
    assert!(
        summary.contains("\"blunders\":[0,0],\"first_blunder_ply\":[null,null]"),
        "{summary}"
    );
    // Every move of the first seat was from a lost position, with plies to hold out.
    for line in out.lines().filter(|l| l.contains("\"seat\":0,")) {
        assert!(line.contains("\"value\":\"lose\""), "{line}");
        assert!(!line.contains("\"hold_out\":null"), "{line}");
    }
}

/// A referee for (n, r) with a minute a side that writes its game log to `log`.
fn logging_referee(n: u32, r: u8, log: &Path, more: &[&str]) -> Referee {
    let (n, r) = (n.to_string(), r.to_string());
    let mut args = vec![
        n.as_str(),
        &r,
        "-t",
        "60",
        "--game-log",
        log.to_str().unwrap(),
    ];
    args.extend_from_slice(more);
    Referee::start(&args)
}

const PEER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/peers/stock_client.py");

/// `analyze --json` of `path`: one value per ply and the summary.
fn analyze_json(path: &std::path::Path, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec!["analyze", path.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let o = Command::new(BIN).args(&args).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_record_of_connect_reads_back_with_the_blunders_of_the_servers_log() {
    // The stock-like Python client has the won start (N = 100, R = 4, M = 3) and
    // throws it away (it takes 1 unless it can take the pile); nimbot, second,
    // records the game, and so does the referee, next to its game-log.txt.
    let (n, r, m) = (100u32, 4u8, 3u32);
    assert!(first_wins(n, r, m));
    let dir = std::env::temp_dir().join(format!("nimbot-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (log_path, ours, theirs) = (
        dir.join("game-log.txt"),
        dir.join("connect.jsonl"),
        dir.join("serve.jsonl"),
    );
    let referee = logging_referee(n, r, &log_path, &["--record", theirs.to_str().unwrap()]);
    let py = spawn(
        "python3",
        &[PEER, "127.0.0.1", &referee.port, "0", "py one"],
    );
    thread::sleep(Duration::from_millis(20));
    let bot = connect_with(
        &referee.addr,
        false,
        "nimbot",
        &["--timeout", "60", "--record", ours.to_str().unwrap()],
    );
    let (pc, pout, perr) = py.finish(60.0);
    let (bc, _, berr) = bot.finish(60.0);
    let (code, log) = referee.end(10.0);
    let ctx = format!("{pout}{perr}{berr}{log}");
    assert_eq!((code, pc, bc), (Some(0), Some(0), Some(0)), "{ctx}");
    // The record itself: a header naming the game and both seats, a line per ply,
    // the end.
    let text = std::fs::read_to_string(&ours).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let header = &lines[0];
    assert_eq!(header["kind"], "header");
    assert_eq!(
        (
            header["stones"].as_u64(),
            header["resets"].as_u64(),
            header["init_max"].as_u64()
        ),
        (Some(100), Some(4), Some(3))
    );
    assert_eq!(header["names"], serde_json::json!(["py one", "nimbot"]));
    assert_eq!(header["seat"], 1);
    assert_eq!(lines.last().unwrap()["kind"], "end");
    assert_eq!(lines.last().unwrap()["winner"], 1);
    let plies = &lines[1..lines.len() - 1];
    // nimbot's moves have a clock from the server's state messages.
    assert!(
        plies
            .iter()
            .filter(|p| p["seat"] == 1)
            .all(|p| p["clock"].as_f64().is_some()),
        "{text}"
    );
    // The server's log, nimbot's record and the referee's record, analyzed: the
    // same plies, values, distances and blunders.
    let from_log = analyze_json(&log_path, &["-r", "4", "-m", "3"]);
    let from_ours = analyze_json(&ours, &[]);
    let from_theirs = analyze_json(&theirs, &[]);
    assert_eq!(from_log, from_ours);
    assert_eq!(from_log, from_theirs);
    let summary = from_log.last().unwrap();
    assert!(summary["blunders"][0].as_u64().unwrap() >= 1, "{summary}");
    assert_eq!(summary["blunders"][1], 0, "{summary}");
    // The record's own flags, values and distances are the analysis's.
    assert_eq!(plies.len() + 1, from_log.len());
    for (p, a) in plies.iter().zip(&from_log) {
        assert_eq!(p["blunder"], a["blunder"], "{p} / {a}");
        assert_eq!(p["distance"], a["distance"], "{p} / {a}");
        assert_eq!(p["value"], a["value"], "{p} / {a}");
    }
    // The text report names the first blunder.
    let o = Command::new(BIN)
        .args(["analyze", ours.to_str().unwrap()])
        .output()
        .unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    let first = summary["first_blunder_ply"][0].as_u64().unwrap();
    assert!(
        out.contains(&format!(
            "summary: first blunder seat 0 (py one) at ply {first};"
        )),
        "{out}"
    );
}
