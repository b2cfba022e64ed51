//! Every benchmark lives in one crate, `nimbot-bench` (`bench/`), behind
//! `nimbot bench`: no Rust code elsewhere measures, so that a benchmark is found
//! in one place and its figures are taken one way (docs/benchmarks.md).

use nimbot_tidy::{assert_none, manifests, read, tracked_files};

/// The benchmark crate's folder.
const HOME: &str = "bench/";

/// Names of a file or folder that say its code measures.
const MEASURING: [&str; 5] = ["bench", "benches", "cost", "latency", "timing"];

/// Paths outside `bench/` that measure and stay where they are, each with why.
const ALLOWED: [(&str, &str); 3] = [
    (
        "firmware/",
        "the firmware's cost counters (the `cost` images that tools/firmware.sh bench \
         counts instructions of in QEMU) are firmware, built for the boards, not host code",
    ),
    (
        "tools/latency/",
        "nimbot-latency, the per-call timer every benchmark shares: a library that \
         measures nothing by itself",
    ),
    (
        "tools/tidy/",
        "the tidy tests name the patterns they look for (this file among them)",
    ),
];

fn allowed(path: &str) -> bool {
    ALLOWED.iter().any(|(prefix, _)| path.starts_with(prefix))
}

/// A path's folders and its file stem say it measures (`engine/src/bench/mod.rs`,
/// `tools/src/bench.rs`, `foo/benches/x.rs`).
fn measuring_path(path: &str) -> bool {
    path.split('/').any(|part| {
        let stem = part.strip_suffix(".rs").unwrap_or(part);
        MEASURING.contains(&stem)
    })
}

/// A file that only hands on the benchmark crate (the command line's
/// `cli/src/bench.rs`): doc comments, blank lines and `pub use nimbot_bench::..`.
fn only_reexports(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .all(|l| l.is_empty() || l.starts_with("//") || l.starts_with("pub use nimbot_bench::"))
}

/// The problems of one Rust file outside `bench/`: a path that measures (unless
/// it only re-exports the crate), a `mod bench { .. }` written inline, Rust's
/// own benchmark harness (`#[bench]`) or criterion.
fn problems_of(path: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    if measuring_path(path) && !only_reexports(text) {
        out.push(format!(
            "{path}: its name says it measures; benchmarks are the crate nimbot-bench's ({HOME})"
        ));
    }
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("").trim();
        let inline_mod = MEASURING.iter().any(|name| {
            let decl = code
                .strip_prefix("pub ")
                .or_else(|| code.strip_prefix("pub(crate) "))
                .unwrap_or(code);
            decl.strip_prefix("mod ")
                .and_then(|rest| rest.strip_prefix(name))
                .is_some_and(|rest| rest.trim_start().starts_with('{'))
        });
        if inline_mod || code.starts_with("#[bench]") || code.contains("criterion::") {
            out.push(format!(
                "{path}:{}: a benchmark outside {HOME}: {code}",
                i + 1
            ));
        }
    }
    out
}

#[test]
fn no_rust_file_outside_the_bench_crate_measures() {
    let mut problems = Vec::new();
    for path in tracked_files() {
        if !path.ends_with(".rs") || path.starts_with(HOME) || allowed(&path) {
            continue;
        }
        problems.extend(problems_of(&path, &read(&path)));
    }
    assert_none(
        "benchmark code outside bench/ (move it into nimbot-bench, or allow it in tools/tidy/tests/bench_home.rs with why)",
        &problems,
    );
}

#[test]
fn only_the_bench_crate_takes_the_benchmarks_timer_or_has_bench_targets() {
    let mut problems = Vec::new();
    for m in manifests() {
        let folder = m.path.trim_end_matches("Cargo.toml");
        let timer = m.deps.contains("nimbot-latency") || m.dev_deps.contains("nimbot-latency");
        if timer && m.name != "nimbot-bench" {
            problems.push(format!(
                "{}: {} times calls with nimbot-latency; its benchmark belongs in nimbot-bench",
                m.path, m.name
            ));
        }
        if folder == HOME || allowed(folder) {
            continue;
        }
        // `[[bench]]` targets (cargo bench); `bench = false` only turns one off.
        if read(&m.path).lines().any(|l| l.trim() == "[[bench]]") {
            problems.push(format!("{}: a [[bench]] target outside {HOME}", m.path));
        }
    }
    assert_none("the benchmarks' timer and targets", &problems);
}

#[test]
fn the_check_sees_a_benchmark_and_lets_the_dispatch_be() {
    let bench_code = "//! `nimbot-table bench`.\n\npub fn run() {}\n";
    assert_eq!(problems_of("tools/src/bench.rs", bench_code).len(), 1);
    assert_eq!(problems_of("engine/src/bench/mod.rs", bench_code).len(), 1);
    assert_eq!(problems_of("engine/src/latency.rs", bench_code).len(), 1);
    let inline = "pub fn a() {}\npub mod bench {\n    pub fn run() {}\n}\n";
    assert_eq!(problems_of("engine/src/lib.rs", inline).len(), 1);
    assert_eq!(problems_of("src/lib.rs", "#[bench]\nfn b() {}\n").len(), 1);
    // The command line's dispatch, a declared module and other words pass.
    let dispatch = "//! `nimbot bench`.\n\npub use nimbot_bench::command::{run, BenchArgs};\n";
    assert!(problems_of("cli/src/bench.rs", dispatch).is_empty());
    let fine = "mod bench;\nuse bench::BenchArgs;\nstruct Bench;\nfn benchmark_names() {}\n";
    assert!(problems_of("cli/src/main.rs", fine).is_empty());
    assert!(measuring_path("a/benches/b.rs") && !measuring_path("tools/sandbox_bench.rs"));
    assert!(allowed("firmware/app/src/cost.rs") && !allowed("tools/src/cost.rs"));
}
