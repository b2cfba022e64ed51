//! Whole games played on a host, as a library: what `nimbot connect`, `exp-nim`
//! and `serve` do during a game.
//!
//! - [`client`]: a tournament game's byte loop, over TCP or the `exp-nim` client;
//! - [`game_loop`]: the one game loop every referee of the wire runs on, with
//!   hooks for what differs (`nimbot serve`, each game of a tournament);
//! - [`serve`]: the referee's server for one game on it (with the platform's game
//!   log, whose format is `nimbot_analysis::game_log`);
//! - [`recorder`]: `--record`, a game watched while it is played and written as
//!   a record (`nimbot_analysis::record`) at the end;
//! - [`demo`]: a demonstration game, told move by move.
//!
//! Studying a game afterwards (records read, analysis, charts) is
//! `nimbot-analysis`'s; printing is the command line's. Nothing here is `no_std`:
//! the embedded core is the `nimbot` crate, and this crate only uses its host
//! features.

pub mod client;
pub mod demo;
pub mod game_loop;
pub mod recorder;
pub mod serve;
