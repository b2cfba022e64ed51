//! `nimbot tournament` end to end: a zoo of misbehaving bots, each with its named
//! ending in both seats; four real bot programs (two of them the Python sample
//! clients of tools/bots, written from docs/tournament.md) at concurrency 4; a
//! tournament killed mid-way and resumed against one played straight through; the
//! SPRT stopping a match; the exit status of a game with no result.
//!
//! CI cost: short clocks (1.5 s), small piles, a few dozen games, about a minute of
//! wall time on a loaded 2-core machine in all.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use common::{judge_record, BIN};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn zoo() -> String {
    repo().join("cli/tests/peers/zoo.py").display().to_string()
}

/// The `--bot` of a sample Python bot of tools/bots/: NAME=python3 SCRIPT with the
/// platform's arguments, then `extra`.
fn sample(name: &str, script: &str, extra: &str) -> String {
    let path = repo().join("tools/bots").join(script);
    format!(
        "{name}=python3 {} {{host}} {{port}} {{order}} {{name}}{extra}",
        path.display()
    )
}

/// A fresh directory for a tournament, and its path as the `--out` argument.
fn scratch(name: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("nimbot-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let arg = dir.display().to_string();
    (dir, arg)
}

fn tournament(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("tournament")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("nimbot runs")
}

fn results(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("results.jsonl")).expect("results");
    let mut games: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a results line is JSON"))
        .collect();
    games.sort_by_key(|g| g["game"].as_u64());
    games
}

fn show(o: &Output) -> String {
    format!(
        "status {:?}\n{}{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn every_bot_of_the_zoo_gets_its_ending_in_both_seats() {
    let (dir, dir_s) = scratch("zoo");
    let z = zoo();
    // (bot, ending kind, what else must hold)
    let zoo = [
        ("crash", "exited"),
        ("segv", "exited"),
        ("hang", "time"),
        ("slow", "time"),
        ("nojoin", "never_joined"),
        ("close", "closed"),
        ("garbage", "garbage"),
        ("badjson", "garbage"),
        ("flood", "garbage"),
        ("twice", "joined_twice"),
    ];
    let mut args: Vec<String> = ["--gauntlet", "--bot", "nimbot:first"]
        .map(String::from)
        .to_vec();
    for (mode, _) in zoo {
        args.push("--bot".into());
        args.push(format!(
            "{mode}=python3 {z} {mode} {{host}} {{port}} {{order}} {{name}}"
        ));
    }
    args.push("--bot".into());
    args.push("ghost=no-such-bot-command {addr} {order}".into());
    args.extend(
        [
            "--stones",
            "30",
            "-t",
            "1.5",
            "--join-timeout",
            "5",
            "-c",
            "4",
            "--out",
            &dir_s,
        ]
        .map(String::from),
    );
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = tournament(&argv);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let games = results(&dir);
    assert_eq!(games.len(), 22, "{}", show(&o));
    let mut table = String::new();
    for g in &games {
        let names = [
            g["names"][0].as_str().unwrap(),
            g["names"][1].as_str().unwrap(),
        ];
        let bad = usize::from(names[0] == "nimbot-first");
        let end = &g["ending"];
        table += &format!(
            "{:<8} seat {} {:<13} after {:>6} s (exit seen in {}) {}\n",
            names[bad],
            bad,
            end["kind"].as_str().unwrap(),
            end["after"],
            end["detected_in"],
            end["text"].as_str().unwrap()
        );
        let ctx = format!("{g}\n{}", show(&o));
        assert_eq!(g["winner"], 1 - bad, "the opponent gets the point: {ctx}");
        assert_eq!(end["seat"], bad, "{ctx}");
        let want = zoo
            .iter()
            .find(|z| z.0 == names[bad])
            .map_or("exited", |z| z.1);
        assert_eq!(end["kind"], want, "{ctx}");
        let text = end["text"].as_str().unwrap();
        match names[bad] {
            "crash" => assert_eq!(end["status"], 7, "{ctx}"),
            "segv" => assert_eq!(end["signal"], 11, "{ctx}"),
            "ghost" => {
                assert_eq!(end["status"], 127, "{ctx}");
                assert!(text.contains("not found"), "the shell's complaint: {ctx}");
                assert!(end["after"].as_f64().unwrap() < 2.0, "{ctx}");
            }
            "slow" | "hang" => {
                assert!(end["clock"].as_f64().unwrap() >= 1.5, "{ctx}");
            }
            "nojoin" => {
                let after = end["after"].as_f64().unwrap();
                assert!((5.0..7.0).contains(&after), "{ctx}");
            }
            "flood" => {
                assert!(text.contains("too long"), "{ctx}");
                assert!(g["stderr_bytes"][bad].as_u64().unwrap() >= 5 << 20, "{ctx}");
                let kept = dir.join(format!(
                    "stderr/game-{:05}-{bad}.txt",
                    g["game"].as_u64().unwrap()
                ));
                assert_eq!(std::fs::metadata(kept).unwrap().len(), 1 << 20, "{ctx}");
            }
            "badjson" => assert!(text.contains("malformed JSON"), "{ctx}"),
            _ => {}
        }
        if end["kind"] == "exited" {
            assert!(end["detected_in"].as_f64().unwrap() < 1.0, "{ctx}");
        }
        // The crash's own words are kept with the game.
        if names[bad] == "crash" {
            assert!(
                g["stderr_tail"][bad]
                    .as_str()
                    .unwrap()
                    .contains("giving up on move 3"),
                "{ctx}"
            );
        }
    }
    eprintln!("{table}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn four_real_bots_at_concurrency_4_give_standings_records_and_a_report() {
    let (dir, dir_s) = scratch("four");
    let greedy = sample("greedy", "greedy.py", "");
    let rand = sample("rand", "rand.py", " 3 7");
    // nimbot itself as a line-protocol bot on its stdin/stdout, and as a bot of
    // the stock exp-nim text client.
    let line = format!("liner=line:{BIN} --policy first");
    let text = format!(
        "texter=text:{BIN} exp-nim --{{seat}} --stones {{stones}} --resets {{resets}} --init-max {{init_max}} --policy longest"
    );
    let o = tournament(&[
        "--bot",
        "nimbot:trap",
        "--bot",
        &line,
        "--bot",
        &text,
        "--bot",
        &greedy,
        "--bot",
        &rand,
        "--stones",
        "20,31",
        "-t",
        "20",
        "-c",
        "4",
        "--json",
        "--out",
        &dir_s,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = lines.last().unwrap();
    assert_eq!(summary["kind"], "summary");
    assert_eq!(lines.len(), 41, "a line per game, then the summary");
    assert_eq!(summary["games_played"], 40);
    let standings = summary["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 5);
    let points: u64 = standings
        .iter()
        .map(|s| s["points"].as_u64().unwrap())
        .sum();
    assert_eq!(points, 40, "a point per game");
    for s in standings {
        assert_eq!(s["games"], 16, "{s}");
        assert!(
            s["elo"]["low"].is_number() || s["elo"]["high"].is_number(),
            "{s}"
        );
        if s["name"].as_str().unwrap() != "rand" && s["name"].as_str().unwrap() != "greedy" {
            // nimbot wins every won start, whatever the front end.
            assert_eq!(s["won_starts_converted"], s["won_starts"], "{s}");
        }
    }
    let cross = summary["crosstable"].as_array().unwrap();
    let cell = |a: usize, b: usize| cross[a][b].as_u64().unwrap();
    for (a, b) in (0..5).flat_map(|a| (0..5).map(move |b| (a, b))) {
        if a != b {
            assert_eq!(cell(a, b) + cell(b, a), 4, "each pair plays 4 games");
        }
    }
    let games = results(&dir);
    assert_eq!(games.len(), 40);
    for g in &games {
        assert_eq!(g["ending"]["kind"], "won", "{g}");
        // Every game's record, judged move by move by the rules of the test
        // support, gives the game to the results' winner.
        let id = g["game"].as_u64().unwrap();
        let rec = dir.join(format!("records/game-{id:05}.jsonl"));
        let judged = judge_record(&std::fs::read_to_string(&rec).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", rec.display()));
        assert_eq!(g["winner"], judged.winner, "{g}");
    }
    // Records read by analyze agree with the results' blunders.
    for g in games.iter().step_by(9) {
        let id = g["game"].as_u64().unwrap();
        let rec = dir.join(format!("records/game-{id:05}.jsonl"));
        let a = Command::new(BIN)
            .args(["analyze", "--json"])
            .arg(&rec)
            .output()
            .unwrap();
        assert!(a.status.success(), "{}", show(&a));
        let out = String::from_utf8_lossy(&a.stdout);
        let last: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        assert_eq!(last["blunders"], g["blunders"], "{g}\n{out}");
        assert_eq!(last["winner"], g["winner"], "{g}\n{out}");
    }
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("<h2>Standings</h2>") && html.contains("<h2>Crosstable</h2>"));
    assert_eq!(html.matches("<svg").count(), 40, "a chart per game");
    for external in ["http://", "https://", "<script", "src=", "<link"] {
        assert!(
            !html.contains(external),
            "the report fetches nothing: {external}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The parts of a result that do not depend on timing.
fn outcome(g: &Value) -> String {
    format!(
        "{} {} {} {} {} {} {}",
        g["game"],
        g["stones"],
        g["names"],
        g["winner"],
        g["ending"]["kind"],
        g["plies"],
        g["blunders"]
    )
}

#[test]
fn a_killed_tournament_resumes_to_the_results_of_an_uninterrupted_one() {
    let greedy = sample("greedy", "greedy.py", "");
    let args = |dir: &str| -> Vec<String> {
        [
            "--bot",
            "nimbot:first",
            "--bot",
            "nimbot:longest",
            "--bot",
            &greedy,
            "--draw",
            "4",
            "--range",
            "10..40",
            "--seed",
            "5",
            "-t",
            "20",
            "-c",
            "2",
            "--out",
            dir,
        ]
        .map(String::from)
        .to_vec()
    };
    let (straight, s) = scratch("straight");
    let (killed, k) = scratch("killed");
    // `match` is the same command.
    let mut whole = vec!["match".to_string()];
    whole.extend(args(&s));
    let o = Command::new(BIN).args(&whole).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let mut child = Command::new(BIN)
        .arg("tournament")
        .args(args(&k))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let n =
            std::fs::read_to_string(killed.join("results.jsonl")).map_or(0, |t| t.lines().count());
        if n >= 5 || Instant::now() > deadline {
            break;
        }
        thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = results(&killed).len();
    assert!((5..24).contains(&before), "killed mid-way: {before} games");
    // A line cut short by the kill is dropped and its game played again.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(killed.join("results.jsonl"))
        .unwrap();
    std::io::Write::write_all(&mut f, b"{\"game\": 24, \"stones\": 1").unwrap();
    drop(f);
    let o = tournament(&["--resume", "--out", &k, "-c", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&format!("{before} of 24 games on disk")),
        "{}",
        show(&o)
    );
    let (a, b) = (results(&straight), results(&killed));
    assert_eq!(b.len(), 24, "every game once");
    let ids: std::collections::BTreeSet<u64> =
        b.iter().map(|g| g["game"].as_u64().unwrap()).collect();
    assert_eq!(ids.len(), 24, "no game twice");
    let (a, b): (Vec<String>, Vec<String>) = (
        a.iter().map(outcome).collect(),
        b.iter().map(outcome).collect(),
    );
    assert_eq!(a, b);
    // Resuming a finished tournament plays nothing and reports the same.
    let o = tournament(&["--resume", "--out", &k]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert_eq!(results(&killed).len(), 24);
    let _ = std::fs::remove_dir_all(&straight);
    let _ = std::fs::remove_dir_all(&killed);
}

#[test]
fn the_sprt_stops_a_decided_match_and_a_game_without_result_fails_the_run() {
    let (dir, d) = scratch("sprt");
    let rand = sample("rand", "rand.py", " 3 11");
    let o = tournament(&[
        "--bot",
        "nimbot:trap",
        "--bot",
        &rand,
        "--draw",
        "60",
        "--range",
        "20..60",
        "--sprt",
        "0",
        "200",
        "0.05",
        "0.05",
        "-t",
        "20",
        "-c",
        "2",
        "--json",
        "--out",
        &d,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let summary: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(summary["sprt"]["decision"], "H1", "{summary}");
    let played = summary["games_played"].as_u64().unwrap();
    assert!(played < 40, "stopped early: {played} of 120");
    let _ = std::fs::remove_dir_all(&dir);

    let (dir, d) = scratch("none");
    let o = tournament(&[
        "--bot",
        "a=no-such-bot-a",
        "--bot",
        "b=no-such-bot-b",
        "--stones",
        "5",
        "--out",
        &d,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    let games = results(&dir);
    assert_eq!(games.len(), 2);
    for g in games {
        assert_eq!(g["ending"]["kind"], "no_result", "{g}");
        assert!(g["winner"].is_null());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
