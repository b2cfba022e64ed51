//! `nimbot-table generate`: solve a box of games and write its table blob.

use std::fs;
use std::io::Write as _;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use nimbot::{Params, Table};
use nimbot_solve::{encode, Encoding, TableWriter};
use nimbot_solve::{Solution, SolveBox};

use crate::numbers::grouped;
use crate::table_file::GENERATOR;
use crate::{parallel, progress};

/// The limits of a table: the games it covers.
#[derive(Args, Debug)]
pub struct LimitArgs {
    /// N_max: the largest starting pile the table covers.
    #[arg(long, short = 'n', default_value_t = 999)]
    pub stones: u32,
    /// R: resets per player (the table also covers every smaller number).
    #[arg(long, short = 'r', default_value_t = 4)]
    pub resets: u8,
    /// M: the initial maximum (the limit of the first move and after a reset).
    #[arg(long, short = 'm', default_value_t = 3)]
    pub init_max: u32,
}

impl LimitArgs {
    pub fn params(&self) -> Result<Params, String> {
        Params::new(self.stones, self.resets, self.init_max)
            .map_err(|e| format!("bad parameters: {e}"))
    }
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Where to write the table (written to FILE.tmp first, then renamed).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: PathBuf,
    /// No progress bar and no summary.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// The solver: `windowed` (memory that grows with N: 16 bytes a pile and the
    /// coded caps) or `full`, the previous one, which keeps one bit for every
    /// stored position (about N^1.5; for comparison: `tools/figures.sh solvers`).
    #[arg(long, value_enum, default_value_t = Solver::Windowed)]
    pub solver: Solver,
    /// Threads for the windowed solver (caps side by side; the table is the same
    /// for any number). Default: the machine's cores.
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<NonZeroUsize>,
}

/// Which solver `generate` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Solver {
    Windowed,
    Full,
}

/// A generated table and what it cost.
pub struct Generated {
    pub blob: Vec<u8>,
    pub positions: u64,
    /// Seconds of the solve, with the writer coding each cap as it is done.
    pub solve_s: f64,
    /// Seconds to put the coded caps together into the file.
    pub encode_s: f64,
}

/// Solve and encode the games of `params` with the windowed solver, streaming its
/// piles into the table writer.
pub fn generate(params: &Params, quiet: bool) -> Result<Generated, String> {
    generate_with(params, quiet, Solver::Windowed, parallel::default_threads())
}

/// [`generate`] with a chosen solver (and threads, for the windowed one).
pub fn generate_with(
    params: &Params,
    quiet: bool,
    solver: Solver,
    threads: NonZeroUsize,
) -> Result<Generated, String> {
    if params.stones() <= params.init_max() {
        return Err(format!(
            "N = {} is at most M = {}: the first player takes the whole pile, so a table \
             has nothing to store (N must exceed M)",
            params.stones(),
            params.init_max()
        ));
    }
    let bx = SolveBox::games(params.stones(), params.resets(), params.init_max());
    let positions = bx.stored_positions();
    let t = Instant::now();
    let pb = progress::bar(positions, "solving", quiet);
    let mut progress = |done, _| pb.set_position(done);
    if solver == Solver::Full {
        let sol = Solution::solve_with_progress(bx, &mut progress)
            .map_err(|e| format!("cannot solve: {e}"))?;
        pb.finish_and_clear();
        let solve_s = t.elapsed().as_secs_f64();
        let blob = encode(&sol, GENERATOR).map_err(|e| format!("cannot encode: {e}"))?;
        return Ok(Generated {
            blob,
            positions,
            solve_s,
            encode_s: t.elapsed().as_secs_f64() - solve_s,
        });
    }
    let (writers, solved) = parallel::solve(
        bx,
        threads,
        &|| TableWriter::new(params, Encoding::default()),
        &|done, _| pb.set_position(done),
    );
    solved.map_err(|e| format!("cannot solve: {e}"))?;
    let solve_s = t.elapsed().as_secs_f64();
    pb.finish_and_clear();
    let mut writers = writers.into_iter();
    let mut writer = writers.next().ok_or("cannot solve: no thread ran")?;
    for other in writers {
        writer
            .merge(other)
            .map_err(|e| format!("cannot encode: {e}"))?;
    }
    let blob = writer
        .finish(GENERATOR)
        .map_err(|e| format!("cannot encode: {e}"))?;
    // What was written must open: a failure here is a bug in the encoder.
    Table::from_bytes(&blob).map_err(|e| format!("the new table does not open ({e}): a bug"))?;
    Ok(Generated {
        blob,
        positions,
        solve_s,
        encode_s: t.elapsed().as_secs_f64() - solve_s,
    })
}

/// Write `bytes` to `path` through a temporary file, so a failed run never leaves
/// half a table behind.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let write = || -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("cannot write {}: {e}", path.display())
    })
}

pub fn run(args: &GenerateArgs) -> Result<ExitCode, String> {
    let params = args.limits.params()?;
    let threads = args.threads.unwrap_or_else(parallel::default_threads);
    let g = generate_with(&params, args.quiet, args.solver, threads)?;
    write_atomically(&args.output, &g.blob)?;
    if !args.quiet {
        let rss = progress::peak_rss()
            .map(|b| format!(", peak memory {} MB", b / (1 << 20)))
            .unwrap_or_default();
        eprintln!(
            "wrote {}: {} bytes for {} positions ({:.2} bits per thousand); solve {:.3} s, encode {:.3} s{rss}",
            args.output.display(),
            grouped(g.blob.len() as u64),
            grouped(g.positions),
            g.blob.len() as f64 * 8000.0 / g.positions.max(1) as f64,
            g.solve_s,
            g.encode_s,
        );
    }
    Ok(ExitCode::SUCCESS)
}
