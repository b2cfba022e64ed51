//! Perfect play for *Expanding Nim with resets*, with no heap and no panics.
//!
//! The crate is `#![no_std]` in every build, whatever its features. A precomputed
//! [`Table`] (a few KB of flash) knows
//! won/lost for every position of the games it covers; a [`TableEngine`] plays from
//! it, and a [`Session`] speaks nimbot's line protocol (`docs/protocol.md`) over any
//! `embedded-io` reader and writer ([`serve`]; `protocol::serve_async` with the
//! `async` feature). That is all a board needs: bring its serial port.
//!
//! # Example
//! A board's whole loop, here over byte slices instead of a UART's two halves:
//! ```
//! use nimbot::{serve, Session, Table, TableEngine};
//!
//! // Any table made by `nimbot-table generate`, embedded in your own crate.
//! static TABLE: &[u8] = include_bytes!("../table/default.nimt");
//!
//! let table = Table::from_bytes(TABLE)?;
//! let mut session = Session::new(TableEngine::new(table));
//! let mut uart_rx: &[u8] = b"new 8 0 3 first\ngo\nopp 3 0\n";
//! let mut buf = [0u8; 64];
//! let mut uart_tx: &mut [u8] = &mut buf;
//! serve(&mut session, &mut uart_rx, &mut uart_tx)?;
//! let sent = 64 - uart_tx.len();
//! // 8 stones, no resets, limit 3: taking 1 wins (see docs/rules.md); after the
//! // opponent takes 3, the bot may take all 4.
//! assert_eq!(&buf[..sent], b"ok\nmove 1 0\nmove 4 0 won\n");
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
//! - [`protocol`]: the line protocol every adapter speaks (stdin, UART, tiny binary),
//!   with [`mod@text`] for its fixed text (kept in program memory on the AVR);
//! - `fibonacci`, `supernim` (feature `related-games`): the two related games;
//! - [`num`], [`rng`]: decimal digits without `core::fmt`, and the one seeded
//!   generator.
//!
//! Outside this crate: the tournament platform's wire, clients and referee
//! (`nimbot-platform`, also `no_std`), and the host's strategy, the `exploit`
//! policy's models and the arena (`nimbot-exploit`, with threads).
//!
//! # Errors
//! Opening a table checks its checksum and every header field ([`TableError`]); a
//! move that cannot be decided is a [`DecideError`]; the line protocol answers bad
//! input with one `error ...` line and never fails.
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
//! - `async`: `protocol::serve_async` over `embedded-io-async`.
//! - `related-games`: Fibonacci Nim and Super-Nim, also on the line protocol
//!   (protocol version 2; without it the protocol speaks Expanding Nim only).
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
pub mod protocol;
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

// What an embedder needs: a table, an engine on it, a session speaking the line
// protocol over its serial port, and the game's own types.
pub use engine::{Engine, TableEngine};
pub use policy::Policy;
#[cfg(feature = "async")]
pub use protocol::serve_async;
pub use protocol::{serve, Session};
pub use rules::{Game, Move, Outcome, Params, Player, Position};
pub use strategy::{DecideError, Decision};
pub use table::{Table, TableError};
pub use value::Value;

/// The crate version, as the line protocol reports it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
