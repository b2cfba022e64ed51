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

#[cfg(test)]
mod tests {
    use super::BitReader;
    use std::vec::Vec;

    /// A bit string as `table/FORMAT.md` defines it (bit `i` is bit `i % 8` of byte
    /// `i / 8`, fields least significant bit first), written bit by bit apart from
    /// the reader and from the solver's writer.
    #[derive(Default)]
    struct Bits(Vec<bool>);

    impl Bits {
        fn field(&mut self, v: u64, width: u32) {
            self.0.extend((0..width).map(|i| (v >> i) & 1 == 1));
        }

        /// gamma(n): `z = floor(log2 n)` zeros, a one, then the `z` low bits of `n`.
        fn gamma(&mut self, n: u64) {
            let z = 63 - n.leading_zeros();
            self.field(1 << z, z + 1);
            self.field(n, z);
        }

        fn len(&self) -> u32 {
            u32::try_from(self.0.len()).unwrap()
        }

        fn bytes(&self) -> Vec<u8> {
            let mut out = std::vec![0u8; self.0.len().div_ceil(8)];
            for (i, _) in self.0.iter().enumerate().filter(|(_, &b)| b) {
                out[i / 8] |= 1 << (i % 8);
            }
            out
        }
    }

    /// Gamma codes of every length (`z` from 0 to 31: the fast path up to 12, the
    /// long one past it) and fields of every width up to 32, from every bit offset
    /// within a byte and past a few bytes of something else: each reads back as
    /// written, and nothing reads past the end.
    #[test]
    fn codes_and_fields_of_every_length_read_back() {
        let mut gammas = Vec::new();
        for z in 0..32 {
            let low = (1u64 << z) - 1;
            gammas.extend([1 << z, (1 << z) | (0x5555_5555 & low), (2 << z) - 1]);
        }
        for skip in 0..9 {
            // Three bytes of ones before the string, then `skip` more ones.
            let mut w = Bits::default();
            w.field(u64::MAX, 24 + skip);
            for (i, &n) in gammas.iter().enumerate() {
                w.gamma(n);
                let width = 1 + (i as u32 % 32);
                w.field(0xB5E3_A96C_u64 >> (i % 3), width);
            }
            let bytes = w.bytes();
            let mut r = BitReader::new(&bytes[..], 3, skip, w.len() - 24);
            for (i, &n) in gammas.iter().enumerate() {
                assert_eq!(
                    r.gamma().map(u64::from),
                    Some(n),
                    "gamma {i} at skip {skip}"
                );
                let width = 1 + (i as u32 % 32);
                let want = (0xB5E3_A96C_u64 >> (i % 3)) & ((1 << width) - 1);
                assert_eq!(
                    r.read_long(width).map(u64::from),
                    Some(want),
                    "width {width}"
                );
            }
            assert_eq!(r.position(), w.len() - 24);
            assert_eq!((r.bit(), r.gamma()), (None, None));
        }
    }

    /// Fields of 25 to 32 bits come in two reads; wider ones are refused without
    /// reading anything.
    #[test]
    fn long_fields_take_up_to_32_bits() {
        let mut w = Bits::default();
        for width in 25..=32 {
            w.field(0xFFFF_FFFF, width);
            w.field(0, 1);
        }
        w.field(0x1_2345_6789, 33);
        let bytes = w.bytes();
        let mut r = BitReader::new(&bytes[..], 0, 0, w.len());
        for width in 25..=32 {
            assert_eq!(
                r.read_long(width),
                Some(u32::MAX >> (32 - width)),
                "{width}"
            );
            assert_eq!(r.bit(), Some(false));
        }
        let at = r.position();
        assert_eq!(r.read_long(33), None);
        assert_eq!(r.position(), at);
        assert_eq!(r.read_long(32), Some(0x2345_6789));
    }

    /// A field that ends on the last bit of its source reads, from any bit of any
    /// of its bytes (a coded solution's index ends its buffer).
    #[test]
    fn a_field_ending_with_the_source_reads() {
        let bytes = [0xA5u8, 0x3C, 0x5A, 0xC3];
        let all = u32::from_le_bytes(bytes);
        for len in 1..=4u32 {
            for at in 0..8 * len {
                let width = 8 * len - at;
                let want = (u64::from(all) >> at) & ((1 << width) - 1);
                let mut r = BitReader::new(&bytes[..len as usize], 0, at, 8 * len);
                assert_eq!(r.read_long(width).map(u64::from), Some(want), "{len} {at}");
                assert_eq!(r.bit(), None);
            }
        }
    }

    /// A code that the end of the source (a short or failing [`ByteSource`]) or the
    /// end of the string cuts is refused, never completed with made-up bits; the
    /// codes before it still read.
    ///
    /// [`ByteSource`]: super::ByteSource
    #[test]
    fn a_code_cut_short_is_refused() {
        for z in [6u32, 7, 12, 13, 20, 31] {
            let mut w = Bits::default();
            w.gamma(5);
            w.gamma((1 << z) | 1);
            let full = w.len();
            let bytes = w.bytes();
            // The source ends inside the second code's low bits, past its one.
            let cut = (full - 1) / 8;
            assert!(8 * cut > 5 + z && 8 * cut < full, "z {z}");
            let mut r = BitReader::new(&bytes[..cut as usize], 0, 0, full);
            assert_eq!(r.gamma(), Some(5), "z {z}");
            assert_eq!(r.gamma(), None, "z {z}: source cut");
            // The string ends one bit short.
            let mut r = BitReader::new(&bytes[..], 0, 0, full - 1);
            assert_eq!(r.gamma(), Some(5), "z {z}");
            assert_eq!(r.gamma(), None, "z {z}: string cut");
            let mut r = BitReader::new(&bytes[..], 0, 0, full);
            assert_eq!((r.gamma(), r.gamma()), (Some(5), Some((1 << z) | 1)));
        }
    }
}
