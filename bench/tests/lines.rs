//! The solver's, the exploit policy's and Super-Nim's benchmarks on small boxes:
//! each hands its lines with the keys in the order docs/figures.md shows them
//! (figures compare across commits only if the lines keep their form), and the
//! counts are the boxes'.

mod common;

use nimbot_bench::lines::{Line, Size};
use nimbot_bench::{exploit, solve, supernim};
use nimbot_solve::SolveBox;
use serde_json::Value;

use common::keys;

/// The lines a benchmark hands `emit`, as JSON text and as values.
fn collect(
    bench: impl FnOnce(&mut dyn FnMut(Line)) -> Result<(), (u8, String)>,
) -> Vec<(String, Value)> {
    let mut lines = Vec::new();
    bench(&mut |line| lines.push(serde_json::to_string(&line).unwrap())).unwrap();
    lines
        .into_iter()
        .map(|l| {
            let v = serde_json::from_str(&l).unwrap();
            (l, v)
        })
        .collect()
}

const SIZE: Size = Size {
    stones: 60,
    resets: 1,
    init_max: 3,
};

#[test]
fn solve_and_decide_time_every_stored_position() {
    let lines = collect(|emit| solve::solve_and_decide(SIZE, 3, emit));
    assert_eq!(lines.len(), 2);
    let stored = SolveBox::games(60, 1, 3).stored_positions();
    let (solve, s) = &lines[0];
    assert_eq!(
        keys(solve),
        [
            "bench",
            "stones",
            "resets",
            "init_max",
            "states",
            "runs",
            "ms",
            "ms_min",
            "ms_max",
            "ns_per_state"
        ]
    );
    assert_eq!(s["bench"], "solve");
    assert_eq!(s["states"], stored);
    assert_eq!(s["runs"], 3);
    assert!(s["ms_min"].as_f64() <= s["ms"].as_f64() && s["ms"].as_f64() <= s["ms_max"].as_f64());
    let (decide, d) = &lines[1];
    assert_eq!(
        keys(decide),
        [
            "bench",
            "stones",
            "resets",
            "init_max",
            "positions",
            "median_us",
            "p99_us",
            "worst_us",
            "raw_max_us"
        ]
    );
    assert_eq!(d["bench"], "decide");
    // Every stored position is a legal one here: the decisions cover them all.
    assert_eq!(d["positions"], stored);
}

#[test]
fn the_exploit_bench_times_models_preparation_and_lost_decisions() {
    let lines = collect(|emit| exploit::measure(SIZE, 1, emit));
    let benches: Vec<(&str, Option<&str>)> = lines
        .iter()
        .map(|(_, v)| (v["bench"].as_str().unwrap(), v["policy"].as_str()))
        .collect();
    assert_eq!(
        benches,
        [
            ("exploit-models", None),
            ("prepare", Some("longest")),
            ("prepare", Some("exploit")),
            ("exploit-decide", None)
        ]
    );
    let runs = ["runs", "ms", "ms_min", "ms_max"];
    let size = ["stones", "resets", "init_max"];
    let with = |head: &[&str], tail: &[&str]| -> Vec<String> {
        head.iter().chain(tail).map(|k| k.to_string()).collect()
    };
    assert_eq!(
        keys(&lines[0].0),
        with(&["bench"], &[&size[..], &runs[..]].concat())
    );
    for (line, _) in &lines[1..3] {
        assert_eq!(
            keys(line),
            with(&["bench", "policy"], &[&size[..], &runs[..]].concat())
        );
    }
    let decided = ["positions", "median_us", "p99_us", "worst_us", "raw_max_us"];
    assert_eq!(
        keys(&lines[3].0),
        with(&["bench"], &[&size[..], &decided[..]].concat())
    );
    assert!(lines[3].1["positions"].as_u64().unwrap() > 0);
}

#[test]
fn the_exploit_bench_refuses_a_game_beyond_the_ensemble() {
    let mut lines = 0;
    let big = Size {
        stones: 2001,
        ..SIZE
    };
    let refused = exploit::measure(big, 1, &mut |_| lines += 1);
    assert_eq!(refused.map_err(|(status, _)| status), Err(2));
    assert_eq!(lines, 0);
}

#[test]
fn the_supernim_bench_solves_every_small_start() {
    let lines = collect(|emit| supernim::supernim(8, 1, emit));
    assert_eq!(lines.len(), 1);
    let (line, v) = &lines[0];
    assert_eq!(
        keys(line),
        [
            "bench",
            "cap",
            "starts",
            "nodes",
            "entries",
            "seconds_median",
            "nodes_per_second"
        ]
    );
    assert_eq!(v["bench"], "supernim-solver");
    assert_eq!(v["cap"], 8);
    assert_eq!(
        v["starts"],
        nimbot_supernim::Heaps::small_starts().count() as u64
    );
    assert!(v["nodes"].as_u64().unwrap() > 0 && v["entries"].as_u64().unwrap() > 0);
}
