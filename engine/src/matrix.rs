//! The arena of Expanding Nim played ([`run`]) and its report: its matrix as text (a row per opponent family, a column
//! per policy, each cell the lost starts won with a 95 % interval), each cell as
//! a JSON line, and the losses listed.

use nimbot::{Player, Policy};
use serde::Serialize;

use std::time::Instant;

use crate::arena::{Arena, ArenaConfig, Cell, Column, Family, Loss};

/// `x` rounded to `places` decimals: figures keep the precision they are measured
/// to (this report's, Super-Nim's arena's and the benchmarks' lines).
pub fn round(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

/// Width of the family column.
const FAMILY: usize = 34;
/// Width of each policy's cells.
const CELL: usize = 24;

/// What the arena is asked for (`nimbot arena`'s flags for Expanding Nim).
#[derive(Clone, Debug)]
pub struct Options {
    /// The box of starts and the games per start.
    pub config: ArenaConfig,
    /// The policies compared, by name.
    pub policies: Vec<String>,
    /// Only the families whose name contains one of these words (all if empty).
    pub families: Vec<String>,
    /// Tell every game nimbot lost.
    pub list_losses: bool,
    /// A JSON line a cell instead of the matrix.
    pub json: bool,
}

/// What [`run`] says as it goes.
pub enum Said<'a> {
    /// Text of the matrix, for stdout as it comes.
    Text(&'a str),
    /// A cell's JSON line (with `json`).
    Cell(CellLine<'a>),
    /// A note for stderr: a timing, a lost game.
    Note(&'a str),
}

/// Play the arena of `o` and `say` its report as it comes: the matrix's text
/// (a cell at a time) or its cells' JSON lines, and notes for stderr (the
/// timings, the losses of `list_losses`).
///
/// # Errors
/// Options it cannot play, or a policy that lost a won start.
pub fn run(o: &Options, say: &mut dyn FnMut(Said<'_>)) -> Result<(), String> {
    let (args, json, config) = (o, o.json, o.config);
    if config.starts == 0 || config.max_stones == 0 {
        return Err("--starts and --max-stones must be at least 1".into());
    }
    let policies = parse_policies(&args.policies)?;
    let m = config.init_max;
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
    let arena = Arena::new(config, &families).map_err(|e| e.to_string())?;
    if !json {
        say(Said::Text(&format!(
            "nimbot vs fallible opponents: lost starts won (of games; 95% interval), {} starting piles in 1..={}, both seats, {} seeds, R = {}, M = {}\n",
            arena.starts().len(),
            config.max_stones,
            config.seeds.max(1),
            config.resets,
            m
        )));
        say(Said::Note(&format!(
            "nimbot arena: solved the game and the models in {:.2} s (the exploit ensemble's models for N <= {}: {:.3} s)",
            started.elapsed().as_secs_f64(),
            arena.models().params().stones(),
            arena.models_time().as_secs_f64()
        )));
        let mut head = format!("{:<FAMILY$}", "family");
        for p in &policies {
            head.push_str(&format!(" {:>CELL$}", p.as_str()));
        }
        head.push('\n');
        say(Said::Text(&head));
    }
    let mut columns = vec![Column::default(); policies.len()];
    for family in &families {
        let name = family.name(m);
        if !json {
            say(Said::Text(&format!("{name:<FAMILY$}")));
        }
        for (column, &policy) in columns.iter_mut().zip(&policies) {
            let mut report_loss = |loss: Loss| {
                if args.list_losses {
                    say(Said::Note(&loss_line(&name, policy, &loss)));
                }
            };
            let cell = arena
                .cell(family, policy, &mut report_loss)
                .map_err(|e| e.to_string())?;
            column.add(family, &cell);
            if json {
                say(Said::Cell(CellLine::of(
                    &name,
                    family.kind(),
                    policy,
                    &cell,
                )));
            } else {
                say(Said::Text(&format!(" {:>CELL$}", cell_text(&cell))));
            }
        }
        if !json {
            say(Said::Text("\n"));
        }
    }
    if !json {
        say(Said::Text(&totals(&columns)));
        say(Said::Note(&format!(
            "nimbot arena: {:.1} s in all",
            started.elapsed().as_secs_f64()
        )));
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

/// The policies of `names`.
///
/// # Errors
/// An unknown name, with the known ones.
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
fn totals(columns: &[Column]) -> String {
    let mut out = String::from("\n");
    let mut row = |label: &str, f: &dyn Fn(&Column) -> String| {
        out.push_str(&format!("{label:<FAMILY$}"));
        for c in columns {
            out.push_str(&format!(" {:>CELL$}", f(c)));
        }
        out.push('\n');
    };
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
    out
}

/// One (family, policy) cell of the arena as a JSON line.
#[derive(Serialize)]
pub struct CellLine<'a> {
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
    /// The line of `cell`.
    pub fn of(opponent: &'a str, kind: &'static str, policy: Policy, cell: &Cell) -> Self {
        let t = &cell.tally;
        let share = |x: f64| round(x / 100.0, 4);
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
