//! Decimal numbers in and out, without `core::fmt`: the one place every adapter
//! (line protocol, JSON messages, the text client, firmware, tiny binary) reads and
//! writes digits. Public with the feature `num` only, for nimbot's own adapters
//! outside the crate (firmware, tiny binary); not needed to embed nimbot.
#![cfg_attr(not(feature = "num"), allow(dead_code))]

/// Parse a decimal `u32`: ASCII digits only (no sign, no spaces), checked for
/// overflow.
pub fn parse_u32(word: &[u8]) -> Option<u32> {
    parse_u64(word).and_then(|n| u32::try_from(n).ok())
}

/// Parse a decimal `u64`: ASCII digits only (no sign, no spaces), checked for
/// overflow.
pub fn parse_u64(word: &[u8]) -> Option<u64> {
    if word.is_empty() {
        return None;
    }
    word.iter().try_fold(0u64, |acc, &b| {
        let digit = b.checked_sub(b'0').filter(|d| *d <= 9)?;
        acc.checked_mul(10)?.checked_add(u64::from(digit))
    })
}

/// Room for the digits of any `u64`.
const MAX_DIGITS: usize = 20;

/// The decimal digits of a number, made on the stack.
///
/// ```
/// use nimbot::num::Decimal;
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
        Self::padded(n.into(), 1)
    }

    /// The digits of `n`, zero-padded on the left to at least `width` digits (at
    /// most 20).
    pub fn padded(mut n: u64, width: usize) -> Self {
        let mut d = Decimal {
            buf: [b'0'; MAX_DIGITS],
            start: MAX_DIGITS,
        };
        let stop = MAX_DIGITS.saturating_sub(width);
        while let Some(i) = d.start.checked_sub(1) {
            if n == 0 && i < stop {
                break;
            }
            if let Some(slot) = d.buf.get_mut(i) {
                *slot = b'0' + (n % 10) as u8;
            }
            d.start = i;
            n /= 10;
        }
        d
    }

    /// The digits, as ASCII.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or(&[])
    }
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
