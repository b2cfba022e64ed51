//! One position studied: its value and every move's ([`probe`]), the moves in the
//! order people read them ([`best_first`]), and the best-play line to the end
//! ([`line()`]). `nimbot moves` and `nimbot line` print these; the page's explorer
//! shows them.

use crate::vocab::{MoveJson, PositionJson};
use nimbot::{
    evaluate_move, root_moves, DecideError, Engine, Evaluation, MoveEvaluation, Policy, Position,
    Value,
};

/// The position's evaluation and every move's, in the root probe's order (takes
/// ascending, without a reset, then with one).
///
/// # Errors
/// The engine's, for a position it cannot answer.
pub fn probe<E: Engine>(
    engine: &mut E,
    pos: &Position,
) -> Result<(Evaluation, Vec<MoveEvaluation>), DecideError> {
    let eval = engine.evaluate(pos)?;
    let moves = root_moves(pos)
        .map(|mv| evaluate_move(engine, pos, mv))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((eval, moves))
}

/// `moves` best first: winning moves, fastest first; then losing ones, longest
/// first. Stable: equal moves (and moves without a distance, counted as 0) keep
/// the probe's order.
pub fn best_first(moves: &mut [MoveEvaluation]) {
    moves.sort_by_key(|m| {
        let d = i32::from(m.distance.unwrap_or(0));
        (!m.value.is_won(), if m.value.is_won() { d } else { -d })
    });
}

/// The best move of `pos` by distance (the fastest win, else the longest
/// hold-out; ties to the root probe's first), with its evaluation, or `None`
/// without distances.
///
/// # Errors
/// The engine's.
pub fn best<E: Engine>(
    engine: &mut E,
    pos: &Position,
) -> Result<Option<MoveEvaluation>, DecideError> {
    let mut best: Option<MoveEvaluation> = None;
    for mv in root_moves(pos) {
        let m = evaluate_move(engine, pos, mv)?;
        let Some(d) = m.distance else {
            return Ok(None);
        };
        let better = match best {
            None => true,
            Some(b) => {
                let bd = b.distance.unwrap_or(0);
                match (m.value, b.value) {
                    (Value::Won, Value::Lost) => true,
                    (Value::Lost, Value::Won) => false,
                    (Value::Won, Value::Won) => d < bd,
                    (Value::Lost, Value::Lost) => d > bd,
                }
            }
        };
        if better {
            best = Some(m);
        }
    }
    Ok(best)
}

/// The best-play line from `pos`, the winner hurrying and the loser holding out:
/// every ply's move and evaluation, to the end (each ply's distance one less
/// than the one before).
///
/// # Errors
/// The engine's, or a game too large for distances.
pub fn line<E: Engine>(engine: &mut E, pos: &Position) -> Result<Vec<MoveEvaluation>, String> {
    let mut out = Vec::new();
    let mut here = Some(*pos);
    while let Some(p) = here {
        let m = best(engine, &p)
            .map_err(|e| e.to_string())?
            .ok_or("the game is too large for distances")?;
        out.push(m);
        here = p.after(m.mv).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// `query`'s answer: the value of `pos`, the move `policy` plays there and the
/// position's distance, as `win K R D` (`lose ...`; `-` without distances) or,
/// with `json`, one JSON line (the position, its value and distance, the move).
///
/// # Errors
/// The engine's, for a position it cannot answer.
pub fn query<E: Engine>(
    engine: &mut E,
    pos: &Position,
    policy: Policy,
    json: bool,
) -> Result<String, DecideError> {
    let d = engine.decide(pos, policy)?;
    let dist = engine.evaluate(pos)?.distance;
    if json {
        return Ok(crate::vocab::line(&crate::vocab::WithMove {
            head: crate::vocab::PositionJson::new(*pos, d.value, dist),
            mv: MoveJson::from(d.mv),
        }));
    }
    let distance = distance(dist);
    Ok(format!(
        "{} {} {} {distance}\n",
        d.value.as_word(),
        d.mv.take,
        u8::from(d.mv.reset)
    ))
}

/// `moves`' answer: the position's value and distance, then every move with its
/// value and distance, best first (a table), or one JSON line in the probe's
/// order (the position, then `moves`).
///
/// # Errors
/// The engine's, for a position it cannot answer.
pub fn answer_moves<E: Engine>(
    engine: &mut E,
    pos: &Position,
    json: bool,
) -> Result<String, String> {
    let (eval, moves) = probe(engine, pos).map_err(|e| e.to_string())?;
    Ok(if json {
        crate::vocab::line(&moves_report(pos, &eval, &moves))
    } else {
        moves_table(&eval, &moves)
    })
}

fn distance(d: Option<u16>) -> String {
    d.map_or("-".to_owned(), |d| d.to_string())
}

fn moves_report(
    pos: &Position,
    eval: &Evaluation,
    moves: &[MoveEvaluation],
) -> crate::vocab::WithMoves<PositionJson, MoveJson> {
    crate::vocab::WithMoves {
        head: PositionJson::new(*pos, eval.value, eval.distance),
        moves: moves.iter().map(MoveJson::from).collect(),
    }
}

/// The position's line, then one line a move: winning moves first, fastest first;
/// then losing ones, longest first.
fn moves_table(eval: &Evaluation, moves: &[MoveEvaluation]) -> String {
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

/// `moves --batch`: the JSON line of a position line (`S C A B F`, or
/// `S C A B F M`; M is `init_max` otherwise), or an error line `{"error":..}`.
pub fn answer_batch_line<E: Engine>(engine: &mut E, line: &str, init_max: u32) -> String {
    #[derive(serde::Serialize)]
    struct Refused {
        error: String,
    }
    let numbers: Result<Vec<u64>, _> = line.split_whitespace().map(str::parse).collect();
    let answer = match numbers {
        Ok(mut n) => {
            let m = if n.len() == 6 {
                n.pop().and_then(|m| u32::try_from(m).ok()).unwrap_or(0)
            } else {
                init_max
            };
            crate::notation::position_of_numbers(&n, m).and_then(|pos| {
                probe(engine, &pos)
                    .map(|(eval, moves)| crate::vocab::line(&moves_report(&pos, &eval, &moves)))
                    .map_err(|e| e.to_string())
            })
        }
        Err(_) => Err(format!("not a position: {line:?}")),
    };
    answer.unwrap_or_else(|error| crate::vocab::line(&Refused { error }))
}

/// `line`'s answer: the best-play line from `pos` as a table, or one JSON line
/// (the position, its value and distance, then the line).
///
/// # Errors
/// The engine's, for a position it cannot answer.
pub fn answer_line<E: Engine>(
    engine: &mut E,
    pos: &Position,
    json: bool,
) -> Result<String, String> {
    let eval = engine.evaluate(pos).map_err(|e| e.to_string())?;
    let plies = line(engine, pos)?;
    Ok(if json {
        crate::vocab::line(&crate::vocab::WithLine {
            head: PositionJson::new(*pos, eval.value, eval.distance),
            line: plies.iter().map(MoveJson::from).collect(),
        })
    } else {
        line_table(pos, &plies)
    })
}

/// One line a ply: the mover (the player to move at `pos` is "A"), the move, the
/// stones left after it, the mover's value and the plies left counting the move.
fn line_table(pos: &Position, plies: &[MoveEvaluation]) -> String {
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
            crate::notation::move_text(m.mv),
            stones,
            m.value.as_word(),
            distance(m.distance)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use nimbot_solve::TableOrSolverEngine;

    #[test]
    fn best_first_puts_the_fastest_win_first_and_the_line_counts_down() {
        let mut engine = TableOrSolverEngine::embedded();
        let pos = Position::new(20, 3, 4, 4, false, 3).unwrap();
        let (eval, mut moves) = probe(&mut engine, &pos).unwrap();
        best_first(&mut moves);
        let won: Vec<_> = moves.iter().take_while(|m| m.value.is_won()).collect();
        assert_eq!(won.is_empty(), !eval.value.is_won());
        assert!(won.windows(2).all(|w| w[0].distance <= w[1].distance));
        let lost = &moves[won.len()..];
        assert!(lost.iter().all(|m| !m.value.is_won()));
        assert!(lost.windows(2).all(|w| w[0].distance >= w[1].distance));
        // The line starts with the first of the best-first moves.
        let line = line(&mut engine, &pos).unwrap();
        assert_eq!(line[0].mv, moves[0].mv);
        let d: Vec<u16> = line.iter().map(|m| m.distance.unwrap()).collect();
        let want: Vec<u16> = (1..=line.len() as u16).rev().collect();
        assert_eq!(d, want);
        assert_eq!(eval.distance, Some(line.len() as u16));
    }
}
