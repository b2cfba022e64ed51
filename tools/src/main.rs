//! `nimbot-table`: make, check, inspect and picture nimbot's solution tables (the
//! postcard blobs the core embeds; format in `table/FORMAT.md`). Making a table
//! is the library's (`src/lib.rs`), which `nimbot bench table` times too.

mod info;
mod plot;
mod stats;
mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
// The library's parts, named here so that the commands' modules reach them as
// `crate::..` like their own.
use nimbot_tools::{decoded, generate, numbers, parallel, progress, table_file};

/// Generate, verify, inspect and plot nimbot solution tables.
///
/// A table holds won/lost for every position of every game with at most N stones,
/// R resets per player and initial maximum M (a table for R also covers fewer
/// resets). The nimbot core embeds one (table/default.nimt: N <= 999, R <= 4, M = 3);
/// build with NIMBOT_TABLE=path/to/other.nimt to embed another.
#[derive(Parser, Debug)]
#[command(name = "nimbot-table", version, about, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const AFTER_HELP: &str = "\
Examples:
  nimbot-table generate --stones 999 --resets 4 --init-max 3 -o table/default.nimt
  nimbot-table verify table/default.nimt
  nimbot-table info table/default.nimt
  nimbot-table plot table/default.nimt -o map.png
  nimbot-table stats --stones 999 --resets 4 --init-max 3
  nimbot-table stats --stones 200 --json

Exit status: 0 success, 1 a check failed (verify found a mismatch), 2 bad arguments
or an unreadable / invalid table file.";

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve every game up to the given limits and write the table blob.
    Generate(generate::GenerateArgs),
    /// Check a table independently: every stored value re-derived one ply deep from
    /// its successors by the rules, and every value compared with a fresh solve.
    Verify(verify::VerifyArgs),
    /// Print a table's parameters, size, checksum and bits per state.
    Info(info::InfoArgs),
    /// Draw a table's won/lost map as a PNG: one panel per (own, opponent) resets,
    /// stones across, cap down.
    Plot(plot::PlotArgs),
    /// The whole game in numbers (from a fresh solve, no table file): won and lost
    /// positions per reset state, the starts the first player loses, the longest
    /// perfect-play games, how lost positions repeat along a layer.
    Stats(stats::StatsArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Generate(args) => generate::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Info(args) => info::run(args),
        Command::Plot(args) => plot::run(args),
        Command::Stats(args) => stats::run(args),
    };
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("nimbot-table: {msg}");
            ExitCode::from(2)
        }
    }
}
