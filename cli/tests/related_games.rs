//! `query`, `moves`, `line` and `analyze` for Fibonacci Nim and Super-Nim (issue
//! 39), checked against the rules written plainly from the seed's text: a minimax
//! of Super-Nim's margin with the cap (the core's tests' model), and Fibonacci Nim's
//! won positions by brute force (here).

use std::collections::HashMap;

use serde_json::Value as Json;

mod common;
// The seed's rules of Super-Nim written plainly, apart from the library: the core's
// Super-Nim tests use the same model.
#[allow(dead_code)]
#[path = "../../supernim/tests/plain/mod.rs"]
mod supernim_plain;

use supernim_plain::{minimax, successors};

fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let o = common::nimbot_with(args, stdin.unwrap_or(""));
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

fn json(args: &[&str]) -> Json {
    let (code, out, err) = run(args, None);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

/// The heaps after a move of the JSON answers.
fn after(h: &[u32], m: &Json) -> (Vec<u32>, i32) {
    let heap = m["heap"].as_u64().unwrap() as u32;
    let mut next = h.to_vec();
    let at = |v: &Vec<u32>, n: u32| v.iter().position(|&x| x == n).unwrap();
    let points = match m["kind"].as_str().unwrap() {
        "merge" => {
            let onto = m["onto"].as_u64().unwrap() as u32;
            next.remove(at(&next, heap));
            next.remove(at(&next, onto));
            next.push((heap + onto).min(10));
            0
        }
        "grow" => {
            next.remove(at(&next, heap));
            next.push(3 * heap + 1);
            0
        }
        "split" => {
            next.remove(at(&next, heap));
            if heap == 2 {
                2
            } else {
                next.extend([heap / 2, heap / 2]);
                0
            }
        }
        other => panic!("a move of kind {other}"),
    };
    next.sort_unstable();
    (next, points)
}

fn word(lead: i32, margin: i32) -> &'static str {
    match (lead + margin).signum() {
        1 => "win",
        0 => "draw",
        _ => "lose",
    }
}

#[test]
fn super_nim_answers_are_the_plain_minimax() {
    let mut memo = HashMap::new();
    for (heaps, cap, score) in [
        (vec![2u32, 4, 5], 6u32, [0u32, 0u32]),
        (vec![1, 3, 6], 7, [2, 4]),
        (vec![2, 4], 9, [0, 2]),
        (vec![5, 7], 5, [0, 0]),
    ] {
        let list: Vec<String> = heaps.iter().map(u32::to_string).collect();
        let list = list.join(",");
        let (cap_s, score_s) = (cap.to_string(), format!("{},{}", score[0], score[1]));
        let args = |cmd: &'static str| {
            vec![
                cmd,
                "--game",
                "super-nim",
                &list,
                "--cap",
                &cap_s,
                "--score",
                &score_s,
                "--json",
            ]
        };
        let want = minimax(&heaps, cap, &mut memo);
        let lead = score[0] as i32 - score[1] as i32;
        let moves = json(&args("moves"));
        assert_eq!(moves["game"], "super-nim");
        assert_eq!(moves["exact"], true, "{moves}");
        assert_eq!(moves["margin"], want, "{list} cap {cap}: {moves}");
        assert_eq!(moves["value"], word(lead, want));
        let listed = moves["moves"].as_array().unwrap();
        let mut mine: Vec<(Vec<u32>, i32)> = Vec::new();
        for m in listed {
            let (next, points) = after(&heaps, m);
            let v = points - minimax(&next, cap - 1, &mut memo);
            assert_eq!(m["margin"], v, "{list} cap {cap}: {m}");
            assert_eq!(m["value"], word(lead, v), "{m}");
            mine.push((next, points));
        }
        // One move per distinct result of the rules.
        let mut rules = successors(&heaps);
        rules.sort();
        rules.dedup();
        mine.sort();
        assert_eq!(mine, rules, "{list}");
        // nimbot's move keeps the value; the line plays the value out to the cap.
        let query = json(&args("query"));
        assert_eq!(query["margin"], want);
        assert_eq!(query["move"]["margin"], want, "{query}");
        let line = json(&args("line"));
        let plies = line["line"].as_array().unwrap();
        let mut h = heaps.clone();
        let mut margins = [0i32, 0];
        for (i, m) in plies.iter().enumerate() {
            let (next, points) = after(&h, m);
            assert_eq!(
                m["margin"],
                points - minimax(&next, cap - 1 - i as u32, &mut memo)
            );
            margins[i % 2] += points;
            h = next;
        }
        assert!(h.is_empty() || plies.len() == cap as usize, "{line}");
        assert_eq!(margins[0] - margins[1], want, "{line}");
    }
}

#[test]
fn super_nim_says_when_it_estimates_and_refuses_bad_positions() {
    let v = json(&[
        "query",
        "--game",
        "super-nim",
        "7,9,11,13",
        "--nodes",
        "2000",
        "--json",
    ]);
    assert_eq!(v["exact"], false, "{v}");
    assert!(v["depth"].as_u64().unwrap() < 200, "{v}");
    // Too few nodes for an exact answer from heaps this large.
    let starved = |cmd| {
        run(
            &[cmd, "--game", "super-nim", "7,9,11,13", "--nodes", "2000"],
            None,
        )
    };
    let (code, out, _) = starved("moves");
    assert_eq!(code, 0);
    assert!(out.contains("estimate"), "{out}");
    let (code, _, err) = starved("line");
    assert_eq!(code, 2);
    assert!(err.contains("cannot finish"), "{err}");
    for bad in [
        &["query", "--game", "super-nim", "2,0,5"][..],
        &["query", "--game", "super-nim", "2,4", "--score", "1"],
        &["query", "--game", "super-nim", "2,4", "--cap", "0"],
        &["moves", "--game", "super-nim", "10000"],
        &["query", "--game", "super-nim"],
    ] {
        let (code, out, err) = run(bad, None);
        assert_eq!(code, 2, "{bad:?}");
        assert!(out.is_empty() && !err.is_empty(), "{bad:?}");
        assert!(!err.contains("invalid digit"), "{bad:?}: {err}");
    }
}

/// Fibonacci Nim's won positions (stones, limit), by brute force.
fn fib_won(stones: u64, limit: u64, memo: &mut HashMap<(u64, u64), bool>) -> bool {
    if let Some(&w) = memo.get(&(stones, limit)) {
        return w;
    }
    let w = (1..=limit.min(stones)).any(|t| t == stones || !fib_won(stones - t, 2 * t, memo));
    memo.insert((stones, limit), w);
    w
}

#[test]
fn fibonacci_answers_are_brute_force() {
    let mut memo = HashMap::new();
    for stones in 2..=40u64 {
        for limit in [1, 2, 3, stones / 2, stones - 1] {
            let (s, l) = (stones.to_string(), limit.max(1).to_string());
            let limit = limit.max(1);
            let v = json(&["moves", "--game", "fibonacci", &s, &l, "--json"]);
            let won = fib_won(stones, limit, &mut memo);
            assert_eq!(v["value"], if won { "win" } else { "lose" }, "{v}");
            for m in v["moves"].as_array().unwrap() {
                let t = m["take"].as_u64().unwrap();
                let ok = t == stones || !fib_won(stones - t, 2 * t, &mut memo);
                assert_eq!(
                    m["value"],
                    if ok { "win" } else { "lose" },
                    "{stones} {limit}: {m}"
                );
            }
            assert_eq!(
                v["moves"].as_array().unwrap().len() as u64,
                limit.min(stones)
            );
        }
    }
    // The line ends with the pile empty, the winner the side that started won.
    let v = json(&["line", "--game", "fibonacci", "20", "19", "--json"]);
    let takes: Vec<u64> = v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["take"].as_u64().unwrap())
        .collect();
    assert_eq!(takes.iter().sum::<u64>(), 20);
    assert_eq!(takes.len() % 2 == 1, v["value"] == "win", "{v}");
}

fn json_lines(out: &str) -> Vec<Json> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn analyze_marks_the_moves_that_lose_value() {
    // From 2,4 with 21 plies left, merging 2 onto 4 gives away the 2 points that
    // splitting the 2 keeps (the example); the rest keeps the value.
    let record = "# a Super-Nim record\nsuper-nim 2,4 cap 21\nmerge 2 4\nsplit 6\ngrow 3\n";
    let (code, out, err) = run(&["analyze", "-", "--json"], Some(record));
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["lost"], 2, "{}", lines[0]);
    assert_eq!(lines[0]["best_moves"][0]["kind"], "split");
    let summary = lines.last().unwrap();
    assert_eq!(
        summary["value_losing"],
        serde_json::json!([1, 0]),
        "{summary}"
    );
    assert_eq!(summary["first_value_losing"], 1);
    let (code, out, _) = run(&["analyze", "-"], Some(record));
    assert_eq!(code, 0);
    assert!(
        out.contains("value-losing moves: A 1, B 0, the first at ply 1"),
        "{out}"
    );
    // An illegal move is named.
    let (code, _, err) = run(&["analyze", "-"], Some("super-nim 2,4\nsplit 5\n"));
    assert_eq!(code, 2);
    assert!(err.contains("move 1"), "{err}");
    // Fibonacci Nim: 20 is won (take 2); taking 1 throws it away.
    let (code, out, err) = run(&["analyze", "-", "--json"], Some("fibonacci 20\n1\n2\n"));
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["blunder"], true);
    assert_eq!(lines[0]["best"], 2);
    assert_eq!(lines.last().unwrap()["blunders"][0], 1);
}
