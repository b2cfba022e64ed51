//! Fibonacci Nim: one pile, the first move takes 1 to N-1 stones, every later move 1
//! to twice the previous take; whoever takes the last stone wins.
//!
//! Perfect play needs no table. Write the pile `s` as its Zeckendorf representation
//! (a sum of non-consecutive Fibonacci numbers 1, 2, 3, 5, 8, ...) and let `z(s)` be
//! its smallest term. The mover with limit `L` wins exactly when `z(s) <= L`, and
//! taking `z(s)` wins: the rest `s - z(s)` has smallest term at least the
//! Fibonacci number two places above `z(s)`, which exceeds `2 z(s)`, so the
//! opponent is left with `z > L` again. Everything here is O(log s) with no
//! allocation; `tests/fibonacci.rs` checks it against an exhaustive search.

use crate::rules::Player;
use crate::text::{match_text, Text};
use crate::value::Value;

/// Why a Fibonacci Nim position or move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// A position needs at least one stone (an empty pile means the game is over).
    NoStones,
    /// The limit of a move must be at least 1.
    ZeroLimit,
    /// A game needs at least 2 stones: with one, the first move (1..=N-1) is empty.
    TooFewStones,
    /// The take is 0 or above the current limit.
    BadTake {
        /// The refused take.
        take: u64,
        /// The current limit.
        limit: u64,
    },
    /// The move was sent by the player not to move.
    OutOfTurn,
    /// The game is over.
    GameOver,
}

impl Error {
    /// A short, static description (the line protocol uses it).
    pub const fn text(self) -> Text {
        match_text!(self, {
            Error::NoStones => "stones must be at least 1",
            Error::ZeroLimit => "limit must be at least 1",
            Error::TooFewStones => "a fibonacci game needs at least 2 stones",
            Error::BadTake { .. } => "take outside 1..=limit",
            Error::OutOfTurn => "moved out of turn",
            Error::GameOver => "the game is over",
        })
    }
}

crate::text::error_from_text!(Error);

/// The smallest term of the Zeckendorf representation of `n` (0 for `n = 0`).
///
/// Walks up the Fibonacci numbers to the largest one `<= n`, then back down
/// greedily: O(log n) steps, no table, no overflow (the walk up stops before
/// `u64` would overflow).
pub(crate) fn zeckendorf_smallest(n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    // (a, b): consecutive terms of 1, 2, 3, 5, ... with b the largest term <= n.
    let (mut a, mut b) = (1u64, 2u64);
    if n == 1 {
        return 1;
    }
    while let Some(next) = a.checked_add(b) {
        if next > n {
            break;
        }
        a = b;
        b = next;
    }
    let mut rest = n;
    let mut smallest = n;
    // Greedy from the top: the last term subtracted is the smallest one.
    while rest > 0 && b > 0 {
        if b <= rest {
            rest -= b;
            smallest = b;
        }
        // Step down one term: (a, b) -> (b - a, a); from (1, 2) this gives (1, 1),
        // then (0, 1), then (1, 0), which ends the loop (rest is 0 by then).
        let lower = b - a;
        b = a;
        a = lower;
    }
    smallest
}

/// True if `n` is a Fibonacci number (1, 2, 3, 5, 8, ...): a start of `n` stones is
/// then lost for the first player.
pub fn is_fibonacci(n: u64) -> bool {
    n > 0 && zeckendorf_smallest(n) == n
}

/// A Fibonacci Nim decision: the take, and the value of the position it was chosen
/// in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Stones to take; always in `1..=min(limit, stones)`.
    pub take: u64,
    /// [`Value::Won`] if the position is won, and then `take` keeps it won.
    pub value: Value,
}

/// The move for `stones` left with at most `limit` allowed this move.
///
/// In a won position (`z(stones) <= limit`) the take is `z(stones)`: the whole pile
/// when the pile is itself a Fibonacci number within reach, else the smallest
/// Zeckendorf term. In a lost position the take is 1: every take loses against
/// perfect play, and 1 keeps the game longest and hands the opponent the smallest
/// limit (2), so the opponent has the fewest winning replies to find next.
pub fn decide(stones: u64, limit: u64) -> Result<Decision, Error> {
    if stones == 0 {
        return Err(Error::NoStones);
    }
    if limit == 0 {
        return Err(Error::ZeroLimit);
    }
    let z = zeckendorf_smallest(stones);
    Ok(if z <= limit {
        Decision {
            take: z,
            value: Value::Won,
        }
    } else {
        Decision {
            take: 1,
            value: Value::Lost,
        }
    })
}

/// What a legal Fibonacci Nim move did to the game: as in Expanding Nim, the game
/// goes on or the mover emptied the pile and won.
pub use crate::rules::Outcome;

/// The record of one Fibonacci Nim game. A refused move leaves it unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    stones: u64,
    limit: u64,
    to_move: Player,
    winner: Option<Player>,
}

impl Game {
    /// A game of `stones` stones (at least 2); the first move may take up to
    /// `stones - 1`.
    pub fn new(stones: u64) -> Result<Game, Error> {
        if stones < 2 {
            return Err(Error::TooFewStones);
        }
        Ok(Game {
            stones,
            limit: stones - 1,
            to_move: Player::First,
            winner: None,
        })
    }

    /// Stones left.
    pub fn stones(&self) -> u64 {
        self.stones
    }

    /// The most the player to move may take (it can exceed the pile; taking the
    /// whole pile is then allowed).
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The player to move (meaningless once the game is won).
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The winner, once the pile is empty.
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// The decision for the player to move, or `None` once the game is over.
    pub fn decide(&self) -> Option<Decision> {
        if self.winner.is_some() {
            return None;
        }
        decide(self.stones, self.limit).ok()
    }

    /// `player` takes `take` stones: refused if the game is over, it is not
    /// `player`'s turn, or `take` is outside `1..=min(limit, stones)`.
    #[inline]
    pub fn play(&mut self, player: Player, take: u64) -> Result<Outcome, Error> {
        if self.winner.is_some() {
            return Err(Error::GameOver);
        }
        if player != self.to_move {
            return Err(Error::OutOfTurn);
        }
        let max = self.limit.min(self.stones);
        if take == 0 || take > max {
            return Err(Error::BadTake { take, limit: max });
        }
        self.stones -= take;
        if self.stones == 0 {
            self.winner = Some(player);
            return Ok(Outcome::Won(player));
        }
        self.limit = take.saturating_mul(2);
        self.to_move = player.other();
        Ok(Outcome::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smallest_zeckendorf_terms() {
        // 20 = 13 + 5 + 2, 22 = 21 + 1, 12 = 8 + 3 + 1, 100 = 89 + 8 + 3.
        for (n, z) in [
            (0, 0),
            (1, 1),
            (2, 2),
            (4, 1),
            (12, 1),
            (20, 2),
            (22, 1),
            (100, 3),
            (144, 144),
        ] {
            assert_eq!(zeckendorf_smallest(n), z, "{n}");
        }
        assert_eq!(zeckendorf_smallest(u64::MAX), 2);
        // F(93), the largest Fibonacci number in a u64.
        assert!(is_fibonacci(12_200_160_415_121_876_738));
    }
}
