//! Decimal numbers in and out, without `core::fmt`: the one place every adapter
//! (line protocol, JSON messages, the text client, firmware, tiny binary) reads and
//! writes digits, the platform crate and the firmware included; not needed to embed
//! nimbot. Also the
//! crate's checked `u32` multiply (`checked_mul`, crate-private), which avoids 64-bit arithmetic.

/// Parse a decimal `u32`: ASCII digits only (no sign, no spaces), checked for
/// overflow. The overflow test compares with constants rather than asking the
/// multiply (`checked_mul` widens to 64 bits on 8-bit targets).
pub fn parse_u32(word: &[u8]) -> Option<u32> {
    const LIMIT: u32 = u32::MAX / 10;
    if word.is_empty() {
        return None;
    }
    word.iter().try_fold(0u32, |acc, &b| {
        let d = u32::from(digit(b)?);
        if acc > LIMIT || (acc == LIMIT && d > u32::MAX % 10) {
            return None;
        }
        Some(acc * 10 + d)
    })
}

/// Parse a decimal `u64`: ASCII digits only (no sign, no spaces), checked for
/// overflow.
pub fn parse_u64(word: &[u8]) -> Option<u64> {
    if word.is_empty() {
        return None;
    }
    word.iter().try_fold(0u64, |acc, &b| {
        acc.checked_mul(10)?.checked_add(u64::from(digit(b)?))
    })
}

/// Parse a decimal number of seconds into microseconds: digits, or digits around one
/// point (`12`, `0.25`, `.5`, `3.`; not `.` alone), as a clock or a timeout is
/// written. Digits past the sixth decimal are dropped but must be digits; `None` for
/// anything else or a value past `u64::MAX` microseconds.
pub fn parse_micros(text: &[u8]) -> Option<u64> {
    let (whole, frac) = match text.iter().position(|&b| b == b'.') {
        Some(i) => (text.get(..i)?, text.get(i + 1..)?),
        None => (text, &b""[..]),
    };
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    let secs = if whole.is_empty() {
        0
    } else {
        parse_u64(whole)?
    };
    let mut micros = 0u64;
    for i in 0..6 {
        let d = match frac.get(i) {
            Some(&b) => u64::from(digit(b)?),
            None => 0,
        };
        micros = micros * 10 + d;
    }
    if frac.iter().skip(6).any(|b| !b.is_ascii_digit()) {
        return None;
    }
    secs.checked_mul(1_000_000)?.checked_add(micros)
}

/// `a * b`, or `None` when the product overflows a `u32`: what the table's probe
/// path multiplies with. On 16-bit targets (the AVR) `u32::checked_mul` becomes an
/// inline 64-bit product at every use, about a hundred bytes each; there this one
/// is a single shared function that multiplies in 32 bits ([`mul_in_32_bits`]).
/// Elsewhere it is `u32::checked_mul`.
#[cfg_attr(target_pointer_width = "16", inline(never))]
pub(crate) const fn checked_mul(a: u32, b: u32) -> Option<u32> {
    if cfg!(target_pointer_width = "16") {
        mul_in_32_bits(a, b)
    } else {
        a.checked_mul(b)
    }
}

/// `u32::checked_mul` by 16-bit halves, with no product wider than 32 bits: when
/// both factors are below 2^16 the product fits; when both are at least 2^16 it
/// cannot; otherwise the larger factor's high half times the smaller must fit in
/// 16 bits, and the low half's product is added with a carry check.
pub(crate) const fn mul_in_32_bits(a: u32, b: u32) -> Option<u32> {
    let (small, big) = if a < b { (a, b) } else { (b, a) };
    if big >> 16 == 0 {
        return Some(small.wrapping_mul(big));
    }
    if small >> 16 != 0 {
        return None;
    }
    let high = (big >> 16).wrapping_mul(small);
    if high >> 16 != 0 {
        return None;
    }
    (high << 16).checked_add((big & 0xFFFF).wrapping_mul(small))
}

/// The value of an ASCII digit.
fn digit(b: u8) -> Option<u8> {
    b.checked_sub(b'0').filter(|d| *d <= 9)
}

/// Room for the digits of any `u64`.
const MAX_DIGITS: usize = 20;

/// The decimal digits of a number, made on the stack.
///
/// ```
/// use nimbot::text::Decimal;
/// assert_eq!(Decimal::new(4096u32).as_bytes(), b"4096");
/// assert_eq!(Decimal::padded(25, 4).as_bytes(), b"0025");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Decimal {
    buf: [u8; MAX_DIGITS],
    start: usize,
}

impl Decimal {
    /// The digits of `n`, without leading zeros (`0` is one digit).
    pub fn new(n: impl Into<u64>) -> Self {
        let n = n.into();
        match u32::try_from(n) {
            // The common case, and for callers with a `u32` the only one: the
            // 64-bit path (a library call on 8- and 32-bit targets) drops out.
            Ok(small) => {
                let mut d = Decimal::empty();
                d.fill_u32(small, MAX_DIGITS - 1);
                d
            }
            Err(_) => Self::padded(n, 1),
        }
    }

    /// The digits of `n`, zero-padded on the left to at least `width` digits (at
    /// most 20).
    pub fn padded(mut n: u64, width: usize) -> Self {
        let mut d = Decimal::empty();
        // 64-bit steps only while the number needs them.
        while n > u64::from(u32::MAX) {
            let Some(i) = d.start.checked_sub(1) else {
                break;
            };
            let (q, r) = div_rem_10(n);
            if let Some(slot) = d.buf.get_mut(i) {
                *slot = b'0' + r;
            }
            d.start = i;
            n = q;
        }
        d.fill_u32(
            u32::try_from(n).unwrap_or(0),
            MAX_DIGITS.saturating_sub(width),
        );
        d
    }

    const fn empty() -> Self {
        Decimal {
            buf: [b'0'; MAX_DIGITS],
            start: MAX_DIGITS,
        }
    }

    /// Put the digits of `n` in front of those already there, then zeros until
    /// the digits start at index `stop` or before.
    fn fill_u32(&mut self, mut n: u32, stop: usize) {
        while let Some(i) = self.start.checked_sub(1) {
            if n == 0 && i < stop {
                break;
            }
            if let Some(slot) = self.buf.get_mut(i) {
                *slot = b'0' + (n % 10) as u8;
            }
            self.start = i;
            n /= 10;
        }
    }

    /// The digits, as ASCII.
    // One copy for the many callers of the tiny binary (104 B less on x86_64); on
    // the boards inlined, which measured smaller there (the LM3S6965 164 B).
    #[cfg_attr(target_pointer_width = "64", inline(never))]
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or(&[])
    }
}

/// `n / 10` and `n % 10`. On 64-bit targets the plain division (a multiply); on
/// narrower ones a long division by 16-bit steps in `u32`, each divided by a
/// constant, where `u64 / 10` would link the 64-bit division routine (about a
/// kilobyte on the HiFive1).
fn div_rem_10(n: u64) -> (u64, u8) {
    if cfg!(target_pointer_width = "64") {
        return (n / 10, (n % 10) as u8);
    }
    div_rem_10_in_32_bits(n)
}

/// [`div_rem_10`] with no arithmetic wider than 32 bits.
fn div_rem_10_in_32_bits(n: u64) -> (u64, u8) {
    let high = (n >> 32) as u32;
    let low = n as u32;
    // Each step's dividend is the previous remainder (below 10) then 16 bits, so
    // it is below 10 << 16 and its quotient fits in 16 bits.
    let middle = ((high % 10) << 16) | (low >> 16);
    let bottom = ((middle % 10) << 16) | (low & 0xFFFF);
    let quotient = (u64::from(high / 10) << 32) | u64::from(((middle / 10) << 16) | (bottom / 10));
    (quotient, (bottom % 10) as u8)
}

impl core::ops::Deref for Decimal {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_by_ten_in_32_bits() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for n in [
            0,
            9,
            10,
            u64::from(u32::MAX),
            u64::from(u32::MAX) + 1,
            u64::MAX,
            u64::MAX - 5,
        ]
        .into_iter()
        .chain((0..10_000).map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x >> (x % 64)
        })) {
            assert_eq!(div_rem_10_in_32_bits(n), (n / 10, (n % 10) as u8), "{n}");
        }
    }

    #[test]
    fn parse_numbers() {
        assert_eq!(parse_u32(b"0"), Some(0));
        assert_eq!(parse_u32(b"4294967295"), Some(u32::MAX));
        assert_eq!(parse_u32(b"4294967296"), None);
        assert_eq!(parse_u32(b"-1"), None);
        assert_eq!(parse_u32(b"+1"), None);
        assert_eq!(parse_u32(b"1x"), None);
        assert_eq!(parse_u32(b""), None);
        assert_eq!(parse_u64(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_u64(b"18446744073709551616"), None);
    }

    #[test]
    fn parse_seconds_to_micros() {
        for (text, micros) in [
            (&b"0"[..], Some(0)),
            (b"12", Some(12_000_000)),
            (b"0.25", Some(250_000)),
            (b".5", Some(500_000)),
            (b"3.", Some(3_000_000)),
            (b"1.0000019", Some(1_000_001)),
            (b"18446744073709.551615", Some(u64::MAX)),
            (b"18446744073709.551616", None),
            (b"18446744073710", None),
            (b".", None),
            (b"", None),
            (b"1.2.3", None),
            (b"1.0000001x", None),
            (b"-1", None),
            (b"1e3", None),
            (b" 1", None),
        ] {
            assert_eq!(
                parse_micros(text),
                micros,
                "{:?}",
                core::str::from_utf8(text)
            );
        }
    }

    #[test]
    fn multiply_in_32_bits() {
        let edges = [
            0u32,
            1,
            2,
            3,
            255,
            256,
            0xFFFF,
            0x1_0000,
            0x1_0001,
            0x1_FFFF,
            65_521,
            99_999,
            0xFFFF_FFFF,
            0x8000_0000,
            0x7FFF_FFFF,
            0xFFFF_0000,
            0x0001_FFFE,
        ];
        for &a in &edges {
            for &b in &edges {
                assert_eq!(mul_in_32_bits(a, b), a.checked_mul(b), "{a} * {b}");
                assert_eq!(checked_mul(a, b), a.checked_mul(b), "{a} * {b}");
            }
        }
        // Around the overflow boundary: b = floor(MAX / a) fits, b + 1 does not.
        let mut x = 0x9E37_79B9u32;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let a = (x >> (x % 32)).max(1);
            let b = u32::MAX / a;
            for b in [b.saturating_sub(1), b, b.saturating_add(1), x] {
                assert_eq!(mul_in_32_bits(a, b), a.checked_mul(b), "{a} * {b}");
            }
        }
    }

    #[test]
    fn format_numbers() {
        for n in [0u64, 7, 10, 999, 4_294_967_295, 4_294_967_296, u64::MAX] {
            assert_eq!(Decimal::new(n).as_bytes(), std::format!("{n}").as_bytes());
        }
        for (n, width) in [
            (0u64, 1),
            (0, 6),
            (7, 6),
            (123_456, 6),
            (1_234_567, 6),
            (5, 25),
        ] {
            let want = std::format!("{n:0width$}", width = width.min(20));
            assert_eq!(Decimal::padded(n, width).as_bytes(), want.as_bytes());
        }
    }
}
