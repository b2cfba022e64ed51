//! Adapters for the tournament platform, fenced off from the core: everything here
//! speaks the platform's wire (JSON objects over TCP, or the `exp-nim` text
//! client's lines) and nothing in the core depends on it. Still `no_std`, heap-free
//! and panic-free: the tiny binary plays tournaments with it.
//!
//! - [`wire`]: what both ends agree on (limits, reasons, a game's result);
//! - [`json`]: the JSON stream (splitter, reader, writer);
//! - [`tcp_client`]: the bot's side of a game on the TCP server;
//! - [`text_client`]: the bot's side of a game through `exp-nim`;
//! - [`referee`]: the server's side, judging a game between two clients.
//!
//! The messages these state machines hand back are `heapless::Vec` buffers of fixed
//! capacity (heapless 0.8): with the `platform` feature, heapless is part of this
//! module's contract, so an adapter can keep or extend a message without a copy.

pub mod json;
pub mod referee;
pub mod tcp_client;
pub mod text_client;
pub mod wire;
