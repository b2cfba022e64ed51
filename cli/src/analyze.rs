//! `nimbot analyze GAME-LOG`: replay a platform game log (or a game record of
//! `--record`, `nimbot_analysis::record`) with the rules and the solver, and say where
//! the game was thrown away.
//!
//! For every move: the value of the position before it, the winning moves there,
//! whether the move threw a win away (a blunder: from a won position it leaves the
//! opponent a won one, or the server refuses it), and for a player in a lost position
//! how many plies it could still have held out against best play. Then a summary:
//! the first blunder and the blunders of each seat.
//!
//! Three steps: `nimbot_analysis::analysis` computes (the log against the rules and
//! the solver) and reports (blunders per seat, the winner, the JSON lines, the
//! chart); this file reads the file and prints (`Analysis::text`, or the JSON
//! lines).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use nimbot_analysis::analysis::{related_game, Analysis};
use nimbot_analysis::chart::Chart;
use nimbot_solve::TableOrSolverEngine;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  nimbot analyze game-log.txt\n  nimbot analyze game-log.txt --resets 4 --init-max 3 --json"
)]
pub struct AnalyzeArgs {
    /// The server's game log (`game-log.txt`) or a record of `--record` (JSON
    /// lines, which name N, R and M themselves); or a Fibonacci Nim or Super-Nim
    /// record: a first line `fibonacci N` or `super-nim H1,H2,... [cap C]`, then
    /// one move a line (a take; `merge A B`, `grow A`, `split A`), where a
    /// Super-Nim move that loses value is marked with what it lost. `-` reads
    /// stdin.
    log: PathBuf,
    /// R: resets each player had (the log does not say).
    #[arg(long, short = 'r', default_value_t = 4)]
    resets: u8,
    /// M: the initial maximum (the log does not say).
    #[arg(long, short = 'm', default_value_t = 3)]
    init_max: u32,
    /// One JSON object per move, then a summary object.
    #[arg(long)]
    json: bool,
    /// Also draw the game's value history into FILE: the distance to the end
    /// before every ply, coloured by the seat that is winning, the blunders ringed
    /// and the first one named. SVG, or PNG when FILE ends in .png.
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    plot: Option<PathBuf>,
    /// Super-Nim records: the exact solver's node bound a ply (a ply it cannot
    /// solve within it is shown `?`).
    #[arg(long, default_value_t = 1_000_000, value_name = "K")]
    nodes: u64,
}

pub fn run(args: &AnalyzeArgs) -> ExitCode {
    let text = read_log(&args.log);
    if let Some(answer) = text
        .as_deref()
        .ok()
        .and_then(|t| related_game(t, args.nodes, args.json))
    {
        return crate::exit::answer_text("analyze", answer);
    }
    let mut engine = TableOrSolverEngine::embedded();
    let analysis =
        text.and_then(|text| Analysis::of_text(&mut engine, &text, args.resets, args.init_max));
    match analysis {
        Ok(a) => {
            if let Some(path) = &args.plot {
                let chart = Chart::of(&a);
                let png = path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("png"));
                let written = if png {
                    std::fs::File::create(path).and_then(|file| {
                        let out = std::io::BufWriter::new(file);
                        crate::plot::png(&chart)
                            .write_png(out)
                            .map_err(std::io::Error::other)
                    })
                } else {
                    std::fs::write(path, chart.svg())
                };
                if let Err(e) = written {
                    eprintln!("nimbot analyze: cannot write {}: {e}", path.display());
                    return ExitCode::from(1);
                }
            }
            let text = if args.json { a.json_lines() } else { a.text() };
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => crate::exit::usage("analyze", e),
    }
}

/// The text of the log or record at `path` (`-`: stdin).
fn read_log(path: &Path) -> Result<String, String> {
    if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("stdin: {e}"))
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    }
}
