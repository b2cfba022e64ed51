//! `nimbot moves`: every legal move of one position with its value and its
//! distance to the end (the root probe of `nimbot::probe`), as a table or as one
//! JSON line; the line protocol's `moves` answers the same in its paged form.

use std::process::ExitCode;

use clap::Args;
use nimbot_analysis::explore::{answer_batch_line, answer_moves};
use nimbot_engine::exploit::HostEngine;

use crate::position::{Ask, PositionArgs};

#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// One JSON line instead of the table.
    #[arg(long)]
    json: bool,
    /// Read positions from stdin, one a line (S C A B F, or S C A B F M), and print
    /// one JSON line each (an error line `{"error":..}` for a bad one): many
    /// answers for the cost of one start.
    #[arg(long, conflicts_with_all = ["numbers", "after"])]
    batch: bool,
}

pub fn run(args: &MovesArgs) -> ExitCode {
    let mut engine = HostEngine::new();
    if args.batch {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else {
                return ExitCode::from(1);
            };
            print!(
                "{}",
                answer_batch_line(&mut engine, &line, args.position.init_max)
            );
        }
        return ExitCode::SUCCESS;
    }
    if let Some(answer) = args.position.related(Ask::Moves, args.json) {
        return crate::exit::answer_text("moves", answer);
    }
    let answer =
        (args.position.expanding()).and_then(|pos| answer_moves(&mut engine, &pos, args.json));
    crate::exit::answer_text("moves", answer)
}
