//! `nimbot exp-nim` wired to an exp-nim-like text client with a named pipe, as
//! docs/tournament.md shows, in both seats, against `nimbot connect` through `nimbot serve`.

mod common;

use std::process::Command;

use common::{connect, first_wins, spawn, Referee, BIN};

const PEER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/peers/exp_nim_like.py");

fn game(n: u32, r: u8, text_first: bool) {
    let dir = std::env::temp_dir().join(format!(
        "nimbot-expnim-{}-{n}-{text_first}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("cmd-pipe");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let status = dir.join("status");
    let (ours, theirs) = (dir.join("exp-nim.jsonl"), dir.join("serve.jsonl"));
    let referee = Referee::start(&[
        &n.to_string(),
        &r.to_string(),
        "-t",
        "30",
        "--record",
        theirs.to_str().unwrap(),
    ]);
    let (seat, flag, stones) = if text_first {
        ("--first", "-f", format!("--stones {n}"))
    } else {
        ("--second", "", String::new())
    };
    let script = format!(
        "({BIN} exp-nim {seat} {stones} --resets {r} --record '{rec}' < '{f}' 2> '{s}.err'; echo $? > '{s}') \
         | python3 '{PEER}' {flag} -n text {addr} > '{f}'",
        f = fifo.display(),
        s = status.display(),
        rec = ours.display(),
        addr = referee.addr
    );
    let text = spawn("timeout", &["30", "sh", "-c", &script]);
    let bot = connect(&referee.addr, !text_first, "tcp", 3);
    let (tc, tout, terr) = text.finish(35.0);
    let (bc, _, berr) = bot.finish(10.0);
    let (code, log, judged) = referee.end_judged(10.0, n, r, 3);
    let code_text = std::fs::read_to_string(&status).unwrap_or_default();
    let err_text = std::fs::read_to_string(status.with_extension("err")).unwrap_or_default();
    let ctx = format!("N={n} R={r} text_first={text_first}\n{tout}{terr}{err_text}{berr}{log}");
    assert_eq!(tc, Some(0), "{ctx}");
    assert_eq!(code, Some(0), "{ctx}");
    let text_wins = first_wins(n, r, 3) == text_first;
    assert_eq!(
        judged.winner == 0,
        text_wins == text_first,
        "the judge's winner: {ctx}"
    );
    assert_eq!(code_text.trim(), if text_wins { "0" } else { "1" }, "{ctx}");
    assert_eq!(bc, Some(if text_wins { 1 } else { 0 }), "{ctx}");
    assert_eq!(err_text.lines().count(), 1, "{ctx}");
    // exp-nim's record holds the referee's plies (its own clocks only, and names
    // it cannot know), and nimbot's moves with a clock.
    let plies = |path: &std::path::Path| -> Vec<serde_json::Value> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|v| v["kind"] == "ply")
            .collect()
    };
    let (a, b) = (plies(&ours), plies(&theirs));
    assert_eq!(a.len(), b.len(), "{ctx}");
    let ours_seat = u64::from(!text_first);
    for (x, y) in a.iter().zip(&b) {
        for key in ["seat", "take", "reset", "value", "distance", "blunder"] {
            assert_eq!(x[key], y[key], "{key}: {x} / {y}");
        }
        assert_eq!(x["clock"].is_f64(), x["seat"] == ours_seat, "{x}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exp_nim_plays_both_seats_through_a_named_pipe() {
    for (n, r) in [(20, 4), (100, 4), (8, 0), (57, 2), (999, 4)] {
        game(n, r, true);
        game(n, r, false);
    }
}
