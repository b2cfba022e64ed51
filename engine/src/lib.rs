//! nimbot's strategy on a host, where threads and memory are plentiful.
//!
//! - [`exploit`]: the `exploit` policy ([`nimbot::Policy::Exploit`]) and
//!   [`HostEngine`], the engine that plays every policy on a host;
//! - [`models`]: the wrong models of the game that real bots play by, each solved
//!   exactly, which the `exploit` policy weighs;
//! - [`arena`]: nimbot under each policy against families of fallible opponents,
//!   over many starts and both seats;
//! - [`matrix`]: the arena's report, as text and as JSON lines;
//! - [`runner`]: the one runner of a two-player game, which the arena and
//!   Super-Nim's matches play on;
//! - [`supernim`]: Super-Nim's arena, nimbot's player in a match against one
//!   opponent.
//!
//! Super-Nim's exact solver and host player live in the crate `nimbot-supernim`
//! (feature `alloc`), where the line protocol reaches them too.
//!
//! The benchmarks of all this (the exploit policy's costs among them) are the
//! crate `nimbot-bench`'s.
//!
//! The core crate (`nimbot`) stays `no_std` and knows the policy only by name: it
//! refuses to play it ([`nimbot::Engine::plays`]); this crate is what plays it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod arena;
pub mod exploit;
pub mod matrix;
pub mod models;
pub mod runner;
pub mod supernim;

pub use exploit::{HostEngine, Models};
