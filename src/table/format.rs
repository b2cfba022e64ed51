//! The serialized form of a table (specified in `table/FORMAT.md`): one postcard
//! value followed by the CRC-32 of its bytes.

use serde::{Deserialize, Serialize};

/// The first four bytes of every table.
pub const MAGIC: [u8; 4] = *b"NIMT";
/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 2;

/// The postcard value at the front of a table blob; field order is the format.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub(crate) struct TableFile<'a> {
    pub(crate) magic: [u8; 4],
    pub(crate) format_version: u32,
    pub(crate) generator: &'a str,
    pub(crate) n_max: u32,
    pub(crate) resets: u8,
    pub(crate) init_max: u32,
    /// Width of the layer number in a restart point, in bits.
    pub(crate) layer_bits: u8,
    /// Width of the stream offset in a restart point, in bits.
    pub(crate) offset_bits: u8,
    /// Number of restart points.
    pub(crate) restarts: u32,
    /// The restart points: `(layer, offset)` pairs, bit-packed.
    pub(crate) index: &'a [u8],
    /// Bits used in `stream`.
    pub(crate) stream_bits: u32,
    /// The coded layers, one after another in layer order.
    pub(crate) stream: &'a [u8],
}
