//! Restart points: where in the stream some layers begin, so that a probe decodes
//! from the nearest point before its layer instead of from the start. The encoder
//! places one whenever the stream has grown by a set number of bits since the last.

use super::bits::BitReader;
use super::error::TableError;
use crate::text::text;

/// The restart points of a table: `(first layer, stream offset)` pairs, layers
/// strictly rising, offsets non-decreasing, the first `(0, 0)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Index<'a> {
    bytes: &'a [u8],
    count: u64,
    layer_bits: u8,
    offset_bits: u8,
}

impl<'a> Index<'a> {
    /// The index in `bytes`; call [`Index::validate`] before use.
    pub(crate) const fn new(bytes: &'a [u8], count: u64, layer_bits: u8, offset_bits: u8) -> Self {
        Index {
            bytes,
            count,
            layer_bits,
            offset_bits,
        }
    }

    fn entry_bits(&self) -> u64 {
        u64::from(self.layer_bits) + u64::from(self.offset_bits)
    }

    /// Restart point `i`: (first layer, stream offset).
    fn entry(&self, i: u64) -> Option<(u64, u64)> {
        let at = i.checked_mul(self.entry_bits())?;
        let end = self.count.checked_mul(self.entry_bits())?;
        let mut r = BitReader::new(self.bytes, at, end);
        let layer = r.read(u32::from(self.layer_bits))?;
        let offset = r.read(u32::from(self.offset_bits))?;
        Some((layer, offset))
    }

    /// Check the sizes and the order of the points against a table of `layers`
    /// layers and `stream_bits` bits of stream.
    pub(crate) fn validate(&self, layers: u64, stream_bits: u64) -> Result<(), TableError> {
        if self.layer_bits == 0
            || self.layer_bits > 32
            || self.offset_bits == 0
            || self.offset_bits > 32
        {
            return Err(TableError::Malformed(text!("field width")));
        }
        let bits = self
            .count
            .checked_mul(self.entry_bits())
            .ok_or(TableError::Malformed(text!("index size")))?;
        if self.count == 0 || bits.div_ceil(8) != self.bytes.len() as u64 {
            return Err(TableError::Malformed(text!("index size")));
        }
        let mut prev: Option<(u64, u64)> = None;
        for i in 0..self.count {
            let (layer, offset) = self.entry(i).ok_or(TableError::Malformed(text!("index")))?;
            let ordered = match prev {
                None => layer == 0 && offset == 0,
                Some((pl, po)) => layer > pl && offset >= po,
            };
            if !ordered || layer >= layers || offset > stream_bits {
                return Err(TableError::Malformed(text!("restart points out of order")));
            }
            prev = Some((layer, offset));
        }
        Ok(())
    }

    /// The last restart point at or before `layer`.
    pub(crate) fn restart_for(&self, layer: u64) -> Option<(u64, u64)> {
        // Largest i with entry(i).layer <= layer; entry 0 is layer 0.
        let (mut lo, mut hi) = (0u64, self.count);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.entry(mid)?.0 <= layer {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        self.entry(lo)
    }
}
