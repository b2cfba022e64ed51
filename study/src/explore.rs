//! One position studied: its value and every move's ([`probe`]), the moves in the
//! order people read them ([`best_first`]), and the best-play line to the end
//! ([`line()`]). `nimbot moves` and `nimbot line` print these; the page's explorer
//! shows them.

use nimbot::{
    evaluate_move, root_moves, DecideError, Engine, Evaluation, MoveEvaluation, Position, Value,
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

#[cfg(test)]
mod tests {
    use super::*;
    use nimbot::TableOrSolverEngine;

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
