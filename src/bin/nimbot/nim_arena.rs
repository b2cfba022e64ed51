//! `nimbot arena` for Expanding Nim: nimbot under each lost-position policy against
//! a family of fallible opponents, over many starting piles and both seats. Win rates
//! are reported separately for theoretically won and lost starts.

use std::process::ExitCode;

use clap::Args;
use nimbot::distance::{longest_move, Distances};
use nimbot::solver::{Solution, SolveBox};
use nimbot::strategy::decide;
use nimbot::{Game, Outcome, Params, Player, Policy};

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
    /// with its own seed.
    #[arg(long, default_value_t = 3)]
    pub seeds: u64,
    /// Expanding Nim: list every game nimbot lost on stderr (opponent, policy, N,
    /// seat, seed, moves).
    #[arg(long)]
    pub list_losses: bool,
}

/// Wins and games, split by the start's theoretical value for nimbot.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    won_starts: u32,
    won_start_wins: u32,
    lost_starts: u32,
    lost_start_wins: u32,
}

fn pct(wins: u32, games: u32) -> f64 {
    if games == 0 {
        0.0
    } else {
        100.0 * f64::from(wins) / f64::from(games)
    }
}

/// Play one game: whether nimbot won, and the number of moves.
fn play(
    params: Params,
    bot: Player,
    policy: Policy,
    opponent: Opponent,
    (solution, distances): (&Solution, &Distances),
    rng: &mut Rng,
) -> Result<(bool, u32), String> {
    let mut game = Game::new(params);
    loop {
        let mover = game.to_move();
        let Some(pos) = game.position() else {
            return Err("the game ended without a winner".into());
        };
        let mv = if mover == bot {
            match policy {
                Policy::Longest => longest_move(solution, distances, &pos),
                _ => decide(solution, &pos, policy),
            }
            .map_err(|e| format!("nimbot could not move at {pos:?}: {e}"))?
            .mv
        } else {
            opponent.choose(&game, solution, rng)
        };
        match game.play(mover, mv) {
            Ok(Outcome::Won(winner)) => return Ok((winner == bot, game.moves())),
            Ok(Outcome::Continue) => {}
            Err(e) => {
                let who = if mover == bot {
                    "nimbot"
                } else {
                    "the opponent"
                };
                return Err(format!(
                    "{who} played an illegal move {mv:?} at {pos:?}: {e}"
                ));
            }
        }
    }
}

/// Run the arena; `seed` is the first seed, `json` asks for one JSON line per
/// (opponent, policy) instead of a table.
pub fn run(args: &NimArenaArgs, seed: u64, json: bool) -> ExitCode {
    match run_inner(args, seed, json) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nimbot arena: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_inner(args: &NimArenaArgs, first_seed: u64, json: bool) -> Result<(), String> {
    if args.starts == 0 || args.max_stones == 0 {
        return Err("--starts and --max-stones must be at least 1".into());
    }
    Params::new(args.max_stones, args.resets, args.init_max).map_err(|e| e.to_string())?;
    let solution = Solution::solve(SolveBox::games(args.max_stones, args.resets, args.init_max))
        .map_err(|e| e.to_string())?;
    let piles: Vec<u32> = (0..args.starts)
        .map(|i| {
            let span = u64::from(args.max_stones - 1);
            1 + (u64::from(i) * span / u64::from(args.starts.saturating_sub(1).max(1))) as u32
        })
        .collect();
    let distances = Distances::new(&solution);
    let policies = [Policy::First, Policy::Trap, Policy::Longest];
    if !json {
        println!(
            "nimbot vs fallible opponents: {} starting piles in 1..={}, both seats, R = {}, M = {}",
            piles.len(),
            args.max_stones,
            args.resets,
            args.init_max
        );
        println!(
            "{:<18} {:>8} {:>16} {:>16}",
            "opponent", "policy", "won starts", "lost starts"
        );
    }
    for opponent in Opponent::all() {
        let rounds = if matches!(opponent, Opponent::Greedy | Opponent::Mod4) {
            1
        } else {
            args.seeds.max(1)
        };
        for policy in policies {
            let mut t = Tally::default();
            for &n in &piles {
                let params =
                    Params::new(n, args.resets, args.init_max).map_err(|e| e.to_string())?;
                let first_wins = start_is_won(&solution, &params.start());
                for bot in [Player::First, Player::Second] {
                    let won_start = first_wins == (bot == Player::First);
                    for round in 0..rounds {
                        // The same seed for both policies: they meet the same dice.
                        let seed = first_seed.wrapping_add(round).wrapping_mul(1_000_003)
                            ^ u64::from(n) << 1
                            ^ u64::from(bot == Player::Second);
                        let mut rng = Rng::new(seed);
                        let (win, moves) = play(
                            params,
                            bot,
                            policy,
                            opponent,
                            (&solution, &distances),
                            &mut rng,
                        )?;
                        if !win && args.list_losses {
                            eprintln!(
                                "lost: opponent {} policy {} N {n} nimbot {} seed {seed} after {moves} moves ({} start)",
                                opponent.name(),
                                policy.as_str(),
                                if bot == Player::First { "first" } else { "second" },
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
            if json {
                println!(
                    "{{\"game\":\"expanding-nim\",\"opponent\":\"{}\",\"policy\":\"{}\",\"won_starts\":{},\"won_start_wins\":{},\"won_start_rate\":{:.4},\"lost_starts\":{},\"lost_start_wins\":{},\"lost_start_rate\":{:.4}}}",
                    opponent.name(),
                    policy.as_str(),
                    t.won_starts,
                    t.won_start_wins,
                    pct(t.won_start_wins, t.won_starts) / 100.0,
                    t.lost_starts,
                    t.lost_start_wins,
                    pct(t.lost_start_wins, t.lost_starts) / 100.0,
                );
            } else {
                println!(
                    "{:<18} {:>8} {:>7.1}% of {:<5} {:>7.1}% of {:<5}",
                    opponent.name(),
                    policy.as_str(),
                    pct(t.won_start_wins, t.won_starts),
                    t.won_starts,
                    pct(t.lost_start_wins, t.lost_starts),
                    t.lost_starts
                );
            }
        }
    }
    Ok(())
}
