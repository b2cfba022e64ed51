//! Perfect play for *Expanding Nim with resets*, with no heap and no panics.
//!
//! The crate is `#![no_std]` in every build, whatever its features. A precomputed
//! [`Table`] (a few KB of flash) knows won/lost for every position of the games it
//! covers, and a [`TableEngine`] plays from it. The line protocol that boards, the
//! tiny binary and the host binary speak over it is the crate `nimbot-protocol`
//! (also `no_std`); this crate is the game and its solution.
//!
//! # Example
//! A position, the engine's move, and the game it is played in:
//! ```
//! use nimbot::{Engine, Game, Move, Params, Player, Policy, Table, TableEngine, Value};
//!
//! // Any table made by `nimbot-table generate`, embedded in your own crate.
//! static TABLE: &[u8] = include_bytes!("../table/default.nimt");
//!
//! let mut engine = TableEngine::new(Table::from_bytes(TABLE)?);
//! // 8 stones, no resets, the first move at most 3 (see docs/rules.md).
//! let mut game = Game::new(Params::new(8, 0, 3)?);
//! let start = game.position().expect("a new game is not over");
//! let decision = engine.decide(&start, Policy::Trap)?;
//! // Taking 1 wins: every answer leaves the bot a winning reply.
//! assert_eq!((decision.mv, decision.value), (Move::new(1, false), Value::Won));
//! game.play(Player::First, decision.mv)?;
//! assert_eq!(game.stones(), 7);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The rooms, from the bottom up
//! - [`rules`]: the game ([`Game`], [`Position`], [`Move`]);
//! - [`value`], [`strategy`]: won/lost knowledge ([`strategy::Oracle`]) turned into
//!   moves; [`policy`]: how to move in lost positions ([`Policy`]), in one place;
//! - [`table`] (the precomputed solution in flash); `solver` and `distance` (in
//!   memory, feature `alloc`): the oracles;
//! - [`engine`]: what adapters ask for a move ([`Engine::decide`]) and the one
//!   function that plays it in a game ([`engine::bot_move`]);
//! - [`mod@text`]: the fixed text of messages and words (kept in program memory on
//!   the AVR), which the line protocol replies with;
//! - `fibonacci`, `supernim` (feature `related-games`): the two related games
//!   (with `alloc` too, Super-Nim's exact solver and the host's player);
//! - [`num`], [`rng`]: decimal digits without `core::fmt`, and the one seeded
//!   generator.
//!
//! Outside this crate: the line protocol (`nimbot-protocol`), the tournament
//! platform's wire, clients and referee (`nimbot-platform`), both `no_std`; and the
//! host's strategy, the `exploit`
//! policy's models and the arena (`nimbot-exploit`, with threads).
//!
//! # Errors
//! Opening a table checks its checksum and every header field ([`TableError`]); a
//! move that cannot be decided is a [`DecideError`]; an illegal move is an
//! [`IllegalMove`](rules::IllegalMove).
//!
//! # Cargo features
//! - `default-table` (default): the solution table `table/default.nimt` (N <= 999,
//!   R <= 4, M = 3) embedded in the crate, `Table::embedded()`; leave it out to bring
//!   your own with [`Table::from_bytes`].
//! - `std` (default): the same as `alloc` (the crate itself never links the
//!   standard library), for hosts. The host binary `nimbot` is a package of
//!   its own (`cli/`), so no feature pulls its dependencies.
//! - `alloc`: the exact solver, distances and `engine::SolvingEngine` (needs a
//!   global allocator only).
//! - `related-games`: Fibonacci Nim and Super-Nim (`nimbot-protocol` plays them
//!   with its feature of the same name).
//! - `serde`: `serde::Serialize` for [`Position`] (its six numbers by name).
//! - `encode`: the table writer (`table::encode` and friends), for `nimbot-table`.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
// The unit tests print and collect with the standard library; the crate never does.
#[cfg(test)]
extern crate std;

#[cfg(feature = "alloc")]
pub mod distance;
pub mod engine;
mod error;
#[cfg(feature = "related-games")]
pub mod fibonacci;
mod geometry;
pub mod num;
pub mod policy;
pub mod probe;
pub mod rng;
pub mod rules;
#[cfg(feature = "alloc")]
pub mod solver;
pub mod strategy;
#[cfg(feature = "related-games")]
pub mod supernim;
pub mod table;
pub mod text;
pub mod value;

// What an embedder needs: a table, an engine on it, and the game's own types.
pub use engine::{Engine, TableEngine};
pub use policy::Policy;
pub use rules::{Game, Move, Outcome, Params, Player, Position};
pub use strategy::{DecideError, Decision};
pub use table::{Table, TableError};
pub use value::Value;

/// The crate version (the line protocol's `version` reports it).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
