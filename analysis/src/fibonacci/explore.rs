//! Fibonacci Nim's answers: what `query`, `moves` and `line --game fibonacci`
//! print, and the analysis of a Fibonacci Nim record (`analyze`), from the
//! core's rules and its exact decision (`nimbot::fibonacci`, Zeckendorf).
//!
//! A position is S LIMIT: S stones left, at most LIMIT may be taken this move. A
//! value is `"win"` or `"lose"` for the mover, as for Expanding Nim.

use std::fmt::Write as _;

use nimbot::fibonacci as fib;
use nimbot::Value;
use serde::Serialize;

use crate::vocab as json;

/// Most moves `moves` lists (a pile can hold up to 2^64 stones).
const MOST_LISTED: u64 = 10_000;

/// The position of the numbers: S LIMIT.
pub fn position(numbers: &[u64]) -> Result<(u64, u64), String> {
    let &[stones, limit] = numbers else {
        return Err(format!(
            "fibonacci needs 2 numbers S LIMIT, got {}",
            numbers.len()
        ));
    };
    fib::decide(stones, limit).map_err(|e| e.to_string())?;
    Ok((stones, limit))
}

/// The mover's value after taking `take` of `stones`: won when it empties the
/// pile, else the opposite of the opponent's value (it may take up to `2 take`).
fn value_of_take(stones: u64, take: u64) -> Value {
    let left = stones - take.min(stones);
    if left == 0 {
        return Value::Won;
    }
    match fib::decide(left, take.saturating_mul(2)) {
        Ok(d) if d.value.is_won() => Value::Lost,
        _ => Value::Won,
    }
}

/// A move with its value for the mover.
#[derive(Serialize, Debug, Clone, Copy)]
struct MoveJson {
    pub take: u64,
    pub value: &'static str,
}

/// The head of every Fibonacci Nim JSON answer.
#[derive(Serialize, Debug)]
struct PositionJson {
    pub game: &'static str,
    pub stones: u64,
    pub limit: u64,
    pub value: &'static str,
}

fn head(stones: u64, limit: u64, value: Value) -> PositionJson {
    PositionJson {
        game: "fibonacci",
        stones,
        limit,
        value: value.as_word(),
    }
}

/// `query --game fibonacci`: the value and nimbot's take.
pub fn query(stones: u64, limit: u64, as_json: bool) -> Result<String, String> {
    let d = fib::decide(stones, limit).map_err(|e| e.to_string())?;
    if as_json {
        return Ok(json::line(&crate::vocab::WithMove {
            head: head(stones, limit, d.value),
            mv: MoveJson {
                take: d.take,
                value: d.value.as_word(),
            },
        }));
    }
    Ok(format!("{} {}\n", d.value.as_word(), d.take))
}

/// `moves --game fibonacci`: every take with its value, in order.
pub fn moves(stones: u64, limit: u64, as_json: bool) -> Result<String, String> {
    let d = fib::decide(stones, limit).map_err(|e| e.to_string())?;
    let most = limit.min(stones);
    if most > MOST_LISTED {
        return Err(format!(
            "{most} moves are too many to list (at most {MOST_LISTED}); query gives nimbot's"
        ));
    }
    let moves: Vec<MoveJson> = (1..=most)
        .map(|take| MoveJson {
            take,
            value: value_of_take(stones, take).as_word(),
        })
        .collect();
    if as_json {
        return Ok(json::line(&crate::vocab::WithMoves {
            head: head(stones, limit, d.value),
            moves,
        }));
    }
    let mut out = format!("{}\ntake value\n", d.value.as_word());
    for m in moves {
        let _ = writeln!(out, "{:>4} {:>5}", m.take, m.value);
    }
    Ok(out)
}

/// `line --game fibonacci`: nimbot's take on both sides to the end.
pub fn line(stones: u64, limit: u64, as_json: bool) -> Result<String, String> {
    let first = fib::decide(stones, limit).map_err(|e| e.to_string())?;
    let (mut s, mut l) = (stones, limit);
    let mut plies = Vec::new();
    while s > 0 {
        let d = fib::decide(s, l).map_err(|e| e.to_string())?;
        plies.push(MoveJson {
            take: d.take,
            value: d.value.as_word(),
        });
        s -= d.take;
        l = d.take.saturating_mul(2);
    }
    if as_json {
        return Ok(json::line(&crate::vocab::WithLine {
            head: head(stones, limit, first.value),
            line: plies,
        }));
    }
    let mut out = format!("{stones} stones, at most {limit} this move; best play:\n");
    out.push_str(" ply mover  take  left value\n");
    let mut left = stones;
    for (i, m) in plies.iter().enumerate() {
        left -= m.take;
        let _ = writeln!(
            out,
            "{:>4} {:>5} {:>5} {:>5} {:>5}",
            i + 1,
            if i % 2 == 0 { "A" } else { "B" },
            m.take,
            left,
            m.value
        );
    }
    Ok(out)
}

/// A Fibonacci Nim record as `analyze` reads it: a first line `fibonacci N`, then
/// one take a line; blank lines and `#` comments are skipped.
fn read_record(text: &str) -> Result<(u64, Vec<u64>), String> {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let head = lines.next().ok_or("an empty record")?;
    let stones = match head.split_whitespace().collect::<Vec<_>>().as_slice() {
        [_, n] => n.parse().map_err(|_| format!("bad stones {n:?}"))?,
        _ => {
            return Err(format!(
                "the first line must be `fibonacci N`, not {head:?}"
            ))
        }
    };
    let takes = lines
        .enumerate()
        .map(|(i, l)| {
            l.parse::<u64>()
                .map_err(|_| format!("move {}: {l:?} is not a take", i + 1))
        })
        .collect::<Result<_, _>>()?;
    Ok((stones, takes))
}

/// `analyze` of a Fibonacci Nim record: every ply's value and winning take, and
/// the blunders (a take from a won position that leaves the opponent a won one).
pub fn analyze(text: &str, as_json: bool) -> Result<String, String> {
    #[derive(Serialize)]
    struct Ply {
        ply: usize,
        seat: usize,
        take: u64,
        stones_before: u64,
        limit: u64,
        value: &'static str,
        /// nimbot's take there (the smallest Zeckendorf term when won).
        best: u64,
        blunder: bool,
    }
    let (stones, takes) = read_record(text)?;
    let mut game = fib::Game::new(stones).map_err(|e| e.to_string())?;
    let mut plies = Vec::new();
    for (i, &take) in takes.iter().enumerate() {
        let d = game
            .decide()
            .ok_or_else(|| format!("move {}: the game is already over", i + 1))?;
        let (before, limit, mover) = (game.stones(), game.limit(), game.to_move());
        plies.push(Ply {
            ply: i + 1,
            seat: mover.index(),
            take,
            stones_before: before,
            limit,
            value: d.value.as_word(),
            best: d.take,
            blunder: d.value.is_won() && !value_of_take(before, take).is_won(),
        });
        game.play(mover, take)
            .map_err(|e| format!("move {} (take {take}): {e}", i + 1))?;
    }
    let blunders = [0, 1].map(|s| plies.iter().filter(|p| p.seat == s && p.blunder).count());
    let first = plies.iter().find(|p| p.blunder).map(|p| p.ply);
    let winner = game.winner().map(|p| p.index());
    if as_json {
        #[derive(Serialize)]
        struct Summary {
            game: &'static str,
            plies: usize,
            winner: Option<usize>,
            blunders: [usize; 2],
            first_blunder: Option<usize>,
        }
        let mut out: String = plies.iter().map(json::line).collect();
        out.push_str(&json::line(&Summary {
            game: "fibonacci",
            plies: plies.len(),
            winner,
            blunders,
            first_blunder: first,
        }));
        return Ok(out);
    }
    let mut out = String::from(" ply seat  take stones limit value best\n");
    for p in &plies {
        let _ = writeln!(
            out,
            "{:>4} {:>4} {:>5} {:>6} {:>5} {:>5} {:>4}{}",
            p.ply,
            if p.seat == 0 { "A" } else { "B" },
            p.take,
            p.stones_before,
            p.limit,
            p.value,
            p.best,
            if p.blunder { "  blunder" } else { "" }
        );
    }
    let _ = writeln!(
        out,
        "{}; blunders: A {}, B {}{}",
        match winner {
            Some(0) => "A won",
            Some(_) => "B won",
            None => "the game goes on",
        },
        blunders[0],
        blunders[1],
        first.map_or(String::new(), |p| format!(", the first at ply {p}"))
    );
    Ok(out)
}
