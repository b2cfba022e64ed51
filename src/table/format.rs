//! The serialized form of a table (specified in `table/FORMAT.md`): one postcard
//! value followed by the CRC-32 of its bytes.
//!
//! The writer (crate `nimbot-solve`, feature `encode`) serializes `TableFile`
//! (feature `serde`) with postcard; the reader is [`Layout::check`], a `const fn`
//! that parses the same fields by hand, so that a table embedded at build time is
//! checked by the compiler (a damaged one fails the build) and the firmware carries
//! no parser at all.
//!
//! Everything the writer shares with the reader is here, once: the header's fields
//! in order, [`MAGIC`], [`FORMAT_VERSION`], the checksum ([`crc32`]), which caps,
//! piles and layers a box stores ([`Layout::keys_per_cap`], [`Layout::key`],
//! [`Layout::highest_pile`]) and the layout of a stream coded in memory
//! ([`Layout::of_stream`]).

use super::error::TableError;
use crate::geometry::{self, cap_count, keys_per_cap};
use crate::rules::Params;
use crate::text::text;

pub use super::checksum::crc32;

/// The first four bytes of every table.
pub const MAGIC: [u8; 4] = *b"NIMT";
/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 3;

/// The postcard value at the front of a table blob; field order is the format
/// (feature `serde`: what the writer of `nimbot-solve` serializes).
#[cfg(feature = "serde")]
#[derive(serde::Serialize, Clone, Debug)]
pub struct TableFile<'a> {
    /// [`MAGIC`].
    pub magic: [u8; 4],
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The generator's name.
    pub generator: &'a str,
    /// The largest pile of the games covered.
    pub n_max: u32,
    /// Resets per player.
    pub resets: u8,
    /// M, the first move's limit.
    pub init_max: u32,
    /// Width of a cap's stream offset in the index, in bits.
    pub offset_bits: u8,
    /// Width of a base layer's offset from its cap's start, in bits.
    pub base_bits: u8,
    /// Caps with stored piles (index entries).
    pub caps: u32,
    /// Per cap: its start in the stream, then its two base layers' offsets from it.
    pub index: &'a [u8],
    /// Bits used in `stream`.
    pub stream_bits: u32,
    /// The coded caps, one after another.
    pub stream: &'a [u8],
}

/// Where everything is in a checked table blob: the game it covers and the byte
/// and bit offsets of its sections. Made by [`Layout::check`] (at compile time for
/// an embedded table), it lets a [`Table`](super::Table) read its bytes from any
/// [`ByteSource`](super::ByteSource) without parsing them again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub(crate) params: Params,
    /// The lowest cap: M for a table file; higher for a coded solution of a
    /// position's box (a `CodedSolution`), whose piles stop
    /// at `n_max - (c_min + ... + (c - 1))`.
    pub(crate) c_min: u32,
    /// Caps with stored piles: `c_min ..= c_min + caps - 1`.
    pub(crate) caps: u32,
    /// Layers per cap, `2 (R + 1)^2`.
    pub(crate) keys: u32,
    /// The generator's name: byte offset and length.
    pub(crate) generator: (u32, u32),
    /// Byte offset of the index, and its field widths.
    pub(crate) index_at: u32,
    pub(crate) offset_bits: u32,
    pub(crate) base_bits: u32,
    /// Byte offset of the stream, and its length in bits.
    pub(crate) stream_at: u32,
    pub(crate) stream_bits: u32,
    /// The whole blob's size and CRC-32.
    pub(crate) size: u32,
    pub(crate) checksum: u32,
}

/// `?` for `const fn`.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}

/// Reads the postcard fields of the body, front to back.
struct Fields<'a> {
    body: &'a [u8],
    at: usize,
}

impl Fields<'_> {
    const fn u8(&mut self) -> Result<u8, TableError> {
        if self.at >= self.body.len() {
            return Err(TableError::Truncated);
        }
        self.at += 1;
        Ok(self.body[self.at - 1])
    }

    /// A postcard varint `u32`: 7 bits a byte, least significant first.
    const fn varint(&mut self) -> Result<u32, TableError> {
        let mut v = 0u32;
        let mut shift = 0;
        loop {
            let b = tri!(self.u8());
            if shift == 28 && b > 0x0F {
                return Err(TableError::Malformed(text!("varint out of range")));
            }
            v |= ((b & 0x7F) as u32) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
            shift += 7;
            if shift > 28 {
                return Err(TableError::Malformed(text!("varint out of range")));
            }
        }
    }

    /// A length-prefixed byte string: (byte offset, length).
    const fn bytes(&mut self) -> Result<(u32, u32), TableError> {
        let len = tri!(self.varint()) as usize;
        let start = self.at;
        if len > self.body.len() - start {
            return Err(TableError::Truncated);
        }
        self.at += len;
        // The body is shorter than 4 GiB (checked before).
        Ok((start as u32, len as u32))
    }
}

/// Bits `at .. at + width` (width <= 32) of `bytes`, least significant first; the
/// caller keeps them inside the slice.
const fn bit_field(bytes: &[u8], at: u64, width: u32) -> u32 {
    let mut v = 0u32;
    let mut i = 0;
    while i < width {
        let bit = at + i as u64;
        let byte = bytes[(bit / 8) as usize];
        v |= (((byte >> (bit % 8)) & 1) as u32) << i;
        i += 1;
    }
    v
}

impl Layout {
    /// Check a table blob and find its sections: the checksum, every header field,
    /// the section sizes and the index's order. A `const fn`, so that a table
    /// embedded at build time is checked by the compiler:
    ///
    /// ```
    /// use nimbot::table::{Layout, Table};
    ///
    /// const BLOB: &[u8] = include_bytes!("../../table/default.nimt");
    /// const LAYOUT: Layout = match Layout::check(BLOB) {
    ///     Ok(layout) => layout,
    ///     Err(e) => panic!("{}", e.as_str()),
    /// };
    /// let table = Table::from_source(BLOB, LAYOUT).unwrap();
    /// assert_eq!(table.params().stones(), 999);
    /// ```
    pub const fn check(bytes: &[u8]) -> Result<Layout, TableError> {
        if bytes.len() < 4 {
            return Err(TableError::Truncated);
        }
        if bytes.len() > u32::MAX as usize {
            return Err(TableError::Malformed(text!("larger than 4 GiB")));
        }
        let size = bytes.len();
        let body = bytes.split_at(size - 4).0;
        let stored = u32::from_le_bytes([
            bytes[size - 4],
            bytes[size - 3],
            bytes[size - 2],
            bytes[size - 1],
        ]);
        if crc32(body) != stored {
            return Err(TableError::Checksum);
        }
        let mut f = Fields { body, at: 0 };
        let mut i = 0;
        while i < 4 {
            if tri!(f.u8()) != MAGIC[i] {
                return Err(TableError::BadMagic);
            }
            i += 1;
        }
        if tri!(f.varint()) != FORMAT_VERSION {
            return Err(TableError::UnsupportedVersion);
        }
        let generator = tri!(f.bytes());
        let name = body
            .split_at(generator.0 as usize)
            .1
            .split_at(generator.1 as usize)
            .0;
        if core::str::from_utf8(name).is_err() {
            return Err(TableError::Malformed(text!("generator is not UTF-8")));
        }
        let n_max = tri!(f.varint());
        let resets = tri!(f.u8());
        let init_max = tri!(f.varint());
        let params = match Params::new(n_max, resets, init_max) {
            Ok(p) => p,
            Err(_) => return Err(TableError::BadParams),
        };
        let offset_bits = tri!(f.u8()) as u32;
        let base_bits = tri!(f.u8()) as u32;
        if offset_bits == 0 || offset_bits > 32 || base_bits == 0 || base_bits > 32 {
            return Err(TableError::Malformed(text!("field width")));
        }
        let caps = tri!(f.varint());
        if caps == 0 || caps != cap_count(n_max, init_max) {
            return Err(TableError::BadParams);
        }
        let index = tri!(f.bytes());
        let entry_bits = (offset_bits + 2 * base_bits) as u64;
        if (caps as u64 * entry_bits).div_ceil(8) != index.1 as u64 {
            return Err(TableError::Malformed(text!("index size")));
        }
        let stream_bits = tri!(f.varint());
        let stream = tri!(f.bytes());
        if (stream_bits as u64).div_ceil(8) != stream.1 as u64 {
            return Err(TableError::Malformed(text!("stream size")));
        }
        if f.at != body.len() {
            return Err(TableError::Malformed(text!("trailing bytes")));
        }
        let keys = keys_per_cap(resets) as u32;
        let layout = Layout {
            params,
            c_min: init_max,
            caps,
            keys,
            generator,
            index_at: index.0,
            offset_bits,
            base_bits,
            stream_at: stream.0,
            stream_bits,
            size: size as u32,
            checksum: stored,
        };
        let index_bytes = body.split_at(index.0 as usize).1;
        // Every cap: its layer kinds, then base layers in order, all inside the
        // stream and before the next cap.
        let mut prev_end = 0u64;
        let mut c = 0;
        while c < caps {
            let at = c as u64 * entry_bits;
            let start = bit_field(index_bytes, at, offset_bits) as u64;
            let base0 = start + bit_field(index_bytes, at + offset_bits as u64, base_bits) as u64;
            let base1 = start
                + bit_field(
                    index_bytes,
                    at + (offset_bits + base_bits) as u64,
                    base_bits,
                ) as u64;
            let kinds_end = start + 2 * (keys as u64 - 2);
            if start < prev_end || kinds_end > base0 || base0 > base1 || base1 > stream_bits as u64
            {
                return Err(TableError::Malformed(text!("index out of order")));
            }
            prev_end = base1;
            c += 1;
        }
        Ok(layout)
    }

    /// The layout of caps coded in memory without a header (the solver's coded
    /// solution of a box starting at cap `c_min`): the stream from byte 0 with
    /// `stream_bits` bits, then the index at the next whole byte with fields of
    /// `offset_bits` and `base_bits`, `size` bytes in all. Only the sizes are
    /// checked; a stream that does not decode makes probes fail, never panic.
    ///
    /// # Errors
    /// [`TableError::Truncated`] if the stream and index do not fit `size` bytes,
    /// [`TableError::Malformed`] for a field width outside 1 to 32 bits.
    pub const fn of_stream(
        params: Params,
        c_min: u32,
        stream_bits: u32,
        offset_bits: u32,
        base_bits: u32,
        size: u32,
    ) -> Result<Layout, TableError> {
        if offset_bits == 0 || offset_bits > 32 || base_bits == 0 || base_bits > 32 {
            return Err(TableError::Malformed(text!("field width")));
        }
        let caps = cap_count(params.stones(), c_min);
        let index_at = stream_bits.div_ceil(8);
        let index_bytes = (caps as u64 * (offset_bits + 2 * base_bits) as u64).div_ceil(8);
        if index_at as u64 + index_bytes > size as u64 {
            return Err(TableError::Truncated);
        }
        Ok(Layout {
            params,
            c_min,
            caps,
            keys: keys_per_cap(params.resets()) as u32,
            generator: (0, 0),
            index_at,
            offset_bits,
            base_bits,
            stream_at: 0,
            stream_bits,
            size,
            checksum: 0,
        })
    }

    /// Layers per cap: every (own, opponent) reset pair and both values of the
    /// pending flag, `2 (R + 1)^2`.
    pub const fn keys_per_cap(resets: u8) -> usize {
        geometry::keys_per_cap(resets)
    }

    /// The key of a layer within its cap: own resets, then opponent resets, then
    /// the pending flag, each ascending.
    pub const fn key(resets: u8, own: u8, opp: u8, pending: bool) -> usize {
        geometry::key(resets, own, opp, pending)
    }

    /// The highest pile of cap `c` in a box of at most `n_max` stones starting at
    /// cap `c_min`, `n_max - (c_min + ... + (c - 1))`: `None` when no position
    /// has that cap.
    pub const fn highest_pile(n_max: u32, c_min: u32, c: u32) -> Option<u32> {
        geometry::highest_pile(n_max, c_min, c)
    }

    /// The game the table covers: N_max, R and M.
    pub const fn params(&self) -> Params {
        self.params
    }

    /// The whole blob's size in bytes.
    pub const fn size(&self) -> u32 {
        self.size
    }
}
