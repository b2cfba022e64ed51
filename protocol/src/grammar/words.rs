//! The words of a line: a phrase, tokens, numbers, lists of items, a seat, a flag.

use nimbot::text::{match_text, parse_u32, text, word_index, Text};
use nimbot::Player;

use crate::reply::Reply;

/// A piece of text in a reply: fixed text a session writes, or the bytes of a
/// parsed line. The two compare equal when they read the same.
#[derive(Clone, Copy, Debug)]
pub enum Phrase<'a> {
    /// Fixed text (in program memory on the AVR).
    Text(Text),
    /// Bytes of a parsed line.
    Bytes(&'a [u8]),
}

impl Phrase<'_> {
    pub(super) fn write(self, out: &mut Reply) {
        match self {
            Phrase::Text(t) => out.put(t),
            Phrase::Bytes(b) => out.put_bytes(b),
        }
    }
}

impl core::fmt::Display for Phrase<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Phrase::Text(t) => core::fmt::Display::fmt(&t, f),
            Phrase::Bytes(b) => b
                .iter()
                .try_for_each(|&b| core::fmt::Write::write_char(f, char::from(b))),
        }
    }
}

impl PartialEq for Phrase<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (*self, *other) {
            (Phrase::Text(a), Phrase::Text(b)) => a == b,
            (Phrase::Bytes(a), Phrase::Bytes(b)) => a == b,
            (Phrase::Text(t), Phrase::Bytes(b)) | (Phrase::Bytes(b), Phrase::Text(t)) => {
                t.len() == b.len() && t.bytes().eq(b.iter().copied())
            }
        }
    }
}

impl Eq for Phrase<'_> {}

/// One item of a [`List`]: read from a token, written as one.
pub trait Item: Copy {
    /// The byte between items (`,` in a list of heaps, a space in a list of moves).
    const SEPARATOR: u8;
    /// The item in `token`, if it is one.
    fn parse(token: &[u8]) -> Option<Self>;
    /// Writes the item.
    fn write(&self, out: &mut Reply);
}

/// A list of items in a command or a reply: the items a session has, or the
/// checked text of a parsed line (read again item by item). Compared item by item.
#[derive(Clone, Copy, Debug)]
pub struct List<'a, T> {
    items: &'a [T],
    text: &'a [u8],
}

impl<'a, T: Item> List<'a, T> {
    /// The list of these items.
    pub const fn of(items: &'a [T]) -> Self {
        List { items, text: &[] }
    }

    /// The list in `text`, if every item in it parses (a comma list has no empty
    /// items; a space list may have runs of spaces and tabs).
    pub(super) fn parse(text: &'a [u8]) -> Option<Self> {
        for token in Tokens::new(text, T::SEPARATOR) {
            T::parse(token?)?;
        }
        Some(List { items: &[], text })
    }

    /// The items, in order.
    pub fn iter(&self) -> impl Iterator<Item = T> + 'a {
        let parsed = Tokens::new(self.text, T::SEPARATOR).filter_map(|t| t.and_then(T::parse));
        self.items.iter().copied().chain(parsed)
    }

    /// Whether the list has no items.
    pub fn is_empty(&self) -> bool {
        // Only separators in a checked text: a space list's gaps.
        self.items.is_empty() && self.text.iter().all(|b| *b == b' ' || *b == b'\t')
    }

    /// Writes the items, or a parsed list's text as it came (checked when it was
    /// parsed: no item is read again, so a session's image holds no parser of it).
    pub(super) fn write(&self, out: &mut Reply) {
        for (i, item) in self.items.iter().enumerate() {
            if i > 0 {
                out.put_byte(T::SEPARATOR);
            }
            item.write(out);
        }
        out.put_bytes(self.text);
    }
}

impl<T: Item + PartialEq> PartialEq for List<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl<T: Item + Eq> Eq for List<'_, T> {}

/// The tokens of a list: split at `separator` (a comma: each token is there,
/// `None` for an empty one; a space: runs of spaces and tabs are one gap).
pub(super) struct Tokens<'a> {
    rest: Option<&'a [u8]>,
    separator: u8,
}

impl<'a> Tokens<'a> {
    pub(super) fn new(text: &'a [u8], separator: u8) -> Self {
        let rest = if separator == b' ' || !text.is_empty() {
            Some(text)
        } else {
            None
        };
        Tokens { rest, separator }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Option<&'a [u8]>;
    fn next(&mut self) -> Option<Option<&'a [u8]>> {
        let rest = self.rest?;
        if self.separator == b' ' {
            let mut words = Words::new(rest);
            let word = words.next();
            self.rest = Some(words.rest);
            return word.map(Some);
        }
        let (token, tail) = match rest.iter().position(|b| *b == self.separator) {
            Some(i) => (rest.get(..i), rest.get(i + 1..)),
            None => (Some(rest), None),
        };
        self.rest = tail;
        Some(token.filter(|t| !t.is_empty()))
    }
}

impl Item for u32 {
    const SEPARATOR: u8 = b',';
    fn parse(token: &[u8]) -> Option<Self> {
        parse_u32(token)
    }
    fn write(&self, out: &mut Reply) {
        out.put_num(*self);
    }
}

impl Item for u16 {
    const SEPARATOR: u8 = b',';
    fn parse(token: &[u8]) -> Option<Self> {
        u16::try_from(parse_u32(token)?).ok()
    }
    fn write(&self, out: &mut Reply) {
        out.put_num(u32::from(*self));
    }
}

/// Whitespace-separated tokens of one line.
#[derive(Clone)]
pub(super) struct Words<'a> {
    pub(super) rest: &'a [u8],
}

impl<'a> Words<'a> {
    pub(super) fn new(line: &'a [u8]) -> Self {
        Words { rest: line }
    }

    pub(super) fn next(&mut self) -> Option<&'a [u8]> {
        let is_space = |b: &u8| *b == b' ' || *b == b'\t';
        let start = self.rest.iter().position(|b| !is_space(b))?;
        let rest = self.rest.get(start..)?;
        let len = rest.iter().position(is_space).unwrap_or(rest.len());
        let (word, tail) = rest.split_at_checked(len)?;
        self.rest = tail;
        Some(word)
    }

    /// A decimal `u32` with no sign; `usage` when there is none.
    pub(super) fn number(&mut self, usage: Text) -> Result<u32, Text> {
        parse_u32(self.next().ok_or(usage)?).ok_or(text!("bad number"))
    }

    /// `N` decimal `u32`s in a row; `usage` when one is missing.
    pub(super) fn numbers<const N: usize>(&mut self, usage: Text) -> Result<[u32; N], Text> {
        let mut n = [0; N];
        for v in &mut n {
            *v = self.number(usage)?;
        }
        Ok(n)
    }

    /// `0` or `1`; `usage` when there is none.
    pub(super) fn flag(&mut self, usage: Text) -> Result<bool, Text> {
        match self.next().ok_or(usage)? {
            b"0" => Ok(false),
            b"1" => Ok(true),
            _ => Err(text!("flag must be 0 or 1")),
        }
    }

    /// The seat `first|second`; `usage` when it is missing or another word.
    pub(super) fn seat(&mut self, usage: Text) -> Result<Player, Text> {
        match self
            .next()
            .and_then(|w| word_index(w, text!("first second"), b' '))
        {
            Some(0) => Ok(Player::First),
            Some(1) => Ok(Player::Second),
            _ => Err(usage),
        }
    }

    pub(super) fn end(&mut self) -> Result<(), Text> {
        match self.next() {
            None => Ok(()),
            Some(_) => Err(text!("too many arguments")),
        }
    }

    /// The next word, if it is `want` (the words after it follow).
    pub(super) fn eat(&mut self, want: &[u8]) -> Option<&mut Self> {
        (self.next()? == want).then_some(self)
    }

    /// The next word as a number (a reply's: `None` for anything else).
    pub(super) fn num(&mut self) -> Option<u32> {
        parse_u32(self.next()?)
    }

    /// The next word as a small number.
    pub(super) fn small<T: TryFrom<u32>>(&mut self) -> Option<T> {
        T::try_from(self.num()?).ok()
    }

    /// The end of a reply.
    pub(super) fn done(&mut self) -> Option<()> {
        self.next().is_none().then_some(())
    }
}

pub(super) fn seat_text(seat: Player) -> Text {
    match_text!(seat, { Player::First => "first", Player::Second => "second" })
}

pub(super) fn flag(word: &[u8]) -> Option<bool> {
    match word {
        b"0" => Some(false),
        b"1" => Some(true),
        _ => None,
    }
}
