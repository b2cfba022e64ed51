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

#[cfg(feature = "alloc")]
mod distance;
mod engine;
pub mod exp_nim;
mod fibonacci;
pub mod json;
pub mod protocol;
pub mod referee;
mod rules;
#[cfg(feature = "alloc")]
mod solver;
mod strategy;
pub mod supernim;
mod table;
pub mod tournament;

#[cfg(feature = "alloc")]
pub use distance::{longest_move, Distances};
pub use engine::{Engine, Limits, TableEngine};
#[cfg(feature = "alloc")]
pub use engine::{SolvingEngine, TableOrSolverEngine};
pub use fibonacci::{
    fib_decide, is_fibonacci, zeckendorf_smallest, FibDecision, FibError, FibGame, FibOutcome,
};
pub use rules::{
    Game, IllegalMove, Move, Outcome, ParamError, Params, Player, Position, PositionError,
    MAX_RESETS, MAX_STONES,
};
#[cfg(feature = "alloc")]
pub use solver::{Solution, SolveBox, SolveError};
pub use strategy::{
    best_move, decide, position_value, reply_counts, DecideError, Decision, Oracle, Policy,
};
pub use supernim::{sn_decide, Heaps, SnError, SnGame, SnMove};
pub use table::{crc32, ProbeError, Table, TableError, EMBEDDED_TABLE, FORMAT_VERSION, MAGIC};
#[cfg(feature = "alloc")]
pub use table::{
    encode as encode_table, encode_values as encode_table_values, encode_with as encode_table_with,
    Encoding as TableEncoding,
};

/// The crate version, as the line protocol reports it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
