//! `nimbot-table stats`: the whole game in numbers, from a fresh solve and the
//! distances to the end (no table file needed): won and lost positions per reset
//! state, the starts the first player loses, the longest perfect-play games, and
//! how lost positions repeat along a layer (what the table's format exploits).
//! docs/solving.md states the result for the default limits; a snapshot test pins
//! a small box.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::ExitCode;

use nimbot::distance::Distances;
use nimbot::solver::{Solution, SolveBox};
use nimbot::{Params, Position, Value};

use crate::generate::LimitArgs;
use crate::grouped;

pub fn run(args: &LimitArgs) -> Result<ExitCode, String> {
    let (n, r, m) = (args.stones, args.resets, args.init_max);
    Params::new(n, r, m).map_err(|e| e.to_string())?;
    let bx = SolveBox::games(n, r, m);
    let sol = Solution::solve(bx).map_err(|e| e.to_string())?;
    let dist = Distances::solve(bx).map_err(|e| e.to_string())?;
    print!("{}", report(&sol, &dist, n, r, m));
    Ok(ExitCode::SUCCESS)
}

/// Lost piles of one layer, lowest first.
fn lost_piles(sol: &Solution, c: u32, hi: u32, a: u8, b: u8, f: bool, m: u32) -> Vec<u32> {
    (c + 1..=hi)
        .filter(|&s| {
            Position::new(s, c, a, b, f, m)
                .ok()
                .and_then(|p| sol.value(&p))
                == Some(Value::Lost)
        })
        .collect()
}

/// The report, as `nimbot-table stats` prints it.
pub fn report(sol: &Solution, dist: &Distances, n: u32, r: u8, m: u32) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Expanding Nim, every game with N <= {n}, R = {r}, M = {m}: {} stored positions \
         (cap below the pile; the others are decided by the rules alone)",
        grouped(sol.stored_positions())
    );
    // Won and lost per reset state, and the lost piles' gaps per layer.
    let _ = writeln!(
        out,
        "\nwon and lost positions per reset state (A, B: the mover's and the opponent's \
         resets left; F = 1 right after a reset):"
    );
    let _ = writeln!(
        out,
        "{:>3} {:>3} {:>2} {:>11} {:>11} {:>7}",
        "A", "B", "F", "won", "lost", "lost %"
    );
    // Gap between consecutive lost piles of a layer, minus the cap: how often.
    let mut gaps: BTreeMap<i64, u64> = BTreeMap::new();
    let (mut layers, mut periodic, mut no_lost) = (0u64, 0u64, 0u64);
    for a in 0..=r {
        for b in 0..=r {
            for f in [false, true] {
                let (mut won, mut lost) = (0u64, 0u64);
                for (c, hi) in sol.layers() {
                    let piles = lost_piles(sol, c, hi, a, b, f, m);
                    lost += piles.len() as u64;
                    won += u64::from(hi - c) - piles.len() as u64;
                    layers += 1;
                    if piles.is_empty() {
                        no_lost += 1;
                        continue;
                    }
                    // Where each run of lost piles starts.
                    let starts: Vec<u32> = piles
                        .iter()
                        .enumerate()
                        .filter(|&(i, &s)| i == 0 || piles[i - 1] + 1 != s)
                        .map(|(_, &s)| s)
                        .collect();
                    let g: Vec<u32> = starts.windows(2).map(|w| w[1] - w[0]).collect();
                    if g.len() >= 2 && g.iter().all(|&x| x == g[0]) {
                        periodic += 1;
                    }
                    for x in g {
                        *gaps.entry(i64::from(x) - i64::from(c)).or_default() += 1;
                    }
                }
                let pct = 100.0 * lost as f64 / (won + lost).max(1) as f64;
                let _ = writeln!(
                    out,
                    "{a:>3} {b:>3} {:>2} {:>11} {:>11} {pct:>6.2}%",
                    u8::from(f),
                    grouped(won),
                    grouped(lost)
                );
            }
        }
    }
    // The starts.
    let starts: Vec<(u32, u16)> = (1..=n)
        .map(|k| {
            let start = Params::new(k, r, m).map(|p| p.start());
            let d = start.ok().and_then(|p| dist.get(&p)).unwrap_or(0);
            (k, d)
        })
        .collect();
    let lost: Vec<u32> = starts
        .iter()
        .filter(|(_, d)| d % 2 == 0)
        .map(|&(k, _)| k)
        .collect();
    let _ = writeln!(
        out,
        "\nthe first player loses the start of {} of the {n} games (N = 1 ..= {n}):",
        lost.len()
    );
    for chunk in lost.chunks(15) {
        let words: Vec<String> = chunk.iter().map(u32::to_string).collect();
        let _ = writeln!(out, "  {}", words.join(" "));
    }
    let _ = writeln!(
        out,
        "\nthe longest perfect-play game (the winner hurries, the loser holds out), by N:"
    );
    let step = if n >= 100 { n.div_ceil(10) } else { n };
    let mut from = 1;
    while from <= n {
        let to = (from + step - 1).min(n);
        let best = starts
            .iter()
            .filter(|(k, _)| (from..=to).contains(k))
            .max_by_key(|&&(k, d)| (d, std::cmp::Reverse(k)));
        if let Some(&(k, d)) = best {
            let who = if d % 2 == 1 { "first" } else { "second" };
            let _ = writeln!(
                out,
                "  N in {from:>5} ..= {to:<5}  longest from N = {k}: {d} plies ({who} player wins)"
            );
        }
        from = to + 1;
    }
    // The layers' structure.
    let total: u64 = gaps.values().sum();
    let _ = writeln!(
        out,
        "\nlost piles along a layer: {} layers ({} without a lost pile); the period from \
         the start of one run of lost piles to the next, minus the layer's cap, over {} \
         periods:",
        grouped(layers),
        grouped(no_lost),
        grouped(total)
    );
    let mut common: Vec<(i64, u64)> = gaps.into_iter().collect();
    common.sort_by_key(|&(g, k)| (std::cmp::Reverse(k), g));
    for (g, k) in common.iter().take(6) {
        let _ = writeln!(
            out,
            "  period = cap {:+}: {} ({:.2}%)",
            g,
            grouped(*k),
            100.0 * *k as f64 / total.max(1) as f64
        );
    }
    let _ = writeln!(
        out,
        "  layers exactly periodic (one period throughout, 3 or more runs of lost piles): {}",
        grouped(periodic)
    );
    out
}
