//! Moves as people write them: `3` takes three stones, `2r` takes two and
//! declares a reset; a game so far is its moves in order (`"3 2 2r"`, or with
//! commas or dots between them). The command line's `--after`, the page's
//! explorer and its permalinks read and write this notation.

use nimbot::{Game, Move, Params, Player, Position};

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

/// `S C A B F` (stones, cap, the mover's resets, the other's, 1 if a reset is
/// pending) as an Expanding Nim position of the game whose M is `init_max`.
///
/// # Errors
/// The wrong count of numbers, one out of range, or a position the rules refuse.
pub fn position_of_numbers(numbers: &[u64], init_max: u32) -> Result<Position, String> {
    let &[stones, cap, own, opp, pending] = numbers else {
        return Err(format!(
            "expanding nim needs 5 numbers S C A B F, got {}",
            numbers.len()
        ));
    };
    let stones = u32::try_from(stones).map_err(|_| "stones out of range".to_owned())?;
    let cap = u32::try_from(cap).map_err(|_| "cap out of range".to_owned())?;
    let own = u8::try_from(own).map_err(|_| "resets out of range".to_owned())?;
    let opp = u8::try_from(opp).map_err(|_| "resets out of range".to_owned())?;
    let pending = match pending {
        0 => false,
        1 => true,
        _ => return Err("the pending flag F must be 0 or 1".to_owned()),
    };
    Position::new(stones, cap, own, opp, pending, init_max).map_err(|e| e.to_string())
}

/// The position after the moves of `text` (`3 2 2r`) from the start of the
/// game of `stones`, `resets` and `init_max`.
///
/// # Errors
/// A bad game or move, or a game over after the moves.
pub fn position_after(
    stones: u32,
    resets: u8,
    init_max: u32,
    text: &str,
) -> Result<Position, String> {
    let params = Params::new(stones, resets, init_max).map_err(|e| e.to_string())?;
    let game = play(params, &parse_moves(text)?)?;
    game.position().ok_or_else(|| {
        let winner = game.winner().unwrap_or(Player::First);
        format!(
            "the game is over after these moves: the {} player took the last stone",
            winner.name()
        )
    })
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
