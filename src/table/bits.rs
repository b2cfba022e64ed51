//! Bit strings, least significant bit first: fixed-width fields and Elias gamma
//! codes. The reader is checked (it never reads past its end and never panics) and
//! works in `u32` only; the writer exists for the encoder.

use super::source::ByteSource;

/// Reads bits `at .. end` of a bit string that starts at byte `base` of a
/// [`ByteSource`] (bit `i` is bit `i % 8` of byte `base + i / 8`), through a 32-bit
/// window filled a byte at a time, so each byte is read once.
pub(crate) struct BitReader<'s, S: ?Sized> {
    src: &'s S,
    /// The position of the next bit, the lowest of `window`.
    at: u32,
    end: u32,
    /// Bits `at .. at + have` of the string.
    window: u32,
    have: u32,
    /// The byte that comes into the window next.
    next: u32,
}

impl<'s, S: ByteSource + ?Sized> BitReader<'s, S> {
    /// A reader of bits `at .. end` of the bit string at byte `base` of `src`.
    pub(crate) fn new(src: &'s S, base: u32, at: u32, end: u32) -> Self {
        let mut r = BitReader {
            src,
            at,
            end,
            window: 0,
            have: 0,
            // Past the end of any source when it overflows: reads then fail.
            next: base.saturating_add(at / 8),
        };
        let skip = at % 8;
        if skip != 0 {
            if let Some(b) = src.byte(r.next) {
                r.window = u32::from(b) >> skip;
                r.have = 8 - skip;
                r.next = r.next.saturating_add(1);
            }
        }
        r
    }

    /// The position of the next bit.
    pub(crate) const fn position(&self) -> u32 {
        self.at
    }

    /// Top the window up to at least 25 bits (fewer at the end of the source).
    #[inline]
    fn fill(&mut self) {
        while self.have <= 24 {
            let Some(b) = self.src.byte(self.next) else {
                return;
            };
            self.window |= u32::from(b) << self.have;
            self.have += 8;
            self.next = self.next.saturating_add(1);
        }
    }

    /// Drop `n` (< 32) bits that are in the window and before `end`.
    #[inline]
    fn consume(&mut self, n: u32) {
        self.window >>= n;
        self.have -= n;
        self.at += n;
    }

    /// Whether `n` more bits lie before `end`.
    #[inline]
    fn room(&self, n: u32) -> bool {
        self.end.checked_sub(self.at).is_some_and(|left| left >= n)
    }

    /// The next `width` (<= 24) bits as a number, first bit least significant.
    #[inline]
    pub(crate) fn read(&mut self, width: u32) -> Option<u32> {
        if width > 24 || !self.room(width) {
            return None;
        }
        if self.have < width {
            self.fill();
            if self.have < width {
                return None;
            }
        }
        let v = self.window & ((1u32 << width) - 1);
        self.consume(width);
        Some(v)
    }

    /// The next `width` (<= 32) bits as a number.
    pub(crate) fn read_long(&mut self, width: u32) -> Option<u32> {
        if width <= 24 {
            return self.read(width);
        }
        if width > 32 {
            return None;
        }
        let low = self.read(16)?;
        let high = self.read(width - 16)?;
        Some(low | (high << 16))
    }

    /// One bit.
    #[inline]
    pub(crate) fn bit(&mut self) -> Option<bool> {
        self.read(1).map(|b| b == 1)
    }

    /// An Elias gamma code: `z` zeros, a one, then the `z` low bits of `n` (n >= 1,
    /// z <= 31).
    #[inline]
    pub(crate) fn gamma(&mut self) -> Option<u32> {
        if self.have < 25 {
            self.fill();
        }
        // The zeros among the low 13 bits (13: none of them is set), counted in
        // 16 bits: a 32-bit count is long code on targets without the instruction.
        let z = ((self.window & 0x1FFF) as u16 | 0x2000).trailing_zeros();
        let len = 2 * z + 1;
        if z <= 12 && len <= self.have {
            if !self.room(len) {
                return None;
            }
            let v = (1u32 << z) | ((self.window >> (z + 1)) & ((1u32 << z) - 1));
            self.consume(len);
            return Some(v);
        }
        self.long_gamma()
    }

    /// A gamma code longer than the window holds, or at the end of the source.
    #[cold]
    fn long_gamma(&mut self) -> Option<u32> {
        let mut z = 0;
        while !self.bit()? {
            z += 1;
            if z > 31 {
                return None;
            }
        }
        Some((1u32 << z) | self.read_long(z)?)
    }

    /// A gamma-coded `n + 1`: any value from 0 to `2^32 - 2`.
    #[inline]
    pub(crate) fn count(&mut self) -> Option<u32> {
        self.gamma().map(|n| n - 1)
    }

    /// A signed value, zigzag-mapped (0, -1, 1, -2, ...) then as [`BitReader::count`].
    pub(crate) fn signed(&mut self) -> Option<i32> {
        let n = self.count()?;
        let half = i32::try_from(n >> 1).ok()?;
        Some(if n & 1 == 0 { half } else { -half - 1 })
    }
}
