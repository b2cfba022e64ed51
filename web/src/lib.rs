//! nimbot in the browser: the core and `nimbot-analysis` compiled to WebAssembly with
//! plain `extern "C"` exports, read by a small hand-written script
//! (`web/site/app.js`), which draws the answers and wires the page's events.
//!
//! Every answer the page shows is the command line's, from the same code: a
//! position's moves with their values and distances in `nimbot moves`' order
//! ([`nb_moves`]), the position after a move ([`nb_after`]) or after the moves of
//! a permalink ([`nb_replay`]), the best line ([`nb_line`]), nimbot's move under
//! a policy of [`Policy::ALL`](nimbot::Policy::ALL) ([`nb_policies`], [`nb_decide`]), a game's record
//! ([`nb_record`]), and the analysis of a record or game log with its chart
//! ([`nb_analyze`], [`nb_chart`]).
//!
//! Why no wasm-bindgen: numbers go in as arguments and come back in one buffer of
//! `u32`s ([`nb_out`]); text goes in through [`nb_input`] and comes back as UTF-8
//! ([`nb_text`], [`nb_text_len`]). Plain exports keep the module free of glue code
//! and the build free of a `wasm-bindgen-cli` that must match the library's
//! version (installed from crates.io on every fresh CI machine).
//!
//! The engine: the default table (N <= 999, R <= 4, M = 3, embedded: 1,772 bytes)
//! answers values at once; distances and every game beyond the table come from
//! the solver, within [`SOLVER_BUDGET`] bytes, for piles up to [`MAX_STONES`].
//!
//! Every export answers with a number: >= 0 for an answer (its parts in the
//! buffer at [`nb_out`] or the text at [`nb_text`]), < 0 for an error
//! ([`Refusal`]; [`Refusal::Invalid`] says why in the text). Nothing here panics
//! on any input: positions are validated by the core, which returns typed errors.
//!
//! The one exception to the workspace's `unsafe_code = "deny"`: the exports'
//! `#[no_mangle]`, which the lint counts as unsafe because two libraries exporting
//! one name would clash at link time. Here the names (`nb_*`) are the page's
//! imports and the module links nothing else that exports them; there is no
//! `unsafe` block.

#![allow(unsafe_code)]

mod distances;
mod engine;
mod exchange;
mod expanding;
mod related;
#[cfg(test)]
mod tests;

pub use distances::{decode_distances, encode_distances, nb_load_distances, table_box_distances};
pub use engine::{WebEngine, SOLVER_BUDGET};
pub use exchange::{
    nb_input, nb_max_stones, nb_out, nb_text, nb_text_len, out_words, Refusal, MAX_STONES, UNKNOWN,
};
pub use expanding::{
    nb_after, nb_analysis_moves, nb_analyze, nb_chart, nb_decide, nb_limit, nb_line, nb_line_json,
    nb_moves, nb_play, nb_policies, nb_record, nb_replay,
};
pub use related::{nb_fib, nb_fib_decide, nb_sn, nb_sn_decide, SN_ENTRIES, SN_NODES};
