//! The memory estimates that refuse a box before it is solved (a solving engine's
//! budget, the tiny binary's limit, the exploit policy's distances), against what
//! the solves really hold: each solve runs alone in a child process (this test
//! binary run again on its `child` test), which reports its peak resident memory
//! (`VmHWM` in /proc/self/status) above what it held just before the solve.

use std::process::Command;

use nimbot_solve::{CodedSolution, Distances, Solution, SolveBox};

/// The child's orders: `KIND N R M`.
const CHILD: &str = "NIMBOT_MEMORY_CHILD";
/// Room for what an estimate leaves out on purpose: the allocator's own pages, a
/// thread's stack, the test harness, page rounding (a huge page or two where
/// transparent huge pages are always on).
const SLACK: u64 = 4 << 20;

/// A field of /proc/self/status, in bytes.
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("{field} in /proc/self/status"));
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .expect("a number of kB");
    kb * 1024
}

/// The child: one solve, then its peak above the memory held before it.
#[test]
#[ignore = "run by the estimates' test, in a process of its own"]
fn child() {
    let Ok(order) = std::env::var(CHILD) else {
        return;
    };
    let words: Vec<&str> = order.split(' ').collect();
    let [kind, n, r, m] = words[..] else {
        panic!("{CHILD}={order}")
    };
    let bx = SolveBox::games(n.parse().unwrap(), r.parse().unwrap(), m.parse().unwrap());
    let before = status_bytes("VmRSS:");
    match kind {
        "full" => drop(Solution::solve(bx).unwrap()),
        "coded" => drop(CodedSolution::solve(bx).unwrap()),
        "distances" => drop(Distances::solve(bx).unwrap()),
        _ => panic!("{kind}"),
    }
    let peak = status_bytes("VmHWM:");
    println!("PEAK {}", peak.saturating_sub(before));
}

/// The peak of one solve, measured in a child process.
fn peak(kind: &str, bx: SolveBox) -> u64 {
    let order = format!("{kind} {} {} {}", bx.n_max, bx.resets, bx.init_max);
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["child", "--exact", "--include-ignored", "--nocapture"])
        .args(["--test-threads", "1"])
        .env(CHILD, &order)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{order}: {stdout}");
    // The harness prints `test child ... ` on the same line.
    stdout
        .split("PEAK ")
        .nth(1)
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("{order}: no PEAK line in {stdout}"))
}

/// Each estimate is at least the solve's real peak (less [`SLACK`]), so a budget
/// never admits a solve that needs more; and at most a quarter above it (plus the
/// slack), so it refuses no box that would fit, but for the per-position path
/// (more than 7 resets), whose coder's arrays are counted generously: at most half.
#[test]
fn each_estimate_holds_its_solve_and_is_not_far_above_it() {
    if !std::path::Path::new("/proc/self/status").exists() {
        eprintln!("skipped: no /proc/self/status on this system");
        return;
    }
    // Boxes whose estimates are tens of MB, each solved in a second or two:
    // for the solvers a large M (few caps, many piles: their work grows with N),
    // for the distances (two bytes a stored position) a small one.
    let full = SolveBox::games(400_000, 2, 40_000);
    let coded = SolveBox::games(1_000_000, 4, 100_000);
    // With more than 7 resets a pile's layers outgrow a word's masks: the
    // per-position path, with an estimate of its own.
    let many_resets = SolveBox::games(400_000, 9, 40_000);
    let distances = SolveBox::games(16_000, 1, 3);
    // (what is solved, the box, its estimate, the largest estimate in quarters of
    // the peak)
    for (kind, bx, estimate, quarters) in [
        ("full", full, full.full_bytes(), 5),
        ("coded", coded, coded.memory_bytes(), 5),
        ("coded", many_resets, many_resets.memory_bytes(), 6),
        (
            "distances",
            distances,
            Distances::memory_bytes(&distances),
            5,
        ),
    ] {
        let got = peak(kind, bx);
        eprintln!("{kind} {bx:?}: estimate {estimate}, peak {got}");
        assert!(
            got <= estimate + SLACK,
            "{kind} {bx:?}: peak {got} > estimate {estimate}"
        );
        assert!(
            estimate <= got / 4 * quarters + SLACK,
            "{kind} {bx:?}: estimate {estimate} > {quarters} / 4 x peak {got}"
        );
        assert!(
            estimate > 6 * SLACK,
            "{kind} {bx:?}: {estimate} is too small to judge"
        );
    }
}
