//! The command `nimbot bench`: its flags, each benchmark run by them, every line
//! printed on stdout as it comes, and the exit status. The `nimbot` binary
//! (cli/) only hands it the parsed flags.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::lines::{Line, Size};
use crate::tournament::Load;
use crate::{exploit, solve, supernim, table, tournament};
use clap::{Args, Subcommand};
use nimbot::Params;
use nimbot_analysis::vocab;

/// `nimbot bench`'s flags: the solver's benchmark's, or `--exploit`'s, or
/// `--supernim`'s, or a benchmark with flags of its own.
#[derive(Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "Examples:
  nimbot bench                          solve time and decision latency (JSON lines)
  nimbot bench --exploit -n 300         the exploit policy's costs
  nimbot bench --supernim 20 --runs 3   Super-Nim's exact solver
  nimbot bench table --json --runs 9    making and probing a table
  nimbot bench tournament 1000          the tournament's load (also: nimbot tournament --bench)"
)]
pub struct BenchArgs {
    #[command(subcommand)]
    other: Option<Other>,
    #[command(flatten)]
    size: BoxArgs,
    /// Solve runs to take the median of.
    #[arg(long, default_value_t = 21)]
    runs: usize,
    /// Measure the exploit policy instead: solving its models, the per-game
    /// preparation, lost-position decisions.
    #[arg(long)]
    exploit: bool,
    /// Measure Super-Nim's exact solver instead: every start of 2..=4 heaps of
    /// 1..=6 sticks solved to the cap CAP (one solver, its table shared), as
    /// positions (nodes) searched per second.
    #[arg(long, value_name = "CAP")]
    supernim: Option<u32>,
}

/// The box of games a benchmark solves (`nimbot bench`) or makes a table of
/// (`nimbot bench table`, which also probes it unless `--file`).
#[derive(Args, Debug)]
struct BoxArgs {
    /// N_max: the largest starting pile.
    #[arg(long, short = 'n', default_value_t = 999)]
    stones: u32,
    /// R: resets per player.
    #[arg(long, short = 'r', default_value_t = 4)]
    resets: u8,
    /// M: the initial maximum.
    #[arg(long, short = 'm', default_value_t = 3)]
    init_max: u32,
}

/// The benchmarks with flags of their own.
#[derive(Subcommand, Debug)]
enum Other {
    /// Making a table and probing it: generation time (as `nimbot-table generate`
    /// makes it), the solver beside a naive every-move solver, the format's codings,
    /// probe and best-move latency.
    Table(TableArgs),
    /// The tournament's load: quick games between two nimbot policies (N drawn
    /// from 5..60), games per second, the CPU shares of the referees, the runner
    /// and the bots, and a check of the results on disk (exit status 1 if a game
    /// is missing, twice or without a result; 3 if the folder cannot hold them).
    Tournament(LoadArgs),
}

#[derive(Args, Debug)]
struct TableArgs {
    #[command(flatten)]
    size: BoxArgs,
    /// Generation runs to take the median of.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Probe this table file instead of the one just generated.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// JSON lines (one per benchmark) instead of text.
    #[arg(long)]
    json: bool,
    /// Skip the comparisons (the naive solver, the codings).
    #[arg(long)]
    no_compare: bool,
}

#[derive(Args, Debug)]
struct LoadArgs {
    /// Games to play.
    #[arg(default_value_t = 1000)]
    games: usize,
    /// Games at once, each with its own referee.
    #[arg(long, short = 'c', value_name = "K", default_value_t = 8)]
    concurrency: usize,
    /// The seed of the drawn N values.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// R: resets each player may use.
    #[arg(long, short = 'r', default_value_t = 4)]
    resets: u8,
    /// M: the initial maximum.
    #[arg(long, short = 'm', default_value_t = 3)]
    init_max: u32,
    /// Play in this folder (emptied first, kept after) instead of a scratch one.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Run the benchmark `args` ask for, printing its lines; the exit status: 0, 2 on
/// bad flags or a table file that cannot be read, 1 if a benchmark could not
/// finish (the tournament's: see [`load_bench`]).
pub fn run(args: &BenchArgs) -> ExitCode {
    match &args.other {
        Some(Other::Table(t)) => return table_bench(t),
        Some(Other::Tournament(t)) => {
            let load = Load {
                games: t.games,
                seed: t.seed,
                resets: t.resets,
                init_max: t.init_max,
                concurrency: t.concurrency.max(1),
            };
            return load_bench("nimbot bench tournament", &load, t.out.as_deref());
        }
        None => {}
    }
    let size = Size {
        stones: args.size.stones,
        resets: args.size.resets,
        init_max: args.size.init_max,
    };
    let mut emit = |line: Line| print!("{}", vocab::line(&line));
    let ran = if let Some(cap) = args.supernim {
        supernim::supernim(cap, args.runs.min(5), &mut emit)
    } else if args.exploit {
        exploit::measure(size, args.runs.clamp(1, 7), &mut emit)
    } else {
        solve::solve_and_decide(size, args.runs, &mut emit)
    };
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        Err((status, e)) => {
            eprintln!("nimbot bench: {e}");
            ExitCode::from(status)
        }
    }
}

/// `nimbot bench table`: exit status 2 on bad limits or an unreadable table file.
fn table_bench(args: &TableArgs) -> ExitCode {
    let ran = Params::new(args.size.stones, args.size.resets, args.size.init_max)
        .map_err(|e| format!("bad parameters: {e}"))
        .and_then(|params| {
            let options = table::Options {
                params,
                runs: args.runs,
                file: args.file.clone(),
                json: args.json,
                compare: !args.no_compare,
            };
            table::run(&options, &mut std::io::stdout().lock())
        });
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nimbot bench table: {e}");
            ExitCode::from(2)
        }
    }
}

/// The tournament's load benchmark (`nimbot bench tournament`, `nimbot tournament
/// --bench`: `cmd`) in `dir` (or a scratch folder): its four lines, then the exit
/// status, as `nimbot tournament`'s: 0, 1 if a game is not on disk once with a
/// result, 3 if the folder cannot hold the tournament.
pub fn load_bench(cmd: &str, load: &Load, dir: Option<&Path>) -> ExitCode {
    match tournament::run_in(load, dir) {
        Ok(f) => {
            print!("{}", f.text(load.seed));
            ExitCode::from(if f.all_there() { 0 } else { 1 })
        }
        Err(e) => {
            eprintln!("{cmd}: {e}");
            ExitCode::from(3)
        }
    }
}
