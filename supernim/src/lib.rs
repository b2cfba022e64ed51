//! Super-Nim: several heaps and a score per player.
//!
//! A move puts one heap onto another of a different size (capped at 10 sticks),
//! grows an odd heap `n` to `3n + 1` (uncapped by the rules), or splits an even heap
//! in two halves; splitting a 2 removes both 1-stick heaps and scores 2 for the
//! mover. The game ends when no sticks remain; more points wins.
//!
//! The crate is `#![no_std]` and, without `alloc`, heap-free: what the boards play
//! (through `nimbot-protocol`'s feature `related-games`). Everything is fixed-size
//! and panic-free (move lists are `heapless::Vec`s, heapless 0.8, part of this
//! crate's contract):
//! - [`Heaps`] holds at most [`MAX_HEAPS`] heaps of at most [`MAX_HEAP_SIZE`] sticks.
//!   A start beyond either bound is refused with an [`Error`]; a move that would
//!   pass one (a split with every slot taken, a growth past the size bound) is never
//!   generated and is refused if played. If the player to move has no move within
//!   the bounds, the game ends ([`End::Stalled`]) and is judged on points.
//! - Play can cycle, so every [`Game`] has a move limit (at most
//!   [`MAX_MOVE_LIMIT`]); a game that reaches it is judged on points: more wins,
//!   equal is a draw (docs/rules.md: the player ahead is taken as the winner).
//! - The boards' player ([`decide`]) is iterative-deepening alpha-beta on the
//!   score difference with a node budget; see [`search`](self#search).
//!
//! With a heap (feature `alloc`), the host's side, in this one crate so that the
//! arena, the line protocol, the command line and the page call the same code:
//! - `Solver`: the exact solver, the cap in the state (the value of a position
//!   and of each of its moves, or "cannot finish" within a node bound);
//! - `Perfect`: the host's player on it (exact near the cap, never a move that
//!   loses value there, steering toward an opponent model's mistakes), which can
//!   learn the model from the opponent's moves (`Belief`).
//!
//! Their tables grow with fallible allocations and within fixed bounds: when
//! memory runs out the search is slower or says it cannot finish, never aborts.
//!
//! # Search
//! Negamax over the distinct moves (heaps are named by size, and a merge's result
//! does not depend on which heap goes on top, so each unordered pair of sizes is one
//! move). Leaves at the horizon are worth the mover's lead; finished games add
//! [`WIN_BONUS`] toward the side ahead. The previous iteration's best move is tried
//! first; an iteration cut short by the budget is discarded.
//!
//! # Example
//! The boards' search on a small start:
//! ```
//! use nimbot_supernim::{decide, Game, Heaps, DEFAULT_NODE_BUDGET};
//!
//! let game = Game::new(Heaps::new(&[2, 4, 5])?, 20)?;
//! let decision = decide(&game, DEFAULT_NODE_BUDGET);
//! assert!(decision.mv.is_some_and(|mv| game.heaps().moves().contains(&mv)));
//! # Ok::<(), nimbot_supernim::Error>(())
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
// The unit tests print and collect with the standard library; the crate never does.
#[cfg(test)]
extern crate std;

#[cfg(feature = "alloc")]
mod belief;
#[cfg(feature = "alloc")]
mod memo;
#[cfg(feature = "alloc")]
mod perfect;
mod players;
mod rules;
mod search;
#[cfg(feature = "alloc")]
mod solver;

// The public names: what the protocol, the host's tools, the page and the tests
// use, and the types in their signatures; the tuning constants and helpers stay
// inside.
#[cfg(feature = "alloc")]
pub use belief::{Belief, Model, MODELS};
#[cfg(feature = "alloc")]
pub use perfect::{heap_reach, Perfect, PerfectDecision, HEAP_REACH, PERFECT_NODE_BUDGET};
pub use players::{random_start, Chooser, GreedyPlayer, RandomPlayer, SearchPlayer};
pub use rules::{
    Cursor, End, Error, Game, Heaps, Move, MoveList, Moves, Outcome, Verdict, BOARD_HEAPS,
    MAX_HEAPS, MAX_HEAP_SIZE, MAX_MOVES, MAX_MOVE_LIMIT,
};
pub use search::{decide, decide_heaps, Decision, DEFAULT_NODE_BUDGET, WIN_BONUS};
#[cfg(feature = "alloc")]
pub use solver::{MoveValue, Solver};
