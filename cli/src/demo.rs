//! `nimbot demo`: one game between nimbot and an opponent, printed move by move
//! (`nimbot_match::demo` plays it).

use std::process::ExitCode;

use clap::Args;
use nimbot::Player;
use nimbot_match::demo;

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
    let params = match crate::exit::params("demo", args.stones, args.resets, args.init_max) {
        Ok(p) => p,
        Err(status) => return status,
    };
    let seat = if args.second {
        Player::Second
    } else {
        Player::First
    };
    let mut say = |line: String| println!("{line}");
    match demo::play(
        params,
        seat,
        args.opponent == Opponent::Nimbot,
        args.seed,
        &mut say,
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err((status, e)) => {
            eprintln!("nimbot demo: {e}");
            ExitCode::from(status)
        }
    }
}
