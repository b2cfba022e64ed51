//! `nimbot bench table` (formerly `nimbot-table bench`): how long generation
//! takes (`nimbot-table generate`'s, the library `nimbot_tools`) and how fast a
//! table answers, the solver against a naive every-move solver ([`crate::naive`])
//! in the same run, and the current format with and without delayed copies. (The
//! previous generation, the per-position solver and format v1, was measured
//! against this one until its figures were kept as a historical line in
//! `docs/figures.md`; see `tools/figures.sh`.)

use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use nimbot::{Params, Position, Table};
use nimbot_solve::{
    encode_with as encode_table_with, Encoding as TableEncoding, Solution, SolveBox,
};

use crate::naive::naive_solve;
use nimbot_latency::{latency, median};
use nimbot_tools::decoded::stored_positions;
use nimbot_tools::generate::generate;
use nimbot_tools::table_file::{open, read, GENERATOR};

/// Most positions the probe and decide benchmarks time (about 100 MB of them).
const PROBE_LIMIT: u64 = 4_000_000;

/// What the table benchmark measures.
#[derive(Clone, Debug)]
pub struct Options {
    /// The games of the table to generate (and probe, unless `file` is given).
    pub params: Params,
    /// Generation runs to take the median of.
    pub runs: usize,
    /// Probe this table file instead of the one just generated.
    pub file: Option<PathBuf>,
    /// JSON lines (one per benchmark) instead of text.
    pub json: bool,
    /// The comparisons too (the naive solver, the codings), before the rest.
    pub compare: bool,
}

/// Largest box (stored positions) the naive solver is timed on.
const NAIVE_LIMIT: u64 = 20_000_000;

/// Milliseconds `f` takes.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let out = f();
    (out, t.elapsed().as_secs_f64() * 1e3)
}

/// A JSON number, or null when not measured.
fn json_num(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.3}")
    } else {
        "null".into()
    }
}

/// A line of the benchmark written to `out`.
fn put(out: &mut dyn Write, line: std::fmt::Arguments) -> Result<(), String> {
    writeln!(out, "{line}").map_err(|e| format!("cannot write: {e}"))
}

/// The solver against the naive one, and the codings, measured side by side.
fn compare(args: &Options, params: &Params, out: &mut dyn Write) -> Result<(), String> {
    let (n, r, m) = (params.stones(), params.resets(), params.init_max());
    let bx = SolveBox::games(n, r, m);
    let mut new_ms = Vec::new();
    for _ in 0..args.runs.max(1) {
        let (sol, t) = timed(|| Solution::solve(black_box(bx)));
        sol.map_err(|e| format!("cannot solve: {e}"))?;
        new_ms.push(t);
    }
    // The naive solver takes minutes past a few tens of millions of positions.
    let naive_ms = if bx.stored_positions() <= NAIVE_LIMIT {
        let (won, t) = timed(|| naive_solve(black_box(bx)));
        black_box(won);
        t
    } else {
        f64::NAN
    };
    new_ms.sort_by(f64::total_cmp);
    let new = median(&new_ms);
    if args.json {
        put(
            out,
            format_args!(
                "{{\"bench\":\"solve\",\"stones\":{n},\"resets\":{r},\"init_max\":{m},\"positions\":{},\"runs\":{},\"new_ms\":{new:.3},\"naive_ms\":{},\"speedup_vs_naive\":{}}}",
                bx.stored_positions(),
                new_ms.len(),
                json_num(naive_ms),
                json_num(naive_ms / new)
            ),
        )?;
    } else {
        put(
            out,
            format_args!(
                "solve N<={n} R={r} M={m}: mask solver {new:.2} ms, naive every-move solver {naive_ms:.1} ms ({:.1}x); medians of {} runs",
                naive_ms / new,
                new_ms.len()
            ),
        )?;
    }
    // Codings within the current format: delayed copies or not.
    let sol = Solution::solve(bx).map_err(|e| e.to_string())?;
    let mut positions = Vec::new();
    let probe_set = |t: &Table<&[u8]>, out: &mut Vec<Position>| {
        out.clear();
        for c in m..=t.top_cap() {
            for s in ((c + 1)..=t.highest_pile(c)).step_by(7) {
                for a in 0..=r {
                    for b in 0..=r {
                        for f in [false, true] {
                            if let Ok(pos) = Position::new(s, c, a, b, f, m) {
                                out.push(pos);
                            }
                        }
                    }
                }
            }
        }
    };
    for (name, copies) in [
        ("periods", false),
        ("periods+delayed copies (default)", true),
    ] {
        let enc = TableEncoding { copies };
        let blob = encode_table_with(&sol, GENERATOR, &enc).map_err(|e| e.to_string())?;
        let t = Table::from_bytes(&blob).map_err(|e| e.to_string())?;
        probe_set(&t, &mut positions);
        let (med, _, worst, _) = latency(&positions, |pos| {
            black_box(t.probe(black_box(pos))).ok();
        });
        if args.json {
            put(
                out,
                format_args!(
                    "{{\"bench\":\"coding\",\"method\":\"{name}\",\"stones\":{n},\"resets\":{r},\"init_max\":{m},\"bytes\":{},\"probe_median_us\":{med:.3},\"probe_worst_us\":{worst:.3}}}",
                    blob.len()
                ),
            )?;
        } else {
            put(
                out,
                format_args!(
                    "coding {name}: {} bytes, probe median {med:.3} us, worst {worst:.3} us",
                    blob.len()
                ),
            )?;
        }
    }
    Ok(())
}

/// Run the benchmark of `args`, its lines written to `out`: the comparisons
/// first (unless left out), then `generate`, `table_probe` and `table_decide`.
///
/// # Errors
/// A box too big to solve, a table file that cannot be read or opened, or `out`
/// refusing a line.
pub fn run(args: &Options, out: &mut dyn Write) -> Result<(), String> {
    let params = args.params;
    if args.compare {
        compare(args, &params, out)?;
    }
    let mut runs = Vec::new();
    for _ in 0..args.runs.max(1) {
        runs.push(generate(&params, true)?);
    }
    let mut totals: Vec<f64> = runs
        .iter()
        .map(|g| (g.solve_s + g.encode_s) * 1e3)
        .collect();
    let mut solves: Vec<f64> = runs.iter().map(|g| g.solve_s * 1e3).collect();
    let mut encodes: Vec<f64> = runs.iter().map(|g| g.encode_s * 1e3).collect();
    for v in [&mut totals, &mut solves, &mut encodes] {
        v.sort_by(f64::total_cmp);
    }
    let Some(last) = runs.pop() else {
        return Err("no run".into());
    };
    let generated = last.blob;
    if args.json {
        put(
            out,
            format_args!(
                "{{\"bench\":\"generate\",\"stones\":{},\"resets\":{},\"init_max\":{},\"positions\":{},\"runs\":{},\"bytes\":{},\"ms\":{:.3},\"ms_max\":{:.3},\"solve_ms\":{:.3},\"encode_ms\":{:.3}}}",
                params.stones(),
                params.resets(),
                params.init_max(),
                last.positions,
                totals.len(),
                generated.len(),
                median(&totals),
                totals.last().copied().unwrap_or(0.0),
                median(&solves),
                median(&encodes),
            ),
        )?;
    } else {
        put(
            out,
            format_args!(
                "generate N<={} R={} M={}: {} positions, {} bytes, median {:.1} ms (solve {:.1}, encode {:.1}), worst {:.1} ms over {} runs",
                params.stones(),
                params.resets(),
                params.init_max(),
                last.positions,
                generated.len(),
                median(&totals),
                median(&solves),
                median(&encodes),
                totals.last().copied().unwrap_or(0.0),
                totals.len()
            ),
        )?;
    }

    let file_bytes;
    let (name, table) = match &args.file {
        Some(path) => {
            file_bytes = read(path)?;
            (path.display().to_string(), open(path, &file_bytes)?)
        }
        None => (
            "generated".to_owned(),
            Table::from_bytes(&generated).map_err(|e| e.to_string())?,
        ),
    };
    let p = table.params();
    // Every stored position up to PROBE_LIMIT of them; every k-th pile of each layer
    // beyond (the N <= 99,999 table stores 1.5 billion).
    let stride = usize::try_from(stored_positions(&table) / PROBE_LIMIT)
        .unwrap_or(usize::MAX)
        .max(1);
    let mut positions = Vec::new();
    for c in p.init_max()..=table.top_cap() {
        for s in ((c + 1)..=table.highest_pile(c)).step_by(stride) {
            for a in 0..=p.resets() {
                for b in 0..=p.resets() {
                    for f in [false, true] {
                        if let Ok(pos) = Position::new(s, c, a, b, f, p.init_max()) {
                            positions.push(pos);
                        }
                    }
                }
            }
        }
    }
    for (what, (median_us, p99, worst, raw_max)) in [
        (
            "table_probe",
            latency(&positions, |pos| {
                black_box(table.probe(black_box(pos))).ok();
            }),
        ),
        (
            "table_decide",
            latency(&positions, |pos| {
                black_box(table.best_move(black_box(pos))).ok();
            }),
        ),
    ] {
        if args.json {
            put(
                out,
                format_args!(
                    "{{\"bench\":\"{what}\",\"table\":\"{}\",\"stones\":{},\"resets\":{},\"init_max\":{},\"bytes\":{},\"positions\":{},\"median_us\":{median_us:.3},\"p99_us\":{p99:.3},\"worst_us\":{worst:.3},\"raw_max_us\":{raw_max:.3}}}",
                    name.replace('\\', "\\\\").replace('"', "\\\""),
                    p.stones(),
                    p.resets(),
                    p.init_max(),
                    table.size(),
                    positions.len(),
                ),
            )?;
        } else {
            put(
                out,
                format_args!(
                    "{what} ({name}, {} positions): median {median_us:.3} us, p99 {p99:.3} us, worst {worst:.3} us (raw max {raw_max:.1} us)",
                    positions.len()
                ),
            )?;
        }
    }
    Ok(())
}
