//! `nimbot arena` for Expanding Nim: nimbot under each lost-position policy against
//! families of fallible opponents, over many starting piles and both seats.
//!
//! Two kinds of family: opponents that err at random or by a heuristic
//! (`opponents::Opponent`), and opponents that err systematically, each an exact
//! solver of one wrong model of the game (`models::Model`), with a tie-break order
//! drawn per game. The result is a matrix of lost starts won, policy by family, with
//! the number of games and a 95 % confidence interval (Wilson); won starts must all
//! be won, and a won start lost is reported as an error.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use nimbot::distance::{longest_move, Distances};
use nimbot::solver::{Solution, SolveBox};
use nimbot::strategy::decide;
use nimbot::{Engine, Game, Move, Outcome, Params, Player, Policy};

use crate::exploit::{HostEngine, Models};
use crate::models::{Belief, Model, ModelSolution, Order, Solved};
use crate::opponents::{start_is_won, Opponent, Rng};

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

/// An opponent family of the arena.
#[derive(Clone, Copy, Debug)]
pub enum Family {
    /// Errs at random or by a heuristic.
    Fallible(Opponent),
    /// Solves a wrong model exactly.
    Systematic(Model),
}

impl Family {
    /// Every family for a game with initial maximum `m`.
    pub fn all(m: u32) -> Vec<Family> {
        let mut v: Vec<Family> = Opponent::all().into_iter().map(Family::Fallible).collect();
        v.extend(Model::families(m).into_iter().map(Family::Systematic));
        v
    }

    pub fn name(&self, m: u32) -> String {
        match self {
            Family::Fallible(o) => o.name(),
            Family::Systematic(model) => model.name(m),
        }
    }

    pub const fn kind(&self) -> &'static str {
        match self {
            Family::Fallible(_) => "fallible",
            Family::Systematic(_) => "systematic",
        }
    }

    /// Whether every game from one start is the same game.
    fn deterministic(&self) -> bool {
        matches!(
            self,
            Family::Fallible(Opponent::Greedy) | Family::Fallible(Opponent::Mod4)
        )
    }
}

/// Wins and games, split by the start's theoretical value for nimbot.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    pub won_starts: u32,
    pub won_start_wins: u32,
    pub lost_starts: u32,
    pub lost_start_wins: u32,
}

/// The 95 % Wilson score interval of `wins` out of `games`, in percent.
pub fn wilson(wins: u32, games: u32) -> (f64, f64) {
    if games == 0 {
        return (0.0, 100.0);
    }
    let n = f64::from(games);
    let p = f64::from(wins) / n;
    let z = 1.959_964f64;
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (
        100.0 * (centre - half).max(0.0),
        100.0 * (centre + half).min(1.0),
    )
}

fn pct(wins: u32, games: u32) -> f64 {
    if games == 0 {
        0.0
    } else {
        100.0 * f64::from(wins) / f64::from(games)
    }
}

/// What the arena solves once and every game shares.
struct Shared {
    solution: Solution,
    distances: Distances,
    models: Arc<Models>,
    longest: Arc<(Solution, Distances)>,
}

/// nimbot under one policy.
enum Bot {
    /// The core's policies on the solved box.
    Direct(Policy),
    /// The host engine (the ensemble for `exploit`).
    Host(Box<HostEngine>),
}

impl Bot {
    fn new(policy: Policy, shared: &Shared) -> Bot {
        match policy {
            Policy::Exploit => Bot::Host(Box::new(HostEngine::with_models(
                shared.models.clone(),
                shared.longest.clone(),
            ))),
            p => Bot::Direct(p),
        }
    }

    fn prepare(&mut self, params: &Params) -> Result<(), String> {
        match self {
            Bot::Direct(_) => Ok(()),
            Bot::Host(e) => e.prepare(params).map_err(|e| e.to_string()),
        }
    }

    fn decide(&mut self, pos: &nimbot::Position, shared: &Shared) -> Result<Move, String> {
        let d = match self {
            Bot::Direct(Policy::Longest) => longest_move(&shared.solution, &shared.distances, pos),
            Bot::Direct(p) => decide(&shared.solution, pos, *p),
            Bot::Host(e) => e.decide(pos, Policy::Exploit),
        };
        d.map(|d| d.mv)
            .map_err(|e| format!("nimbot could not move at {pos:?}: {e}"))
    }
}

/// The opponent's side of one game.
enum Side<'a> {
    Fallible(Opponent),
    Systematic {
        solved: Solved<'a>,
        belief: Belief,
        order: Order,
    },
}

/// Play one game: whether nimbot won, the number of moves, and nimbot's slowest
/// decision.
fn play(
    params: Params,
    bot_seat: Player,
    bot: &mut Bot,
    mut side: Side<'_>,
    shared: &Shared,
    rng: &mut Rng,
) -> Result<(bool, u32, Duration), String> {
    let mut game = Game::new(params);
    bot.prepare(&params)?;
    let mut slowest = Duration::ZERO;
    loop {
        let mover = game.to_move();
        let Some(pos) = game.position() else {
            return Err("the game ended without a winner".into());
        };
        let mv = if mover == bot_seat {
            let t = Instant::now();
            let mv = bot.decide(&pos, shared)?;
            slowest = slowest.max(t.elapsed());
            mv
        } else {
            match &side {
                Side::Fallible(o) => o.choose(&game, &shared.solution, rng),
                Side::Systematic {
                    solved,
                    belief,
                    order,
                } => solved.choose(belief, &pos, *order),
            }
        };
        let outcome = game.play(mover, mv);
        if let Side::Systematic { solved, belief, .. } = &mut side {
            *belief = belief.after(&solved.solution.rules(), mv);
        }
        match outcome {
            Ok(Outcome::Won(winner)) => return Ok((winner == bot_seat, game.moves(), slowest)),
            Ok(Outcome::Continue) => {}
            // The server's rules: a refused move loses for its mover.
            Err(_) if mover != bot_seat => return Ok((true, game.moves(), slowest)),
            Err(e) => {
                return Err(format!(
                    "nimbot played an illegal move {mv:?} at {pos:?}: {e}"
                ));
            }
        }
    }
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
            Policy::from_name(n.trim().as_bytes())
                .ok_or_else(|| format!("unknown policy {n:?} (first, trap, longest, exploit)"))
        })
        .collect()
}

fn run_inner(args: &NimArenaArgs, first_seed: u64, json: bool) -> Result<(), String> {
    if args.starts == 0 || args.max_stones == 0 {
        return Err("--starts and --max-stones must be at least 1".into());
    }
    let top =
        Params::new(args.max_stones, args.resets, args.init_max).map_err(|e| e.to_string())?;
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
    let solution = Solution::solve(SolveBox::games(args.max_stones, args.resets, m))
        .map_err(|e| e.to_string())?;
    let distances = Distances::solve(solution.solve_box()).expect("distances of the arena's box");
    let t = Instant::now();
    let models =
        Arc::new(Models::solve(top).ok_or("the models are solved for N <= 2000 and R <= 6 only")?);
    let models_time = t.elapsed();
    // The systematic families' own solutions (the arena's horizons reuse the real one).
    let mut family_solutions: Vec<ModelSolution> = Vec::new();
    for f in &families {
        if let Family::Systematic(model) = f {
            if models.solution_of(&model.rules).is_none()
                && !family_solutions.iter().any(|s| s.rules() == model.rules)
            {
                family_solutions.push(
                    ModelSolution::solve(model.rules, args.max_stones, args.resets)
                        .ok_or("model too large")?,
                );
            }
        }
    }
    let longest = Arc::new((solution.clone(), distances.clone()));
    let shared = Shared {
        solution,
        distances,
        models,
        longest,
    };
    let piles: Vec<u32> = (0..args.starts)
        .map(|i| {
            let span = u64::from(args.max_stones - 1);
            1 + (u64::from(i) * span / u64::from(args.starts.saturating_sub(1).max(1))) as u32
        })
        .collect();
    if !json {
        println!(
            "nimbot vs fallible opponents: lost starts won (of games; 95% interval), {} starting piles in 1..={}, both seats, {} seeds, R = {}, M = {}",
            piles.len(),
            args.max_stones,
            args.seeds.max(1),
            args.resets,
            m
        );
        eprintln!(
            "nimbot arena: solved the game and the models in {:.2} s (the exploit ensemble's models for N <= {}: {:.3} s)",
            started.elapsed().as_secs_f64(),
            shared.models.params().stones(),
            models_time.as_secs_f64()
        );
        print!("{:<34}", "family");
        for p in &policies {
            print!(" {:>24}", p.as_str());
        }
        println!();
    }
    // Per policy: lost-start rates per family, won starts lost, slowest decision.
    let mut rates: Vec<Vec<(f64, bool)>> = vec![Vec::new(); policies.len()];
    let mut won_lost = vec![(0u32, 0u32); policies.len()];
    let mut slowest = vec![Duration::ZERO; policies.len()];
    for family in &families {
        let rounds = if family.deterministic() {
            1
        } else {
            args.seeds.max(1)
        };
        if !json {
            print!("{:<34}", family.name(m));
        }
        for (pi, &policy) in policies.iter().enumerate() {
            let mut bot = Bot::new(policy, &shared);
            let mut t = Tally::default();
            for &n in &piles {
                let params = Params::new(n, args.resets, m).map_err(|e| e.to_string())?;
                let first_wins = start_is_won(&shared.solution, &params.start());
                for seat in [Player::First, Player::Second] {
                    let won_start = first_wins == (seat == Player::First);
                    for round in 0..rounds {
                        // The same seed for every policy: they meet the same dice.
                        let seed = first_seed.wrapping_add(round).wrapping_mul(1_000_003)
                            ^ u64::from(n) << 1
                            ^ u64::from(seat == Player::Second);
                        let mut rng = Rng::new(seed);
                        let side = match family {
                            Family::Fallible(o) => Side::Fallible(*o),
                            Family::Systematic(model) => {
                                let solution = shared
                                    .models
                                    .solution_of(&model.rules)
                                    .or_else(|| {
                                        family_solutions.iter().find(|s| s.rules() == model.rules)
                                    })
                                    .ok_or("a model was not solved")?;
                                Side::Systematic {
                                    solved: Solved {
                                        model: *model,
                                        solution,
                                    },
                                    belief: Belief::start(n, args.resets),
                                    order: Order {
                                        largest_first: rng.chance(0.5),
                                        reset_first: rng.chance(0.5),
                                    },
                                }
                            }
                        };
                        let (win, moves, slow) =
                            play(params, seat, &mut bot, side, &shared, &mut rng)?;
                        slowest[pi] = slowest[pi].max(slow);
                        if !win && args.list_losses {
                            eprintln!(
                                "lost: opponent {} policy {} N {n} nimbot {} seed {seed} after {moves} moves ({} start)",
                                family.name(m),
                                policy.as_str(),
                                if seat == Player::First { "first" } else { "second" },
                                if won_start { "won" } else { "lost" },
                            );
                        }
                        if won_start {
                            t.won_starts += 1;
                            t.won_start_wins += u32::from(win);
                        } else {
                            t.lost_starts += 1;
                            t.lost_start_wins += u32::from(win);
                        }
                    }
                }
            }
            won_lost[pi].0 += t.won_starts - t.won_start_wins;
            won_lost[pi].1 += t.won_starts;
            let rate = pct(t.lost_start_wins, t.lost_starts);
            rates[pi].push((rate, matches!(family, Family::Systematic(_))));
            let (lo, hi) = wilson(t.lost_start_wins, t.lost_starts);
            if json {
                println!(
                    "{{\"game\":\"expanding-nim\",\"opponent\":\"{}\",\"kind\":\"{}\",\"policy\":\"{}\",\"won_starts\":{},\"won_start_wins\":{},\"won_start_rate\":{:.4},\"lost_starts\":{},\"lost_start_wins\":{},\"lost_start_rate\":{:.4},\"lost_start_ci95\":[{:.4},{:.4}]}}",
                    family.name(m),
                    family.kind(),
                    policy.as_str(),
                    t.won_starts,
                    t.won_start_wins,
                    pct(t.won_start_wins, t.won_starts) / 100.0,
                    t.lost_starts,
                    t.lost_start_wins,
                    rate / 100.0,
                    lo / 100.0,
                    hi / 100.0,
                );
            } else {
                let cell = format!(
                    "{}/{} {:.1} [{:.0},{:.0}]",
                    t.lost_start_wins, t.lost_starts, rate, lo, hi
                );
                print!(" {cell:>24}");
                use std::io::Write as _;
                let _ = std::io::stdout().flush();
            }
        }
        if !json {
            println!();
        }
    }
    if !json {
        let row = |label: &str, f: &dyn Fn(usize) -> String| {
            print!("{label:<34}");
            for pi in 0..policies.len() {
                print!(" {:>24}", f(pi));
            }
            println!();
        };
        let worst = |pi: usize| rates[pi].iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
        let mean = |pi: usize, systematic: bool| {
            let v: Vec<f64> = rates[pi]
                .iter()
                .filter(|r| r.1 == systematic)
                .map(|r| r.0)
                .collect();
            if v.is_empty() {
                f64::NAN
            } else {
                v.iter().sum::<f64>() / v.len() as f64
            }
        };
        println!();
        row("mean, fallible families", &|pi| {
            format!("{:.1}", mean(pi, false))
        });
        row("mean, systematic families", &|pi| {
            format!("{:.1}", mean(pi, true))
        });
        row("worst family", &|pi| format!("{:.1}", worst(pi)));
        row("won starts lost", &|pi| {
            format!("{} of {}", won_lost[pi].0, won_lost[pi].1)
        });
        row("slowest decision, raw (ms)", &|pi| {
            format!("{:.2}", slowest[pi].as_secs_f64() * 1e3)
        });
        eprintln!(
            "nimbot arena: {:.1} s in all",
            started.elapsed().as_secs_f64()
        );
    }
    if let Some(pi) = won_lost.iter().position(|w| w.0 > 0) {
        return Err(format!(
            "policy {} lost {} won starts",
            policies[pi].as_str(),
            won_lost[pi].0
        ));
    }
    Ok(())
}
