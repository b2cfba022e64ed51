//! The solution table: won/lost for every position of a box of games, in a postcard
//! blob that is probed in place (format v2, specified in `table/FORMAT.md`).
//!
//! - which caps and piles a box stores is the crate's `geometry` module, shared with
//!   the solver and the distances;
//! - `format`: the serialized fields; `checksum`: the CRC-32 after them;
//! - `bits`: the bit reader; `index`: restart points into the stream;
//! - `layer`: how one layer's values are coded (periods, copies of a related layer);
//! - `encode` (feature `encode`): the writer, for `nimbot-table` and tests;
//! - `error`: blobs refused when opened ([`TableError`]), probes that fail
//!   ([`ProbeError`]).
//!
//! Loading checks the checksum and every header field; probing allocates nothing,
//! reads the borrowed bytes with checked arithmetic, and reports a layer that does
//! not decode as [`ProbeError::Corrupt`].

mod bits;
mod checksum;
#[cfg(feature = "encode")]
mod encode;
mod error;
mod format;
mod index;
mod layer;

use self::bits::BitReader;
use self::format::TableFile;
use self::index::Index;
use self::layer::{read_layer, visit_tokens, Header};
use crate::geometry::{self, key, keys_per_cap, Layers};
use crate::rules::{Params, Position};
use crate::strategy::{best_move, DecideError, Decision, Oracle};
use crate::text::text;
use crate::value::Value;

pub use self::error::{ProbeError, TableError};
pub use self::format::FORMAT_VERSION;
// The writer's side (feature `encode`): what `nimbot-table` and the tests make
// tables with.
#[cfg(feature = "encode")]
pub use self::{
    checksum::crc32,
    encode::{encode, encode_values, encode_with, runs_of, Encoding},
    format::MAGIC,
};

/// The table embedded at build time (feature `default-table`): `table/default.nimt`
/// (N <= 999, R <= 4, M = 3) unless the build set `NIMBOT_TABLE` to another blob (see
/// `build.rs`). Open it with [`Table::embedded`]. Without the feature no blob is
/// embedded: open your own with [`Table::from_bytes`], e.g.
/// `Table::from_bytes(include_bytes!("my.nimt"))`.
#[cfg(feature = "default-table")]
pub static EMBEDDED_TABLE: &[u8] = include_bytes!(env!("NIMBOT_TABLE_FILE"));

/// A validated table, borrowing its bytes (typically a `&'static` blob in flash).
/// Cloning copies a few fields and the borrow, not the blob.
#[derive(Clone, Debug)]
pub struct Table<'a> {
    file: TableFile<'a>,
    params: Params,
    /// Highest cap with stored piles.
    c_top: u32,
    /// Layers in the stream: caps times keys per cap.
    layers: u64,
    /// Size of the whole blob and its stored CRC-32, for reports.
    size: usize,
    checksum: u32,
}

impl<'a> Table<'a> {
    /// Check and open a table blob. Every header field is validated; nothing is
    /// copied. The blob may be any table made by `nimbot-table generate`, embedded in
    /// the caller's own crate: `Table::from_bytes(include_bytes!("my.nimt"))`.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, TableError> {
        let split = bytes.len().checked_sub(4).ok_or(TableError::Truncated)?;
        let (body, tail) = bytes.split_at_checked(split).ok_or(TableError::Truncated)?;
        let stored = u32::from_le_bytes(tail.try_into().map_err(|_| TableError::Truncated)?);
        if checksum::crc32(body) != stored {
            return Err(TableError::Checksum);
        }
        let (file, rest): (TableFile<'a>, &[u8]) =
            postcard::take_from_bytes(body).map_err(TableError::Decode)?;
        if !rest.is_empty() {
            return Err(TableError::Malformed(text!("trailing bytes")));
        }
        if file.magic != format::MAGIC {
            return Err(TableError::BadMagic);
        }
        if file.format_version != FORMAT_VERSION {
            return Err(TableError::UnsupportedVersion);
        }
        let params = Params::new(file.n_max, file.resets, file.init_max)
            .map_err(|_| TableError::BadParams)?;
        let caps = Layers::new(params.stones(), params.init_max()).count() as u64;
        if caps == 0 {
            return Err(TableError::BadParams);
        }
        let layers = caps * keys_per_cap(file.resets) as u64;
        let c_top = u32::try_from(u64::from(params.init_max()) + caps - 1)
            .map_err(|_| TableError::BadParams)?;
        if u64::from(file.stream_bits).div_ceil(8) != file.stream.len() as u64 {
            return Err(TableError::Malformed(text!("stream size")));
        }
        let table = Table {
            file,
            params,
            c_top,
            layers,
            size: bytes.len(),
            checksum: stored,
        };
        table
            .index()
            .validate(layers, u64::from(table.file.stream_bits))?;
        Ok(table)
    }

    /// Check and open the table embedded at build time ([`EMBEDDED_TABLE`], feature
    /// `default-table`).
    #[cfg(feature = "default-table")]
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

    /// The value of `pos` for its mover. Positions whose cap no longer binds are
    /// decided by the rules; [`ProbeError::OutOfRange`] for a position outside the
    /// table (more stones for its cap, more resets or another M than it was built
    /// for).
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        match pos.trivial_value() {
            Some(v) => Ok(v),
            None => self.stored_value(pos),
        }
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

    /// Layers in the table (caps times `2 (R+1)^2`).
    pub const fn layer_count(&self) -> u64 {
        self.layers
    }

    /// Restart points in the stream (a probe decodes from the nearest one).
    pub const fn restart_points(&self) -> u32 {
        self.file.restarts
    }

    /// Highest cap with stored piles.
    pub const fn top_cap(&self) -> u32 {
        self.c_top
    }

    /// Highest stored pile for cap `c` (`c` itself when none).
    pub fn highest_pile(&self, c: u32) -> u32 {
        let hi = geometry::highest_pile(self.params.stones(), self.params.init_max(), c);
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

    /// Sizes of the sections, in bytes: (restart index, layer stream).
    pub fn section_sizes(&self) -> (usize, usize) {
        (self.file.index.len(), self.file.stream.len())
    }

    /// Visit every run of the layer `(cap, own, opp, pending)`, lowest piles first,
    /// as `visit(first pile, last pile, won)`; the runs cover piles
    /// `cap + 1 ..= highest_pile(cap)` (two neighbouring runs may share a value). For
    /// tools that decode a whole table.
    pub fn layer_runs(
        &self,
        cap: u32,
        own: u8,
        opp: u8,
        pending: bool,
        mut visit: impl FnMut(u32, u32, bool),
    ) -> Result<(), ProbeError> {
        let template = Position::new(
            cap.saturating_add(1),
            cap,
            own,
            opp,
            pending,
            self.params.init_max(),
        )
        .map_err(|_| ProbeError::OutOfRange)?;
        self.walk(
            &template,
            cap.saturating_add(1),
            self.highest_pile(cap),
            &mut |first, last, won| visit(first, last, won),
        )
    }

    fn index(&self) -> Index<'a> {
        let f = &self.file;
        Index::new(f.index, u64::from(f.restarts), f.layer_bits, f.offset_bits)
    }

    fn stream_reader(&self, at: u64) -> BitReader<'a> {
        BitReader::new(self.file.stream, at, u64::from(self.file.stream_bits))
    }

    /// The number of the layer of `pos` (its pile ignored); `OutOfRange` outside the
    /// table.
    fn layer_number(&self, pos: &Position) -> Result<u64, ProbeError> {
        let p = &self.params;
        if pos.init_max() != p.init_max()
            || pos.own_resets() > p.resets()
            || pos.opp_resets() > p.resets()
            || pos.cap() < p.init_max()
            || pos.cap() > self.c_top
        {
            return Err(ProbeError::OutOfRange);
        }
        let k = key(
            p.resets(),
            pos.own_resets(),
            pos.opp_resets(),
            pos.reset_pending(),
        );
        Ok(u64::from(pos.cap() - p.init_max()) * keys_per_cap(p.resets()) as u64 + k as u64)
    }

    /// The header of layer `n`, decoded from the nearest restart point.
    fn header(&self, n: u64) -> Option<Header> {
        let (first, offset) = self.index().restart_for(n)?;
        let mut r = self.stream_reader(offset);
        for _ in first..n {
            read_layer(&mut r)?;
        }
        read_layer(&mut r)
    }

    /// Visit the runs of layer `n` meeting offsets `lo ..= hi`.
    fn visit_layer(
        &self,
        n: u64,
        lo: u64,
        hi: u64,
        visit: &mut dyn FnMut(u64, u64, bool),
    ) -> Option<()> {
        match self.header(n)? {
            Header::Explicit { tokens } => {
                visit_tokens(&mut self.stream_reader(tokens), lo, hi, 0, visit)
            }
            Header::Copy {
                back,
                shift,
                start,
                tokens,
            } => {
                if lo < start {
                    let top = hi.min(start - 1);
                    visit_tokens(&mut self.stream_reader(tokens), lo, top, 0, visit)?;
                }
                if hi >= start {
                    // The source must be explicit (one level), and earlier.
                    let Header::Explicit { tokens } = self.header(n.checked_sub(back)?)? else {
                        return None;
                    };
                    let from = lo.max(start).checked_add_signed(-shift)?;
                    let to = hi.checked_add_signed(-shift)?;
                    visit_tokens(&mut self.stream_reader(tokens), from, to, shift, visit)?;
                }
                Some(())
            }
        }
    }

    /// Walk the runs of `pos`'s layer over piles `from ..= upto` (clipped to the
    /// stored piles), calling `visit(first, last, won)`.
    fn walk(
        &self,
        pos: &Position,
        from: u32,
        upto: u32,
        visit: &mut dyn FnMut(u32, u32, bool),
    ) -> Result<(), ProbeError> {
        let c = pos.cap();
        let first = u64::from(c) + 1;
        let from = u64::from(from).max(first);
        if u64::from(upto) < from {
            // No stored pile asked for (the rules decide piles up to the cap).
            return Ok(());
        }
        let n = self.layer_number(pos)?;
        if upto > self.highest_pile(c) {
            return Err(ProbeError::OutOfRange);
        }
        let pile = |t: u64| u32::try_from(t.saturating_add(first)).unwrap_or(u32::MAX);
        self.visit_layer(
            n,
            from - first,
            u64::from(upto) - first,
            &mut |a, b, won| visit(pile(a), pile(b), won),
        )
        .ok_or(ProbeError::Corrupt)
    }

    /// The stored value of `pos` (cap below the pile).
    fn stored_value(&self, pos: &Position) -> Result<Value, ProbeError> {
        let s = pos.stones();
        if s <= pos.cap() {
            return Err(ProbeError::OutOfRange);
        }
        let mut value = None;
        self.walk(pos, s, s, &mut |_, _, won| {
            value = Some(Value::from_mover_wins(won))
        })?;
        value.ok_or(ProbeError::Corrupt)
    }
}

impl Oracle for Table<'_> {
    fn value(&self, pos: &Position) -> Result<Value, DecideError> {
        Ok(self.stored_value(pos)?)
    }

    fn largest_loss_in(
        &self,
        layer: &Position,
        lo: u32,
        hi: u32,
    ) -> Result<Option<u32>, DecideError> {
        let mut found = None;
        self.walk(layer, lo, hi, &mut |_, last, won| {
            if !won {
                found = Some(last);
            }
        })?;
        Ok(found)
    }

    fn count_losses_in(&self, layer: &Position, lo: u32, hi: u32) -> Result<u32, DecideError> {
        let mut n = 0u32;
        self.walk(layer, lo, hi, &mut |first, last, won| {
            if !won {
                n = n.saturating_add(last - first + 1);
            }
        })?;
        Ok(n)
    }
}
