//! The table benchmark (`nimbot bench table`) on a small table: its lines in
//! order, with the keys docs/figures.md shows, as JSON and as text, and the
//! counts and sizes of the table it makes.

mod common;

use std::path::{Path, PathBuf};

use nimbot::Params;
use nimbot_bench::table::{run, Options};
use nimbot_solve::SolveBox;
use serde_json::Value;

use common::keys;

fn options(stones: u32, json: bool, compare: bool, file: Option<PathBuf>) -> Options {
    Options {
        params: Params::new(stones, 4, 3).unwrap(),
        runs: 1,
        file,
        json,
        compare,
    }
}

/// What the benchmark writes, line by line.
fn lines(options: &Options) -> Vec<String> {
    let mut out = Vec::new();
    run(options, &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn json(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn the_json_lines_compare_the_solvers_and_codings_then_time_the_table() {
    let lines = lines(&options(200, true, true, None));
    assert_eq!(lines.len(), 1 + 2 + 3, "{lines:#?}");
    let stored = SolveBox::games(200, 4, 3).stored_positions();
    let box_keys = ["stones", "resets", "init_max"];
    let expect = |line: &str, head: &[&str], tail: &[&str]| {
        let want: Vec<&str> = head.iter().chain(&box_keys).chain(tail).copied().collect();
        assert_eq!(keys(line), want, "{line}");
    };

    let solve = json(&lines[0]);
    expect(
        &lines[0],
        &["bench"],
        &[
            "positions",
            "runs",
            "new_ms",
            "naive_ms",
            "speedup_vs_naive",
        ],
    );
    assert_eq!(solve["bench"], "solve");
    assert_eq!(solve["positions"], stored);
    for name in ["new_ms", "naive_ms", "speedup_vs_naive"] {
        assert!(solve[name].as_f64().unwrap() > 0.0, "{name} in {solve}");
    }

    let mut default_bytes = 0;
    for (line, method) in lines[1..3]
        .iter()
        .zip(["periods", "periods+delayed copies (default)"])
    {
        expect(
            line,
            &["bench", "method"],
            &["bytes", "probe_median_us", "probe_worst_us"],
        );
        let coding = json(line);
        assert_eq!(coding["bench"], "coding");
        assert_eq!(coding["method"], method);
        assert!(coding["probe_median_us"].as_f64().unwrap() > 0.0);
        default_bytes = coding["bytes"].as_u64().unwrap();
    }

    let generate = json(&lines[3]);
    expect(
        &lines[3],
        &["bench"],
        &[
            "positions",
            "runs",
            "bytes",
            "ms",
            "ms_max",
            "solve_ms",
            "encode_ms",
        ],
    );
    assert_eq!(generate["bench"], "generate");
    assert_eq!(generate["positions"], stored);
    // `generate` makes the table of the default coding.
    assert_eq!(generate["bytes"], default_bytes);

    for (line, what) in lines[4..].iter().zip(["table_probe", "table_decide"]) {
        expect(
            line,
            &["bench", "table"],
            &[
                "bytes",
                "positions",
                "median_us",
                "p99_us",
                "worst_us",
                "raw_max_us",
            ],
        );
        let timed = json(line);
        assert_eq!(timed["bench"], what);
        assert_eq!(timed["table"], "generated");
        assert_eq!(timed["bytes"], default_bytes);
        // Below the probe limit every stored position is timed.
        assert_eq!(timed["positions"], stored);
    }
}

#[test]
fn the_text_lines_say_the_same_in_words() {
    let lines = lines(&options(100, false, true, None));
    let starts = [
        "solve N<=100 R=4 M=3: mask solver ",
        "coding periods: ",
        "coding periods+delayed copies (default): ",
        "generate N<=100 R=4 M=3: 34100 positions, ",
        "table_probe (generated, 34100 positions): median ",
        "table_decide (generated, 34100 positions): median ",
    ];
    assert_eq!(lines.len(), starts.len(), "{lines:#?}");
    for (line, start) in lines.iter().zip(starts) {
        assert!(line.starts_with(start), "{line}");
    }
}

#[test]
fn a_table_file_is_probed_instead_of_the_one_generated() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../table/default.nimt");
    let lines = lines(&options(100, true, false, Some(file.clone())));
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert_eq!(json(&lines[0])["bench"], "generate");
    assert_eq!(json(&lines[0])["stones"], 100);
    let bytes = std::fs::metadata(&file).unwrap().len();
    for line in &lines[1..] {
        let probed = json(line);
        assert_eq!(probed["table"], file.display().to_string());
        assert_eq!(probed["stones"], 999);
        assert_eq!(probed["bytes"], bytes);
        assert_eq!(
            probed["positions"],
            SolveBox::games(999, 4, 3).stored_positions()
        );
    }
}

#[test]
fn a_missing_file_and_a_box_without_moves_are_refused() {
    let mut out = Vec::new();
    let missing = options(100, true, false, Some("no/such.nimt".into()));
    let e = run(&missing, &mut out).unwrap_err();
    assert!(e.contains("cannot read no/such.nimt"), "{e}");
    // N = M: the first player takes the whole pile, and a table stores nothing.
    let e = run(&options(3, true, false, None), &mut Vec::new()).unwrap_err();
    assert!(e.contains("N must exceed M"), "{e}");
}
