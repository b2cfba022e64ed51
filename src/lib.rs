//! Perfect play for *Expanding Nim with resets*, with no heap and no panics.
//!
//! The crate is `#![no_std]`. Its rooms, from the bottom up:
//! - [`rules`]: the game ([`Game`], [`Position`], [`Move`]);
//! - [`value`], [`strategy`]: won/lost knowledge ([`strategy::Oracle`]) turned into
//!   moves, with a [`Policy`] for lost positions;
//! - [`table`] (the precomputed solution in flash), [`solver`] and [`distance`]
//!   (in memory, with `alloc`): the oracles;
//! - [`engine`]: what adapters ask for a move ([`Engine::decide`]) and the one
//!   function that plays it in a game ([`engine::bot_move`]);
//! - [`fibonacci`], [`supernim`]: the two related games;
//! - [`protocol`]: the line protocol every adapter speaks (stdin, UART, tiny binary),
//!   with [`num`] for its digits;
//! - [`platform`] (feature `platform`): the tournament platform's JSON wire, its TCP
//!   and text clients and a referee.
//!
//! # Example
//! ```
//! use nimbot::solver::{Solution, SolveBox};
//! use nimbot::strategy::best_move;
//! use nimbot::Params;
//!
//! let params = Params::new(8, 0, 3).unwrap();
//! let solution = Solution::solve(SolveBox::games(8, 0, 3)).unwrap();
//! let decision = best_move(&solution, &params.start()).unwrap();
//! // In plain take-1-to-3 Nim, 8 stones lose for the first player; here taking 1
//! // wins (7 stones with the limit still 3 is lost for the opponent).
//! assert!(decision.value.is_won());
//! assert_eq!(decision.mv.take, 1);
//! ```
//!
//! # Cargo features
//! - `alloc`: the exact solver, distances and [`engine::SolvingEngine`] (needs a
//!   global allocator only).
//! - `platform`: the tournament platform's adapters (no allocation; the tiny binary
//!   enables it, the firmware does not).
//! - `std` (default): `alloc`, `platform` and the host binary `nimbot`.
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

#[cfg(feature = "alloc")]
pub mod distance;
pub mod engine;
mod error;
pub mod fibonacci;
pub mod num;
#[cfg(feature = "platform")]
pub mod platform;
pub mod probe;
pub mod protocol;
pub mod rng;
pub mod rules;
#[cfg(feature = "alloc")]
pub mod solver;
pub mod strategy;
pub mod supernim;
pub mod table;
pub mod value;

pub use engine::{Engine, TableEngine};
pub use rules::{Game, Move, Outcome, Params, Player, Position};
pub use strategy::{Decision, Policy};
pub use table::Table;
pub use value::Value;

// The names nimbot-tools (tools/) imports from the root; their home is `table`
// and `solver`.
#[cfg(feature = "alloc")]
pub use solver::{Solution, SolveBox};
#[cfg(feature = "alloc")]
pub use table::{
    encode as encode_table, encode_values as encode_table_values, encode_with as encode_table_with,
    Encoding as TableEncoding,
};
pub use table::{EMBEDDED_TABLE, FORMAT_VERSION};

/// The crate version, as the line protocol reports it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
