//! What passes between the page and the module: the text the page writes in
//! ([`nb_input`]), the answers that come back (words in the buffer at [`nb_out`],
//! text at [`nb_text`]), the position the page's five numbers make, and why an
//! export gave no answer ([`Refusal`]).

use std::cell::RefCell;

use nimbot::Position;

/// The largest pile the page accepts: distances for every game up to it fit in
/// about 40 MB of the browser's memory (two bytes a position), the solver's bits
/// in less.
pub const MAX_STONES: u32 = 5_000;

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
    /// The distances handed to [`nb_load_distances`](crate::nb_load_distances) are not those of the
    /// table's box (or not a distances file at all).
    BadDistances = -7,
    /// The input is not what the export reads (moves, a record, a game log):
    /// why, in the text at [`nb_text`].
    Invalid = -8,
}

/// A distance nobody knows, in the buffer.
pub const UNKNOWN: u32 = u32::MAX;

thread_local! {
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

/// The last answer's words (host tests).
pub fn out_words() -> Vec<u32> {
    OUT.with(|out| out.borrow().clone())
}
