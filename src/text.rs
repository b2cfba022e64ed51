//! Text in and out: decimal numbers without `core::fmt` ([`Decimal`],
//! [`parse_u32`], [`parse_u64`], [`parse_micros`], from `num.rs`), and the fixed text the line
//! protocol replies with (messages, words), kept where the
//! target keeps constants it rarely reads: in program memory on the AVR, whose 2 KB
//! of RAM would otherwise hold a copy of every message (see `nimbot_progmem`), and
//! as plain `&'static str` everywhere else.
//!
//! A [`Text`] is made by [`text!`] and read byte by byte
//! ([`Text::bytes`]) or, off the AVR, as a `&str` ([`Text::as_str`]). The error
//! types that the protocol reports have a `text()` beside their `as_str()`, and
//! their `Display` writes the text, so one string is the single source of both.

use core::fmt;

pub use crate::num::{parse_micros, parse_u32, parse_u64, Decimal};

#[cfg(target_arch = "avr")]
use nimbot_progmem::ProgMem;

/// A fixed piece of text: ASCII, from a string literal or constant.
#[derive(Clone, Copy)]
pub struct Text {
    #[cfg(not(target_arch = "avr"))]
    text: &'static str,
    #[cfg(target_arch = "avr")]
    text: &'static ProgMem<[u8]>,
}

impl Text {
    /// The text of a string constant (what `text!` expands to off the AVR).
    #[cfg(not(target_arch = "avr"))]
    #[doc(hidden)]
    pub const fn new(text: &'static str) -> Self {
        Text { text }
    }

    /// The text of a `progmem!` static (what `text!` expands to on the AVR).
    #[cfg(target_arch = "avr")]
    #[doc(hidden)]
    pub const fn in_progmem(text: &'static ProgMem<[u8]>) -> Self {
        Text { text }
    }

    /// The text, off the AVR (where it is ordinary memory).
    #[cfg(not(target_arch = "avr"))]
    pub const fn as_str(self) -> &'static str {
        self.text
    }

    /// Its length in bytes.
    pub const fn len(self) -> usize {
        self.text.len()
    }

    /// Whether it is empty.
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Its bytes, in order.
    pub fn bytes(self) -> impl Iterator<Item = u8> {
        #[cfg(not(target_arch = "avr"))]
        let bytes = self.text.bytes();
        // A counter up to the first byte `get` refuses (the length): a range of
        // indices compiled here to a 64-bit multiply of the length.
        #[cfg(target_arch = "avr")]
        let bytes = {
            let mut i = 0;
            core::iter::from_fn(move || {
                let b = self.text.get(i)?;
                i += 1;
                Some(b)
            })
        };
        bytes
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        #[cfg(not(target_arch = "avr"))]
        return f.write_str(self.text);
        #[cfg(target_arch = "avr")]
        return self
            .bytes()
            .try_for_each(|b| fmt::Write::write_char(f, char::from(b)));
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        #[cfg(not(target_arch = "avr"))]
        return fmt::Debug::fmt(self.text, f);
        #[cfg(target_arch = "avr")]
        return write!(f, "\"{self}\"");
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.len() == other.len() && self.bytes().eq(other.bytes())
    }
}

impl Eq for Text {}

/// The position of `word` among the words of `list` separated by `sep`: one loop
/// where a `match` on byte strings compiles to a comparison per byte (smaller code
/// for the command and policy names). The list is a [`Text`], so that on the AVR
/// it stays in program memory, not in RAM.
///
/// ```
/// use nimbot::text::{text, word_index};
/// assert_eq!(word_index(b"go", text!("new go opp"), b' '), Some(1));
/// assert_eq!(word_index(b"opp", text!("new go opp"), b' '), Some(2));
/// assert_eq!(word_index(b"g", text!("new go opp"), b' '), None);
/// assert_eq!(word_index(b"", text!("new go opp"), b' '), None);
/// ```
#[inline(never)]
pub fn word_index(word: &[u8], list: Text, sep: u8) -> Option<usize> {
    // The list word under way: its index, its bytes so far (`at`), and whether
    // they are the first `at` bytes of `word`.
    let (mut index, mut at, mut same) = (0usize, 0usize, true);
    for b in list.bytes().chain(Some(sep)) {
        if b == sep {
            if same && at == word.len() {
                return Some(index);
            }
            (index, at, same) = (index.saturating_add(1), 0, true);
        } else {
            same &= word.get(at) == Some(&b);
            at = at.saturating_add(1);
        }
    }
    None
}

/// The bytes of `text` as an array of its length (for `text!` on the AVR).
#[doc(hidden)]
pub const fn array_of<const N: usize>(text: &str) -> [u8; N] {
    let bytes = text.as_bytes();
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N && i < bytes.len() {
        out[i] = bytes[i];
        i += 1;
    }
    out
}

/// `text!("...")`: a [`Text`] of a string constant (a literal, or a `const` of
/// type `&str`), in program memory on the AVR.
///
/// ```
/// let greeting = nimbot::text!("nimbot ready");
/// assert!(greeting.bytes().eq(*b"nimbot ready"));
/// ```
#[macro_export]
macro_rules! text {
    ($text:expr) => {{
        #[cfg(not(target_arch = "avr"))]
        let text = $crate::text::Text::new($text);
        #[cfg(target_arch = "avr")]
        let text = {
            $crate::text::__progmem::progmem! {
                static TEXT = $crate::text::array_of::<{ $text.len() }>($text);
            }
            $crate::text::Text::in_progmem(&TEXT)
        };
        text
    }};
}

pub use text;

/// A `match` whose every arm is a fixed text, written as a plain string literal:
/// `match_text!(value, { PATTERN => "text", ... })` is the `match` with each string
/// made a [`Text`] by [`text!`](crate::text!), so the many "variant => message" lists
/// say only what differs. (Public for the line protocol's crate, `nimbot-protocol`.)
///
/// ```
/// use nimbot::{match_text, text::Text};
/// fn word(win: bool) -> Text {
///     match_text!(win, { true => "win", false => "lose" })
/// }
/// assert!(word(true).bytes().eq(*b"win"));
/// ```
#[macro_export]
macro_rules! match_text {
    ($value:expr, { $($pat:pat $(if $guard:expr)? => $text:literal),+ $(,)? }) => {
        match $value {
            $($pat $(if $guard)? => $crate::text!($text)),+
        }
    };
}

pub use match_text;

/// For `text!` on the AVR.
#[cfg(target_arch = "avr")]
#[doc(hidden)]
pub use nimbot_progmem as __progmem;

/// `as_str()`, the type's `text()` as a `&str`, for types that have a `text()` (not
/// on the AVR, whose text stays in program memory).
macro_rules! str_from_text {
    ($($t:ty),+ $(,)?) => {$(
        impl $t {
            /// The [`text`](Self::text) as a `&str` (not on the AVR, whose text
            /// stays in program memory).
            #[cfg(not(target_arch = "avr"))]
            pub const fn as_str(self) -> &'static str {
                self.text().as_str()
            }
        }
    )+};
}

pub(crate) use str_from_text;

/// `as_str()`, `Display` (the type's [`Text`]) and `core::error::Error` for error
/// types that have a `text()`.
macro_rules! error_from_text {
    ($($t:ty),+ $(,)?) => {$(
        $crate::text::str_from_text!($t);

        impl core::fmt::Display for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Display::fmt(&self.text(), f)
            }
        }

        impl core::error::Error for $t {}
    )+};
}

pub(crate) use error_from_text;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_reads_back_its_string() {
        let t = text!("usage: go");
        assert_eq!(t.as_str(), "usage: go");
        assert_eq!(t.len(), 9);
        assert!(t.bytes().eq("usage: go".bytes()));
        assert_eq!(std::format!("{t}"), "usage: go");
        assert_eq!(t, text!("usage: go"));
        assert_ne!(t, text!("usage: gone"));
        assert!(text!("").is_empty());
        assert_eq!(array_of::<3>("abc"), *b"abc");
    }
}
