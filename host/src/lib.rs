//! What the `nimbot` command does with whole games on a host, as a library: the
//! records it writes ([`record`]), the platform server's game log it writes and
//! reads ([`game_log`]), the analysis of a finished game ([`analysis`]), the
//! referee's server for one game ([`serve`]), and the one JSON writer of its output
//! ([`json`]).
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
pub mod record;
pub mod serve;
pub mod win;
