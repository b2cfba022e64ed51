//! `nimbot moves`: every legal move of one position with its value and its
//! distance to the end (the root probe of `nimbot::probe`), as a table or as one
//! JSON line; the line protocol's `moves` answers the same in its paged form.

use std::process::ExitCode;

use clap::Args;
use nimbot::probe::{evaluate_move, root_moves, Evaluation, MoveEvaluation};
use nimbot::{Engine, Position};
use nimbot_exploit::exploit::HostEngine;
use serde::Serialize;

use nimbot_games::json;

#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The position: S C A B F (as for `query`).
    #[arg(required = true, num_args = 5, value_name = "NUMBERS")]
    numbers: Vec<u64>,
    /// M: the game's initial maximum.
    #[arg(long, short = 'm', default_value_t = 3)]
    init_max: u32,
    /// One JSON line instead of the table.
    #[arg(long)]
    json: bool,
}

/// The JSON line.
#[derive(Serialize)]
struct Report {
    /// The position's six numbers, at the top level of the line.
    #[serde(flatten)]
    position: Position,
    /// "win" or "lose", for the player to move.
    value: &'static str,
    /// Plies to the end, `null` if unknown.
    distance: Option<u16>,
    moves: Vec<MoveReport>,
}

#[derive(Serialize)]
struct MoveReport {
    take: u32,
    reset: bool,
    /// "win" if the move wins, else "lose".
    value: &'static str,
    /// Plies to the end after the move, counting it.
    distance: Option<u16>,
}

pub fn run(args: &MovesArgs) -> ExitCode {
    let pos = match crate::expanding_position(&args.numbers, args.init_max) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("nimbot moves: {e}");
            return ExitCode::from(2);
        }
    };
    match probe(&mut HostEngine::new(), &pos) {
        Ok((eval, moves)) => {
            if args.json {
                json::print(&report(&pos, &eval, &moves));
            } else {
                print!("{}", table(&eval, &moves));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("nimbot moves: {e}");
            ExitCode::from(2)
        }
    }
}

/// The position's evaluation and every move's.
fn probe<E: Engine>(
    engine: &mut E,
    pos: &Position,
) -> Result<(Evaluation, Vec<MoveEvaluation>), nimbot::DecideError> {
    let eval = engine.evaluate(pos)?;
    let moves = root_moves(pos)
        .map(|mv| evaluate_move(engine, pos, mv))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((eval, moves))
}

fn distance(d: Option<u16>) -> String {
    d.map_or("-".to_owned(), |d| d.to_string())
}

fn report(pos: &Position, eval: &Evaluation, moves: &[MoveEvaluation]) -> Report {
    Report {
        position: *pos,
        value: eval.value.as_word(),
        distance: eval.distance,
        moves: moves
            .iter()
            .map(|m| MoveReport {
                take: m.mv.take,
                reset: m.mv.reset,
                value: m.value.as_word(),
                distance: m.distance,
            })
            .collect(),
    }
}

/// The position's line, then one line a move: winning moves first, fastest first;
/// then losing ones, longest first.
fn table(eval: &Evaluation, moves: &[MoveEvaluation]) -> String {
    let mut out = format!(
        "{} in {} plies\n",
        eval.value.as_word(),
        distance(eval.distance)
    );
    let mut sorted: Vec<&MoveEvaluation> = moves.iter().collect();
    // Stable: equal moves keep the probe's order (smaller takes, no reset first).
    sorted.sort_by_key(|m| {
        let d = i32::from(m.distance.unwrap_or(0));
        (!m.value.is_won(), if m.value.is_won() { d } else { -d })
    });
    out.push_str("take reset value distance\n");
    for m in sorted {
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
