//! `nimbot-table bench`: how long generation takes and how fast a table answers.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use nimbot::{Position, Table};

use crate::generate::{generate, LimitArgs};
use crate::latency::{latency, median};
use crate::{open, read};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The table to generate (and probe, unless --file is given).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Generation runs to take the median of.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Probe this table file instead of the one just generated.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// JSON lines (one per benchmark) instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &BenchArgs) -> Result<ExitCode, String> {
    let params = args.limits.params()?;
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
        println!(
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
        );
    } else {
        println!(
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
        );
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
    let mut positions = Vec::new();
    for c in p.init_max()..=table.top_cap() {
        for s in (c + 1)..=table.highest_pile(c) {
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
            println!(
                "{{\"bench\":\"{what}\",\"table\":\"{}\",\"stones\":{},\"resets\":{},\"init_max\":{},\"bytes\":{},\"positions\":{},\"median_us\":{median_us:.3},\"p99_us\":{p99:.3},\"worst_us\":{worst:.3},\"raw_max_us\":{raw_max:.3}}}",
                name.replace('\\', "\\\\").replace('"', "\\\""),
                p.stones(),
                p.resets(),
                p.init_max(),
                table.size(),
                positions.len(),
            );
        } else {
            println!(
                "{what} ({name}, {} positions): median {median_us:.3} us, p99 {p99:.3} us, worst {worst:.3} us (raw max {raw_max:.1} us)",
                positions.len()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
