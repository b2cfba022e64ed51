//! `nimbot line`: the best-play line from a position to the end of the game, the
//! winner hurrying and the loser holding out (each ply's distance one less than
//! the one before), as a table or as one JSON line.

use std::process::ExitCode;

use clap::Args;
use nimbot::{Engine, MoveEvaluation, Position};
use nimbot_exploit::HostEngine;
use serde::Serialize;

use crate::json;

use crate::position::{GameKind, PositionArgs};
use crate::{fibonacci, supernim};
use nimbot_study::explore::line;
use nimbot_study::vocab::{MoveJson, PositionJson};

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

/// The JSON line: the position, its value and distance, then the line.
#[derive(Serialize)]
struct Report {
    #[serde(flatten)]
    head: PositionJson,
    line: Vec<MoveJson>,
}

pub fn run(args: &LineArgs) -> ExitCode {
    match args.position.game {
        GameKind::Expanding => {}
        GameKind::Fibonacci => {
            let answer = fibonacci::position(&args.position.numbers)
                .and_then(|(stones, limit)| fibonacci::line(stones, limit, args.json));
            return crate::answer_text("line", answer);
        }
        GameKind::SuperNim => {
            let p = &args.position;
            let answer = supernim::position(&p.numbers, &p.supernim)
                .and_then(|pos| supernim::line(&pos, &p.supernim, args.json));
            return crate::answer_text("line", answer);
        }
    }
    let pos = args.position.expanding();
    let mut engine = HostEngine::new();
    let result = pos.and_then(|pos| {
        let eval = engine.evaluate(&pos).map_err(|e| e.to_string())?;
        Ok((pos, eval, line(&mut engine, &pos)?))
    });
    crate::answer("line", result, |(pos, eval, plies)| {
        if args.json {
            json::print(&Report {
                head: PositionJson::new(pos, eval.value, eval.distance),
                line: plies.iter().map(MoveJson::from).collect(),
            });
        } else {
            print!("{}", table(&pos, &plies));
        }
    })
}

/// One line a ply: the mover (the player to move at `pos` is "A"), the move, the
/// stones left after it, the mover's value and the plies left counting the move.
fn table(pos: &Position, plies: &[MoveEvaluation]) -> String {
    let mut out = format!(
        "{} stones, cap {}, resets {} and {}{}; best play:\n",
        pos.stones(),
        pos.cap(),
        pos.own_resets(),
        pos.opp_resets(),
        if pos.reset_pending() {
            ", a reset pending"
        } else {
            ""
        }
    );
    out.push_str(" ply mover  move  left value plies\n");
    let mut stones = pos.stones();
    for (i, m) in plies.iter().enumerate() {
        stones = stones.saturating_sub(m.mv.take);
        out.push_str(&format!(
            "{:>4} {:>5} {:>5} {:>5} {:>5} {:>5}\n",
            i + 1,
            if i % 2 == 0 { "A" } else { "B" },
            nimbot_study::notation::move_text(m.mv),
            stones,
            m.value.as_word(),
            m.distance.map_or("-".into(), |d| d.to_string())
        ));
    }
    out
}
