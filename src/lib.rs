//! Perfect play for *Expanding Nim with resets*, with no heap and no panics.
//!
//! The crate is `#![no_std]`. It holds the rules ([`Game`], [`Position`]), move choice
//! from won/lost knowledge ([`best_move`]), and the line protocol ([`protocol`]) that
//! every adapter (stdin, UART, tiny static binary) speaks. With the `alloc` feature
//! it adds the exact solver ([`Solution`]) and an engine that solves on demand
//! ([`SolvingEngine`]).
//!
//! # Example
//! ```
//! use nimbot::{best_move, Params, Solution, SolveBox};
//!
//! let params = Params::new(8, 0, 3).unwrap();
//! let solution = Solution::solve(SolveBox::games(8, 0, 3)).unwrap();
//! let decision = best_move(&solution, &params.start()).unwrap();
//! // In plain take-1-to-3 Nim, 8 stones lose for the first player; here taking 1
//! // wins (7 stones with the limit still 3 is lost for the opponent).
//! assert!(decision.wins);
//! assert_eq!(decision.mv.take, 1);
//! ```
//!
//! # Cargo features
//! - `alloc`: the exact solver and [`SolvingEngine`] (needs a global allocator only).
//! - `std` (default): `alloc` plus the host binary `nimbot`.
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod engine;
pub mod exp_nim;
pub mod json;
pub mod protocol;
pub mod referee;
mod rules;
#[cfg(feature = "alloc")]
mod solver;
mod strategy;
mod table;
pub mod tournament;

#[cfg(feature = "alloc")]
pub use engine::SolvingEngine;
pub use engine::{Engine, Limits};
pub use rules::{
    Game, IllegalMove, Move, Outcome, ParamError, Params, Player, Position, PositionError,
    MAX_RESETS, MAX_STONES,
};
#[cfg(feature = "alloc")]
pub use solver::{Solution, SolveBox, SolveError};
pub use strategy::{best_move, position_value, DecideError, Decision, Oracle};
#[cfg(feature = "alloc")]
pub use table::encode as encode_table;
pub use table::{crc32, Table, TableError, FORMAT_VERSION, MAGIC};

/// The crate version, as the line protocol reports it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
