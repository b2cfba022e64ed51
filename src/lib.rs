//! Perfect play for *Expanding Nim with resets*, with no heap and no panics.
//!
//! The crate is `#![no_std]` (but for the host feature `exploit`). A precomputed [`Table`] (a few KB of flash) knows
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
//! - `platform` (feature `platform`): the tournament platform's JSON wire, its TCP
//!   and text clients and a referee;
//! - `exploit`, `models`, `arena` (feature `exploit`, with the standard library):
//!   the host engine that plays every policy, the wrong models the `exploit` policy
//!   weighs, and the arena that measures the policies against fallible opponents.
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
//! - `std` (default): `alloc`, for hosts. The host binary `nimbot` is a package of
//!   its own (`cli/`), so no feature pulls its dependencies.
//! - `alloc`: the exact solver, distances and `engine::SolvingEngine` (needs a
//!   global allocator only).
//! - `async`: `protocol::serve_async` over `embedded-io-async`.
//! - `related-games`: Fibonacci Nim and Super-Nim, also on the line protocol
//!   (protocol version 2; without it the protocol speaks Expanding Nim only).
//! - `platform`: the tournament platform's adapters (no allocation).
//! - `serde`: `serde::Serialize` for [`Position`] (its six numbers by name).
//! - `encode`: the table writer (`table::encode` and friends), for `nimbot-table`.
//! - `num`: decimal digits without `core::fmt` (`num`), for nimbot's own firmware
//!   and tiny binary.
//! - `exploit`: `std`, and the `exploit`, `models` and `arena` modules, the host's
//!   strategy (the crate then links the standard library: threads).
#![cfg_attr(not(any(test, feature = "exploit")), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

#[cfg(feature = "exploit")]
pub mod arena;
#[cfg(feature = "alloc")]
pub mod distance;
pub mod engine;
#[cfg(any(feature = "alloc", feature = "platform"))]
mod error;
#[cfg(feature = "exploit")]
pub mod exploit;
#[cfg(feature = "related-games")]
pub mod fibonacci;
mod geometry;
#[cfg(feature = "exploit")]
pub mod models;
#[cfg(feature = "num")]
pub mod num;
#[cfg(not(feature = "num"))]
mod num;
#[cfg(feature = "platform")]
pub mod platform;
pub mod policy;
pub mod probe;
pub mod protocol;
#[cfg(any(feature = "related-games", feature = "exploit"))]
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
