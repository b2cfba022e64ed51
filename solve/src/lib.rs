//! The exact solver of *Expanding Nim with resets* and the table writer: won/lost
//! and distances to the end for every position of a box of games, solved in
//! memory, and the engines that answer from them.
//!
//! The core (`nimbot`) reads a precomputed table and never allocates; this crate
//! makes what the table does not hold, on a heap (`no_std` with `alloc`: the tiny
//! binary, the web page and boards with a heap use it too). It depends on the core,
//! never the other way: the table's format is the core's
//! ([`nimbot::table::format`]), which the writer here serializes and the coded
//! solutions follow.
//!
//! # Example
//! A game beyond the embedded table (N <= 999), solved on demand:
//! ```
//! use nimbot::{Engine, Params, Policy, Value};
//! use nimbot_solve::{Solution, SolveBox, SolvingEngine};
//!
//! let bx = SolveBox::games(2_000, 1, 3);
//! let solution = Solution::solve(bx)?;
//! let start = Params::new(2_000, 1, 3)?.start();
//! assert!(solution.value(&start).is_some());
//!
//! let mut engine = SolvingEngine::default();
//! let decision = engine.decide(&start, Policy::Trap)?;
//! assert_eq!(Some(decision.value), solution.value(&start));
//! # let _ = Value::Won;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What the crate offers
//! - the solver: [`SolveBox`] (a box of games), [`Solution`] (one bit a
//!   position), [`CodedSolution`] (a solve kept in the table's coding),
//!   [`SolutionCache`], [`solve_windowed`] with its [`PileSink`] and
//!   [`PileBits`], [`SharedSolve`] (several threads), [`SolveError`];
//! - distances to the end: [`Distances`], [`DistanceCache`], [`MAX_DISTANCE`];
//! - engines: [`SolvingEngine`], [`TableOrSolverEngine`], and [`longest_move`]
//!   (the `longest` policy);
//! - the table writer (feature `encode`): `encode`, `encode_with`,
//!   `encode_values`, `runs_of`, `Encoding`, `TableWriter`.
//!
//! # No panics
//! A failed allocation is [`SolveError::OutOfMemory`]; the tiny binary links only
//! if no panic is reachable.
//!
//! # Cargo features
//! - `default-table`: the core's embedded table (`TableOrSolverEngine::embedded`).
//! - `encode`: the table writer (postcard).
//! - `small-solver`: no per-position path for more than 7 resets (the tiny
//!   binary's 64 KB).
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
// The unit tests print and collect with the standard library; the crate never does.
#[cfg(test)]
extern crate std;

mod distance;
mod engine;
mod solver;

pub use distance::{DistanceCache, Distances, MAX_DISTANCE};
pub use engine::{longest_move, SolvingEngine, TableOrSolverEngine};
// Each name from the file that defines it (the solver's files import one another
// only downward: tools/tidy/tests/layout.rs).
pub use solver::base::{SolveBox, SolveError};
pub use solver::code::CodedSolution;
#[cfg(feature = "encode")]
pub use solver::encode::{encode, encode_values, encode_with, runs_of, Encoding, TableWriter};
#[cfg(all(target_has_atomic = "64", target_has_atomic = "ptr"))]
pub use solver::windowed::shared::SharedSolve;
pub use solver::windowed::{solve_windowed, PileBits, PileSink};
pub use solver::{Solution, SolutionCache};

// The README's example runs with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
