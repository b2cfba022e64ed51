//! `nimbot tournament` end to end: a zoo of misbehaving bots, each with its named
//! ending in both seats; bots asking for the wrong seat, blamed in either seat; a
//! busy `--out` refused and Ctrl-C ending every bot; course-style bots (one `recv`
//! a message, port 9000, seat flags, a bot's own directory) with pacing, every game
//! in play; four real bot programs (two of them the Python sample clients of
//! tools/bots, written from docs/tournament.md) at concurrency 4, their standings
//! and crosstable recounted from the results file; a tournament killed mid-way and
//! resumed against one played straight through; the pre-flight finding a typo; the
//! SPRT stopping a match; the exit status of a game with no result.
//!
//! CI cost: short clocks, small piles, about a hundred games in all: a minute or two
//! of wall time on a 2-core machine, more under load.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use common::{judge_record, processes_with, BIN};
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

/// `nimbot tournament --out OUT`, a `--bot` for each of `bots`, then `flags` split
/// at spaces.
fn tournament_in(out: &str, bots: &[&str], flags: &str) -> Output {
    let mut args = vec!["--out", out];
    for bot in bots {
        args.extend(["--bot", bot]);
    }
    args.extend(flags.split_whitespace());
    tournament(&args)
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

/// The games on disk of a run that must have succeeded with `n` of them.
fn played(o: &Output, dir: &Path, n: usize) -> Vec<Value> {
    assert_eq!(o.status.code(), Some(0), "{}", show(o));
    let games = results(dir);
    assert_eq!(games.len(), n, "{}", show(o));
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
        ("crash1", "exited"),
        ("segv", "exited"),
        ("kill9", "exited"),
        ("hang", "time"),
        ("slow", "time"),
        ("nojoin", "never_joined"),
        ("close", "closed"),
        ("slowcrash", "exited"),
        ("garbage", "garbage"),
        ("badjson", "garbage"),
        ("flood", "garbage"),
        ("twice", "joined_twice"),
    ];
    let mut bots = vec!["nimbot:first".to_string()];
    for (mode, _) in zoo {
        bots.push(format!(
            "{mode}=python3 {z} {mode} {{host}} {{port}} {{order}} {{name}}"
        ));
    }
    bots.push("ghost=no-such-bot-command {addr} {order}".into());
    let bots: Vec<&str> = bots.iter().map(String::as_str).collect();
    // The zoo fails the pre-flight by design.
    let flags = "--no-check --gauntlet --stones 30 -t 1.5 --join-timeout 10 -c 4";
    let o = tournament_in(&dir_s, &bots, flags);
    let games = played(&o, &dir, 28);
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
            "slowcrash" => {
                // Its socket closed a second before its process ended: a crash all
                // the same, named with its status and its last words.
                assert_eq!(end["status"], 3, "{ctx}");
                assert!(text.contains("exited with status 3"), "{ctx}");
                assert!(text.contains("Extra data"), "{ctx}");
            }
            "segv" => assert_eq!(end["signal"], 11, "{ctx}"),
            "kill9" => {
                assert_eq!(end["signal"], 9, "{ctx}");
                assert!(text.contains("killed by signal 9 (SIGKILL)"), "{ctx}");
            }
            "crash1" if bad == 1 => {
                // It never moved, but its turn came: its start is the position
                // nimbot's first move left it.
                let first = &g["record"].as_array().unwrap()[1];
                assert_eq!(first["kind"], "ply", "{ctx}");
                let won = !(first["value"] == "win" && first["blunder"] == false);
                assert_eq!(g["starts"][1], won, "{ctx}");
            }
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
                assert!((10.0..13.0).contains(&after), "{ctx}");
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
        // The record ends with the runner's ending (not the reason line the bots
        // were sent), and "plies" counts its plies, a refused one too.
        let record = g["record"].as_array().unwrap();
        if let Some(last) = record.last() {
            assert_eq!(last["kind"], "end", "{ctx}");
            let reason = last["reason"].as_str().unwrap();
            assert!(reason.contains(text), "{reason}: {ctx}");
            let plies = record.iter().filter(|l| l["kind"] == "ply").count();
            assert_eq!(g["plies"], plies, "{ctx}");
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
fn a_bot_asking_for_the_wrong_seat_is_the_one_that_loses_in_either_seat() {
    let (dir, dir_s) = scratch("seats");
    let z = zoo();
    let bot =
        |mode: &str| format!("{mode}=python3 {z} {mode} {{host}} {{port}} {{order}} {{name}}");
    let o = tournament_in(
        &dir_s,
        &["nimbot:first", &bot("first"), &bot("swap")],
        "--no-check --gauntlet --stones 20 -t 5 -c 2",
    );
    let games = played(&o, &dir, 4);
    for g in &games {
        let ctx = format!("{g}\n{}", show(&o));
        let bad = usize::from(g["names"][0] == "nimbot-first");
        let (who, end) = (g["names"][bad].as_str().unwrap(), &g["ending"]);
        if who == "first" && bad == 0 {
            // Asked for the seat it was given: an ordinary game.
            assert_eq!(end["kind"], "won", "{ctx}");
            continue;
        }
        assert_eq!(end["kind"], "wrong_seat", "{ctx}");
        assert_eq!(end["seat"], bad, "the bot that asked is blamed: {ctx}");
        assert_eq!(g["winner"], 1 - bad, "its opponent gets the point: {ctx}");
        assert!(end["text"].as_str().unwrap().starts_with(who), "{ctx}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Against a bot that never joins (or ends before joining), a wrong seat is
    // judged only once the other would have joined: neither bot could play, and
    // neither is credited a win.
    let (dir, dir_s) = scratch("seats-none");
    let o = tournament_in(
        &dir_s,
        &[&bot("swap"), &bot("nojoin"), "late=sh -c 'sleep 8; exit 3'"],
        "--no-check --gauntlet --stones 20 -t 5 -c 4 --join-timeout 12",
    );
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    let games = results(&dir);
    assert_eq!(games.len(), 4, "{}", show(&o));
    for g in &games {
        let ctx = format!("{g}\n{}", show(&o));
        assert_eq!(g["ending"]["kind"], "no_result", "{ctx}");
        assert!(g["winner"].is_null(), "{ctx}");
        let text = g["ending"]["text"].as_str().unwrap();
        assert!(text.starts_with("swap asked for the"), "{ctx}");
        let other = if g["names"][0] == "swap" {
            &g["names"][1]
        } else {
            &g["names"][0]
        };
        match other.as_str().unwrap() {
            "nojoin" => assert!(
                text.ends_with("and nojoin never joined (no hello within 12 s)"),
                "{ctx}"
            ),
            _ => assert!(
                text.contains("and late exited with status 3 before joining"),
                "{ctx}"
            ),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_busy_out_is_refused_and_ctrl_c_ends_every_bot_and_says_how_to_resume() {
    let (dir, dir_s) = scratch("busy");
    let marker = format!("busy-marker-{}", std::process::id());
    let hang = format!(
        "hang=python3 {} hang {{host}} {{port}} {{order}} {{name}} {marker}",
        zoo()
    );
    let mut first = Command::new(BIN)
        .args([
            "tournament",
            "--no-check",
            "--gauntlet",
            "--bot",
            "nimbot:first",
            "--bot",
            &hang,
        ])
        .args(["--stones", "20,30", "-t", "60", "-c", "2", "--out", &dir_s])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(20);
    // The runner's own command line holds the marker too.
    while processes_with(&marker) < 3 && Instant::now() < until {
        thread::sleep(Duration::from_millis(100));
    }
    // (A Python launcher may show the marker in a process or two of its own.)
    assert!(processes_with(&marker) >= 3, "two hanging bots under way");
    for again in [
        vec!["--resume", "--out", &dir_s],
        vec!["--bot", "nimbot", "--bot", "nimbot", "--out", &dir_s],
    ] {
        let o = tournament(&again);
        assert_eq!(o.status.code(), Some(2), "{}", show(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("is in use by another nimbot tournament"),
            "{}",
            show(&o)
        );
    }
    let t = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &first.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let mut status = None;
    while t.elapsed() < Duration::from_secs(20) {
        if let Some(s) = first.try_wait().unwrap() {
            status = Some(s);
            break;
        }
        thread::sleep(Duration::from_millis(50));
    }
    let Some(status) = status else {
        let _ = first.kill();
        panic!("Ctrl-C did not end the tournament");
    };
    let o = first.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains(&format!("--resume --out {dir_s}")), "{err}");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("0 of 4 games played"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(processes_with(&marker), 0, "the runner and every bot ended");
    assert_eq!(
        std::fs::read_to_string(dir.join("results.jsonl")).unwrap(),
        "",
        "no game cut short is kept"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// One bot's line, recounted from the results.
#[derive(Clone, Debug, Default, PartialEq)]
struct Line {
    games: u64,
    points: u64,
    wins: [u64; 2],
    seat_games: [u64; 2],
    won_starts: [u64; 2],
    lost_starts: [u64; 2],
    caused: u64,
    faults: u64,
}

/// Recount the standings and the crosstable from `results.jsonl` alone (the seats,
/// the winner, the ending, and each record's plies for the starts and the first
/// blunder), and hold the JSON summary and the printed text to it, cell by cell.
fn recount(dir: &Path, summary: &Value, text: &str) {
    let games = results(dir);
    let names: Vec<String> = summary["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap().to_owned())
        .collect();
    let n = names.len();
    let mut lines = vec![Line::default(); n];
    let mut cross = vec![vec![0u64; n]; n];
    for g in &games {
        let Some(w) = g["winner"].as_u64() else {
            continue;
        };
        let w = w as usize;
        let bots = [0, 1].map(|s| g["bots"][s].as_u64().unwrap() as usize);
        cross[bots[w]][bots[1 - w]] += 1;
        let plies: Vec<&Value> = g["record"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["kind"] == "ply")
            .collect();
        let first_blunder = plies
            .iter()
            .find(|p| p["blunder"] == true)
            .map(|p| p["seat"].as_u64().unwrap() as usize);
        for seat in 0..2 {
            let l = &mut lines[bots[seat]];
            let won = w == seat;
            l.games += 1;
            l.seat_games[seat] += 1;
            l.points += u64::from(won);
            l.wins[seat] += u64::from(won);
            // The first position the seat had to move in: its first ply's, or
            // (it never moved, its turn came) what the other seat's first move
            // left it.
            let start = match plies.iter().find(|p| p["seat"] == seat) {
                Some(p) => Some(p["value"] == "win"),
                None => plies.first().and_then(|p| {
                    let took = p["take"].as_u64().unwrap();
                    (p["refused"] == false && took < g["stones"].as_u64().unwrap())
                        .then(|| !(p["value"] == "win" && p["blunder"] == false))
                }),
            };
            match start {
                Some(true) => {
                    l.won_starts[0] += 1;
                    l.won_starts[1] += u64::from(won);
                }
                Some(false) => {
                    l.lost_starts[0] += 1;
                    l.lost_starts[1] += u64::from(won);
                }
                None => {}
            }
            l.caused += u64::from(first_blunder == Some(1 - seat));
            let kind = g["ending"]["kind"].as_str().unwrap();
            let fault = !["won", "illegal_move", "too_many_resets"].contains(&kind);
            l.faults += u64::from(fault && g["ending"]["seat"] == seat);
        }
    }
    // The JSON: every standing's numbers and every crosstable cell.
    let standings = summary["standings"].as_array().unwrap();
    let mut last_points = u64::MAX;
    for s in standings {
        let b = s["bot"].as_u64().unwrap() as usize;
        let l = &lines[b];
        let n = |key: &str| s[key].as_u64().unwrap();
        let got = Line {
            games: n("games"),
            points: n("points"),
            wins: [n("wins_first"), n("wins_second")],
            seat_games: [n("games_first"), n("games_second")],
            won_starts: [n("won_starts"), n("won_starts_converted")],
            lost_starts: [n("lost_starts"), n("lost_starts_won")],
            caused: n("first_blunders_caused"),
            faults: n("faults"),
        };
        assert_eq!(&got, l, "{}", names[b]);
        assert!(l.points <= last_points, "standings by points");
        last_points = l.points;
    }
    for a in 0..n {
        for b in 0..n {
            assert_eq!(
                summary["crosstable"][a][b].as_u64().unwrap(),
                cross[a][b],
                "cell {a} {b}"
            );
        }
    }
    // The text: the same numbers, and the crosstable numbered like the standings.
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .take(n)
        .map(|l| l.split_whitespace().collect())
        .collect();
    let order: Vec<usize> = standings
        .iter()
        .map(|s| s["bot"].as_u64().unwrap() as usize)
        .collect();
    for (rank, (row, &b)) in rows.iter().zip(&order).enumerate() {
        let l = &lines[b];
        let want = [
            (rank + 1).to_string(),
            names[b].clone(),
            l.games.to_string(),
            l.points.to_string(),
            format!("{}/{}", l.wins[0], l.seat_games[0]),
            format!("{}/{}", l.wins[1], l.seat_games[1]),
            format!("{}/{}", l.won_starts[1], l.won_starts[0]),
            format!("{}/{}", l.lost_starts[1], l.lost_starts[0]),
            l.caused.to_string(),
            l.faults.to_string(),
        ];
        assert_eq!(&row[..10], &want[..], "{text}");
    }
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("crosstable"))
        .skip(1)
        .take(n)
        .collect();
    for (rank, (row, &a)) in table.iter().zip(&order).enumerate() {
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            (words[0], words[1]),
            ((rank + 1).to_string().as_str(), names[a].as_str()),
            "{text}"
        );
        for (col, &b) in order.iter().enumerate() {
            let want = if a == b {
                "-".to_owned()
            } else {
                format!("{}-{}", cross[a][b], cross[b][a])
            };
            assert_eq!(
                words[2 + col],
                want,
                "row {} col {}: {text}",
                rank + 1,
                col + 1
            );
        }
    }
}

/// The `--bot` of a course-style bot of tools/bots/ (its own flags after it).
fn course(name: &str, script: &str, flags: &str) -> String {
    let path = repo().join("tools/bots").join(script);
    format!("{name}=python3 {} {flags}", path.display())
}

#[test]
fn course_style_bots_on_port_9000_with_pacing_end_every_game_in_play() {
    // Clients that read once per message, hard-code port 9000, read init_max from
    // every state, take -f or True|False, and one that must run in its directory:
    // the documented round-robin of docs/tournament.md, on one pile.
    let (dir, dir_s) = scratch("course");
    let book = repo().join("tools/bots/student_book");
    let book = format!(
        "book;dir={}=python3 book.py {{first:--first}}",
        book.display()
    );
    let flags = course(
        "flags",
        "student_flags.py",
        "{first:-f} -n {name} 127.0.0.1:9000",
    );
    let boolean = course(
        "bool",
        "student_bool.py",
        "{first:True}{second:False} {name}",
    );
    let noob = course("noob", "student_noob.py", "{first:-f}");
    let o = tournament_in(
        &dir_s,
        &["nimbot", &flags, &boolean, &noob, &book],
        "--port 9000 --pace 30 -c 2 -t 30 --stones 14 --json",
    );
    let games = played(&o, &dir, 20);
    for g in &games {
        assert_eq!(g["ending"]["kind"], "won", "every game ends in play: {g}");
    }
    let out = String::from_utf8_lossy(&o.stdout);
    let summary: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let again = tournament(&["--resume", "--out", &dir_s]);
    assert_eq!(again.status.code(), Some(0), "{}", show(&again));
    recount(&dir, &summary, &String::from_utf8_lossy(&again.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bot_of_the_latest_server_plays_legally_by_default_and_is_told_why_under_limit() {
    // student_max takes current_max + 1, as the bots written for the course's
    // latest server do: by default every game ends in play; under the older
    // meaning it takes one too many, and the pre-flight and the ending say that the
    // other meaning would have allowed it.
    let max = course(
        "max",
        "student_max.py",
        "{first:--first}{second:--second} {host} {port} {name}",
    );
    let (dir, dir_s) = scratch("largest");
    let o = tournament_in(&dir_s, &["nimbot", &max], "--pace 30 -t 20 --stones 20,31");
    for g in played(&o, &dir, 4) {
        assert_eq!(g["ending"]["kind"], "won", "{g}");
    }
    let (dir, dir_s) = scratch("limit");
    let o = tournament_in(
        &dir_s,
        &["nimbot", &max],
        "--pace 30 -t 20 --stones 20,31 --current-max limit",
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("max lost in the second seat by a move the other current_max would allow: max made an illegal move at ply 2: took 4 with limit 3"),
        "{err}"
    );
    for g in played(&o, &dir, 4) {
        let e = &g["ending"];
        assert_eq!(e["kind"], "illegal_move", "{g}");
        // The refused move is the record's last ply, and counted.
        let record = g["record"].as_array().unwrap();
        let plies: Vec<&Value> = record.iter().filter(|l| l["kind"] == "ply").collect();
        assert_eq!(plies.last().unwrap()["refused"], true, "{g}");
        assert_eq!(g["plies"], plies.len(), "{g}");
        assert_eq!(e["ply"], plies.len(), "{g}");
        assert_eq!(e["other_meaning"], true, "{g}");
        assert!(
            e["text"]
                .as_str()
                .unwrap()
                .contains("(current_max + 1: legal had current_max been the largest take so far"),
            "{g}"
        );
    }
    // The meaning is the plan's: a resume keeps it.
    let plan: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tournament.json")).unwrap())
            .unwrap();
    assert_eq!(plan["rules"]["largest"], false, "{plan}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_check_per_bot_is_kept_for_resume_and_a_taken_out_is_refused_before_the_pre_flight() {
    let (dir, d) = scratch("nocheck");
    let crash = format!(
        "crash=python3 {} crash {{host}} {{port}} {{order}} {{name}}",
        zoo()
    );
    // A bot that plays, then crashes, fails its check game...
    let o = tournament_in(&d, &["nimbot", &crash], "--stones 30,31");
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("crash FAILED"), "{err}");
    assert!(
        err.contains("admit them unchecked with --no-check=crash"),
        "{err}"
    );
    // ...a name --no-check does not know is refused...
    let o = tournament_in(&d, &["nimbot", &crash], "--stones 30,31 --no-check=crsh");
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--no-check=crsh: no bot is named crsh"),
        "{}",
        show(&o)
    );
    // ...and --no-check=crash admits it alone: nimbot is still checked.
    let o = tournament_in(&d, &["nimbot", &crash], "--stones 30,31 --no-check=crash");
    let games = played(&o, &dir, 4);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("checking 1 bots (1 skipped by --no-check)") && err.contains("nimbot: ok"),
        "{err}"
    );
    assert!(
        !err.contains("crash: ok") && !err.contains("crash FAILED"),
        "{err}"
    );
    assert!(games.iter().any(|g| g["ending"]["kind"] == "exited"));
    // A tournament already in --out is named at once, before any check game.
    let o = tournament_in(&d, &["nimbot", &crash], "--stones 30");
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("already holds a tournament"), "{err}");
    assert!(!err.contains("checking"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);

    // A run with --no-check for every bot resumes without the pre-flight (which the
    // bot that cannot start would fail).
    let (dir, d) = scratch("nocheck-resume");
    let o = tournament_in(
        &d,
        &["nimbot", "gone=no-such-bot {addr}"],
        "--no-check --stones 5,6",
    );
    played(&o, &dir, 4);
    let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("results.jsonl"), kept).unwrap();
    let o = tournament(&["--resume", "--out", &d]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("checking"),
        "{}",
        show(&o)
    );
    assert_eq!(results(&dir).len(), 4);
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
    let o = tournament_in(
        &dir_s,
        &["nimbot:trap", &line, &text, &greedy, &rand],
        "--stones 20,31 -t 20 -c 4 --json",
    );
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
    // Resuming a finished tournament plays nothing and prints the text.
    let again = tournament(&["--resume", "--out", &dir_s]);
    assert_eq!(again.status.code(), Some(0), "{}", show(&again));
    recount(&dir, summary, &String::from_utf8_lossy(&again.stdout));
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
            // Paced, so that the kill lands mid-way however fast the games are
            // (unpaced, the 24 can all end between two looks at the results).
            "--pace",
            "15",
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
    let o = tournament_in(
        &d,
        &["nimbot:trap", &rand],
        "--draw 60 --range 20..60 --sprt 0 200 0.05 0.05 -t 20 -c 2 --json",
    );
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let summary: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(summary["sprt"]["decision"], "H1", "{summary}");
    let played = summary["games_played"].as_u64().unwrap();
    assert!(played < 40, "stopped early: {played} of 120");
    // Decided (in the order the games finished) before the games under way ended.
    let after = summary["sprt"]["decided_after"].as_u64().unwrap();
    assert!(after <= played, "{summary}");
    let _ = std::fs::remove_dir_all(&dir);

    let (dir, d) = scratch("none");
    // The pre-flight finds the typo before a game is played.
    let o = tournament_in(&d, &["nimbot", "typo=no-such-bot-a {addr}"], "--stones 5");
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("nimbot: ok in both seats"), "{err}");
    assert!(
        err.contains("typo FAILED in the first seat: exited"),
        "{err}"
    );
    assert!(
        err.contains("typo FAILED in the second seat") && err.contains("not found"),
        "{err}"
    );
    assert!(!dir.join("results.jsonl").exists(), "nothing was played");
    let o = tournament(&["--check", "--bot", "nimbot", "--bot", &rand]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let o = tournament_in(
        &d,
        &["a=no-such-bot-a", "b=no-such-bot-b"],
        "--no-check --stones 5",
    );
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    let games = results(&dir);
    assert_eq!(games.len(), 2);
    for g in games {
        assert_eq!(g["ending"]["kind"], "no_result", "{g}");
        assert!(g["winner"].is_null());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
