//! `nimbot-table stats`: the whole game in numbers, from a fresh solve and the
//! distances to the end (no table file needed): won and lost positions per reset
//! state, the starts the first player loses, the longest perfect-play games, and
//! how lost positions repeat along a layer (what the table's format exploits).
//! docs/solving.md states the result for the default limits; a snapshot test pins
//! a small box.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::ExitCode;

use nimbot::{Params, Position, Value};
use nimbot_solve::{Distances, Solution, SolveBox};

use crate::generate::LimitArgs;
use crate::numbers::grouped;

/// `nimbot-table stats` arguments: the box, and the form of the answer.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON object instead of the text (the vocabulary of the CLI's JSON:
    /// `stones`, `resets`, `init_max`, `own_resets`, `opp_resets`,
    /// `reset_pending`, `distance`).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &StatsArgs) -> Result<ExitCode, String> {
    let (n, r, m) = (args.limits.stones, args.limits.resets, args.limits.init_max);
    Params::new(n, r, m).map_err(|e| e.to_string())?;
    let bx = SolveBox::games(n, r, m);
    let sol = Solution::solve(bx).map_err(|e| e.to_string())?;
    let dist = Distances::solve(bx).map_err(|e| e.to_string())?;
    let stats = Stats::of(&sol, &dist, n, r, m);
    if args.json {
        println!("{}", stats.json());
    } else {
        print!("{}", stats.text());
    }
    Ok(ExitCode::SUCCESS)
}

/// Lost piles of one layer, lowest first.
fn lost_piles(sol: &Solution, c: u32, hi: u32, a: u8, b: u8, f: bool, m: u32) -> Vec<u32> {
    (c + 1..=hi)
        .filter(|&s| {
            Position::new(s, c, a, b, f, m)
                .ok()
                .and_then(|p| sol.value(&p))
                == Some(Value::Lost)
        })
        .collect()
}

/// Won and lost stored positions of one reset state.
struct ResetState {
    own: u8,
    opp: u8,
    pending: bool,
    won: u64,
    lost: u64,
}

/// The longest perfect-play game over starts `from ..= to`: from `stones`,
/// `distance` plies.
struct Longest {
    from: u32,
    to: u32,
    stones: u32,
    distance: u16,
}

/// What `nimbot-table stats` reports of a box.
pub struct Stats {
    n: u32,
    r: u8,
    m: u32,
    stored: u64,
    states: Vec<ResetState>,
    /// The starts (N) the first player loses.
    lost_starts: Vec<u32>,
    longest: Vec<Longest>,
    layers: u64,
    no_lost: u64,
    periodic: u64,
    /// Period from one run of lost piles to the next, minus the cap: how often.
    gaps: BTreeMap<i64, u64>,
}

impl Stats {
    pub fn of(sol: &Solution, dist: &Distances, n: u32, r: u8, m: u32) -> Stats {
        let mut gaps: BTreeMap<i64, u64> = BTreeMap::new();
        let (mut layers, mut periodic, mut no_lost) = (0u64, 0u64, 0u64);
        let mut states = Vec::new();
        for a in 0..=r {
            for b in 0..=r {
                for f in [false, true] {
                    let (mut won, mut lost) = (0u64, 0u64);
                    for (c, hi) in sol.layers() {
                        let piles = lost_piles(sol, c, hi, a, b, f, m);
                        lost += piles.len() as u64;
                        won += u64::from(hi - c) - piles.len() as u64;
                        layers += 1;
                        if piles.is_empty() {
                            no_lost += 1;
                            continue;
                        }
                        // Where each run of lost piles starts.
                        let starts: Vec<u32> = piles
                            .iter()
                            .enumerate()
                            .filter(|&(i, &s)| i == 0 || piles[i - 1] + 1 != s)
                            .map(|(_, &s)| s)
                            .collect();
                        let g: Vec<u32> = starts.windows(2).map(|w| w[1] - w[0]).collect();
                        if g.len() >= 2 && g.iter().all(|&x| x == g[0]) {
                            periodic += 1;
                        }
                        for x in g {
                            *gaps.entry(i64::from(x) - i64::from(c)).or_default() += 1;
                        }
                    }
                    states.push(ResetState {
                        own: a,
                        opp: b,
                        pending: f,
                        won,
                        lost,
                    });
                }
            }
        }
        // The starts.
        let starts: Vec<(u32, u16)> = (1..=n)
            .map(|k| {
                let start = Params::new(k, r, m).map(|p| p.start());
                let d = start.ok().and_then(|p| dist.get(&p)).unwrap_or(0);
                (k, d)
            })
            .collect();
        let lost_starts = starts
            .iter()
            .filter(|(_, d)| d % 2 == 0)
            .map(|&(k, _)| k)
            .collect();
        let mut longest = Vec::new();
        let step = if n >= 100 { n.div_ceil(10) } else { n };
        let mut from = 1;
        while from <= n {
            let to = (from + step - 1).min(n);
            let best = starts
                .iter()
                .filter(|(k, _)| (from..=to).contains(k))
                .max_by_key(|&&(k, d)| (d, std::cmp::Reverse(k)));
            if let Some(&(k, d)) = best {
                longest.push(Longest {
                    from,
                    to,
                    stones: k,
                    distance: d,
                });
            }
            from = to + 1;
        }
        Stats {
            n,
            r,
            m,
            stored: sol.stored_positions(),
            states,
            lost_starts,
            longest,
            layers,
            no_lost,
            periodic,
            gaps,
        }
    }

    /// The most common periods (minus the cap), most common first.
    fn common_gaps(&self) -> Vec<(i64, u64)> {
        let mut common: Vec<(i64, u64)> = self.gaps.iter().map(|(&g, &k)| (g, k)).collect();
        common.sort_by_key(|&(g, k)| (std::cmp::Reverse(k), g));
        common
    }

    /// The report, as `nimbot-table stats` prints it.
    pub fn text(&self) -> String {
        let (n, r, m) = (self.n, self.r, self.m);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Expanding Nim, every game with N <= {n}, R = {r}, M = {m}: {} stored positions \
             (cap below the pile; the others are decided by the rules alone)",
            grouped(self.stored)
        );
        // Won and lost per reset state, and the lost piles' gaps per layer.
        let _ = writeln!(
            out,
            "\nwon and lost positions per reset state (A, B: the mover's and the opponent's \
             resets left; F = 1 right after a reset):"
        );
        let _ = writeln!(
            out,
            "{:>3} {:>3} {:>2} {:>11} {:>11} {:>7}",
            "A", "B", "F", "won", "lost", "lost %"
        );
        for st in &self.states {
            let pct = 100.0 * st.lost as f64 / (st.won + st.lost).max(1) as f64;
            let _ = writeln!(
                out,
                "{:>3} {:>3} {:>2} {:>11} {:>11} {pct:>6.2}%",
                st.own,
                st.opp,
                u8::from(st.pending),
                grouped(st.won),
                grouped(st.lost)
            );
        }
        let _ = writeln!(
            out,
            "\nthe first player loses the start of {} of the {n} games (N = 1 ..= {n}):",
            self.lost_starts.len()
        );
        for chunk in self.lost_starts.chunks(15) {
            let words: Vec<String> = chunk.iter().map(u32::to_string).collect();
            let _ = writeln!(out, "  {}", words.join(" "));
        }
        let _ = writeln!(
            out,
            "\nthe longest perfect-play game (the winner hurries, the loser holds out), by N:"
        );
        for l in &self.longest {
            let who = if l.distance % 2 == 1 {
                "first"
            } else {
                "second"
            };
            let _ = writeln!(
                out,
                "  N in {:>5} ..= {:<5}  longest from N = {}: {} plies ({who} player wins)",
                l.from, l.to, l.stones, l.distance
            );
        }
        // The layers' structure.
        let total: u64 = self.gaps.values().sum();
        let _ = writeln!(
            out,
            "\nlost piles along a layer: {} layers ({} without a lost pile); the period from \
             the start of one run of lost piles to the next, minus the layer's cap, over {} \
             periods:",
            grouped(self.layers),
            grouped(self.no_lost),
            grouped(total)
        );
        for (g, k) in self.common_gaps().iter().take(6) {
            let _ = writeln!(
                out,
                "  period = cap {:+}: {} ({:.2}%)",
                g,
                grouped(*k),
                100.0 * *k as f64 / total.max(1) as f64
            );
        }
        let _ = writeln!(
            out,
            "  layers exactly periodic (one period throughout, 3 or more runs of lost piles): {}",
            grouped(self.periodic)
        );
        out
    }

    /// The report as one JSON object: the same numbers, unrounded, every period.
    pub fn json(&self) -> String {
        let states: Vec<String> = self
            .states
            .iter()
            .map(|st| {
                format!(
                    "{{\"own_resets\":{},\"opp_resets\":{},\"reset_pending\":{},\"won\":{},\"lost\":{}}}",
                    st.own, st.opp, st.pending, st.won, st.lost
                )
            })
            .collect();
        let starts: Vec<String> = self.lost_starts.iter().map(u32::to_string).collect();
        let longest: Vec<String> = self
            .longest
            .iter()
            .map(|l| {
                let winner = u8::from(l.distance % 2 == 0);
                format!(
                    "{{\"from\":{},\"to\":{},\"stones\":{},\"distance\":{},\"winner\":{winner}}}",
                    l.from, l.to, l.stones, l.distance
                )
            })
            .collect();
        let periods: Vec<String> = self
            .common_gaps()
            .iter()
            .map(|(g, k)| format!("{{\"cap_plus\":{g},\"count\":{k}}}"))
            .collect();
        format!(
            "{{\"stones\":{},\"resets\":{},\"init_max\":{},\"stored_positions\":{},\
             \"reset_states\":[{}],\"first_player_loses\":[{}],\"longest\":[{}],\
             \"layers\":{{\"count\":{},\"without_lost\":{},\"periodic\":{},\"periods\":[{}]}}}}",
            self.n,
            self.r,
            self.m,
            self.stored,
            states.join(","),
            starts.join(","),
            longest.join(","),
            self.layers,
            self.no_lost,
            self.periodic,
            periods.join(",")
        )
    }
}
