//! The solution table: won/lost for every position of a box of games, in a postcard
//! blob that is probed in place (format v3, specified in `table/FORMAT.md`).
//!
//! - which caps and piles a box stores is the crate's `geometry` module, shared with
//!   the solver and the distances;
//! - `source`: where the bytes are read from ([`ByteSource`]: a slice, program
//!   memory, external flash);
//! - [`format`]: the serialized fields and [`Layout`], the `const fn` that checks a
//!   blob (at compile time for an embedded one), and every fact of the format a
//!   writer shares with this reader (public: the writer is the crate
//!   `nimbot-solve`'s, which this module never imports); `checksum`: the CRC-32;
//! - `bits`: the bit reader; `index`: where each cap starts;
//! - `layer`: how layer values are coded (periods with repeats);
//! - `error`: blobs refused when opened ([`TableError`]), probes that fail
//!   ([`ProbeError`]).
//!
//! Probing allocates nothing, uses `u32` arithmetic only, reads the bytes through
//! the [`ByteSource`] with checked arithmetic, and reports a layer that does not
//! decode as [`ProbeError::Corrupt`].

mod bits;
mod cache;
mod checksum;
mod error;
pub mod format;
mod index;
mod layer;
mod source;

use self::bits::BitReader;
use self::cache::LayerCache;
use self::index::{cap_entry, CapEntry};
use self::layer::{skip_tokens, visit_tokens, Clip};
use crate::geometry::{highest_pile, key};
use crate::num::checked_mul;
use crate::rules::{Params, Position};
use crate::strategy::{best_move, DecideError, Decision, Oracle, Visit};
use crate::value::Value;

pub use self::error::{ProbeError, TableError};
pub use self::format::Layout;
pub use self::source::ByteSource;
pub(crate) use self::source::EmbeddedSource;

/// The table embedded at build time (feature `default-table`): `table/default.nimt`
/// (N <= 999, R <= 4, M = 3) unless the build set `NIMBOT_TABLE` to another blob (see
/// `build.rs`). Open it with [`Table::embedded`]. Without the feature no blob is
/// embedded: open your own with [`Table::from_bytes`], e.g.
/// `Table::from_bytes(include_bytes!("my.nimt"))`.
/// It is read as a slice, or from program memory on the AVR.
#[cfg(feature = "default-table")]
pub static EMBEDDED_TABLE: EmbeddedSource = {
    let bytes: &nimbot_progmem::ProgMem<[u8]> = &EMBEDDED_BYTES;
    #[cfg(not(target_arch = "avr"))]
    let bytes = bytes.as_slice();
    bytes
};

#[cfg(feature = "default-table")]
nimbot_progmem::progmem! {
    /// The bytes of [`EMBEDDED_TABLE`]: in program memory on the AVR.
    static EMBEDDED_BYTES = *include_bytes!(env!("NIMBOT_TABLE_FILE"));
}

/// The layout of [`EMBEDDED_TABLE`], checked by the compiler: a damaged or
/// mismatched blob fails the build, so nothing is checked at run time.
#[cfg(feature = "default-table")]
const EMBEDDED_LAYOUT: Layout = match Layout::check(include_bytes!(env!("NIMBOT_TABLE_FILE"))) {
    Ok(layout) => layout,
    Err(e) => build_error(e),
};

/// Stop the build on an embedded table that does not check, with the reason where
/// the target has it as a `&str`.
#[cfg(feature = "default-table")]
const fn build_error(e: TableError) -> ! {
    #[cfg(not(target_arch = "avr"))]
    panic!("{}", e.as_str());
    #[cfg(target_arch = "avr")]
    {
        let _ = e;
        panic!("the embedded table does not check (nimbot-table info FILE says why)")
    }
}

/// A checked table, reading its bytes from a [`ByteSource`]: by default
/// the embedded source (a `&'static` blob in flash, as a slice or in the AVR's
/// program memory), or a slice of any lifetime from [`Table::from_bytes`]. Copying
/// it copies the source handle and a few fields, not the blob.
#[derive(Clone, Copy, Debug)]
pub struct Table<S = EmbeddedSource> {
    source: S,
    layout: Layout,
}

impl<'a> Table<&'a [u8]> {
    /// Check and open a table blob ([`Layout::check`]: the checksum, every header
    /// field, the index); nothing is copied. The blob may be any table made by
    /// `nimbot-table generate`, embedded in the caller's own crate:
    /// `Table::from_bytes(include_bytes!("my.nimt"))`.
    pub const fn from_bytes(bytes: &'a [u8]) -> Result<Self, TableError> {
        match Layout::check(bytes) {
            Ok(layout) => Ok(Table {
                source: bytes,
                layout,
            }),
            Err(e) => Err(e),
        }
    }

    /// The generator that wrote the table.
    pub fn generator(&self) -> &'a str {
        let (at, len) = self.layout.generator;
        let (at, len) = (at as usize, len as usize);
        self.source
            .get(at..at.saturating_add(len))
            .and_then(|b| core::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

#[cfg(feature = "default-table")]
impl Table {
    /// The table embedded at build time ([`EMBEDDED_TABLE`], feature
    /// `default-table`), checked when the crate was compiled.
    pub fn embedded() -> Self {
        Table {
            source: EMBEDDED_TABLE,
            layout: EMBEDDED_LAYOUT,
        }
    }
}

impl<S: ByteSource> Table<S> {
    /// A table whose bytes are read from `source` (program memory, external flash)
    /// and whose `layout` was checked on the same bytes ([`Layout::check`], usually
    /// at compile time on an `include_bytes!` of the file). Only the size is checked
    /// here; bytes that differ from the checked ones make probes fail with
    /// [`ProbeError::Corrupt`] or answer wrongly, but never panic.
    pub fn from_source(source: S, layout: Layout) -> Result<Self, TableError> {
        if source.len() != layout.size {
            return Err(TableError::Truncated);
        }
        Ok(Table { source, layout })
    }

    /// Whether the table answers every position of games with `params`: at most its
    /// stones and resets, and the same M.
    pub fn covers(&self, params: &Params) -> bool {
        let p = self.layout.params;
        self.layout.c_min == p.init_max()
            && params.stones() <= p.stones()
            && params.resets() <= p.resets()
            && params.init_max() == p.init_max()
    }

    /// The value of `pos` for its mover. Positions whose cap no longer binds are
    /// decided by the rules; [`ProbeError::OutOfRange`] for a position outside the
    /// table (more stones for its cap, more resets or another M than it was built
    /// for).
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        match pos.trivial_value() {
            Some(v) => Ok(v),
            None => self.stored_value(pos, None),
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
        self.layout.params
    }

    /// Where the table's sections are (checked when it was opened).
    pub const fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Layers in the table (caps times `2 (R+1)^2`).
    pub const fn layer_count(&self) -> u32 {
        self.layout.caps * self.layout.keys
    }

    /// Highest cap with stored piles.
    pub const fn top_cap(&self) -> u32 {
        self.layout.c_min + self.layout.caps - 1
    }

    /// Highest stored pile for cap `c` (`c` itself when none).
    pub fn highest_pile(&self, c: u32) -> u32 {
        let p = &self.layout.params;
        match highest_pile(p.stones(), self.layout.c_min, c) {
            Some(hi) if c <= self.top_cap() => hi.max(c),
            _ => c,
        }
    }

    /// Size of the whole blob, in bytes.
    pub const fn size(&self) -> u32 {
        self.layout.size
    }

    /// The blob's CRC-32 (the last four bytes, checked when it was opened).
    pub const fn checksum(&self) -> u32 {
        self.layout.checksum
    }

    /// Sizes of the sections, in bytes: (cap index, layer stream).
    pub fn section_sizes(&self) -> (u32, u32) {
        let l = &self.layout;
        let index = (l.caps * (l.offset_bits + 2 * l.base_bits)).div_ceil(8);
        (index, l.stream_bits.div_ceil(8))
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
            self.layout.params.init_max(),
        )
        .map_err(|_| ProbeError::OutOfRange)?;
        self.walk(
            &template,
            cap.saturating_add(1),
            self.highest_pile(cap),
            &mut |first, last, v| visit(first, last, v == Value::Won),
            None,
        )
    }

    /// A reader of the stream from bit `at`.
    fn stream(&self, at: u32) -> BitReader<'_, S> {
        BitReader::new(
            &self.source,
            self.layout.stream_at,
            at,
            self.layout.stream_bits,
        )
    }

    /// The kind of the `j`-th layer of the cap at `entry` (key order, the two base
    /// layers left out) and, for kinds 2 and 3, where its tokens are: after the
    /// kinds, past the token lists of the earlier layers of kind 2 or 3.
    /// A `cache` remembers where the lists skipped start.
    fn kind(
        &self,
        i: u32,
        entry: &CapEntry,
        j: u32,
        cache: Option<&LayerCache>,
    ) -> Option<(u32, u32)> {
        let mut r = self.stream(entry.start);
        // Count the earlier kinds with the high bit set, twelve at a time.
        let mut listed = 0;
        let mut left = j;
        while left > 0 {
            let n = left.min(12);
            let kinds = r.read(2 * n)?;
            // One step a set bit, not `count_ones`: that is long code on targets
            // without the instruction (the AVR, the Cortex-M0).
            let mut high = kinds & 0x00AA_AAAA;
            while high != 0 {
                high &= high - 1;
                listed += 1;
            }
            left -= n;
        }
        let kind = r.read(2)?;
        if kind < 2 {
            return Some((kind, 0));
        }
        let extras = entry.start.checked_add(2 * (self.layout.keys - 2))?;
        let (mut skipped, at) = cache.map_or((0, extras), |c| c.nearest(i, listed, extras));
        let mut r = self.stream(at);
        while skipped < listed {
            skip_tokens(&mut r)?;
            skipped += 1;
            if let Some(c) = cache {
                c.record(i, skipped, extras, r.position());
            }
        }
        Some((kind, r.position()))
    }

    /// Visit the runs of a layer with no resets on one side (`min(own, opp) = 0`)
    /// over the clip's offsets.
    #[allow(clippy::too_many_arguments)]
    fn visit_plain(
        &self,
        i: u32,
        entry: &CapEntry,
        own: u8,
        opp: u8,
        f: bool,
        out: &mut Clip<'_>,
        cache: Option<&LayerCache>,
    ) -> Option<()> {
        if own == 0 && opp == 0 {
            return visit_tokens(&mut self.stream(entry.base[usize::from(f)]), out);
        }
        let j = u32::try_from(key(self.layout.params.resets(), own, opp, f)).ok()? - 2;
        match self.kind(i, entry, j, cache)? {
            (0, _) => out.emit(0, layer::FOREVER, true),
            (1, _) => out.emit(0, layer::FOREVER, false),
            (2, at) => visit_tokens(&mut self.stream(at), out)?,
            _ => return None,
        }
        Some(())
    }

    /// Visit the runs of layer `(own, opp, f)` of the `i`-th cap over the clip's
    /// offsets.
    fn visit_layer(
        &self,
        i: u32,
        (own, opp, f): (u8, u8, bool),
        out: &mut Clip<'_>,
        cache: Option<&LayerCache>,
    ) -> Option<()> {
        let entry = cap_entry(&self.source, &self.layout, i)?;
        let m = own.min(opp);
        if m == 0 {
            return self.visit_plain(i, &entry, own, opp, f, out, cache);
        }
        // Both sides have resets: the layer is its own values before offset
        // d = m (M + 1), then layer (own - m, opp - m, f) d piles later.
        let j = u32::try_from(key(self.layout.params.resets(), own, opp, f)).ok()? - 2;
        let (kind, at) = self.kind(i, &entry, j, cache)?;
        let d = checked_mul(u32::from(m), self.layout.params.init_max().checked_add(1)?)
            .unwrap_or(layer::FOREVER);
        if kind == 3 {
            // No copy: the tokens give every value.
            return visit_tokens(&mut self.stream(at), out);
        }
        let (lo, hi) = (out.lo, out.hi);
        if lo < d {
            out.hi = hi.min(d - 1);
            match kind {
                0 => out.emit(0, layer::FOREVER, true),
                1 => out.emit(0, layer::FOREVER, false),
                _ => visit_tokens(&mut self.stream(at), out)?,
            }
        }
        if hi >= d {
            out.lo = lo.max(d) - d;
            out.hi = hi - d;
            out.shift = out.shift.saturating_add(d);
            self.visit_plain(i, &entry, own - m, opp - m, f, out, cache)?;
        }
        Some(())
    }

    /// Walk the runs of `pos`'s layer over piles `from ..= upto` (clipped to the
    /// stored piles), calling `visit(first, last, value)`.
    fn walk(
        &self,
        pos: &Position,
        from: u32,
        upto: u32,
        visit: &mut Visit,
        cache: Option<&LayerCache>,
    ) -> Result<(), ProbeError> {
        let c = pos.cap();
        let first = c.saturating_add(1);
        let from = from.max(first);
        if upto < from {
            // No stored pile asked for (the rules decide piles up to the cap).
            return Ok(());
        }
        let p = &self.layout.params;
        if pos.init_max() != p.init_max()
            || pos.own_resets() > p.resets()
            || pos.opp_resets() > p.resets()
            || c < self.layout.c_min
            || c > self.top_cap()
            || upto > self.highest_pile(c)
        {
            return Err(ProbeError::OutOfRange);
        }
        // Offsets become piles by the clip's shift.
        let mut out = Clip {
            lo: from - first,
            hi: upto - first,
            shift: first,
            visit,
        };
        self.visit_layer(
            c - self.layout.c_min,
            (pos.own_resets(), pos.opp_resets(), pos.reset_pending()),
            &mut out,
            cache,
        )
        .ok_or(ProbeError::Corrupt)
    }

    /// The stored value of `pos` (cap below the pile).
    fn stored_value(
        &self,
        pos: &Position,
        cache: Option<&LayerCache>,
    ) -> Result<Value, ProbeError> {
        let s = pos.stones();
        if s <= pos.cap() {
            return Err(ProbeError::OutOfRange);
        }
        let mut value = None;
        self.walk(pos, s, s, &mut |_, _, v| value = Some(v), cache)?;
        value.ok_or(ProbeError::Corrupt)
    }
}

/// A table read for one decision: it remembers where the layers of the caps it
/// read start, so that the dozen or more layers a decision reads, several in the
/// same cap, do not each skip the same earlier layers again. Same answers as the
/// [`Table`]; make one per decision with [`Table::cached`] (about 200 bytes of
/// stack).
struct Cached<'t, S> {
    table: &'t Table<S>,
    cache: LayerCache,
}

impl<S: ByteSource> Table<S> {
    /// This table with a memory of layer offsets for one decision: the same
    /// answers, with fewer bits skipped when a decision reads many layers of the
    /// same caps (about 200 bytes of stack; make one per decision).
    pub fn cached(&self) -> impl Oracle + '_ {
        Cached {
            table: self,
            cache: LayerCache::new(),
        }
    }
}

/// The [`Oracle`] of a table read without ([`Table`]) or with (`Cached`) a
/// memory of layer offsets: one body, but for where the table is and the cache it
/// passes on (`None` or the decision's own).
macro_rules! table_oracle {
    ($ty:ty, |$this:ident| ($table:expr, $cache:expr)) => {
        impl<S: ByteSource> Oracle for $ty {
            fn value(&self, pos: &Position) -> Result<Value, DecideError> {
                let $this = self;
                Ok($table.stored_value(pos, $cache)?)
            }

            fn runs(
                &self,
                layer: &Position,
                lo: u32,
                hi: u32,
                f: &mut Visit,
            ) -> Result<(), DecideError> {
                let $this = self;
                Ok($table.walk(layer, lo, hi, f, $cache)?)
            }
        }
    };
}

table_oracle!(Table<S>, |table| (table, None));
table_oracle!(Cached<'_, S>, |cached| (cached.table, Some(&cached.cache)));
