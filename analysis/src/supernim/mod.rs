//! Super-Nim studied: a position's moves with their exact values (nimbot-supernim's
//! solver, the cap in the state), after the moves of a game so far, as the
//! page's explorer and play view show them; and the notation of those moves in
//! links and forms: `s2` splits a 2, `g3` grows a 3 to 10, `m2-4` puts a heap of
//! 2 onto one of 4.
//!
//! A value is a margin: the mover's points from here on minus the opponent's
//! with best play by both to the cap. With the points so far the mover leads by
//! `lead`, and the result of best play is the sign of `lead + value`.

pub mod explore;
use nimbot_supernim::{Game, Heaps, Move, Solver, Verdict};
use serde::Serialize;

/// `m` in the notation: `s2`, `g3`, `m2-4`.
pub fn move_text(m: Move) -> String {
    match m {
        Move::Split(n) => format!("s{n}"),
        Move::Grow(n) => format!("g{n}"),
        Move::Merge { from, onto } => format!("m{from}-{onto}"),
    }
}

/// `m` in words: `split 2`, `grow 3`, `merge 2 onto 4`.
pub fn move_words(m: Move) -> String {
    match m {
        Move::Split(n) => format!("split {n}"),
        Move::Grow(n) => format!("grow {n}"),
        Move::Merge { from, onto } => format!("merge {from} onto {onto}"),
    }
}

/// The moves of `text` ("s2 m1-5 g3", commas or dots between them too).
///
/// # Errors
/// A word that is not a move, named.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, String> {
    text.split(|c: char| c == ',' || c == '.' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let bad = || format!("{w:?} is not a move (s2, g3 or m2-4)");
            let size = |t: &str| t.parse::<u16>().map_err(|_| bad());
            match w.split_at_checked(1) {
                Some(("s", n)) => Ok(Move::Split(size(n)?)),
                Some(("g", n)) => Ok(Move::Grow(size(n)?)),
                Some(("m", pair)) => {
                    let (from, onto) = pair.split_once('-').ok_or_else(bad)?;
                    Ok(Move::Merge {
                        from: size(from)?,
                        onto: size(onto)?,
                    })
                }
                _ => Err(bad()),
            }
        })
        .collect()
}

/// The heaps of `text` ("2 4 5", commas or dots between them too).
///
/// # Errors
/// Not heaps, or heaps the rules refuse.
pub fn parse_heaps(text: &str) -> Result<Heaps, String> {
    let sizes: Vec<u32> = text
        .split(|c: char| c == ',' || c == '.' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().map_err(|_| format!("{w:?} is not a heap size")))
        .collect::<Result<_, _>>()?;
    Heaps::new(&sizes).map_err(|e| e.to_string())
}

/// The game from `heaps` with the cap `cap` after `moves`.
///
/// # Errors
/// A cap the rules refuse, or the refused move (numbered from 1).
pub fn play(heaps: Heaps, cap: u32, moves: &[Move]) -> Result<Game, String> {
    let mut game = Game::new(heaps, cap).map_err(|e| e.to_string())?;
    for (i, &mv) in moves.iter().enumerate() {
        game.play(game.to_move(), mv)
            .map_err(|e| format!("move {} ({}) is illegal: {e}", i + 1, move_text(mv)))?;
    }
    Ok(game)
}

/// A game's position and its moves' values.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Explored {
    /// The heaps, ascending.
    pub heaps: Vec<u16>,
    /// Plies before the cap.
    pub plies_left: u32,
    /// The points of each seat (first seat first).
    pub scores: [u32; 2],
    /// The player to move (0 first), while the game goes on.
    pub mover: usize,
    /// The mover's points minus the other's.
    pub lead: i32,
    /// The game is over (no sticks, or the cap reached).
    pub over: bool,
    /// Once over: the winning seat, `null` for a draw.
    pub winner: Option<usize>,
    /// The margin with best play from here (`null`: not asked, or the solver
    /// could not finish within its bound).
    pub value: Option<i32>,
    /// "win", "draw" or "lose" for the mover with best play (with `value`).
    pub result: Option<&'static str>,
    /// Every distinct move, in the rules' order.
    pub moves: Vec<MoveValue>,
}

/// One move and its value.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The notation: `s2`, `g3`, `m2-4`.
    #[serde(rename = "move")]
    pub notation: String,
    /// In words: `split 2`.
    pub words: String,
    /// The mover's margin from here on if it plays it and both play best after.
    pub value: Option<i32>,
    /// "win", "draw" or "lose" for the mover then.
    pub result: Option<&'static str>,
}

/// The result for a mover ahead by `lead` of a margin `value` to come.
fn result(lead: i32, value: i32) -> &'static str {
    match lead.saturating_add(value) {
        x if x > 0 => "win",
        0 => "draw",
        _ => "lose",
    }
}

/// The game from `heaps` with the cap `cap` after `moves`, and its moves'
/// exact values from `solver` (none without one, or when it cannot finish).
///
/// # Errors
/// As [`play`].
pub fn explore(
    solver: Option<&mut Solver>,
    heaps: Heaps,
    cap: u32,
    moves: &[Move],
) -> Result<Explored, String> {
    let game = play(heaps, cap, moves)?;
    let mover = game.to_move();
    let (lead, plies_left) = (game.lead(), game.plies_left());
    let over = game.end().is_some();
    let values = match (solver, over) {
        (Some(solver), false) => solver.move_values(game.heaps(), plies_left),
        _ => None,
    };
    let listed: Vec<MoveValue> = if over {
        Vec::new()
    } else {
        game.heaps()
            .moves()
            .into_iter()
            .map(|mv| {
                let value = values
                    .as_ref()
                    .and_then(|v| v.iter().find(|x| x.mv == mv))
                    .map(|x| x.value);
                MoveValue {
                    notation: move_text(mv),
                    words: move_words(mv),
                    value,
                    result: value.map(|v| result(lead, v)),
                }
            })
            .collect()
    };
    let value = values
        .as_ref()
        .and_then(|v| v.iter().map(|x| x.value).max());
    let winner = match game.verdict() {
        Some(Verdict::Winner(p)) => Some(p.index()),
        _ => None,
    };
    Ok(Explored {
        heaps: game.heaps().sizes().to_vec(),
        plies_left,
        scores: [
            game.score(nimbot::Player::First),
            game.score(nimbot::Player::Second),
        ],
        mover: mover.index(),
        lead,
        over,
        winner,
        value,
        result: value.map(|v| result(lead, v)),
        moves: listed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mover's margin by plain minimax over every move (no table, no pruning).
    fn margin(heaps: &Heaps, plies: u32) -> i32 {
        if plies == 0 || heaps.is_empty() {
            return 0;
        }
        heaps
            .moves()
            .into_iter()
            .map(|mv| {
                let (next, points) = heaps.apply(mv).unwrap();
                points as i32 - margin(&next, plies - 1)
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn notation_reads_back() {
        let moves = parse_moves("s2 g3,m2-4.s10").unwrap();
        let text: Vec<String> = moves.iter().map(|&m| move_text(m)).collect();
        assert_eq!(text.join(" "), "s2 g3 m2-4 s10");
        assert_eq!(move_words(moves[2]), "merge 2 onto 4");
        for bad in ["x2", "s", "m2", "m2-", "g-1"] {
            assert!(parse_moves(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn values_are_plain_minimax_s_and_the_game_is_replayed_by_the_rules() {
        let mut solver = Solver::new(10_000_000, 1 << 16);
        for (start, cap) in [("2 4 5", 6), ("1 2 3", 7), ("2 2 6", 5), ("3 4", 8)] {
            let heaps = parse_heaps(start).unwrap();
            let e = explore(Some(&mut solver), heaps.clone(), cap, &[]).unwrap();
            assert_eq!(e.value, Some(margin(&heaps, cap)), "{start} cap {cap}");
            for m in &e.moves {
                let mv = parse_moves(&m.notation).unwrap()[0];
                let (next, points) = heaps.apply(mv).unwrap();
                let want = points as i32 - margin(&next, cap - 1);
                assert_eq!(m.value, Some(want), "{start} cap {cap} {}", m.notation);
            }
            // One move on: the points and the turn follow the rules.
            let first = parse_moves(&e.moves[0].notation).unwrap();
            let after = explore(Some(&mut solver), heaps, cap, &first).unwrap();
            assert_eq!((after.mover, after.plies_left), (1, cap - 1));
        }
        // Splitting the 2 of 2 scores 2; the game ends with no sticks.
        let e = explore(
            None,
            parse_heaps("2").unwrap(),
            4,
            &parse_moves("s2").unwrap(),
        )
        .unwrap();
        assert!(e.over && e.moves.is_empty());
        assert_eq!((e.scores, e.winner), ([2, 0], Some(0)));
        let err = explore(
            None,
            parse_heaps("2 4").unwrap(),
            4,
            &parse_moves("g3").unwrap(),
        );
        assert!(err.unwrap_err().starts_with("move 1 (g3) is illegal"));
    }
}
