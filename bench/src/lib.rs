//! Every benchmark of nimbot, in one place, behind `nimbot bench`
//! (docs/benchmarks.md says how to read the figures, docs/figures.md holds them):
//!
//! - [`solve`]: `nimbot bench`, the exact solver's time and the decision latency
//!   in every position of a box;
//! - [`exploit`]: `nimbot bench --exploit`, what the exploit policy costs (its
//!   models, the per-game preparation, lost-position decisions), on the decisions
//!   [`decisions`] collects from games;
//! - [`supernim`]: `nimbot bench --supernim CAP`, Super-Nim's exact solver;
//! - [`table`]: `nimbot bench table`, making a table and probing it, beside the
//!   naive every-move solver ([`naive`]) and the codings of the format;
//! - [`tournament`]: `nimbot bench tournament` (also `nimbot tournament
//!   --bench`), the tournament's load: quick games, their CPU and a check of the
//!   results on disk.
//!
//! The JSON lines of the first three are [`lines`]; every per-call latency is
//! taken with `nimbot-latency`, one way of timing, so that figures compare. The
//! command itself (its flags, printing, exit statuses) is [`command`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod command;
pub mod decisions;
pub mod exploit;
pub mod lines;
pub mod naive;
pub mod solve;
pub mod supernim;
pub mod table;
pub mod tournament;
