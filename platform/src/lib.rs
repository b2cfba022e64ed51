//! nimbot on the tournament platform: everything here speaks the platform's wire
//! (JSON objects over TCP, or the `exp-nim` text client's lines), and the core crate
//! (`nimbot`) knows nothing of it. `no_std`, heap-free and panic-free like the core:
//! the tiny binary plays tournaments with it.
//!
//! - [`wire`]: what both ends agree on (limits, reasons, a game's result);
//! - [`json`]: the JSON stream (splitter, reader, writer);
//! - [`tcp_client`]: the bot's side of a game on the TCP server;
//! - [`text_client`]: the bot's side of a game through `exp-nim`;
//! - [`referee`]: the server's side, judging a game between two clients.
//!
//! The messages these state machines hand back are `heapless::Vec` buffers of fixed
//! capacity (heapless 0.8): heapless is part of this crate's contract, so an adapter can keep or extend a message without a copy.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod json;
pub mod referee;
pub mod tcp_client;
pub mod text_client;
pub mod wire;

#[cfg(test)]
mod take_one;

// The unit tests collect with the standard library; the crate never does.
#[cfg(test)]
extern crate std;
