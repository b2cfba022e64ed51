//! `nimbot arena` for Expanding Nim: nimbot under each lost-position policy against
//! families of fallible opponents (`nimbot_exploit::arena`), over many starting piles and
//! both seats. The result is a matrix of lost starts won, policy by family, with the
//! number of games and a 95 % confidence interval (Wilson); won starts must all be
//! won, and a won start lost is reported as an error. This file parses the options
//! and renders; the games are the library's.

use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use nimbot::{Player, Policy};
use nimbot_exploit::arena::{Arena, ArenaConfig, Cell, Column, Family, Loss};
use serde::Serialize;

use crate::json;

#[derive(Args, Debug)]
pub struct NimArenaArgs {
    /// Resets per player.
    #[arg(long, short = 'r', default_value_t = 4)]
    pub resets: u8,
    /// Initial maximum M.
    #[arg(long, short = 'm', default_value_t = 3)]
    pub init_max: u32,
    /// Expanding Nim: how many starting piles, spread evenly over 1..=MAX_STONES.
    #[arg(long, default_value_t = 200)]
    pub starts: u32,
    /// Expanding Nim: the largest starting pile.
    #[arg(long, default_value_t = 999)]
    pub max_stones: u32,
    /// Expanding Nim: games per (pile, seat) against each randomized opponent, each
    /// with its own seed (systematic opponents draw their tie-break order from it).
    #[arg(long, default_value_t = 3)]
    pub seeds: u64,
    /// Expanding Nim: the policies to compare (comma-separated).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "first,trap,longest,exploit"
    )]
    pub policies: Vec<String>,
    /// Expanding Nim: only the families whose name contains one of these words
    /// (comma-separated; default all).
    #[arg(long, value_delimiter = ',')]
    pub families: Vec<String>,
    /// Expanding Nim: list every game nimbot lost on stderr (opponent, policy, N,
    /// seat, seed, moves).
    #[arg(long)]
    pub list_losses: bool,
}

/// Run the arena; `seed` is the first seed, `json` asks for one JSON line per
/// (family, policy) instead of a matrix.
pub fn run(args: &NimArenaArgs, seed: u64, json: bool) -> ExitCode {
    match run_inner(args, seed, json) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nimbot arena: {e}");
            ExitCode::from(2)
        }
    }
}

fn parse_policies(names: &[String]) -> Result<Vec<Policy>, String> {
    names
        .iter()
        .map(|n| {
            Policy::from_name(n.trim().as_bytes()).ok_or_else(|| {
                let known: Vec<&str> = Policy::ALL.into_iter().map(Policy::as_str).collect();
                format!("unknown policy {n:?} ({})", known.join(", "))
            })
        })
        .collect()
}

/// Width of the family column and of each policy's cells.
const FAMILY: usize = 34;
const CELL: usize = 24;

fn run_inner(args: &NimArenaArgs, first_seed: u64, json: bool) -> Result<(), String> {
    if args.starts == 0 || args.max_stones == 0 {
        return Err("--starts and --max-stones must be at least 1".into());
    }
    let policies = parse_policies(&args.policies)?;
    let m = args.init_max;
    let families: Vec<Family> = Family::all(m)
        .into_iter()
        .filter(|f| {
            args.families.is_empty() || args.families.iter().any(|w| f.name(m).contains(w.as_str()))
        })
        .collect();
    if families.is_empty() {
        return Err("no family matches --families".into());
    }
    let started = Instant::now();
    let config = ArenaConfig {
        resets: args.resets,
        init_max: m,
        starts: args.starts,
        max_stones: args.max_stones,
        seeds: args.seeds,
        first_seed,
    };
    let arena = Arena::new(config, &families).map_err(|e| e.to_string())?;
    if !json {
        println!(
            "nimbot vs fallible opponents: lost starts won (of games; 95% interval), {} starting piles in 1..={}, both seats, {} seeds, R = {}, M = {}",
            arena.starts().len(),
            args.max_stones,
            args.seeds.max(1),
            args.resets,
            m
        );
        eprintln!(
            "nimbot arena: solved the game and the models in {:.2} s (the exploit ensemble's models for N <= {}: {:.3} s)",
            started.elapsed().as_secs_f64(),
            arena.models().params().stones(),
            arena.models_time().as_secs_f64()
        );
        print!("{:<FAMILY$}", "family");
        for p in &policies {
            print!(" {:>CELL$}", p.as_str());
        }
        println!();
    }
    let mut columns = vec![Column::default(); policies.len()];
    for family in &families {
        let name = family.name(m);
        if !json {
            print!("{name:<FAMILY$}");
        }
        for (column, &policy) in columns.iter_mut().zip(&policies) {
            let mut report_loss = |loss: Loss| {
                if args.list_losses {
                    eprintln!("{}", loss_line(&name, policy, &loss));
                }
            };
            let cell = arena
                .cell(family, policy, &mut report_loss)
                .map_err(|e| e.to_string())?;
            column.add(family, &cell);
            if json {
                json::print(&CellLine::of(&name, family.kind(), policy, &cell));
            } else {
                print!(" {:>CELL$}", cell_text(&cell));
                let _ = std::io::stdout().flush();
            }
        }
        if !json {
            println!();
        }
    }
    if !json {
        print_totals(&columns);
        eprintln!(
            "nimbot arena: {:.1} s in all",
            started.elapsed().as_secs_f64()
        );
    }
    match columns
        .iter()
        .zip(&policies)
        .find(|(c, _)| c.won_starts_lost > 0)
    {
        Some((c, p)) => Err(format!(
            "policy {} lost {} won starts",
            p.as_str(),
            c.won_starts_lost
        )),
        None => Ok(()),
    }
}

/// `--list-losses`: one line per game nimbot lost.
fn loss_line(family: &str, policy: Policy, loss: &Loss) -> String {
    format!(
        "lost: opponent {family} policy {} N {} nimbot {} seed {} after {} moves ({} start)",
        policy.as_str(),
        loss.stones,
        if loss.seat == Player::First {
            "first"
        } else {
            "second"
        },
        loss.seed,
        loss.moves,
        if loss.won_start { "won" } else { "lost" },
    )
}

/// A cell of the matrix: lost starts won of games, the rate and its interval.
fn cell_text(cell: &Cell) -> String {
    let t = &cell.tally;
    let (lo, hi) = t.lost_start_ci95();
    format!(
        "{}/{} {:.1} [{:.0},{:.0}]",
        t.lost_start_wins,
        t.lost_starts,
        t.lost_start_rate(),
        lo,
        hi
    )
}

/// The last rows: means per kind of family, the worst family, won starts lost and
/// the slowest decision, per policy.
fn print_totals(columns: &[Column]) {
    let row = |label: &str, f: &dyn Fn(&Column) -> String| {
        print!("{label:<FAMILY$}");
        for c in columns {
            print!(" {:>CELL$}", f(c));
        }
        println!();
    };
    println!();
    // A mean over no families (e.g. `--families random`) is "-", not NaN.
    let mean = |m: f64| {
        if m.is_nan() {
            "-".to_owned()
        } else {
            format!("{m:.1}")
        }
    };
    row("mean, fallible families", &|c| mean(c.mean(false)));
    row("mean, systematic families", &|c| mean(c.mean(true)));
    row("worst family", &|c| format!("{:.1}", c.worst()));
    row("won starts lost", &|c| {
        format!("{} of {}", c.won_starts_lost, c.won_starts)
    });
    row("slowest decision, raw (ms)", &|c| {
        format!("{:.2}", c.slowest.as_secs_f64() * 1e3)
    });
}

/// One (family, policy) cell of the arena as a JSON line.
#[derive(Serialize)]
struct CellLine<'a> {
    game: &'static str,
    opponent: &'a str,
    kind: &'static str,
    policy: &'static str,
    won_starts: u32,
    won_start_wins: u32,
    won_start_rate: f64,
    lost_starts: u32,
    lost_start_wins: u32,
    lost_start_rate: f64,
    lost_start_ci95: [f64; 2],
}

impl<'a> CellLine<'a> {
    fn of(opponent: &'a str, kind: &'static str, policy: Policy, cell: &Cell) -> Self {
        let t = &cell.tally;
        let share = |x: f64| json::round(x / 100.0, 4);
        let (lo, hi) = t.lost_start_ci95();
        CellLine {
            game: "expanding-nim",
            opponent,
            kind,
            policy: policy.as_str(),
            won_starts: t.won_starts,
            won_start_wins: t.won_start_wins,
            won_start_rate: share(t.won_start_rate()),
            lost_starts: t.lost_starts,
            lost_start_wins: t.lost_start_wins,
            lost_start_rate: share(t.lost_start_rate()),
            lost_start_ci95: [share(lo), share(hi)],
        }
    }
}
