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

use std::cell::RefCell;

use nimbot::Position;
use nimbot_solve::Distances;

mod distances;
mod engine;
mod expanding;
mod related;
#[cfg(test)]
mod tests;

pub use distances::{decode_distances, encode_distances, nb_load_distances};
pub use engine::WebEngine;
pub use expanding::{
    nb_after, nb_analysis_moves, nb_analyze, nb_chart, nb_decide, nb_limit, nb_line, nb_line_json,
    nb_moves, nb_play, nb_policies, nb_record, nb_replay,
};
pub use related::{nb_fib, nb_fib_decide, nb_sn, nb_sn_decide, SN_ENTRIES, SN_NODES};

/// The embedded table's bytes.
pub(crate) const TABLE: &[u8] = include_bytes!("../../table/default.nimt");

/// The largest pile the page accepts: distances for every game up to it fit in
/// about 40 MB of the browser's memory (two bytes a position), the solver's bits
/// in less.
pub const MAX_STONES: u32 = 5_000;

/// The solver's memory at its peak, beyond the table.
pub const SOLVER_BUDGET: u64 = 64 << 20;

/// Why an export gave no answer (the negative numbers it returns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Refusal {
    /// Not a position (stones 0, cap below M, too many resets, a flag not 0/1).
    BadPosition = -1,
    /// More stones than [`MAX_STONES`].
    TooLarge = -2,
    /// The move is not legal here (take outside 1..=limit).
    BadTake = -3,
    /// A reset with none left.
    NoResetsLeft = -4,
    /// The engine could not answer (beyond its memory, say).
    Engine = -5,
    /// A policy number the page does not know.
    BadPolicy = -6,
    /// The distances handed to [`nb_load_distances`] are not those of the
    /// table's box (or not a distances file at all).
    BadDistances = -7,
    /// The input is not what the export reads (moves, a record, a game log):
    /// why, in the text at [`nb_text`].
    Invalid = -8,
}

/// A distance nobody knows, in the buffer.
pub const UNKNOWN: u32 = u32::MAX;

thread_local! {
    pub(crate) static ENGINE: RefCell<Option<WebEngine>> = const { RefCell::new(None) };
    pub(crate) static OUT: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    pub(crate) static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    pub(crate) static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Room for `len` bytes the page writes into the module (the distances file, a
/// policy's name, moves, a record or a game log): where they go, or 0 if the
/// memory cannot be had. Write them before any other call (memory may grow and
/// move), then call the export that reads them; it takes them.
#[no_mangle]
pub extern "C" fn nb_input(len: u32) -> u32 {
    SCRATCH.with(|cell| {
        let mut scratch = cell.borrow_mut();
        scratch.clear();
        let len = len as usize;
        if scratch.try_reserve_exact(len).is_err() {
            return 0;
        }
        scratch.resize(len, 0);
        scratch.as_ptr() as usize as u32
    })
}

/// What the page wrote at [`nb_input`], taken.
pub(crate) fn take_input() -> Vec<u8> {
    SCRATCH.with(|cell| core::mem::take(&mut *cell.borrow_mut()))
}

/// The input as text, or why not (in the text answer).
pub(crate) fn input_text() -> Result<String, Refusal> {
    String::from_utf8(take_input()).map_err(|_| invalid("the input is not UTF-8 text"))
}

/// Put `text` in the text answer.
pub(crate) fn say(text: &str) {
    TEXT.with(|t| {
        let mut t = t.borrow_mut();
        t.clear();
        t.push_str(text);
    });
}

/// [`Refusal::Invalid`], with `why` in the text answer.
pub(crate) fn invalid(why: &str) -> Refusal {
    say(why);
    Refusal::Invalid
}

/// `text` as the answer: its length in bytes.
pub(crate) fn text_answer(text: &str) -> Result<i32, Refusal> {
    say(text);
    i32::try_from(text.len()).map_err(|_| invalid("the answer is too long"))
}

/// Where the last text answer's UTF-8 bytes are (read them before the next call).
#[no_mangle]
pub extern "C" fn nb_text() -> u32 {
    TEXT.with(|t| t.borrow().as_ptr() as usize as u32)
}

/// The last text answer's length in bytes.
#[no_mangle]
pub extern "C" fn nb_text_len() -> u32 {
    TEXT.with(|t| t.borrow().len() as u32)
}

/// The engine, made on first use.
pub(crate) fn with_engine<T>(f: impl FnOnce(&mut WebEngine) -> T) -> T {
    ENGINE.with(|cell| f(cell.borrow_mut().get_or_insert_with(WebEngine::new)))
}

/// Put `words` in the buffer.
pub(crate) fn answer(words: &[u32]) {
    OUT.with(|out| {
        let mut out = out.borrow_mut();
        out.clear();
        out.extend_from_slice(words);
    });
}

/// Where the last answer's words are (read them before the next call: memory may
/// grow and move).
#[no_mangle]
pub extern "C" fn nb_out() -> u32 {
    OUT.with(|out| out.borrow().as_ptr() as usize as u32)
}

/// [`MAX_STONES`], for the page's forms.
#[no_mangle]
pub extern "C" fn nb_max_stones() -> u32 {
    MAX_STONES
}

/// The five numbers and M as a position the page accepts.
pub(crate) fn position(
    s: u32,
    c: u32,
    a: u32,
    b: u32,
    f: u32,
    m: u32,
) -> Result<Position, Refusal> {
    let a = u8::try_from(a).map_err(|_| Refusal::BadPosition)?;
    let b = u8::try_from(b).map_err(|_| Refusal::BadPosition)?;
    let f = match f {
        0 => false,
        1 => true,
        _ => return Err(Refusal::BadPosition),
    };
    let pos = Position::new(s, c, a, b, f, m).map_err(|_| Refusal::BadPosition)?;
    if s > MAX_STONES {
        return Err(Refusal::TooLarge);
    }
    Ok(pos)
}

pub(crate) fn word(won: bool) -> u32 {
    u32::from(won)
}

pub(crate) fn distance(d: Option<u16>) -> u32 {
    d.map_or(UNKNOWN, u32::from)
}

pub(crate) fn code(r: Result<i32, Refusal>) -> i32 {
    r.unwrap_or_else(|e| e as i32)
}

/// The distances of the embedded table's box, solved (what the site's
/// `distances.bin` holds).
///
/// # Errors
/// The solver's, if the box cannot be solved here.
pub fn table_box_distances() -> Result<Distances, nimbot_solve::SolveError> {
    Distances::solve(WebEngine::new().table_box)
}

/// The last answer's words (host tests).
pub fn out_words() -> Vec<u32> {
    OUT.with(|out| out.borrow().clone())
}
