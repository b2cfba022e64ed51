//! What the `nimbot` command does with whole games on a host, as a library:
//!
//! - [`client`]: a tournament game's byte loop, over TCP or the `exp-nim` client;
//! - [`serve`]: the referee's server for one game;
//! - [`record`]: the records it writes; [`game_log`]: the platform server's game
//!   log it writes and reads; [`analysis`]: a finished game replayed and judged;
//! - [`exploit_games`]: the exploit policy's decisions in games, which its
//!   benchmark re-times;
//! - [`json`]: the one JSON writer of its output;
//! - [`raster`]: pictures as PNG (a game's chart, `nimbot-table plot`'s map).
//!
//! These were files of the CLI; here integration tests and other tools can import
//! them and `cargo doc` shows them. The command line keeps its flags, its printing
//! and its exit statuses. Nothing here is `no_std`: the embedded core is the
//! `nimbot` crate, and this crate only uses its host features.

pub mod analysis;
pub mod client;
pub mod exploit_games;
pub mod game_log;
pub mod json;
pub mod raster;
pub mod record;
pub mod serve;
