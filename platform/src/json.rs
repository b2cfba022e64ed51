//! Just enough JSON for the tournament platform, with fixed buffers and no panics.
//!
//! The platform writes bare JSON objects on a TCP stream with no framing (see
//! docs/tournament.md): one read may hold two objects, or half of one. Three pieces cover
//! what nimbot needs:
//! - [`Splitter`] takes bytes one at a time and yields complete top-level objects,
//!   tracking strings and escapes so braces inside strings do not count. Oversized,
//!   too deep or stray input gives a typed [`SplitError`] once, and the splitter
//!   resynchronises by itself (it skips the rest of a bad object and drops stray
//!   bytes between objects), so the caller chooses to carry on or to fail.
//! - [`Object`] validates one complete object and looks up fields by key: integers,
//!   booleans, null, strings (raw, escapes left in place) and nested objects or
//!   arrays (as raw text, which can be read again as an [`Object`]). Unknown keys and
//!   any JSON whitespace are accepted; a repeated key reads as its last value, like
//!   Python's `json.loads`.
//! - [`Writer`] builds small objects in a fixed buffer without `core::fmt`.
//!
//! Written by hand rather than with `serde-json-core`: the splitter is the part that
//! matters (no crate splits an unframed stream), the reader needs only a handful of
//! typed look-ups, and the whole module stays small enough for the tiny static binary.
//! Keys are compared byte for byte, so a key spelled with escapes (`"n\u0061me"`)
//! does not match `name`; the platform never escapes its keys.

use heapless::Vec;

use nimbot::text::Decimal;

/// Deepest nesting of objects and arrays accepted (the platform uses 2).
pub const MAX_DEPTH: usize = 16;

/// Why the splitter refused some input. Each problem is reported once; the splitter
/// has already resynchronised when it returns the error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SplitError {
    /// An object is longer than the buffer; the rest of it will be skipped.
    Oversize,
    /// Objects or arrays nested deeper than [`MAX_DEPTH`]; the rest of the object
    /// will be skipped.
    TooDeep,
    /// A byte outside any object that is neither whitespace nor `{`; it was dropped.
    Garbage(u8),
}

nimbot::error_from_as_str!(SplitError, JsonError);

impl SplitError {
    /// A short, static description.
    pub const fn as_str(self) -> &'static str {
        match self {
            SplitError::Oversize => "message too long",
            SplitError::TooDeep => "message nested too deep",
            SplitError::Garbage(_) => "bytes outside a JSON object",
        }
    }
}

/// What one byte did to the splitter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feed {
    /// Nothing complete yet (or whitespace between objects).
    Pending,
    /// A whole object is ready in [`Splitter::object`] until the next byte is fed.
    Complete,
}

/// Splits an unframed byte stream into top-level JSON objects, holding at most `N`
/// bytes of one object.
#[derive(Clone, Debug)]
pub struct Splitter<const N: usize> {
    buf: Vec<u8, N>,
    depth: usize,
    in_string: bool,
    escape: bool,
    skipping: bool,
    ready: bool,
}

impl<const N: usize> Default for Splitter<N> {
    fn default() -> Self {
        Splitter {
            buf: Vec::new(),
            depth: 0,
            in_string: false,
            escape: false,
            skipping: false,
            ready: false,
        }
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

impl<const N: usize> Splitter<N> {
    /// An empty splitter.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed one byte. After [`Feed::Complete`] the object is in [`Splitter::object`]
    /// until the next call.
    pub fn feed(&mut self, b: u8) -> Result<Feed, SplitError> {
        if self.ready {
            self.buf.clear();
            self.ready = false;
        }
        if self.depth == 0 {
            return match b {
                b'{' => {
                    self.depth = 1;
                    self.in_string = false;
                    self.escape = false;
                    self.skipping = false;
                    self.store(b)
                }
                b if is_ws(b) => Ok(Feed::Pending),
                other => Err(SplitError::Garbage(other)),
            };
        }
        let mut closed = false;
        let mut too_deep = false;
        if self.in_string {
            if self.escape {
                self.escape = false;
            } else if b == b'\\' {
                self.escape = true;
            } else if b == b'"' {
                self.in_string = false;
            }
        } else {
            match b {
                b'"' => self.in_string = true,
                b'{' | b'[' => {
                    self.depth = self.depth.saturating_add(1);
                    too_deep = self.depth > MAX_DEPTH;
                }
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    closed = self.depth == 0;
                }
                _ => {}
            }
        }
        if self.skipping {
            if closed {
                self.skipping = false;
            }
            return Ok(Feed::Pending);
        }
        if too_deep {
            return Err(self.start_skipping(SplitError::TooDeep));
        }
        self.store(b)?;
        if closed {
            self.ready = true;
            return Ok(Feed::Complete);
        }
        Ok(Feed::Pending)
    }

    fn store(&mut self, b: u8) -> Result<Feed, SplitError> {
        if self.buf.push(b).is_err() {
            return Err(self.start_skipping(SplitError::Oversize));
        }
        Ok(Feed::Pending)
    }

    fn start_skipping(&mut self, e: SplitError) -> SplitError {
        self.buf.clear();
        self.skipping = self.depth > 0;
        e
    }

    /// The object completed by the last byte fed, if it completed one.
    pub fn object(&self) -> Option<&[u8]> {
        if self.ready {
            Some(&self.buf)
        } else {
            None
        }
    }

    /// True when no object is partly received (so an end of stream here loses nothing).
    pub fn is_idle(&self) -> bool {
        self.depth == 0
    }

    /// Forget everything, partial object included.
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

/// Why an object could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonError {
    /// Not well-formed JSON (or not an object at the top level).
    Syntax,
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
}

impl JsonError {
    /// A short, static description.
    pub const fn as_str(self) -> &'static str {
        match self {
            JsonError::Syntax => "malformed JSON",
            JsonError::TooDeep => "JSON nested too deep",
        }
    }
}

/// One JSON value inside a validated [`Object`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written (also Python's `NaN`, `Infinity`, `-Infinity`).
    Number(&'a [u8]),
    /// A string's contents between the quotes, escapes left as written.
    Str(&'a [u8]),
    /// A nested object, braces included; read it with [`Object::parse`].
    Object(&'a [u8]),
    /// An array, brackets included.
    Array(&'a [u8]),
}

impl<'a> Value<'a> {
    /// A non-negative integer written with digits only that fits a `u32`.
    pub fn as_u32(&self) -> Option<u32> {
        match self {
            Value::Number(n) => nimbot::text::parse_u32(n),
            _ => None,
        }
    }

    /// A non-negative number of seconds, written with digits and at most one decimal
    /// point as the platform's clocks print them, in microseconds
    /// ([`parse_micros`](nimbot::text::parse_micros)).
    pub fn as_micros(&self) -> Option<u64> {
        match self {
            Value::Number(n) => nimbot::text::parse_micros(n),
            _ => None,
        }
    }

    /// The boolean, if this is `true` or `false`.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The raw string contents, if this is a string.
    pub fn as_str(&self) -> Option<&'a [u8]> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The nested object, if this is one.
    pub fn as_object(&self) -> Option<Object<'a>> {
        match self {
            Value::Object(text) => Object::parse(text).ok(),
            _ => None,
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
}

/// A validated JSON object, read field by field without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Object<'a> {
    text: &'a [u8],
}

impl<'a> Object<'a> {
    /// Validate `text` as exactly one JSON object (surrounding whitespace allowed).
    pub fn parse(text: &'a [u8]) -> Result<Self, JsonError> {
        let mut c = Cursor { s: text, i: 0 };
        c.ws();
        match c.value(0)? {
            Value::Object(_) => {}
            _ => return Err(JsonError::Syntax),
        }
        c.ws();
        if c.i != text.len() {
            return Err(JsonError::Syntax);
        }
        Ok(Object { text })
    }

    /// The value of `key` (its last occurrence), or `None` if absent.
    pub fn get(&self, key: &str) -> Option<Value<'a>> {
        let mut found = None;
        let mut c = Cursor { s: self.text, i: 0 };
        c.ws();
        c.eat(b'{').ok()?;
        c.ws();
        if c.eat(b'}').is_ok() {
            return None;
        }
        loop {
            c.ws();
            let k = c.string().ok()?;
            c.ws();
            c.eat(b':').ok()?;
            c.ws();
            let v = c.value(1).ok()?;
            if k == key.as_bytes() {
                found = Some(v);
            }
            c.ws();
            if c.eat(b',').is_err() {
                return found;
            }
        }
    }

    /// The object's text as given to [`Object::parse`].
    pub fn text(&self) -> &'a [u8] {
        self.text
    }
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.i = self.i.saturating_add(1);
        Some(b)
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(is_ws) {
            self.i = self.i.saturating_add(1);
        }
    }

    fn eat(&mut self, b: u8) -> Result<(), JsonError> {
        if self.peek() == Some(b) {
            self.i = self.i.saturating_add(1);
            Ok(())
        } else {
            Err(JsonError::Syntax)
        }
    }

    fn literal(&mut self, word: &[u8]) -> Result<(), JsonError> {
        let end = self.i.checked_add(word.len()).ok_or(JsonError::Syntax)?;
        if self.s.get(self.i..end) == Some(word) {
            self.i = end;
            Ok(())
        } else {
            Err(JsonError::Syntax)
        }
    }

    fn slice(&self, from: usize) -> &'a [u8] {
        self.s.get(from..self.i).unwrap_or(&[])
    }

    /// A string; returns its contents between the quotes.
    fn string(&mut self) -> Result<&'a [u8], JsonError> {
        self.eat(b'"')?;
        let start = self.i;
        loop {
            let b = self.bump().ok_or(JsonError::Syntax)?;
            match b {
                b'"' => {
                    let end = self.i.saturating_sub(1);
                    return Ok(self.s.get(start..end).unwrap_or(&[]));
                }
                b'\\' => match self.bump().ok_or(JsonError::Syntax)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                    b'u' => {
                        for _ in 0..4 {
                            let h = self.bump().ok_or(JsonError::Syntax)?;
                            if !h.is_ascii_hexdigit() {
                                return Err(JsonError::Syntax);
                            }
                        }
                    }
                    _ => return Err(JsonError::Syntax),
                },
                b if b < 0x20 => return Err(JsonError::Syntax),
                _ => {}
            }
        }
    }

    fn digits(&mut self) -> usize {
        let mut n = 0usize;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i = self.i.saturating_add(1);
            n = n.saturating_add(1);
        }
        n
    }

    fn number(&mut self) -> Result<&'a [u8], JsonError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i = self.i.saturating_add(1);
            if self.peek() == Some(b'I') {
                self.literal(b"Infinity")?;
                return Ok(self.slice(start));
            }
        }
        match self.peek() {
            Some(b'0') => self.i = self.i.saturating_add(1),
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(JsonError::Syntax),
        }
        if self.peek() == Some(b'.') {
            self.i = self.i.saturating_add(1);
            if self.digits() == 0 {
                return Err(JsonError::Syntax);
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i = self.i.saturating_add(1);
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i = self.i.saturating_add(1);
            }
            if self.digits() == 0 {
                return Err(JsonError::Syntax);
            }
        }
        Ok(self.slice(start))
    }

    /// The members of an object (`keyed`: `"key": value` pairs) or an array after its
    /// opening bracket, through the `close` bracket.
    fn members(&mut self, close: u8, depth: usize, keyed: bool) -> Result<(), JsonError> {
        self.i = self.i.saturating_add(1);
        self.ws();
        if self.eat(close).is_ok() {
            return Ok(());
        }
        loop {
            self.ws();
            if keyed {
                self.string()?;
                self.ws();
                self.eat(b':')?;
                self.ws();
            }
            self.value(depth.saturating_add(1))?;
            self.ws();
            if self.eat(b',').is_err() {
                return self.eat(close);
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value<'a>, JsonError> {
        if depth >= MAX_DEPTH {
            return Err(JsonError::TooDeep);
        }
        let start = self.i;
        match self.peek().ok_or(JsonError::Syntax)? {
            b'n' => self.literal(b"null").map(|()| Value::Null),
            b't' => self.literal(b"true").map(|()| Value::Bool(true)),
            b'f' => self.literal(b"false").map(|()| Value::Bool(false)),
            b'N' => self
                .literal(b"NaN")
                .map(|()| Value::Number(self.slice(start))),
            b'I' => self
                .literal(b"Infinity")
                .map(|()| Value::Number(self.slice(start))),
            b'"' => self.string().map(Value::Str),
            b'{' => self
                .members(b'}', depth, true)
                .map(|()| Value::Object(self.slice(start))),
            b'[' => self
                .members(b']', depth, false)
                .map(|()| Value::Array(self.slice(start))),
            _ => self.number().map(Value::Number),
        }
    }
}

/// The output did not fit its fixed buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

impl Overflow {
    /// A short, static description.
    pub const fn as_str(self) -> &'static str {
        "message does not fit its buffer"
    }
}

nimbot::error_from_as_str!(Overflow);

/// Builds a short JSON (or text) message in a fixed buffer of `N` bytes, without
/// `core::fmt`. Writes past the end are dropped and remembered: [`Writer::finish`]
/// then fails.
#[derive(Clone, Debug)]
pub struct Writer<const N: usize> {
    buf: Vec<u8, N>,
    overflow: bool,
}

impl<const N: usize> Default for Writer<N> {
    fn default() -> Self {
        Writer {
            buf: Vec::new(),
            overflow: false,
        }
    }
}

impl<const N: usize> Writer<N> {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Append raw bytes.
    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        if self.buf.extend_from_slice(bytes).is_err() {
            self.overflow = true;
        }
        self
    }

    /// Append a decimal number.
    pub fn num(&mut self, n: u64) -> &mut Self {
        self.raw(&Decimal::new(n))
    }

    /// Append `true` or `false`.
    pub fn boolean(&mut self, b: bool) -> &mut Self {
        self.raw(if b { b"true" } else { b"false" })
    }

    /// Append a JSON string literal holding `text`: quotes, backslashes and control
    /// bytes are escaped; other bytes are copied.
    pub fn string(&mut self, text: &[u8]) -> &mut Self {
        self.raw(b"\"");
        for &b in text {
            match b {
                b'"' => self.raw(b"\\\""),
                b'\\' => self.raw(b"\\\\"),
                b'\n' => self.raw(b"\\n"),
                b if b < 0x20 => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    let hi = HEX.get(usize::from(b >> 4)).copied().unwrap_or(b'0');
                    let lo = HEX.get(usize::from(b & 15)).copied().unwrap_or(b'0');
                    self.raw(&[b'\\', b'u', b'0', b'0', hi, lo])
                }
                b => self.raw(&[b]),
            };
        }
        self.raw(b"\"")
    }

    /// Seconds given in microseconds, as Python prints a float (`0.0`, `1.25`,
    /// `0.012345`): at most six decimals, trailing zeros dropped but one kept; below
    /// 0.0001 in Python's exponent form (`7e-06`, `1.2e-05`).
    pub fn seconds(&mut self, micros: u64) -> &mut Self {
        if (1..10).contains(&micros) {
            return self.num(micros).raw(b"e-06");
        }
        if (10..100).contains(&micros) {
            self.num(micros / 10);
            if micros % 10 != 0 {
                self.raw(b".").num(micros % 10);
            }
            return self.raw(b"e-05");
        }
        self.num(micros / 1_000_000);
        self.raw(b".");
        let mut frac = micros % 1_000_000;
        let mut width = 6;
        while width > 1 && frac % 10 == 0 {
            frac /= 10;
            width -= 1;
        }
        self.raw(&Decimal::padded(frac, width))
    }

    /// The bytes so far (possibly truncated).
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// The finished message, or [`Overflow`] if anything was dropped.
    pub fn finish(self) -> Result<Vec<u8, N>, Overflow> {
        if self.overflow {
            Err(Overflow)
        } else {
            Ok(self.buf)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec as StdVec;

    fn split_all<const N: usize>(
        s: &mut Splitter<N>,
        bytes: &[u8],
    ) -> (StdVec<StdVec<u8>>, StdVec<SplitError>) {
        let mut objs = StdVec::new();
        let mut errs = StdVec::new();
        for &b in bytes {
            match s.feed(b) {
                Ok(Feed::Complete) => objs.push(s.object().unwrap().to_vec()),
                Ok(Feed::Pending) => {}
                Err(e) => errs.push(e),
            }
        }
        (objs, errs)
    }

    const STATE: &[u8] = br#"{"finished": false, "reason": null, "winner": null, "current_max": 4, "stones_left": 92, "stones_removed": 3, "reset_used": false, "player_0": {"resets_left": 4, "time_taken": 0.0123, "name": "al}ice"}, "player_1": {"resets_left": 4, "time_taken": 0.0, "name": "b\"{ob"}}"#;

    #[test]
    fn every_split_offset_and_coalescing() {
        let welcome = br#"{"init_stones": 100, "init_resets": 4}"#;
        let mut stream = StdVec::new();
        stream.extend_from_slice(welcome);
        stream.extend_from_slice(STATE);
        stream.extend_from_slice(b" \n");
        stream.extend_from_slice(STATE);
        for cut in 0..=stream.len() {
            let mut s: Splitter<512> = Splitter::new();
            let (mut objs, errs) = split_all(&mut s, &stream[..cut]);
            let (more, errs2) = split_all(&mut s, &stream[cut..]);
            objs.extend(more);
            assert!(errs.is_empty() && errs2.is_empty());
            assert_eq!(objs.len(), 3, "cut {cut}");
            assert_eq!(objs[0], welcome);
            assert_eq!(objs[1], STATE);
            assert_eq!(objs[2], STATE);
            assert!(s.is_idle());
        }
    }

    #[test]
    fn oversize_and_garbage_resynchronise() {
        let mut s: Splitter<16> = Splitter::new();
        let (objs, errs) = split_all(&mut s, br#"x{"a": "}}}}}}}}}}}}}}}}}}}}"}{"b": 1}"#);
        assert_eq!(errs, [SplitError::Garbage(b'x'), SplitError::Oversize]);
        assert_eq!(objs, [br#"{"b": 1}"#.to_vec()]);
        let deep = [b'['; 40];
        let mut s: Splitter<256> = Splitter::new();
        let mut input = StdVec::from(&b"{\"a\":"[..]);
        input.extend_from_slice(&deep);
        input.extend_from_slice(&[b']'; 40]);
        input.extend_from_slice(b"}{}");
        let (objs, errs) = split_all(&mut s, &input);
        assert_eq!(errs, [SplitError::TooDeep]);
        assert_eq!(objs, [b"{}".to_vec()]);
        let (_, errs) = split_all(&mut s, b"}");
        assert_eq!(errs, [SplitError::Garbage(b'}')]);
    }

    #[test]
    fn reads_fields() {
        let o = Object::parse(STATE).unwrap();
        assert_eq!(o.get("finished"), Some(Value::Bool(false)));
        assert!(o.get("reason").unwrap().is_null());
        assert_eq!(o.get("stones_left").unwrap().as_u32(), Some(92));
        let p1 = o.get("player_1").unwrap().as_object().unwrap();
        assert_eq!(p1.get("name").unwrap().as_str(), Some(&br#"b\"{ob"#[..]));
        assert_eq!(p1.get("time_taken"), Some(Value::Number(b"0.0")));
        assert_eq!(o.get("missing"), None);
        let o = Object::parse(b" {\"a\":1,\"a\" :\t-2.5e3 , \"b\":[1,{\"c\":[]}]}\n").unwrap();
        assert_eq!(o.get("a"), Some(Value::Number(b"-2.5e3")));
        assert_eq!(o.get("a").unwrap().as_u32(), None);
        assert_eq!(o.get("a").unwrap().as_micros(), None);
        assert_eq!(p1.get("time_taken").unwrap().as_micros(), Some(0));
        // The digits are parse_micros's (tested with the core's numbers).
        let o = Object::parse(b"{\"t\": 61.250013, \"s\": \"1\", \"e\": 1e3}").unwrap();
        assert_eq!(o.get("t").unwrap().as_micros(), Some(61_250_013));
        assert_eq!(o.get("s").unwrap().as_micros(), None);
        assert_eq!(o.get("e").unwrap().as_micros(), None);
        for bad in [
            &b"{"[..],
            b"{\"a\"}",
            b"{\"a\":}",
            b"{\"a\":1,}",
            b"{\"a\":01}",
            b"{\"a\":\"\\x\"}",
            b"{\"a\":1}}",
            b"[1]",
            b"{\"a\":tru}",
            b"{\"a\":\"\n\"}",
        ] {
            assert!(
                Object::parse(bad).is_err(),
                "{:?}",
                core::str::from_utf8(bad)
            );
        }
    }

    #[test]
    fn writer_formats() {
        let mut w: Writer<64> = Writer::new();
        w.raw(b"{")
            .string(b"a\"b\\\x01")
            .raw(b": ")
            .num(0)
            .raw(b" ")
            .num(18_446_744_073_709_551_615);
        assert_eq!(w.as_bytes(), br#"{"a\"b\\\u0001": 0 18446744073709551615"#);
        for (us, text) in [
            (0, "0.0"),
            (12_300, "0.0123"),
            (1_250_000, "1.25"),
            (7, "7e-06"),
            (10, "1e-05"),
            (12, "1.2e-05"),
            (99, "9.9e-05"),
            (100, "0.0001"),
            (300_359, "0.300359"),
        ] {
            let mut w: Writer<32> = Writer::new();
            w.seconds(us);
            assert_eq!(w.as_bytes(), text.as_bytes());
        }
        let mut w: Writer<4> = Writer::new();
        w.num(12345);
        assert_eq!(w.finish(), Err(Overflow));
    }
}
