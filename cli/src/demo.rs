//! `nimbot demo`: one game between nimbot and an opponent, printed move by move.

use std::process::ExitCode;

use clap::Args;
use nimbot::{
    best_move, Game, Move, Outcome, Player, Solution, SolveBox, SolvingEngine, SplitMix64, Value,
};

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Stones at the start.
    #[arg(long, short = 'n', default_value_t = 100)]
    stones: u32,
    /// Resets each player may use.
    #[arg(long, short = 'r', default_value_t = 4)]
    resets: u8,
    /// Initial maximum M.
    #[arg(long, short = 'm', default_value_t = 3)]
    init_max: u32,
    /// nimbot takes the second seat.
    #[arg(long)]
    second: bool,
    /// The opponent: a random legal mover, or nimbot itself.
    #[arg(long, value_enum, default_value_t = Opponent::Random)]
    opponent: Opponent,
    /// Seed of the random opponent.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Opponent {
    Random,
    Nimbot,
}

pub fn run(args: &DemoArgs) -> ExitCode {
    let params = match crate::params("demo", args.stones, args.resets, args.init_max) {
        Ok(p) => p,
        Err(status) => return status,
    };
    let bx = SolveBox::games(args.stones, args.resets, args.init_max);
    if bx.memory_bytes() > SolvingEngine::DEFAULT_BUDGET {
        eprintln!(
            "nimbot demo: {} stones is too large to solve here",
            args.stones
        );
        return ExitCode::from(2);
    }
    let solution = match Solution::solve(bx) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("nimbot demo: {e}");
            return ExitCode::from(2);
        }
    };
    let bot = if args.second {
        Player::Second
    } else {
        Player::First
    };
    let mut game = Game::new(params);
    let start_won = solution.value(&params.start()) == Some(Value::Won);
    let first_name = if bot == Player::First {
        "nimbot"
    } else {
        "opponent"
    };
    println!(
        "{} stones, {} resets each, initial max {}; nimbot plays {}; the first player ({first_name}) {} with perfect play.",
        args.stones,
        args.resets,
        args.init_max,
        if bot == Player::First { "first" } else { "second" },
        if start_won { "wins" } else { "loses" },
    );
    let mut rng = SplitMix64::new(args.seed);
    while let Some(pos) = game.position() {
        let mover = game.to_move();
        let name = if mover == bot { "nimbot  " } else { "opponent" };
        let mv = if mover == bot || args.opponent == Opponent::Nimbot {
            match best_move(&solution, &pos) {
                Ok(d) => d.mv,
                Err(e) => {
                    eprintln!("nimbot demo: {e}");
                    return ExitCode::from(1);
                }
            }
        } else {
            let take = 1 + rng.below(u64::from(pos.limit())) as u32;
            let reset = pos.own_resets() > 0 && rng.next_u64() % 4 == 0;
            Move::new(take, reset)
        };
        let limit = game.limit();
        match game.play(mover, mv) {
            Ok(Outcome::Won(_)) => {
                println!(
                    "{:>3}. {name} takes {:>2} of {:>2} allowed   pile empty",
                    game.moves(),
                    mv.take,
                    limit
                );
            }
            Ok(Outcome::Continue) => println!(
                "{:>3}. {name} takes {:>2} of {:>2} allowed{}  {:>4} left",
                game.moves(),
                mv.take,
                limit,
                if mv.reset { " + reset" } else { "        " },
                game.stones(),
            ),
            Err(e) => {
                eprintln!("nimbot demo: {name} played an illegal move: {e}");
                return ExitCode::from(1);
            }
        }
    }
    let winner = if game.winner() == Some(bot) {
        "nimbot"
    } else {
        "the opponent"
    };
    println!("{winner} wins.");
    ExitCode::SUCCESS
}
