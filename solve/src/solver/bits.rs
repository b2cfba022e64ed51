//! The bit writer of the solver's coder and of the table writer: the mirror of
//! the core table reader's bit reader (nimbot's src/table/bits.rs), with fallible
//! memory.

use super::base::{Growing, SolveError};

/// Bits needed to write values `0..n` (at least 1).
pub(crate) fn width_for(n: u64) -> u8 {
    let mut w = 1u8;
    while w < 64 && (1u64 << w) < n {
        w += 1;
    }
    w
}

/// Appends bits least significant first; the mirror of the table reader's bit
/// reader. Its memory is reserved fallibly: a write the allocator refuses is
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
    use super::*;

    /// The codes read back as table/FORMAT.md defines them (bits least significant
    /// first; gamma: `z` zeros, a one, the `z` low bits; count: gamma of `n + 1`;
    /// signed: zigzag), by a reader written here from the format's text (the core's
    /// reader is checked against this writer through whole tables in
    /// tests/table.rs).
    struct Reader<'a> {
        bytes: &'a [u8],
        at: u64,
        end: u64,
    }

    impl Reader<'_> {
        fn bit(&mut self) -> Option<bool> {
            if self.at >= self.end {
                return None;
            }
            let byte = self.bytes[(self.at / 8) as usize];
            let b = (byte >> (self.at % 8)) & 1 == 1;
            self.at += 1;
            Some(b)
        }

        fn read(&mut self, width: u32) -> Option<u64> {
            let mut v = 0;
            for i in 0..width {
                v |= u64::from(self.bit()?) << i;
            }
            Some(v)
        }

        fn count(&mut self) -> Option<u64> {
            let mut z = 0;
            while !self.bit()? {
                z += 1;
            }
            Some(((1 << z) | self.read(z)?) - 1)
        }

        fn signed(&mut self) -> Option<i64> {
            let n = self.count()?;
            let half = (n >> 1) as i64;
            Some(if n & 1 == 0 { half } else { -half - 1 })
        }
    }

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
        let mut tail = BitWriter::default();
        tail.push(0b10, 2).unwrap();
        w.append(&tail).unwrap();
        let mut r = Reader {
            bytes: w.bytes(),
            at: 0,
            end: w.bits,
        };
        for &n in &counts {
            assert_eq!(r.count(), Some(n.into()));
        }
        for &d in &signed {
            assert_eq!(r.signed(), Some(d.into()));
        }
        assert_eq!(r.read(3), Some(0b101));
        assert_eq!(r.read(32), Some(0xABCDEF12));
        assert_eq!(r.read(2), Some(0b10), "appended bits follow");
        assert_eq!(r.bit(), None, "past the end");
        assert_eq!(w.bytes().len() as u64, w.bits.div_ceil(8));
        assert_eq!(width_for(1), 1);
        assert_eq!(width_for(256), 8);
        assert_eq!(width_for(257), 9);
    }
}
