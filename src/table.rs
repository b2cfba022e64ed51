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
use crate::strategy::{best_move, position_value, DecideError, Decision, Oracle};

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
#[derive(Serialize, Deserialize, Clone, Debug)]
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

/// The table embedded at build time: `table/default.nimt` (N <= 999, R <= 4, M = 3)
/// unless the build set `NIMBOT_TABLE` to another blob (see `build.rs`). Open it with
/// [`Table::embedded`].
pub static EMBEDDED_TABLE: &[u8] = include_bytes!(env!("NIMBOT_TABLE_FILE"));

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
#[cfg(feature = "alloc")]
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
/// Cloning copies the decoding tables and the borrow, not the blob.
#[derive(Clone, Debug)]
pub struct Table<'a> {
    file: TableFile<'a>,
    params: Params,
    /// Highest cap with stored piles.
    c_top: u32,
    books: [Codebook; 2],
    /// Size of the whole blob and its stored CRC-32, for reports.
    size: usize,
    checksum: u32,
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

/// The stored layers of the games of `params`: `(cap, highest stored pile)` for
/// caps M, M+1, ... while some pile lies above the cap.
fn layer_bounds(params: &Params) -> impl Iterator<Item = (u32, u32)> {
    let (n, m) = (u64::from(params.stones()), params.init_max());
    (m..)
        .map(move |c| (c, n.saturating_sub(stones_below_cap(m, c))))
        .take_while(|&(c, hi)| hi > u64::from(c))
        .map(|(c, hi)| (c, hi as u32))
}

/// The layers of one cap in directory order: own resets, then opponent resets, then
/// the pending-reset flag, each ascending.
#[cfg(feature = "alloc")]
fn layer_keys(resets: u8) -> impl Iterator<Item = (u8, u8, bool)> {
    (0..=resets).flat_map(move |a| {
        (0..=resets).flat_map(move |b| [false, true].into_iter().map(move |f| (a, b, f)))
    })
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
        let caps = layer_bounds(&params).count() as u64;
        let layer_count = caps * layers_per_cap(file.resets);
        let c_top = (u64::from(params.init_max()) + caps).saturating_sub(1);
        let c_top = u32::try_from(c_top).map_err(|_| TableError::BadParams)?;
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
            size: bytes.len(),
            checksum: stored,
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

    /// Check and open the table embedded at build time ([`EMBEDDED_TABLE`]).
    pub fn embedded() -> Result<Table<'static>, TableError> {
        Table::from_bytes(EMBEDDED_TABLE)
    }

    /// Whether the table answers every position of games with `params`: at most its
    /// stones and resets, and the same M.
    pub fn covers(&self, params: &Params) -> bool {
        params.stones() <= self.params.stones()
            && params.resets() <= self.params.resets()
            && params.init_max() == self.params.init_max()
    }

    /// Whether the mover wins `pos`. Positions whose cap no longer binds are decided
    /// by the rules; [`DecideError::OutOfRange`] for a position outside the table
    /// (more stones for its cap, more resets or another M than it was built for).
    pub fn probe(&self, pos: &Position) -> Result<bool, DecideError> {
        position_value(self, pos)
    }

    /// The move for `pos`: a winning one whenever `pos` is won (see [`best_move`]);
    /// [`DecideError::OutOfRange`] when the table cannot tell. A position just past
    /// the table may still get an answer when a winning reply lands inside it.
    pub fn best_move(&self, pos: &Position) -> Result<Decision, DecideError> {
        best_move(self, pos)
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

    /// Size of the whole blob, in bytes.
    pub const fn size(&self) -> usize {
        self.size
    }

    /// The blob's CRC-32 (the last four bytes, checked when it was opened).
    pub const fn checksum(&self) -> u32 {
        self.checksum
    }

    /// Sizes of the sections, in bytes: (directory, offsets, stream).
    pub fn section_sizes(&self) -> (usize, usize, usize) {
        (
            self.file.directory.len(),
            self.file.offsets.len(),
            self.file.stream.len(),
        )
    }

    /// Visit every stored run of the layer `(cap, own, opp, pending)`, lowest piles
    /// first, as `visit(first pile, last pile, won)`; the runs cover piles
    /// `cap + 1 ..= highest_pile(cap)`. For tools that decode a whole table.
    pub fn layer_runs(
        &self,
        cap: u32,
        own: u8,
        opp: u8,
        pending: bool,
        mut visit: impl FnMut(u32, u32, bool),
    ) -> Result<(), DecideError> {
        let template = Position::new(
            cap.saturating_add(1),
            cap,
            own,
            opp,
            pending,
            self.params.init_max(),
        )
        .map_err(|_| DecideError::OutOfRange)?;
        self.walk(&template, self.highest_pile(cap), |first, last, lost| {
            visit(first, last, !lost)
        })
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
        self.walk(layer, hi, |_, last, lost| {
            if lost && last >= lo {
                found = Some(last);
            }
        })?;
        Ok(found)
    }

    fn count_losses_in(&self, layer: &Position, lo: u32, hi: u32) -> Result<u32, DecideError> {
        let lo = lo.max(layer.cap().saturating_add(1));
        if hi < lo {
            return Ok(0);
        }
        let mut n = 0u32;
        self.walk(layer, hi, |first, last, lost| {
            if lost && last >= lo {
                n = n.saturating_add(last - first.max(lo) + 1);
            }
        })?;
        Ok(n)
    }
}

#[cfg(feature = "alloc")]
pub use encode::{encode, encode_values};

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
                if self.bits % 8 == 0 {
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

    /// Alternating won/lost run lengths of one layer's values, starting with a won
    /// run (possibly empty); the last run is implied and not stored.
    fn runs_of(values: impl Iterator<Item = bool>) -> Vec<u32> {
        let mut runs = Vec::new();
        let mut lost = false;
        let mut len = 0u32;
        for win in values {
            if win == lost {
                runs.push(len);
                lost = !lost;
                len = 0;
            }
            len += 1;
        }
        runs
    }

    /// Encode a whole-game solution (a box from [`SolveBox::games`]) as a table blob.
    ///
    /// `generator` names the program that wrote it (stored verbatim). A box that
    /// starts above cap M (from [`SolveBox::around`]) is refused with
    /// [`TableError::BadParams`].
    ///
    /// [`SolveBox::games`]: crate::SolveBox::games
    /// [`SolveBox::around`]: crate::SolveBox::around
    pub fn encode(solution: &Solution, generator: &str) -> Result<Vec<u8>, TableError> {
        let bx = solution.solve_box();
        if bx.c_min != bx.init_max {
            return Err(TableError::BadParams);
        }
        let params =
            Params::new(bx.n_max, bx.resets, bx.init_max).map_err(|_| TableError::BadParams)?;
        let mut layers = Vec::new();
        for (c, _) in layer_bounds(&params) {
            for (a, b, f) in layer_keys(params.resets()) {
                let values = solution.layer_values(c, a, b, f);
                layers.push(runs_of(values.into_iter().flatten()));
            }
        }
        Ok(encode_layers(&params, &layers, generator))
    }

    /// Encode the table whose stored positions (cap below the pile, games of at most
    /// `params` stones, resets and M) have the values `value` gives. Slow (one call
    /// per position); for tools and tests that need a table of chosen values, such as
    /// a deliberately wrong one for the verifier.
    pub fn encode_values(
        params: &Params,
        generator: &str,
        mut value: impl FnMut(&Position) -> bool,
    ) -> Vec<u8> {
        let mut layers = Vec::new();
        for (c, hi) in layer_bounds(params) {
            for (a, b, f) in layer_keys(params.resets()) {
                let values = ((c + 1)..=hi).map(|s| {
                    Position::new(s, c, a, b, f, params.init_max())
                        .map(|p| value(&p))
                        .unwrap_or(true)
                });
                layers.push(runs_of(values));
            }
        }
        encode_layers(params, &layers, generator)
    }

    /// Deduplicate, Huffman-code and serialize the runs of every layer (in
    /// directory order).
    fn encode_layers(params: &Params, layers: &[Vec<u32>], generator: &str) -> Vec<u8> {
        let mut ids: BTreeMap<&[u32], u32> = BTreeMap::new();
        let mut unique: Vec<&[u32]> = Vec::new();
        let mut directory_ids = Vec::with_capacity(layers.len());
        for runs in layers {
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
            n_max: params.stones(),
            resets: params.resets(),
            init_max: params.init_max(),
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
