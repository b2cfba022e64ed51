//! Moves as people write them: `3` takes three stones, `2r` takes two and
//! declares a reset; a game so far is its moves in order (`"3 2 2r"`, or with
//! commas or dots between them). The command line's `--after`, the page's
//! explorer and its permalinks read and write this notation.

use nimbot::{Game, Move, Params};

/// `m` as the notation writes it: `3`, or `2r` with a reset.
pub fn move_text(m: Move) -> String {
    format!("{}{}", m.take, if m.reset { "r" } else { "" })
}

/// The moves of `text` ("3 2 2r", "3,2,2r", "3.2.2r").
///
/// # Errors
/// A word that is not a move, named.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, String> {
    text.split(|c: char| c == ',' || c == '.' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let (digits, reset) = match w.strip_suffix(['r', 'R']) {
                Some(d) => (d, true),
                None => (w, false),
            };
            digits
                .parse::<u32>()
                .map(|take| Move::new(take, reset))
                .map_err(|_| format!("{w:?} is not a move (a take, `r` after it for a reset)"))
        })
        .collect()
}

/// The game after `moves` from the start of `params`.
///
/// # Errors
/// Which move the rules refuse and why (one after the end among them).
pub fn play(params: Params, moves: &[Move]) -> Result<Game, String> {
    let mut game = Game::new(params);
    for (i, &mv) in moves.iter().enumerate() {
        let player = game.to_move();
        game.play(player, mv)
            .map_err(|e| format!("move {} ({}) is illegal: {e}", i + 1, move_text(mv)))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_back_as_written_and_bad_words_are_named() {
        let moves = parse_moves("3, 2 2r.1R").unwrap();
        assert_eq!(
            moves,
            [
                Move::new(3, false),
                Move::new(2, false),
                Move::new(2, true),
                Move::new(1, true)
            ]
        );
        let text: Vec<String> = moves.into_iter().map(move_text).collect();
        assert_eq!(text.join(" "), "3 2 2r 1r");
        assert!(parse_moves("3 x").unwrap_err().contains("\"x\""));
        assert_eq!(parse_moves("").unwrap(), []);
    }

    #[test]
    fn play_names_the_refused_move() {
        let params = Params::new(20, 1, 3).unwrap();
        let game = play(params, &parse_moves("3 2 2r").unwrap()).unwrap();
        assert_eq!(game.stones(), 13);
        // A take above the limit (3 after a reset) and a second reset with one.
        let e = play(params, &parse_moves("3 2 2r 4").unwrap()).unwrap_err();
        assert!(e.starts_with("move 4 (4) is illegal"), "{e}");
        let e = play(params, &parse_moves("1r 1 1r").unwrap()).unwrap_err();
        assert!(e.starts_with("move 3 (1r) is illegal"), "{e}");
        let e = play(Params::new(2, 0, 3).unwrap(), &parse_moves("2 1").unwrap()).unwrap_err();
        assert!(e.starts_with("move 2 (1) is illegal"), "{e}");
    }
}
