//! Expanding Nim with resets as docs/rules.md states it, written from the text
//! alone and apart from the core (no `nimbot` dependency): the judge the tests
//! check nimbot against, so that a rules bug shared by nimbot's referee and its
//! solver cannot pass unseen.
//!
//! - [`Judge`] holds a game's raw state (stones, the largest take `h`, the resets
//!   left, whether the last move declared a reset, the player to move) and judges
//!   each move in the rules' order: out of turn, the take, the reset; the player
//!   who empties the pile wins. Thinking time is not modelled.
//! - [`first_wins`] and [`wins`] give the value of small games by a plain search of
//!   the normalized position `(s, c, a, b, f)`.
//!
//! The core's property tests play random games through `Game` against it; the
//! CLI's end-to-end tests replay every game log and record they produce under it.
//! `tools/rules_judge.py` is the same judge for the Python drivers.

use std::collections::HashMap;
use std::fmt;

/// Why the judge refuses a move (docs/rules.md's reasons; `GameOver` is ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game already has a winner.
    GameOver,
    /// Not this seat's turn.
    OutOfTurn,
    /// The take is below 1 or above the limit.
    BadTake,
    /// A reset declared with none left.
    NoResetsLeft,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Refusal::GameOver => "a move after the end",
            Refusal::OutOfTurn => "a move out of turn",
            Refusal::BadTake => "a take outside 1..=L",
            Refusal::NoResetsLeft => "a reset with none left",
        })
    }
}

/// One game of Expanding Nim with resets, judged move by move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judge {
    m: u32,
    stones: u32,
    largest: u32,
    resets: [u32; 2],
    pending: bool,
    turn: usize,
    winner: Option<usize>,
    plies: u32,
}

impl Judge {
    /// The start: `n` stones, `r` resets each, initial maximum `m`; seat 0 moves
    /// first.
    pub fn new(n: u32, r: u32, m: u32) -> Judge {
        Judge {
            m,
            stones: n,
            largest: 0,
            resets: [r, r],
            pending: false,
            turn: 0,
            winner: None,
            plies: 0,
        }
    }

    /// L, the most the mover may take: M right after a reset, else the cap.
    pub fn limit(&self) -> u32 {
        if self.pending {
            self.m
        } else {
            self.cap()
        }
    }

    /// c = max(M, h + 1).
    pub fn cap(&self) -> u32 {
        self.m.max(self.largest + 1)
    }

    /// Stones left.
    pub fn stones(&self) -> u32 {
        self.stones
    }

    /// h, the largest take so far (0 before the first move).
    pub fn largest(&self) -> u32 {
        self.largest
    }

    /// Resets `seat` has left.
    pub fn resets(&self, seat: usize) -> u32 {
        self.resets[seat]
    }

    /// Whether the last move declared a reset.
    pub fn pending(&self) -> bool {
        self.pending
    }

    /// The seat to move (until the game ends).
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// The winner's seat, once the pile is empty.
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// Moves played.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Judge and play `seat` taking `take` stones (with a reset if `reset`), in the
    /// rules' order. A refused move changes nothing.
    pub fn play(&mut self, seat: usize, take: u32, reset: bool) -> Result<(), Refusal> {
        if self.winner.is_some() {
            return Err(Refusal::GameOver);
        }
        if seat != self.turn {
            return Err(Refusal::OutOfTurn);
        }
        if take < 1 || take > self.limit() {
            return Err(Refusal::BadTake);
        }
        if reset && self.resets[seat] == 0 {
            return Err(Refusal::NoResetsLeft);
        }
        self.stones -= take.min(self.stones);
        self.largest = self.largest.max(take);
        if reset {
            self.resets[seat] -= 1;
        }
        self.pending = reset;
        self.plies += 1;
        if self.stones == 0 {
            self.winner = Some(seat);
        } else {
            self.turn = 1 - seat;
        }
        Ok(())
    }
}

/// Whether the first player wins the game of `n` stones, `r` resets each and
/// initial maximum `m` by [`wins`]; `None` above 40 stones, where the plain search
/// is too slow for a test.
pub fn first_wins(n: u32, r: u32, m: u32) -> Option<bool> {
    (n <= 40).then(|| wins(&mut HashMap::new(), (n, m, r, r, false), m))
}

/// A normalized position `(s, c, a, b, f)`: stones, cap, the mover's and the
/// opponent's resets left, whether the opponent has just reset.
pub type Normalized = (u32, u32, u32, u32, bool);

/// Whether the mover wins at `p` in a game of initial maximum `m`: some take up to
/// the limit (M after a reset, else c) empties the pile or leaves the opponent a
/// lost position. `memo` keeps the values found.
pub fn wins(memo: &mut HashMap<Normalized, bool>, p: Normalized, m: u32) -> bool {
    if let Some(&w) = memo.get(&p) {
        return w;
    }
    let (s, c, a, b, f) = p;
    let limit = if f { m } else { c };
    let won = (1..=limit).any(|k| {
        k >= s
            || [false, true]
                .into_iter()
                .filter(|&reset| !reset || a > 0)
                .any(|reset| {
                    let next = (s - k, c.max(k + 1), b, a - u32::from(reset), reset);
                    !wins(memo, next, m)
                })
    });
    memo.insert(p, won);
    won
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judges_in_the_rules_order() {
        let mut j = Judge::new(10, 1, 3);
        assert_eq!(j.play(1, 1, false), Err(Refusal::OutOfTurn));
        assert_eq!(j.play(0, 4, false), Err(Refusal::BadTake));
        assert_eq!(j.play(0, 0, false), Err(Refusal::BadTake));
        assert_eq!(j.play(0, 3, true), Ok(()));
        assert_eq!((j.limit(), j.cap(), j.resets(0)), (3, 4, 0));
        assert_eq!(j.play(1, 3, false), Ok(()));
        assert_eq!((j.stones(), j.limit()), (4, 4));
        // Judged before the win: emptying the pile does not save a bad reset.
        assert_eq!(j.play(0, 4, true), Err(Refusal::NoResetsLeft));
        assert_eq!(j.play(0, 4, false), Ok(()));
        assert_eq!((j.winner(), j.plies()), (Some(0), 3));
        assert_eq!(j.play(1, 1, false), Err(Refusal::GameOver));
    }

    #[test]
    fn small_games_by_plain_search() {
        // One stone: the first player takes it. Four with M = 3 and no resets: any
        // take leaves 1..=3 stones to an opponent who may take them all.
        assert_eq!(first_wins(1, 0, 3), Some(true));
        assert_eq!(first_wins(4, 0, 3), Some(false));
        assert_eq!(first_wins(41, 0, 3), None);
    }
}
