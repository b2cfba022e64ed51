//! `nimbot-table verify`: check a table by means independent of the generator.
//!
//! 1. One ply: every stored value is re-derived from the values of its successors,
//!    enumerating every legal move with the rules (`Position::after`), the successors
//!    read from the table itself or, once the cap no longer binds, from the rules.
//!    A table that passes is a fixed point of the game's recurrence; as the box is
//!    finite and every move removes stones, that fixed point is the unique solution.
//! 2. A fresh solve of the same limits, compared value by value.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use nimbot::{Move, Position, Solution, SolveBox};

use crate::decoded::Decoded;
use crate::{grouped, open, progress, read};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The table file.
    pub file: PathBuf,
    /// Re-derive only every K-th stored pile one ply deep (1 = all; the fresh-solve
    /// comparison always covers every position). For very large tables.
    #[arg(long, default_value_t = 1, value_name = "K",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub every: u32,
    /// No progress bars.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The value of `pos` derived one ply deep: won iff some legal move empties the
/// pile or leaves the opponent a lost position. `Err` names a successor the table
/// should hold but does not.
fn one_ply(d: &Decoded, pos: &Position) -> Result<bool, String> {
    let resets: &[bool] = if pos.own_resets() > 0 {
        &[false, true]
    } else {
        &[false]
    };
    for &reset in resets {
        for take in 1..=pos.limit() {
            let next = match pos.after(Move::new(take, reset)) {
                Ok(None) => return Ok(true),
                Ok(Some(next)) => next,
                Err(e) => return Err(format!("move {take} {reset} refused at {pos:?}: {e}")),
            };
            let won = match next.trivial_value() {
                Some(v) => v.is_won(),
                None => d
                    .get(&next)
                    .ok_or_else(|| format!("successor {next:?} of {pos:?} is not stored"))?,
            };
            if !won {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

fn describe(s: u32, c: u32, a: u8, b: u8, f: bool) -> String {
    format!("s={s} c={c} a={a} b={b} f={}", u8::from(f))
}

pub fn run(args: &VerifyArgs) -> Result<ExitCode, String> {
    let bytes = read(&args.file)?;
    let table = open(&args.file, &bytes)?;
    let p = table.params();
    let m = p.init_max();
    let caps = u64::from(table.top_cap() + 1).saturating_sub(u64::from(m));
    let pb = progress::bar(caps, "decoding", args.quiet);
    let d = Decoded::new(&table, |done| pb.set_position(done))?;
    pb.finish_and_clear();

    // 1. One ply, from the rules.
    let total: u64 = d.layers().map(|(c, hi)| u64::from(hi - c)).sum::<u64>()
        * crate::decoded::keys_per_cap(p.resets()) as u64;
    let pb = progress::bar(total, "one ply", args.quiet);
    let keys = crate::decoded::keys_per_cap(p.resets()) as u64;
    let mut checked = 0u64;
    let mut done = 0u64;
    // Successors have fewer stones and the same or a higher cap, so going down the
    // caps and up the piles checks every successor before its predecessors: the
    // first mismatch reported is a wrong value itself, not a victim of one.
    let layers: Vec<(u32, u32)> = d.layers().collect();
    for &(c, hi) in layers.iter().rev() {
        for s in ((c + 1)..=hi).step_by(args.every as usize) {
            for a in 0..=p.resets() {
                for b in 0..=p.resets() {
                    for f in [false, true] {
                        let pos = Position::new(s, c, a, b, f, m)
                            .map_err(|e| format!("{}: {e}", describe(s, c, a, b, f)))?;
                        let stored = d.get(&pos).ok_or("a stored position went missing")?;
                        let derived = one_ply(&d, &pos)?;
                        if stored != derived {
                            pb.finish_and_clear();
                            println!(
                                "MISMATCH at {}: the table says {}, its successors say {}",
                                describe(s, c, a, b, f),
                                word(stored),
                                word(derived)
                            );
                            return Ok(ExitCode::from(1));
                        }
                        checked += 1;
                    }
                }
            }
        }
        done += u64::from(hi - c) * keys;
        pb.set_position(done);
    }
    pb.finish_and_clear();

    // 2. Against a fresh solve.
    let bx = SolveBox::games(p.stones(), p.resets(), m);
    let pb = progress::bar(bx.stored_positions(), "solving", args.quiet);
    let sol = Solution::solve_with_progress(bx, &mut |done, _| pb.set_position(done))
        .map_err(|e| format!("cannot solve {bx:?}: {e}"))?;
    pb.finish_and_clear();
    let mut compared = 0u64;
    for (c, hi) in sol.layers() {
        for a in 0..=p.resets() {
            for b in 0..=p.resets() {
                for f in [false, true] {
                    let values = sol
                        .layer_values(c, a, b, f)
                        .ok_or("the fresh solve lacks a layer")?;
                    for (s, want) in ((c + 1)..=hi).zip(values) {
                        let got = d.value(s, c, a, b, f);
                        if got != Some(want) {
                            println!(
                                "MISMATCH at {}: the table says {}, a fresh solve says {}",
                                describe(s, c, a, b, f),
                                got.map_or("nothing", word),
                                word(want)
                            );
                            return Ok(ExitCode::from(1));
                        }
                        compared += 1;
                    }
                }
            }
        }
    }
    println!(
        "OK: {} (N <= {}, R <= {}, M = {}): {} positions re-derived one ply deep, {} equal to a fresh solve",
        args.file.display(),
        p.stones(),
        p.resets(),
        m,
        grouped(checked),
        grouped(compared)
    );
    Ok(ExitCode::SUCCESS)
}

fn word(won: bool) -> &'static str {
    if won {
        "won"
    } else {
        "lost"
    }
}
