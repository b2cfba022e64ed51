//! `nimbot moves`: every legal move of one position with its value and its
//! distance to the end (the root probe of `nimbot::probe`), as a table or as one
//! JSON line; the line protocol's `moves` answers the same in its paged form.

use std::process::ExitCode;

use clap::Args;
use nimbot::{Evaluation, MoveEvaluation, Position};
use nimbot_exploit::exploit::HostEngine;
use serde::Serialize;

use crate::json;

use crate::position::{expanding_position, GameKind, PositionArgs};
use crate::{fibonacci, supernim};
use nimbot_study::explore::{best_first, probe};
use nimbot_study::vocab::{MoveJson, PositionJson};

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

/// The JSON line.
#[derive(Serialize)]
struct Report {
    #[serde(flatten)]
    head: PositionJson,
    /// Every move with its value and distance (`nimbot_study::vocab`).
    moves: Vec<MoveJson>,
}

pub fn run(args: &MovesArgs) -> ExitCode {
    if args.batch {
        return batch(args.position.init_max);
    }
    match args.position.game {
        GameKind::Expanding => {}
        GameKind::Fibonacci => {
            let answer = fibonacci::position(&args.position.numbers)
                .and_then(|(stones, limit)| fibonacci::moves(stones, limit, args.json));
            return crate::answer_text("moves", answer);
        }
        GameKind::SuperNim => {
            let p = &args.position;
            let answer = supernim::position(&p.numbers, &p.supernim)
                .and_then(|pos| supernim::moves(&pos, &p.supernim, args.json));
            return crate::answer_text("moves", answer);
        }
    }
    let result = args.position.expanding().and_then(|pos| {
        let (eval, moves) = probe(&mut HostEngine::new(), &pos).map_err(|e| e.to_string())?;
        Ok((pos, eval, moves))
    });
    crate::answer("moves", result, |(pos, eval, moves)| {
        if args.json {
            json::print(&report(&pos, &eval, &moves));
        } else {
            print!("{}", table(&eval, &moves));
        }
    })
}

fn distance(d: Option<u16>) -> String {
    d.map_or("-".to_owned(), |d| d.to_string())
}

fn report(pos: &Position, eval: &Evaluation, moves: &[MoveEvaluation]) -> Report {
    Report {
        head: PositionJson::new(*pos, eval.value, eval.distance),
        moves: moves.iter().map(MoveJson::from).collect(),
    }
}

/// The position's line, then one line a move: winning moves first, fastest first;
/// then losing ones, longest first.
fn table(eval: &Evaluation, moves: &[MoveEvaluation]) -> String {
    let mut out = match eval.distance {
        Some(1) => format!("{} in 1 ply\n", eval.value.as_word()),
        d => format!("{} in {} plies\n", eval.value.as_word(), distance(d)),
    };
    let mut sorted = moves.to_vec();
    best_first(&mut sorted);
    out.push_str("take reset value distance\n");
    for m in &sorted {
        out.push_str(&format!(
            "{:>4} {:>5} {:>5} {:>8}\n",
            m.mv.take,
            if m.mv.reset { "yes" } else { "no" },
            m.value.as_word(),
            distance(m.distance)
        ));
    }
    out
}

/// `--batch`: a JSON line for each position line of stdin.
fn batch(init_max: u32) -> ExitCode {
    #[derive(Serialize)]
    struct Refused {
        error: String,
    }
    let mut engine = HostEngine::new();
    for line in std::io::stdin().lines() {
        let Ok(line) = line else {
            return ExitCode::from(1);
        };
        let numbers: Result<Vec<u64>, _> = line.split_whitespace().map(str::parse).collect();
        let answer = match numbers {
            Ok(mut n) => {
                let m = if n.len() == 6 {
                    n.pop().and_then(|m| u32::try_from(m).ok()).unwrap_or(0)
                } else {
                    init_max
                };
                expanding_position(&n, m).and_then(|pos| {
                    probe(&mut engine, &pos)
                        .map(|(eval, moves)| json::line(&report(&pos, &eval, &moves)))
                        .map_err(|e| e.to_string())
                })
            }
            Err(_) => Err(format!("not a position: {line:?}")),
        };
        print!(
            "{}",
            answer.unwrap_or_else(|error| json::line(&Refused { error }))
        );
    }
    ExitCode::SUCCESS
}
