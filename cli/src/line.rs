//! `nimbot line`: the best-play line from a position to the end of the game, the
//! winner hurrying and the loser holding out (each ply's distance one less than
//! the one before), as a table or as one JSON line.

use std::process::ExitCode;

use clap::Args;
use nimbot_analysis::explore::answer_line;
use nimbot_engine::HostEngine;

use crate::position::{Ask, PositionArgs};

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  nimbot line 20 3 4 4 0\n  \
    nimbot line --after \"3 2 2r\" --stones 20 --json")]
pub struct LineArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// One JSON line instead of the table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &LineArgs) -> ExitCode {
    if let Some(answer) = args.position.related(Ask::Line, args.json) {
        return crate::exit::answer_text("line", answer);
    }
    let answer = (args.position.expanding())
        .and_then(|pos| answer_line(&mut HostEngine::new(), &pos, args.json));
    crate::exit::answer_text("line", answer)
}
