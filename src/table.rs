//! The solution table: a postcard blob of won/lost layers, probed in place.
//!
//! The format is specified field by field in `table/FORMAT.md`. In short: a postcard
//! struct (magic, versions, parameters, code lengths, a layer directory, layer
//! offsets and a bit stream) followed by a CRC-32 of everything before it. Each layer
//! `(c, a, b, f)` is the sequence of alternating won/lost run lengths over piles
//! `c+1 ..= hi(c)`, Huffman-coded; identical layers are stored once.
//!
//! Loading checks the checksum and every field; probing allocates nothing, reads the
//! borrowed bytes with checked arithmetic, and reports a damaged stream as an error.

use serde::{Deserialize, Serialize};

use crate::rules::{Params, Position};
use crate::strategy::{DecideError, Oracle};

/// The first four bytes of every table.
pub const MAGIC: [u8; 4] = *b"NIMT";
/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Huffman alphabet: run lengths 0..=62 are symbols, 63 escapes a 32-bit raw length.
const ALPHABET: usize = 64;
const ESCAPE: usize = ALPHABET - 1;
/// Longest Huffman code, in bits.
const MAX_CODE_LEN: usize = 15;

/// The serialized form (see `table/FORMAT.md`). The CRC follows it in the blob.
#[derive(Serialize, Deserialize, Debug)]
struct TableFile<'a> {
    magic: [u8; 4],
    format_version: u32,
    generator: &'a str,
    n_max: u32,
    resets: u8,
    init_max: u32,
    /// Code lengths for the won-run and the lost-run alphabets, `2 * ALPHABET` bytes.
    code_lengths: &'a [u8],
    dir_bits: u8,
    directory: &'a [u8],
    unique_layers: u32,
    offset_bits: u8,
    offsets: &'a [u8],
    stream_bits: u32,
    stream: &'a [u8],
}

/// Why a blob was refused as a table. Bad data never panics; it lands here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableError {
    /// Shorter than the smallest possible table.
    Truncated,
    /// The CRC-32 does not match: the bytes were damaged.
    Checksum,
    /// The postcard structure could not be decoded.
    Decode,
    /// Not a nimbot table.
    BadMagic,
    /// Written by an incompatible format version.
    UnsupportedVersion,
    /// The game parameters are out of range.
    BadParams,
    /// A field is inconsistent with the others.
    Malformed(&'static str),
}

impl TableError {
    /// A short, static description.
    pub const fn as_str(self) -> &'static str {
        match self {
            TableError::Truncated => "table truncated",
            TableError::Checksum => "table checksum mismatch",
            TableError::Decode => "table structure unreadable",
            TableError::BadMagic => "not a nimbot table",
            TableError::UnsupportedVersion => "unsupported table format version",
            TableError::BadParams => "table parameters out of range",
            TableError::Malformed(what) => what,
        }
    }
}

impl core::fmt::Display for TableError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The CRC-32 lookup table, built at compile time (1 KB of flash).
const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u32;
        let mut k = 0;
        while k < 8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
            k += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
};

/// CRC-32 (IEEE, reflected, as zlib computes it) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc = (crc >> 8) ^ CRC_TABLE[usize::from((crc as u8) ^ b)];
    }
    !crc
}

/// Bits needed to write values `0..n` (at least 1).
fn width_for(n: u64) -> u8 {
    let mut w = 1u8;
    while w < 64 && (1u64 << w) < n {
        w += 1;
    }
    w
}

/// Read `width` (<= 32) bits at bit position `at`, least significant bit first.
fn read_bits(bytes: &[u8], at: u64, width: u8) -> Option<u32> {
    let mut v = 0u32;
    for i in 0..u64::from(width.min(32)) {
        let bit = at.checked_add(i)?;
        let byte = *bytes.get(usize::try_from(bit / 8).ok()?)?;
        v |= u32::from((byte >> (bit % 8)) & 1) << i;
    }
    Some(v)
}

/// Canonical Huffman decoding tables for one alphabet.
#[derive(Clone, Copy, Debug)]
struct Codebook {
    /// Codes of each length, 1..=MAX_CODE_LEN (index 0 unused).
    count: [u16; MAX_CODE_LEN + 1],
    /// Symbols ordered by (code length, symbol).
    symbols: [u8; ALPHABET],
}

impl Codebook {
    fn new(lengths: &[u8]) -> Result<Self, TableError> {
        let mut count = [0u16; MAX_CODE_LEN + 1];
        for &l in lengths {
            let l = usize::from(l);
            if l > MAX_CODE_LEN {
                return Err(TableError::Malformed("code length over 15"));
            }
            if l > 0 {
                count[l] += 1;
            }
        }
        // Kraft: the code must not be over-subscribed.
        let mut left: i64 = 1;
        for &c in count.iter().skip(1) {
            left = left * 2 - i64::from(c);
            if left < 0 {
                return Err(TableError::Malformed("over-subscribed code"));
            }
        }
        let mut symbols = [0u8; ALPHABET];
        let mut k = 0usize;
        for len in 1..=MAX_CODE_LEN {
            for (sym, &l) in lengths.iter().enumerate() {
                if usize::from(l) == len {
                    if let Some(slot) = symbols.get_mut(k) {
                        *slot = sym as u8;
                    }
                    k += 1;
                }
            }
        }
        Ok(Codebook { count, symbols })
    }
}

/// Reads Huffman-coded run lengths from the stream.
struct RunReader<'t, 'a> {
    table: &'t Table<'a>,
    at: u64,
    end: u64,
}

impl RunReader<'_, '_> {
    fn bit(&mut self) -> Option<u32> {
        if self.at >= self.end {
            return None;
        }
        let v = read_bits(self.table.file.stream, self.at, 1)?;
        self.at += 1;
        Some(v)
    }

    /// The next run length, `Ok(None)` at the layer's end, `Err` on a bad code.
    fn next(&mut self, lost: bool) -> Result<Option<u32>, DecideError> {
        if self.at >= self.end {
            return Ok(None);
        }
        let book = &self.table.books[usize::from(lost)];
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for len in 1..=MAX_CODE_LEN {
            code |= self.bit().ok_or(DecideError::BadTable)? as i32;
            let count = i32::from(book.count[len]);
            if code - first < count {
                let i = usize::try_from(index + code - first).map_err(|_| DecideError::BadTable)?;
                let sym = usize::from(*book.symbols.get(i).ok_or(DecideError::BadTable)?);
                if sym == ESCAPE {
                    let raw = read_bits(self.table.file.stream, self.at, 32)
                        .ok_or(DecideError::BadTable)?;
                    self.at += 32;
                    return Ok(Some(raw));
                }
                return Ok(Some(sym as u32));
            }
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        Err(DecideError::BadTable)
    }
}

/// A validated table, borrowing its bytes (typically a `&'static` blob in flash).
#[derive(Debug)]
pub struct Table<'a> {
    file: TableFile<'a>,
    params: Params,
    /// Highest cap with stored piles.
    c_top: u32,
    books: [Codebook; 2],
}

/// Layers per cap: every (own, opp) reset pair and both values of f.
fn layers_per_cap(resets: u8) -> u64 {
    2 * (u64::from(resets) + 1).pow(2)
}

/// `M + (M+1) + ... + (c-1)`: stones that must have gone for the cap to reach c.
fn stones_below_cap(init_max: u32, c: u32) -> u64 {
    let (c, m) = (u64::from(c), u64::from(init_max));
    (c * c.saturating_sub(1)).saturating_sub(m * (m - 1)) / 2
}

impl<'a> Table<'a> {
    /// Check and open a table blob. Every field is validated; nothing is copied.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, TableError> {
        let split = bytes.len().checked_sub(4).ok_or(TableError::Truncated)?;
        let (body, tail) = bytes.split_at(split);
        let stored = u32::from_le_bytes(tail.try_into().map_err(|_| TableError::Truncated)?);
        if crc32(body) != stored {
            return Err(TableError::Checksum);
        }
        let (file, rest): (TableFile<'a>, &[u8]) =
            postcard::take_from_bytes(body).map_err(|_| TableError::Decode)?;
        if !rest.is_empty() {
            return Err(TableError::Malformed("trailing bytes"));
        }
        if file.magic != MAGIC {
            return Err(TableError::BadMagic);
        }
        if file.format_version != FORMAT_VERSION {
            return Err(TableError::UnsupportedVersion);
        }
        let params = Params::new(file.n_max, file.resets, file.init_max)
            .map_err(|_| TableError::BadParams)?;
        let m = file.init_max;
        let mut c_top = m;
        let mut layer_count = 0u64;
        loop {
            let hi = u64::from(file.n_max).saturating_sub(stones_below_cap(m, c_top));
            if hi <= u64::from(c_top) {
                break;
            }
            layer_count += layers_per_cap(file.resets);
            c_top += 1;
        }
        let c_top = c_top.saturating_sub(1);
        if file.code_lengths.len() != 2 * ALPHABET {
            return Err(TableError::Malformed("code lengths"));
        }
        let (won, lost) = file.code_lengths.split_at(ALPHABET);
        let books = [Codebook::new(won)?, Codebook::new(lost)?];
        if file.dir_bits == 0
            || file.dir_bits > 32
            || file.offset_bits == 0
            || file.offset_bits > 32
        {
            return Err(TableError::Malformed("field width"));
        }
        let dir_len = layer_count * u64::from(file.dir_bits);
        if dir_len.div_ceil(8) != file.directory.len() as u64 {
            return Err(TableError::Malformed("directory size"));
        }
        let uniq = u64::from(file.unique_layers);
        if (uniq * u64::from(file.offset_bits)).div_ceil(8) != file.offsets.len() as u64 {
            return Err(TableError::Malformed("offsets size"));
        }
        if u64::from(file.stream_bits).div_ceil(8) != file.stream.len() as u64 {
            return Err(TableError::Malformed("stream size"));
        }
        let table = Table {
            file,
            params,
            c_top,
            books,
        };
        // Offsets must rise and stay inside the stream; directory entries must name
        // existing layers.
        let mut prev = 0u32;
        for i in 0..uniq {
            let off = read_bits(
                table.file.offsets,
                i * u64::from(table.file.offset_bits),
                table.file.offset_bits,
            )
            .ok_or(TableError::Malformed("offsets"))?;
            if off < prev || off > table.file.stream_bits {
                return Err(TableError::Malformed("offsets out of order"));
            }
            prev = off;
        }
        for i in 0..layer_count {
            let id = read_bits(
                table.file.directory,
                i * u64::from(table.file.dir_bits),
                table.file.dir_bits,
            )
            .ok_or(TableError::Malformed("directory"))?;
            if u64::from(id) >= uniq {
                return Err(TableError::Malformed("directory names a missing layer"));
            }
        }
        Ok(table)
    }

    /// The parameters of the largest game the table covers: N_max, R and M.
    pub const fn params(&self) -> Params {
        self.params
    }

    /// The generator that wrote the table.
    pub fn generator(&self) -> &'a str {
        self.file.generator
    }

    /// Distinct layers stored.
    pub fn unique_layers(&self) -> u32 {
        self.file.unique_layers
    }

    /// Highest cap with stored piles.
    pub const fn top_cap(&self) -> u32 {
        self.c_top
    }

    /// Highest stored pile for cap `c` (`c` itself when none).
    pub fn highest_pile(&self, c: u32) -> u32 {
        let hi = u64::from(self.params.stones())
            .saturating_sub(stones_below_cap(self.params.init_max(), c));
        u32::try_from(hi).unwrap_or(0).max(c)
    }

    /// Sizes of the sections, in bytes: (directory, offsets, stream).
    pub fn section_sizes(&self) -> (usize, usize, usize) {
        (
            self.file.directory.len(),
            self.file.offsets.len(),
            self.file.stream.len(),
        )
    }

    /// Find the layer of `pos` (ignoring its pile); `OutOfRange` outside the table.
    fn layer(&self, pos: &Position) -> Result<RunReader<'_, 'a>, DecideError> {
        let p = &self.params;
        if pos.init_max() != p.init_max()
            || pos.own_resets() > p.resets()
            || pos.opp_resets() > p.resets()
            || pos.cap() < p.init_max()
            || pos.cap() > self.c_top
        {
            return Err(DecideError::OutOfRange);
        }
        let r = u64::from(p.resets()) + 1;
        let index = u64::from(pos.cap() - p.init_max()) * layers_per_cap(p.resets())
            + (u64::from(pos.own_resets()) * r + u64::from(pos.opp_resets())) * 2
            + u64::from(pos.reset_pending());
        let f = &self.file;
        let id = read_bits(f.directory, index * u64::from(f.dir_bits), f.dir_bits)
            .ok_or(DecideError::BadTable)?;
        let id = u64::from(id);
        let start = read_bits(f.offsets, id * u64::from(f.offset_bits), f.offset_bits)
            .ok_or(DecideError::BadTable)?;
        let end = if id + 1 < u64::from(f.unique_layers) {
            read_bits(
                f.offsets,
                (id + 1) * u64::from(f.offset_bits),
                f.offset_bits,
            )
            .ok_or(DecideError::BadTable)?
        } else {
            f.stream_bits
        };
        Ok(RunReader {
            table: self,
            at: u64::from(start),
            end: u64::from(end),
        })
    }

    /// Walk the runs of `pos`'s layer up to pile `upto`, calling `visit(first, last,
    /// lost)` for each run (clipped to `upto`). Piles past the stored runs continue
    /// the last run.
    fn walk(
        &self,
        pos: &Position,
        upto: u32,
        mut visit: impl FnMut(u32, u32, bool),
    ) -> Result<(), DecideError> {
        let mut runs = self.layer(pos)?;
        if upto > self.highest_pile(pos.cap()) {
            return Err(DecideError::OutOfRange);
        }
        let mut first = pos.cap().saturating_add(1);
        let mut lost = false;
        while first <= upto {
            match runs.next(lost)? {
                None => {
                    visit(first, upto, lost);
                    return Ok(());
                }
                Some(0) => {}
                Some(len) => {
                    let last = first.saturating_add(len - 1);
                    visit(first, last.min(upto), lost);
                    first = last.saturating_add(1);
                }
            }
            lost = !lost;
        }
        Ok(())
    }
}

impl Oracle for Table<'_> {
    fn is_win(&self, pos: &Position) -> Result<bool, DecideError> {
        let s = pos.stones();
        if s <= pos.cap() {
            return Err(DecideError::OutOfRange);
        }
        let mut value = None;
        self.walk(pos, s, |first, last, lost| {
            if first <= s && s <= last {
                value = Some(!lost);
            }
        })?;
        value.ok_or(DecideError::BadTable)
    }

    fn largest_loss_in(
        &self,
        layer: &Position,
        lo: u32,
        hi: u32,
    ) -> Result<Option<u32>, DecideError> {
        let lo = lo.max(layer.cap().saturating_add(1));
        if hi < lo {
            return Ok(None);
        }
        let mut found = None;
        self.walk(layer, hi, |first, last, lost| {
            if lost && last >= lo {
                found = Some(last);
            }
            let _ = first;
        })?;
        Ok(found)
    }
}

#[cfg(feature = "alloc")]
pub use encode::encode;

#[cfg(feature = "alloc")]
mod encode {
    use alloc::collections::BTreeMap;
    use alloc::vec;
    use alloc::vec::Vec;

    use super::*;
    use crate::solver::Solution;

    /// Appends bits least significant first.
    #[derive(Default)]
    struct BitWriter {
        bytes: Vec<u8>,
        bits: u64,
    }

    impl BitWriter {
        fn push(&mut self, value: u64, width: u8) {
            for i in 0..width {
                if self.bits.is_multiple_of(8) {
                    self.bytes.push(0);
                }
                if (value >> i) & 1 == 1 {
                    if let Some(b) = self.bytes.last_mut() {
                        *b |= 1 << (self.bits % 8);
                    }
                }
                self.bits += 1;
            }
        }
    }

    /// Huffman code lengths (at most `MAX_CODE_LEN` bits) for `freq`.
    fn code_lengths(freq: &[u64]) -> Vec<u8> {
        let mut freq: Vec<u64> = freq.to_vec();
        loop {
            let mut lengths = vec![0u8; freq.len()];
            // Nodes: (weight, leaves under it).
            let mut nodes: Vec<(u64, Vec<usize>)> = freq
                .iter()
                .enumerate()
                .filter(|(_, &f)| f > 0)
                .map(|(s, &f)| (f, vec![s]))
                .collect();
            if nodes.len() == 1 {
                lengths[nodes[0].1[0]] = 1;
                return lengths;
            }
            while nodes.len() > 1 {
                nodes.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
                let (wa, la) = nodes.pop().unwrap_or_default();
                let (wb, lb) = nodes.pop().unwrap_or_default();
                for &s in la.iter().chain(lb.iter()) {
                    lengths[s] += 1;
                }
                nodes.push((wa + wb, la.into_iter().chain(lb).collect()));
            }
            if lengths.iter().all(|&l| usize::from(l) <= MAX_CODE_LEN) {
                return lengths;
            }
            freq.iter_mut()
                .filter(|f| **f > 0)
                .for_each(|f| *f = f.div_ceil(2));
        }
    }

    /// Canonical codes for `lengths`: (code, length) per symbol.
    fn canonical(lengths: &[u8]) -> Vec<(u32, u8)> {
        let mut out = vec![(0u32, 0u8); lengths.len()];
        let mut code = 0u32;
        for len in 1..=MAX_CODE_LEN as u8 {
            for (s, &l) in lengths.iter().enumerate() {
                if l == len {
                    out[s] = (code, len);
                    code += 1;
                }
            }
            code <<= 1;
        }
        out
    }

    /// Encode a whole-game solution as a table blob.
    ///
    /// `generator` names the program that wrote it (stored verbatim).
    pub fn encode(solution: &Solution, generator: &str) -> Vec<u8> {
        let bx = solution.solve_box();
        let m = bx.init_max;
        let r = bx.resets;
        // Stored runs of every layer, in directory order; the last run is implied.
        let mut layers: Vec<Vec<u32>> = Vec::new();
        for (c, hi) in solution.layers() {
            for a in 0..=r {
                for b in 0..=r {
                    for f in [false, true] {
                        let mut runs = Vec::new();
                        let mut lost = false;
                        let mut len = 0u32;
                        for s in (c + 1)..=hi {
                            let pos = Position::new(s, c, a, b, f, m).ok();
                            let win = pos.and_then(|p| solution.is_win(&p)).unwrap_or(true);
                            if win == lost {
                                runs.push(len);
                                lost = !lost;
                                len = 0;
                            }
                            len += 1;
                        }
                        layers.push(runs);
                    }
                }
            }
        }
        let mut ids: BTreeMap<&[u32], u32> = BTreeMap::new();
        let mut unique: Vec<&[u32]> = Vec::new();
        let mut directory_ids = Vec::with_capacity(layers.len());
        for runs in &layers {
            let id = *ids.entry(runs.as_slice()).or_insert_with(|| {
                unique.push(runs.as_slice());
                (unique.len() - 1) as u32
            });
            directory_ids.push(id);
        }
        let symbol = |v: u32| (v as usize).min(ESCAPE);
        let mut freq = [vec![0u64; ALPHABET], vec![0u64; ALPHABET]];
        for runs in &unique {
            for (i, &v) in runs.iter().enumerate() {
                freq[i % 2][symbol(v)] += 1;
            }
        }
        let lengths = [code_lengths(&freq[0]), code_lengths(&freq[1])];
        let codes = [canonical(&lengths[0]), canonical(&lengths[1])];
        let mut stream = BitWriter::default();
        let mut offsets_raw = Vec::with_capacity(unique.len());
        for runs in &unique {
            offsets_raw.push(stream.bits);
            for (i, &v) in runs.iter().enumerate() {
                let (code, len) = codes[i % 2][symbol(v)];
                // Codes go most significant bit first, so the decoder can walk them.
                for k in (0..len).rev() {
                    stream.push(u64::from(code >> k) & 1, 1);
                }
                if symbol(v) == ESCAPE {
                    stream.push(u64::from(v), 32);
                }
            }
        }
        let dir_bits = width_for(unique.len() as u64);
        let mut directory = BitWriter::default();
        for &id in &directory_ids {
            directory.push(u64::from(id), dir_bits);
        }
        let offset_bits = width_for(stream.bits + 1);
        let mut offsets = BitWriter::default();
        for &o in &offsets_raw {
            offsets.push(o, offset_bits);
        }
        let code_lengths: Vec<u8> = lengths.concat();
        let file = TableFile {
            magic: MAGIC,
            format_version: FORMAT_VERSION,
            generator,
            n_max: bx.n_max,
            resets: r,
            init_max: m,
            code_lengths: &code_lengths,
            dir_bits,
            directory: &directory.bytes,
            unique_layers: unique.len() as u32,
            offset_bits,
            offsets: &offsets.bytes,
            stream_bits: stream.bits as u32,
            stream: &stream.bytes,
        };
        let mut blob = postcard::to_allocvec(&file).unwrap_or_default();
        let crc = crc32(&blob);
        blob.extend_from_slice(&crc.to_le_bytes());
        blob
    }
}
