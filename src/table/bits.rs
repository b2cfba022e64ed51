//! Bit strings, least significant bit first: fixed-width fields and Elias gamma
//! codes. The reader is checked (it never reads past its end and never panics); the
//! writer exists for the encoder.

/// Reads bits `at .. end` of a byte slice (bit `i` is bit `i % 8` of byte `i / 8`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BitReader<'a> {
    bytes: &'a [u8],
    at: u64,
    end: u64,
}

impl<'a> BitReader<'a> {
    /// A reader of bits `at .. end` of `bytes`.
    pub(crate) const fn new(bytes: &'a [u8], at: u64, end: u64) -> Self {
        BitReader { bytes, at, end }
    }

    /// The position of the next bit.
    pub(crate) const fn position(&self) -> u64 {
        self.at
    }

    /// At least 57 bits from the current position (zeros past the slice).
    fn peek(&self) -> u64 {
        let byte = usize::try_from(self.at / 8).unwrap_or(usize::MAX);
        let word = match self.bytes.get(byte..byte.saturating_add(8)) {
            Some(s) => <[u8; 8]>::try_from(s).map_or(0, u64::from_le_bytes),
            None => {
                let mut buf = [0u8; 8];
                for (i, b) in buf.iter_mut().enumerate() {
                    *b = self.bytes.get(byte.saturating_add(i)).copied().unwrap_or(0);
                }
                u64::from_le_bytes(buf)
            }
        };
        word >> (self.at % 8)
    }

    /// The next `width` (<= 56) bits as a number, first bit least significant.
    pub(crate) fn read(&mut self, width: u32) -> Option<u64> {
        if width == 0 {
            return Some(0);
        }
        if width > 56 {
            return None;
        }
        let next = self.at.checked_add(u64::from(width))?;
        if next > self.end {
            return None;
        }
        let v = self.peek() & ((1u64 << width) - 1);
        self.at = next;
        Some(v)
    }

    /// One bit.
    pub(crate) fn bit(&mut self) -> Option<bool> {
        self.read(1).map(|b| b == 1)
    }

    /// An Elias gamma code: `z` zeros, a one, then the `z` low bits of `n` (n >= 1,
    /// n < 2^33).
    pub(crate) fn gamma(&mut self) -> Option<u64> {
        let word = self.peek();
        let z = word.trailing_zeros();
        if z > 28 {
            // Longer than one peek holds (or not a code at all): the slow way.
            if z > 32 {
                return None;
            }
            self.read(z + 1)?;
            let low = self.read(z)?;
            return Some((1u64 << z) | low);
        }
        let next = self.at.checked_add(u64::from(2 * z + 1))?;
        if next > self.end {
            return None;
        }
        self.at = next;
        Some((1u64 << z) | ((word >> (z + 1)) & ((1u64 << z) - 1)))
    }

    /// A gamma-coded `n - 1`: any value from 0.
    pub(crate) fn count(&mut self) -> Option<u64> {
        self.gamma().map(|n| n - 1)
    }

    /// A signed value, zigzag-mapped (0, -1, 1, -2, ...) then as [`BitReader::count`].
    pub(crate) fn signed(&mut self) -> Option<i64> {
        let n = i64::try_from(self.count()?).ok()?;
        Some(if n & 1 == 0 { n >> 1 } else { -(n >> 1) - 1 })
    }
}

/// Bits needed to write values `0..n` (at least 1).
#[cfg(feature = "encode")]
pub(crate) fn width_for(n: u64) -> u8 {
    let mut w = 1u8;
    while w < 64 && (1u64 << w) < n {
        w += 1;
    }
    w
}

#[cfg(feature = "encode")]
pub(crate) use writer::BitWriter;

#[cfg(feature = "encode")]
mod writer {
    use alloc::vec::Vec;

    /// Appends bits least significant first; the mirror of [`super::BitReader`].
    #[derive(Clone, Debug, Default)]
    pub(crate) struct BitWriter {
        pub(crate) bytes: Vec<u8>,
        pub(crate) bits: u64,
    }

    impl BitWriter {
        /// Append the `width` (<= 64) low bits of `value`.
        pub(crate) fn push(&mut self, value: u64, width: u32) {
            let mut value = if width < 64 {
                value & ((1u64 << width) - 1)
            } else {
                value
            };
            let mut left = width.min(64);
            while left > 0 {
                let used = (self.bits % 8) as u32;
                if used == 0 {
                    self.bytes.push(0);
                }
                let take = (8 - used).min(left);
                if let Some(b) = self.bytes.last_mut() {
                    *b |= ((value & ((1u64 << take) - 1)) as u8) << used;
                }
                value = value.checked_shr(take).unwrap_or(0);
                left -= take;
                self.bits += u64::from(take);
            }
        }

        /// Append `n` (>= 1) as an Elias gamma code.
        pub(crate) fn gamma(&mut self, n: u64) {
            let z = 63 - n.max(1).leading_zeros();
            self.push(1 << z, z + 1);
            self.push(n & ((1u64 << z) - 1), z);
        }

        /// Append `n` (>= 0) as the gamma code of `n + 1`.
        pub(crate) fn count(&mut self, n: u64) {
            self.gamma(n + 1);
        }

        /// Append a signed value, zigzag-mapped.
        pub(crate) fn signed(&mut self, d: i64) {
            let z = if d >= 0 {
                (d as u64) << 1
            } else {
                ((-d - 1) as u64) << 1 | 1
            };
            self.count(z);
        }
    }

    #[cfg(test)]
    mod tests {
        use super::super::BitReader;
        use super::*;

        #[test]
        fn codes_read_back() {
            let mut w = BitWriter::default();
            let counts = [0u64, 1, 2, 3, 7, 8, 1000, u64::from(u32::MAX)];
            let signed = [0i64, -1, 1, -2, 2, 300, -300, -(1 << 31)];
            for &n in &counts {
                w.count(n);
            }
            for &d in &signed {
                w.signed(d);
            }
            w.push(0b101, 3);
            let mut r = BitReader::new(&w.bytes, 0, w.bits);
            for &n in &counts {
                assert_eq!(r.count(), Some(n));
            }
            for &d in &signed {
                assert_eq!(r.signed(), Some(d));
            }
            assert_eq!(r.read(3), Some(0b101));
            assert_eq!(r.bit(), None, "past the end");
        }
    }
}
