//! Fibonacci Nim studied: a position's takes with their values for the mover,
//! after the takes of a game so far (`3 2 4`), as the page's explorer and play
//! view show them. The values are the core's (`nimbot::fibonacci`, O(log s) a
//! position).

pub mod explore;
use nimbot::fibonacci::{decide, Game};
use nimbot::Value;
use serde::Serialize;

/// A game of `stones` after `takes`, and every take of the position it reached.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Explored {
    /// Stones left.
    pub stones: u64,
    /// The most the mover may take now (it can exceed the pile).
    pub limit: u64,
    /// The player to move (0 first), while the game goes on.
    pub mover: usize,
    /// The player who took the last stone (0 first), once the pile is empty.
    pub winner: Option<usize>,
    /// "win" or "lose" for the mover (absent once the game is over).
    pub value: Option<&'static str>,
    /// Every take `1..=min(limit, stones)`, ascending, with its value for the
    /// mover and the position it leaves (`stones`, `limit`; none when it takes
    /// the last stone).
    pub moves: Vec<TakeValue>,
}

/// One take and what it does.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TakeValue {
    pub take: u64,
    /// "win" or "lose" for the mover who takes it.
    pub value: &'static str,
    /// The opponent's stones and limit after it (none: the pile is empty).
    pub after: Option<(u64, u64)>,
}

/// The takes of `text` ("3 2 4", commas or dots between them too).
///
/// # Errors
/// A word that is not a take, named.
pub fn parse_takes(text: &str) -> Result<Vec<u64>, String> {
    text.split(|c: char| c == ',' || c == '.' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().map_err(|_| format!("{w:?} is not a take")))
        .collect()
}

/// The game of `stones` after `takes`, or which take the rules refuse and why.
///
/// # Errors
/// A game of fewer than 2 stones, or the refused take (numbered from 1).
pub fn play(stones: u64, takes: &[u64]) -> Result<Game, String> {
    let mut game = Game::new(stones).map_err(|e| e.to_string())?;
    for (i, &take) in takes.iter().enumerate() {
        game.play(game.to_move(), take)
            .map_err(|e| format!("move {} ({take}) is illegal: {e}", i + 1))?;
    }
    Ok(game)
}

/// The game of `stones` after `takes` and the takes of the position it reached.
///
/// # Errors
/// As [`play`].
pub fn explore(stones: u64, takes: &[u64]) -> Result<Explored, String> {
    let game = play(stones, takes)?;
    let (s, limit) = (game.stones(), game.limit());
    let word = |v: Value| if v.is_won() { "win" } else { "lose" };
    if let Some(w) = game.winner() {
        return Ok(Explored {
            stones: 0,
            limit,
            mover: w.index(),
            winner: Some(w.index()),
            value: None,
            moves: Vec::new(),
        });
    }
    let value = decide(s, limit).map_err(|e| e.to_string())?.value;
    let moves = (1..=limit.min(s))
        .map(|take| {
            let left = s - take;
            if left == 0 {
                return TakeValue {
                    take,
                    value: "win",
                    after: None,
                };
            }
            let next = take.saturating_mul(2);
            // The opponent's value after it, seen from the mover.
            let theirs = decide(left, next).map_or(Value::Lost, |d| d.value);
            TakeValue {
                take,
                value: word(if theirs.is_won() {
                    Value::Lost
                } else {
                    Value::Won
                }),
                after: Some((left, next)),
            }
        })
        .collect();
    Ok(Explored {
        stones: s,
        limit,
        mover: game.to_move().index(),
        winner: None,
        value: Some(word(value)),
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mover's value by plain search over every take (no Zeckendorf).
    fn wins(
        stones: u64,
        limit: u64,
        memo: &mut std::collections::HashMap<(u64, u64), bool>,
    ) -> bool {
        let limit = limit.min(stones);
        if let Some(&w) = memo.get(&(stones, limit)) {
            return w;
        }
        let w = (1..=limit).any(|k| k == stones || !wins(stones - k, 2 * k, memo));
        memo.insert((stones, limit), w);
        w
    }

    #[test]
    fn every_take_s_value_is_plain_search_s() {
        let mut memo = std::collections::HashMap::new();
        for n in 2..=40u64 {
            let start = explore(n, &[]).unwrap();
            assert_eq!(start.value == Some("win"), wins(n, n - 1, &mut memo), "{n}");
            // And one step in: after each first take.
            for first in 1..n {
                let e = explore(n, &[first]).unwrap();
                assert_eq!(e.moves.len() as u64, (2 * first).min(n - first));
                for m in &e.moves {
                    let want =
                        m.take == e.stones || !wins(e.stones - m.take, 2 * m.take, &mut memo);
                    assert_eq!(m.value == "win", want, "{n} {first} {}", m.take);
                }
                assert_eq!(
                    e.value == Some("win"),
                    e.moves.iter().any(|m| m.value == "win")
                );
            }
        }
    }

    #[test]
    fn refused_takes_are_named_and_the_end_has_a_winner() {
        let e = explore(10, &parse_takes("3 6 1").unwrap()).unwrap();
        assert_eq!((e.stones, e.winner), (0, Some(0)));
        assert!(play(10, &[10])
            .unwrap_err()
            .starts_with("move 1 (10) is illegal"));
        assert!(play(10, &[2, 5])
            .unwrap_err()
            .starts_with("move 2 (5) is illegal"));
        assert!(parse_takes("3 x").unwrap_err().contains("\"x\""));
    }
}
