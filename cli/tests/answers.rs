//! The command line's answers of issue 32: positions given as moves (`--after`),
//! the best-play line (`nimbot line`), the value history chart (`analyze --plot`)
//! and one JSON vocabulary for every command that prints JSON (the schema test;
//! `nimbot-table stats --json`, another package's binary, is pinned in
//! tools/tests/cli.rs).

use std::process::Command;

use nimbot::{Game, Move, Params, Position, SplitMix64, Value};
use nimbot_solve::{Solution, SolveBox};
use serde_json::Value as Json;

const BIN: &str = env!("CARGO_BIN_EXE_nimbot");

fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(BIN).args(args).output().expect("nimbot runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

fn json(args: &[&str]) -> Json {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

/// A random legal game prefix of `params`: its moves, and the normalized position
/// after them worked out by hand from the rules (stones left, the cap
/// max(M, largest take + 1), resets by seat, the last move's reset), not by
/// `nimbot::Game`.
fn random_prefix(rng: &mut SplitMix64, params: Params) -> (Vec<Move>, [u64; 5]) {
    let (n, r, m) = (params.stones(), params.resets(), params.init_max());
    let plies = rng.below(12);
    let (mut stones, mut largest, mut resets, mut pending) = (n, 0u32, [r, r], false);
    let mut moves = Vec::new();
    for i in 0..plies {
        let mover = (i % 2) as usize;
        let limit = if pending { m } else { m.max(largest + 1) };
        let take = 1 + rng.below(u64::from(limit)) as u32;
        if take >= stones {
            break;
        }
        let reset = resets[mover] > 0 && rng.chance(0.3);
        stones -= take;
        largest = largest.max(take);
        resets[mover] -= u8::from(reset);
        pending = reset;
        moves.push(Move::new(take, reset));
    }
    let mover = moves.len() % 2;
    let pos = [
        u64::from(stones),
        u64::from(m.max(largest + 1)),
        u64::from(resets[mover]),
        u64::from(resets[1 - mover]),
        u64::from(pending),
    ];
    (moves, pos)
}

fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| format!("{}{}", m.take, if m.reset { "r" } else { "" }))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn after_gives_the_normalized_position_of_the_moves() {
    let mut rng = SplitMix64::new(32);
    for _ in 0..60 {
        let n = 5 + rng.below(300) as u32;
        let r = rng.below(5) as u8;
        let m = 1 + rng.below(4) as u32;
        let params = Params::new(n, r, m).unwrap();
        let (moves, want) = random_prefix(&mut rng, params);
        let text = moves_text(&moves);
        let (ns, rs, ms) = (n.to_string(), r.to_string(), m.to_string());
        let after = [
            "--after",
            &text,
            "-n",
            &ns,
            "-r",
            &rs,
            "--init-max",
            &ms,
            "--json",
        ];
        let mut args = vec!["moves"];
        args.extend(after);
        let got = json(&args);
        let keys = ["stones", "cap", "own_resets", "opp_resets"];
        for (k, w) in keys.iter().zip(want) {
            assert_eq!(got[k], w, "{k} after {text:?} (N {n} R {r} M {m}): {got}");
        }
        assert_eq!(got["reset_pending"], want[4] == 1, "{got}");
        // The same answer as the five numbers give.
        let nums: Vec<String> = want.iter().map(u64::to_string).collect();
        let mut by_numbers = vec!["moves"];
        by_numbers.extend(nums.iter().map(String::as_str));
        by_numbers.extend(["--init-max", &ms, "--json"]);
        assert_eq!(got, json(&by_numbers), "after {text:?}");
        let mut query = vec!["query"];
        query.extend(after);
        let q = json(&query);
        assert_eq!(q["value"], got["value"], "{q} / {got}");
    }
}

#[test]
fn after_refuses_bad_moves_with_the_reason() {
    for (moves, says) in [
        ("3 9", "move 2 (9) is illegal: take 9 is outside 1..=4"),
        ("1 x", "\"x\" is not a move"),
        (
            "3 1 4",
            "the game is over after these moves: the first player took the last stone",
        ),
    ] {
        let (code, out, err) = run(&["query", "--after", moves, "-n", "8"]);
        assert_eq!(code, 2, "{moves}: {out}");
        assert!(err.contains(says), "{moves}: {err}");
    }
    let (code, _, err) = run(&["query", "--after", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--stones"), "{err}");
    let (code, _, err) = run(&["moves", "8", "3", "0", "0", "0", "--after", "1", "-n", "8"]);
    assert_eq!(code, 2);
    assert!(err.contains("not both"), "{err}");
}

/// Every position of a line, replayed by the rules, against the solver: the
/// distance falls by one a ply to 1 at the move that empties the pile, a ply is
/// `win` exactly when the solver says the position before it is won, and its
/// distance is the best among the moves there.
#[test]
fn line_is_best_play_with_the_distance_falling_by_one() {
    let mut rng = SplitMix64::new(7);
    let sol = Solution::solve(SolveBox::games(400, 4, 3)).unwrap();
    let dist = nimbot_solve::Distances::solve(SolveBox::games(400, 4, 3)).unwrap();
    for _ in 0..30 {
        let n = 2 + rng.below(399) as u32;
        let params = Params::new(n, 4, 3).unwrap();
        let (moves, nums) = random_prefix(&mut rng, params);
        let args: Vec<String> = nums.iter().map(u64::to_string).collect();
        let mut line_args = vec!["line"];
        line_args.extend(args.iter().map(String::as_str));
        line_args.push("--json");
        let report = json(&line_args);
        let line = report["line"].as_array().unwrap();
        assert_eq!(report["distance"].as_u64().unwrap(), line.len() as u64);
        let mut game = Game::new(params);
        for m in &moves {
            game.play(game.to_move(), *m).unwrap();
        }
        for (i, ply) in line.iter().enumerate() {
            let pos: Position = game.position().expect("the line ends at the last ply");
            let d = ply["distance"].as_u64().unwrap();
            assert_eq!(d, (line.len() - i) as u64, "ply {i}: {report}");
            let won = sol.value(&pos) == Some(Value::Won);
            assert_eq!(ply["value"] == "win", won, "ply {i} at {pos}: {report}");
            // The line's distance is the best one among the moves here, by the
            // distances of the whole box (in this process, not the command's).
            let best = nimbot::root_moves(&pos).filter_map(|mv| {
                let after = pos.after(mv).unwrap();
                let d = after.map_or(Some(1), |p| dist.get(&p).map(|d| d + 1))?;
                let wins = after.is_none_or(|p| sol.value(&p) == Some(Value::Lost));
                (wins == won).then_some(u64::from(d))
            });
            let best = if won { best.min() } else { best.max() };
            assert_eq!(best, Some(d), "{pos}: {report}");
            let mv = Move::new(
                ply["take"].as_u64().unwrap() as u32,
                ply["reset"].as_bool().unwrap(),
            );
            game.play(game.to_move(), mv).unwrap();
        }
        assert!(game.winner().is_some(), "the line ends the game: {report}");
    }
}

/// The JSON vocabulary: every `value` is "win" or "lose"; every distance a
/// number or null; every move an object with a numeric `take` (and a boolean
/// `reset` in Expanding Nim); positions by the six names.
fn check_vocabulary(v: &Json, at: &str) {
    match v {
        Json::Object(map) => {
            for (k, x) in map {
                let here = format!("{at}.{k}");
                match k.as_str() {
                    // "draw": Super-Nim's only (judged on points).
                    "value" => assert!(x == "win" || x == "lose" || x == "draw", "{here} = {x}"),
                    "distance" | "hold_out" => {
                        assert!(x.is_u64() || x.is_null(), "{here} = {x}")
                    }
                    "move" | "moves" | "line" | "winning_moves" => {
                        let list = match x {
                            Json::Array(a) => a.clone(),
                            other => vec![other.clone()],
                        };
                        for m in &list {
                            // A take (Expanding and Fibonacci Nim) or a Super-Nim
                            // move of a kind on a heap.
                            assert!(
                                m["take"].is_u64() || (m["kind"].is_string() && m["heap"].is_u64()),
                                "{here}: a move is an object: {m}"
                            );
                            assert!(m.get("reset").is_none_or(Json::is_boolean), "{here}: {m}");
                        }
                    }
                    "reset" | "reset_pending" | "blunder" => {
                        assert!(x.is_boolean(), "{here} = {x}")
                    }
                    _ => {}
                }
                check_vocabulary(x, &here);
            }
        }
        Json::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                check_vocabulary(x, &format!("{at}[{i}]"));
            }
        }
        _ => {}
    }
}

fn json_lines(text: &str) -> Vec<Json> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn every_json_answer_speaks_one_vocabulary() {
    let position = [
        "stones",
        "cap",
        "own_resets",
        "opp_resets",
        "reset_pending",
        "init_max",
    ];
    for args in [
        &["query", "20", "3", "4", "4", "0", "--json"][..],
        &["moves", "20", "3", "4", "4", "0", "--json"],
        &["line", "20", "3", "4", "4", "0", "--json"],
    ] {
        let v = json(args);
        check_vocabulary(&v, args[0]);
        for k in position {
            assert!(v.get(k).is_some(), "{args:?} names the position's {k}: {v}");
        }
    }
    for game in [
        &["--game", "fibonacci", "20", "19", "--json"][..],
        &["--game", "super-nim", "2,4,5", "--cap", "8", "--json"],
    ] {
        for cmd in ["query", "moves", "line"] {
            let args: Vec<&str> = [cmd].iter().chain(game).copied().collect();
            let v = json(&args);
            check_vocabulary(&v, cmd);
            assert_eq!(v["game"], game[1], "{args:?}");
        }
    }
    // A record (as `--record` writes it) and its analysis.
    let dir = std::env::temp_dir().join(format!("nimbot-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.jsonl");
    let params = Params::new(30, 2, 3).unwrap();
    let mut rec = nimbot_match::recorder::Recorder::create(&path, "serve", None, None).unwrap();
    rec.names(["a".into(), "b".into()]);
    let mut game = Game::new(params);
    rec.game(Some(&game), None);
    let mut rng = SplitMix64::new(3);
    while game.winner().is_none() {
        let limit = game.limit();
        let mv = Move::new(1 + rng.below(u64::from(limit)) as u32, false);
        game.play(game.to_move(), mv).unwrap();
        rec.game(Some(&game), Some(0.01));
    }
    rec.finish(game.winner(), "over").unwrap();
    let record = std::fs::read_to_string(&path).unwrap();
    for (i, l) in json_lines(&record).iter().enumerate() {
        check_vocabulary(l, &format!("record line {i}"));
    }
    let (code, out, err) = run(&["analyze", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert!(lines.len() > 2);
    for (i, l) in lines.iter().enumerate() {
        check_vocabulary(l, &format!("analyze line {i}"));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `analyze --plot`: one point a ply, the blunders ringed, the first one named.
#[test]
fn analyze_plot_draws_a_point_a_ply_and_rings_the_blunders() {
    let dir = std::env::temp_dir().join(format!("nimbot-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // N = 8, R = 0: taking 1 wins; the first player takes 2 and throws it away.
    let log = dir.join("game-log.txt");
    let dashes = "-".repeat(39);
    let mut text = String::new();
    let mut stones = 8;
    for (name, take, max) in [("a", 2, 3), ("b", 3, 3), ("a", 1, 4), ("b", 2, 4)] {
        stones -= take;
        text += &format!(
            "Player {name} took {take} stones.\nCurrent max: {max}\nStones left: {stones}\n{dashes}\n"
        );
    }
    text += "Game over\nPlayer b won the game! Congrats!\n";
    std::fs::write(&log, text).unwrap();
    let analyze = |plot: &std::path::Path| {
        let (log, plot) = (log.to_str().unwrap(), plot.to_str().unwrap());
        run(&["analyze", log, "-r", "0", "--json", "--plot", plot])
    };
    let svg_path = dir.join("game.svg");
    let (code, out, err) = analyze(&svg_path);
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    let blunders: Vec<u64> = lines
        .iter()
        .filter(|l| l["blunder"] == true)
        .map(|l| l["ply"].as_u64().unwrap())
        .collect();
    assert!(!blunders.is_empty(), "{out}");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert_eq!(
        svg.matches("class=\"ply\"").count(),
        lines.len() - 1,
        "{svg}"
    );
    let ringed: Vec<u64> = svg
        .match_indices("class=\"blunder\" data-ply=\"")
        .map(|(i, s)| {
            let rest = &svg[i + s.len()..];
            rest[..rest.find('"').unwrap()].parse().unwrap()
        })
        .collect();
    assert_eq!(ringed, blunders, "{svg}");
    assert!(
        svg.contains(&format!("first blunder: ply {} by seat 0 (a)", blunders[0])),
        "{svg}"
    );
    // The same chart as PNG (its pixels are checked by the plot module's test).
    let png_path = dir.join("game.PNG");
    let (code, _, err) = analyze(&png_path);
    assert_eq!(code, 0, "{err}");
    let png = std::fs::read(&png_path).unwrap();
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n"),
        "{:?}",
        &png[..8.min(png.len())]
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn small_answers_read_right() {
    let (_, out, _) = run(&["moves", "8", "3", "0", "0", "0"]);
    assert!(out.starts_with("win in 3 plies\n"), "{out}");
    let (_, out, _) = run(&["moves", "3", "3", "0", "0", "0"]);
    assert!(out.starts_with("win in 1 ply\n"), "{out}");
    let (_, out, _) = run(&["arena", "--help"]);
    assert!(
        !out.contains("fibonacci"),
        "arena lists only its games: {out}"
    );
    let (code, _, err) = run(&["arena", "--game", "fibonacci"]);
    assert_eq!(code, 2, "{err}");
    let (_, out, _) = run(&["serve", "--help"]);
    assert!(out.contains("--init-max"), "{out}");
}
