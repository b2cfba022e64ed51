//! `nimbot-table verify`: check a table by means independent of the generator.
//!
//! 1. One ply: every stored value is re-derived from the values of its successors,
//!    enumerating every legal move with the rules (`Position::after`), the successors
//!    read from the table itself or, once the cap no longer binds, from the rules.
//!    A table that passes is a fixed point of the game's recurrence; as the box is
//!    finite and every move removes stones, that fixed point is the unique solution.
//! 2. A fresh solve of the same limits by the windowed solver, compared value by
//!    value as its piles come: per layer, where the values change, against the
//!    table's runs of that layer (so the check costs the runs, and memory one cap's
//!    runs, not the N^1.5 positions).
//!
//! One ply reads the table decoded into one bit a position when that takes at most
//! [`DECODED_LIMIT`] bytes, else probes it (slower: use `--every` on such tables).

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use nimbot::{Move, Position, Table};
use nimbot_solve::{PileBits, PileSink, SolveBox, SolveError};

use crate::decoded::Decoded;

/// Largest table decoded whole for the one-ply pass (bytes of its bits).
const DECODED_LIMIT: u64 = 1 << 30;

/// The table's values for the one-ply pass: decoded, or probed.
enum Values<'t> {
    Decoded(Decoded),
    Probed(&'t Table<&'t [u8]>),
}

impl Values<'_> {
    fn get(&self, pos: &Position) -> Option<bool> {
        match self {
            Values::Decoded(d) => d.get(pos),
            Values::Probed(t) => t.probe(pos).ok().map(|v| v.is_won()),
        }
    }
}
use crate::numbers::grouped;
use crate::table_file::{open, read};
use crate::{parallel, progress};

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
    /// Threads for the fresh solve (caps side by side). Default: the machine's
    /// cores.
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<NonZeroUsize>,
}

/// The value of `pos` derived one ply deep: won iff some legal move empties the
/// pile or leaves the opponent a lost position. `Err` names a successor the table
/// should hold but does not.
fn one_ply(d: &Values<'_>, pos: &Position) -> Result<bool, String> {
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

/// Compares a fresh windowed solve with the table, cap by cap: the offsets where
/// each layer's value changes, the table's (decoded when the cap begins) against
/// the solver's (as its piles come).
struct Compare<'t> {
    table: &'t Table<&'t [u8]>,
    bits: PileBits,
    resets: u8,
    cap: Option<u32>,
    piles: u32,
    prev: Vec<u64>,
    /// Per storage bit: the table's change offsets, and how many have been met.
    expect: Vec<Vec<u32>>,
    met: Vec<usize>,
    compared: u64,
    mismatch: Option<String>,
}

impl Compare<'_> {
    fn begin(&mut self, cap: u32) -> Result<(), SolveError> {
        let r = self.resets;
        for list in &mut self.expect {
            list.clear();
        }
        self.met.fill(0);
        self.prev.fill(0);
        for a in 0..=r {
            for b in 0..=r {
                for f in [false, true] {
                    let bit = self.bits.bit(a, b, f);
                    if let Some(w) = self.prev.get_mut(bit / 64) {
                        *w |= 1 << (bit % 64);
                    }
                    let list = &mut self.expect[bit];
                    let mut won = true;
                    let first = cap + 1;
                    let read = self.table.layer_runs(cap, a, b, f, |lo, _, v| {
                        if v != won {
                            list.push(lo - first);
                            won = v;
                        }
                    });
                    if read.is_err() {
                        self.mismatch = Some(format!("the table cannot be read at cap {cap}"));
                        return Err(SolveError::BadParams);
                    }
                }
            }
        }
        self.cap = Some(cap);
        self.piles = 0;
        Ok(())
    }

    fn fail(&mut self, cap: u32, bit: usize, t: u32) -> SolveError {
        let r = self.resets;
        let layer = (0..=r)
            .flat_map(|a| (0..=r).flat_map(move |b| [(a, b, false), (a, b, true)]))
            .find(|&(a, b, f)| self.bits.bit(a, b, f) == bit);
        self.mismatch = Some(match layer {
            Some((a, b, f)) => format!(
                "MISMATCH at {}: the table and a fresh solve differ there",
                describe(cap + 1 + t, cap, a, b, f)
            ),
            None => format!("MISMATCH in cap {cap}: an unused bit changed"),
        });
        SolveError::BadParams
    }
}

impl PileSink for Compare<'_> {
    fn piles(&mut self, cap: u32, _first: u32, words: &[u64]) -> Result<(), SolveError> {
        if self.cap != Some(cap) {
            self.begin(cap)?;
        }
        let wpp = self.bits.words().max(1);
        for pile in words.chunks_exact(wpp) {
            let t = self.piles;
            for (w, (&now, prev)) in pile.iter().zip(self.prev.iter_mut()).enumerate() {
                let mut changed = now ^ *prev;
                *prev = now;
                while changed != 0 {
                    let bit = w * 64 + changed.trailing_zeros() as usize;
                    changed &= changed - 1;
                    let at = self.met[bit];
                    if self.expect[bit].get(at) != Some(&t) {
                        return Err(self.fail(cap, bit, t));
                    }
                    self.met[bit] = at + 1;
                }
            }
            self.piles += 1;
        }
        self.compared += words.len() as u64 / wpp as u64;
        Ok(())
    }

    fn cap_done(&mut self, cap: u32) -> Result<(), SolveError> {
        for bit in 0..self.expect.len() {
            if let Some(&t) = self.expect[bit].get(self.met[bit]) {
                return Err(self.fail(cap, bit, t));
            }
        }
        self.cap = None;
        Ok(())
    }
}

pub fn run(args: &VerifyArgs) -> Result<ExitCode, String> {
    let bytes = read(&args.file)?;
    let table = open(&args.file, &bytes)?;
    let p = table.params();
    let m = p.init_max();
    let bx = SolveBox::games(p.stones(), p.resets(), m);
    let values = if bx.stored_positions() / 8 <= DECODED_LIMIT {
        let caps = u64::from(table.top_cap() + 1).saturating_sub(u64::from(m));
        let pb = progress::bar(caps, "decoding", args.quiet);
        let d = Decoded::new(&table, |done| pb.set_position(done))?;
        pb.finish_and_clear();
        Values::Decoded(d)
    } else {
        Values::Probed(&table)
    };

    // 1. One ply, from the rules.
    let keys = crate::decoded::keys_per_cap(p.resets()) as u64;
    let layers: Vec<(u32, u32)> = (m..=table.top_cap())
        .map(|c| (c, table.highest_pile(c)))
        .collect();
    let total: u64 = layers.iter().map(|&(c, hi)| u64::from(hi - c)).sum::<u64>() * keys;
    let pb = progress::bar(total, "one ply", args.quiet);
    let mut checked = 0u64;
    let mut done = 0u64;
    // Successors have fewer stones and the same or a higher cap, so going down the
    // caps and up the piles checks every successor before its predecessors: the
    // first mismatch reported is a wrong value itself, not a victim of one.
    for &(c, hi) in layers.iter().rev() {
        for s in ((c + 1)..=hi).step_by(args.every as usize) {
            for a in 0..=p.resets() {
                for b in 0..=p.resets() {
                    for f in [false, true] {
                        let pos = Position::new(s, c, a, b, f, m)
                            .map_err(|e| format!("{}: {e}", describe(s, c, a, b, f)))?;
                        let stored = values.get(&pos).ok_or("a stored position went missing")?;
                        let derived = one_ply(&values, &pos)?;
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
    drop(values);

    // 2. Against a fresh solve, as it goes (each thread comparing its caps).
    let bits = PileBits::new(p.resets());
    let compare = || {
        Ok(Compare {
            table: &table,
            bits,
            resets: p.resets(),
            cap: None,
            piles: 0,
            prev: vec![0; bits.words()],
            expect: vec![Vec::new(); bits.words() * 64],
            met: vec![0; bits.words() * 64],
            compared: 0,
            mismatch: None,
        })
    };
    let pb = progress::bar(bx.stored_positions(), "solving", args.quiet);
    let threads = args.threads.unwrap_or_else(parallel::default_threads);
    let (compares, solved) =
        parallel::solve(bx, threads, &compare, &|done, _| pb.set_position(done));
    pb.finish_and_clear();
    if let Some(m) = compares.iter().find_map(|c| c.mismatch.as_ref()) {
        println!("{m}");
        return Ok(ExitCode::from(1));
    }
    solved.map_err(|e| format!("cannot solve {bx:?}: {e}"))?;
    let compared = compares.iter().map(|c| c.compared).sum::<u64>() * keys;
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
