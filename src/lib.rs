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
//! # What the crate offers
//! The domain's types at the root, whatever file they live in:
//! - the game: [`Game`], [`Position`], [`Move`] (and [`Moves`], the one enumeration
//!   of legal moves), [`Params`], [`Player`], [`Outcome`], their errors
//!   ([`ParamError`], [`IllegalMove`], [`PositionError`]) and the rules' bounds
//!   ([`MAX_STONES`], [`MAX_RESETS`]);
//! - won/lost knowledge: [`Value`], [`Evaluation`], any [`Oracle`] (the table, the
//!   solver), [`best_move`], [`position_value`];
//! - how to move: [`Policy`] in a lost position ([`Policy::decide`],
//!   [`reply_counts`], `longest_move`), [`Win`] in a won one ([`WinChoice`] plays
//!   it), and what each needs to know ([`Knowledge`]);
//! - engines: [`Engine`] (what adapters ask for a move), [`TableEngine`]; [`Limits`], [`Decision`],
//!   [`DecideError`]; [`bot_move`], the one function that plays a move in a game
//!   ([`MoveError`]);
//! - the root probe: [`root_moves`], [`evaluate_move`], [`MoveEvaluation`];
//! - [`SplitMix64`], the one seeded generator.
//!
//! And three modules, each a domain of its own:
//! - [`table`]: the precomputed solution in flash ([`Table`], [`TableError`] also at
//!   the root) and its format ([`table::format`]: the facts the writer shares with
//!   the reader);
//! - [`mod@text`]: the fixed text of messages and words (kept in program memory on
//!   the AVR), which the line protocol replies with, and decimal numbers in and out
//!   without `core::fmt` ([`text::Decimal`], [`text::parse_u32`]);
//! - `fibonacci` (feature `related-games`): Fibonacci Nim's rules (Super-Nim is
//!   the crate `nimbot-supernim`).
//!
//! Outside this crate: the exact solver, its engines, distances to the end and the
//! table writer (`nimbot-solve`, `no_std` with a heap: it depends on this crate,
//! never the other way), the line protocol (`nimbot-protocol`), the tournament
//! platform's wire, clients and referee (`nimbot-platform`), Super-Nim
//! (`nimbot-supernim`), all `no_std`; and the host's strategy, the `exploit`
//! policy's models and the arena (`nimbot-engine`, with threads).
//!
//! # Errors
//! Opening a table checks its checksum and every header field ([`TableError`]); a
//! move that cannot be decided is a [`DecideError`]; an illegal move is an
//! [`IllegalMove`].
//!
//! # Cargo features
//! - `default-table` (default): the solution table `table/default.nimt` (N <= 999,
//!   R <= 4, M = 3) embedded in the crate, `Table::embedded()`; leave it out to bring
//!   your own with [`Table::from_bytes`].
//! - `related-games`: Fibonacci Nim (`nimbot-protocol` plays it, and Super-Nim,
//!   with its feature of the same name).
//! - `serde`: `serde::Serialize` for [`Position`] (its six numbers by name) and for
//!   the table's header (`table::format::TableFile`, which `nimbot-solve`'s writer
//!   serializes).
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The unit tests print and collect with the standard library; the crate never does.
#[cfg(test)]
extern crate std;

mod engine;
mod error;
#[cfg(feature = "related-games")]
pub mod fibonacci;
mod geometry;
mod num;
mod policy;
mod probe;
mod rng;
mod rules;
mod strategy;
pub mod table;
pub mod text;
mod value;

// The domain's types, reached from the root whatever file they live in.
pub use engine::{bot_move, Engine, Limits, MoveError, TableEngine};
pub use policy::win::WinChoice;
pub use policy::{reply_counts, Knowledge, Policy, Win};
pub use probe::{evaluate_move, root_moves, MoveEvaluation};
pub use rng::SplitMix64;
pub use rules::{
    Game, IllegalMove, Move, Moves, Outcome, ParamError, Params, Player, Position, PositionError,
    MAX_RESETS, MAX_STONES,
};
pub use strategy::{best_move, position_value, DecideError, Decision, Oracle, Visit};
pub use table::{Table, TableError};
pub use value::{Evaluation, Value};

/// The software's name, the crate's version and the build, as the line
/// protocol's `version`, `nimbot --version` and the tiny binary's `--version`
/// report it. The build is the commit it was built from and the embedded table's
/// CRC-32 (what `nimbot-table info` prints), e.g. `nimbot 0.1.0 commit
/// 0123456789ab table 5e1f00c2`; `-dirty` follows the commit when tracked files
/// differed from it, `unknown` stands for it when the source came without git (a
/// tarball), and the table is `none` without the `default-table` feature. Set by
/// build.rs (docs/release.md).
pub const SOFTWARE: &str = concat!(
    "nimbot ",
    env!("CARGO_PKG_VERSION"),
    " ",
    env!("NIMBOT_BUILD")
);
