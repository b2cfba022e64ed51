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

/// Bits needed to write values `0..n` (at least 1).
#[cfg(feature = "alloc")]
pub(crate) fn width_for(n: u64) -> u8 {
    let mut w = 1u8;
    while w < 64 && (1u64 << w) < n {
        w += 1;
    }
    w
}

#[cfg(feature = "alloc")]
pub(crate) use writer::BitWriter;

#[cfg(feature = "alloc")]
mod writer {
    use crate::solver::{Growing, SolveError};

    /// Appends bits least significant first; the mirror of [`super::BitReader`].
    /// Its memory is reserved fallibly: a write the allocator refuses is
    /// [`SolveError::OutOfMemory`] (the tiny binary codes solutions with it).
    #[derive(Clone, Debug, Default)]
    pub(crate) struct BitWriter {
        bytes: Growing<u8>,
        pub(crate) bits: u64,
    }

    impl BitWriter {
        /// The bytes written (the last one's unused bits zero).
        pub(crate) fn bytes(&self) -> &[u8] {
            self.bytes.as_slice()
        }

        /// Append the `width` (<= 64) low bits of `value`.
        pub(crate) fn push(&mut self, value: u64, width: u32) -> Result<(), SolveError> {
            let mut value = if width < 64 {
                value & ((1u64 << width) - 1)
            } else {
                value
            };
            let mut left = width.min(64);
            while left > 0 {
                let used = (self.bits % 8) as u32;
                if used == 0 {
                    self.bytes.push(0)?;
                }
                let take = (8 - used).min(left);
                if let Some(b) = self.bytes.last_mut() {
                    *b |= ((value & ((1u64 << take) - 1)) as u8) << used;
                }
                value = value.checked_shr(take).unwrap_or(0);
                left -= take;
                self.bits += u64::from(take);
            }
            Ok(())
        }

        /// Append `n` (>= 1) as an Elias gamma code.
        pub(crate) fn gamma(&mut self, n: u64) -> Result<(), SolveError> {
            let z = 63 - n.max(1).leading_zeros();
            self.push(1 << z, z + 1)?;
            self.push(n & ((1u64 << z).wrapping_sub(1)), z)
        }

        /// Append `n` (>= 0) as the gamma code of `n + 1`.
        pub(crate) fn count(&mut self, n: u64) -> Result<(), SolveError> {
            self.gamma(n.saturating_add(1))
        }

        /// Append a signed value, zigzag-mapped.
        pub(crate) fn signed(&mut self, d: i64) -> Result<(), SolveError> {
            let z = if d >= 0 {
                d.unsigned_abs() << 1
            } else {
                (d.unsigned_abs().wrapping_sub(1) << 1) | 1
            };
            self.count(z)
        }

        /// Append the bits of `from`.
        pub(crate) fn append(&mut self, from: &BitWriter) -> Result<(), SolveError> {
            for (i, byte) in from.bytes().iter().enumerate() {
                let width = from.bits.saturating_sub(8 * i as u64).min(8) as u32;
                self.push(u64::from(*byte), width)?;
            }
            Ok(())
        }

        /// Empty it, keeping its memory.
        pub(crate) fn clear(&mut self) {
            self.bytes.clear();
            self.bits = 0;
        }
    }

    #[cfg(test)]
    mod tests {
        use super::super::BitReader;
        use super::*;
        use std::vec;

        #[test]
        fn codes_read_back() {
            let mut w = BitWriter::default();
            let counts = [0u32, 1, 2, 3, 7, 8, 1000, 1 << 20, u32::MAX - 1];
            let signed = [0i32, -1, 1, -2, 2, 300, -300, i32::MIN + 1, i32::MAX];
            for &n in &counts {
                w.count(n.into()).unwrap();
            }
            for &d in &signed {
                w.signed(d.into()).unwrap();
            }
            w.push(0b101, 3).unwrap();
            w.push(0xABCDEF12, 32).unwrap();
            let bits = u32::try_from(w.bits).unwrap();
            let mut r = BitReader::new(w.bytes(), 0, 0, bits);
            for &n in &counts {
                assert_eq!(r.count(), Some(n));
            }
            for &d in &signed {
                assert_eq!(r.signed(), Some(d));
            }
            assert_eq!(r.read(3), Some(0b101));
            assert_eq!(r.read_long(32), Some(0xABCDEF12));
            assert_eq!(r.bit(), None, "past the end");
            // From any bit of a prefixed string, and never past a shorter end.
            let mut prefixed = vec![0xFF, 0xFF];
            prefixed.extend_from_slice(w.bytes());
            for at in 0..40 {
                let mut r = BitReader::new(&prefixed[..], 2, at, bits);
                let mut plain = BitReader::new(w.bytes(), 0, at, bits);
                while let Some(b) = plain.bit() {
                    assert_eq!(r.bit(), Some(b));
                }
                assert_eq!(r.bit(), None);
            }
            let mut short = BitReader::new(w.bytes(), 0, 0, 2);
            assert_eq!(short.count(), Some(0));
            assert_eq!(short.count(), None, "the second code crosses the end");
        }
    }
}
