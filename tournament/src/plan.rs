//! A tournament's plan from what the organizer asked for ([`Options`], the
//! command line's flags): the bots, the N values (a list, `@FILE`, or drawn
//! with a seed), the rules, the SPRT and the schedule, each checked, with a
//! sentence for what is wrong.

use crate::engine::{self, Bot};
use crate::game::Rules;
use crate::store::{self, Plan};
use crate::{draw, parse_range, schedule};

/// What the organizer asked for, before it is checked.
#[derive(Clone, Debug)]
pub struct Options {
    /// `[NAME=]SPEC` of each bot ([`Bot::parse`]).
    pub bots: Vec<String>,
    /// The first bot against each other bot instead of every pair.
    pub gauntlet: bool,
    /// N values: numbers, or `@FILE` for a file of them, one a line.
    pub stones: Vec<String>,
    /// Draw this many N values from `range` with `seed` instead.
    pub draw: Option<usize>,
    /// `LO..HI`.
    pub range: String,
    pub seed: u64,
    pub rounds: usize,
    /// The rules every game is played by.
    pub rules: Rules,
    /// `[elo0, elo1, alpha, beta]`.
    pub sprt: Option<Vec<f64>>,
    pub event: Option<String>,
    /// Bots the pre-flight skips, by name: `None` checks every bot, an empty list
    /// none (`--no-check`).
    pub no_check: Option<Vec<String>>,
}

/// The N values of `items`: numbers, or `@FILE` for a file of them, one a line
/// (blank lines and `#` comments skipped).
///
/// # Errors
/// A file that cannot be read, a word that is not a number, named.
pub fn piles(items: &[String]) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    for item in items {
        let (words, from): (Vec<String>, String) = match item.strip_prefix('@') {
            Some(path) => {
                let text =
                    std::fs::read_to_string(path).map_err(|e| format!("--stones @{path}: {e}"))?;
                let lines = text
                    .lines()
                    .map(|l| l.split('#').next().unwrap_or("").trim().to_owned())
                    .filter(|l| !l.is_empty())
                    .collect();
                (lines, format!("--stones @{path}"))
            }
            None => (vec![item.trim().to_owned()], "--stones".into()),
        };
        for w in words {
            out.push(
                w.parse()
                    .map_err(|_| format!("{from}: '{w}' is not a number of stones"))?,
            );
        }
    }
    Ok(out)
}

/// The plan of `o`.
///
/// # Errors
/// What is wrong with the options, in the command line's words.
pub fn plan(o: &Options) -> Result<Plan, String> {
    let mut bots = o
        .bots
        .iter()
        .map(|b| Bot::parse(b))
        .collect::<Result<Vec<_>, _>>()?;
    if bots.len() < 2 {
        return Err(
            "give at least two bots (--bot nimbot --bot nimbot plays nimbot against itself)".into(),
        );
    }
    engine::unique_names(&mut bots);
    let (stones, seed) = match o.draw {
        Some(k) => {
            let (lo, hi) = parse_range(&o.range)
                .ok_or_else(|| format!("--range '{}': want LO..HI with 1 <= LO <= HI", o.range))?;
            (draw(k, lo, hi, o.seed), Some(o.seed))
        }
        None if o.stones.is_empty() => (vec![100], None),
        None => (piles(&o.stones)?, None),
    };
    if stones.is_empty() || stones.contains(&0) {
        return Err("N values must be at least 1".into());
    }
    if o.rules.init_max == 0 {
        return Err("--init-max must be at least 1".into());
    }
    let secs = |x: f64| x > 0.0 && x.is_finite() && x < 1e6;
    if !secs(o.rules.time) || !secs(o.rules.join_timeout) {
        return Err("--time and --join-timeout must be positive seconds".into());
    }
    let sprt = match &o.sprt {
        None => None,
        Some(v) => {
            let &[elo0, elo1, alpha, beta] = v.as_slice() else {
                return Err("--sprt takes four numbers: ELO0 ELO1 ALPHA BETA".into());
            };
            if bots.len() != 2 {
                return Err("--sprt is for a match of two bots".into());
            }
            let p = |x: f64| x > 0.0 && x < 0.5;
            if !(p(alpha) && p(beta) && elo0 < elo1) {
                return Err(
                    "--sprt ELO0 ELO1 ALPHA BETA: want ELO0 < ELO1 and 0 < ALPHA, BETA < 0.5"
                        .into(),
                );
            }
            Some([elo0, elo1, alpha, beta])
        }
    };
    let unchecked = match &o.no_check {
        None => Vec::new(),
        Some(names) if names.is_empty() => bots.iter().map(|b| b.name.clone()).collect(),
        Some(names) => {
            for n in names {
                if !bots.iter().any(|b| &b.name == n) {
                    let all: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
                    return Err(format!(
                        "--no-check={n}: no bot is named {n} (the bots: {})",
                        all.join(", ")
                    ));
                }
            }
            names.clone()
        }
    };
    let schedule = schedule(bots.len(), o.gauntlet, &stones, o.rounds.max(1));
    Ok(Plan {
        format: store::FORMAT,
        bots,
        rules: o.rules.clone(),
        mode: if o.gauntlet {
            "gauntlet"
        } else {
            "round-robin"
        }
        .into(),
        seed,
        sprt,
        schedule,
        event: o.event.clone(),
        unchecked,
    })
}
