//! The table writer: a solved box in, a format-v3 blob out (see `table/FORMAT.md`
//! and the reader's `table::layer` for the coding).
//!
//! Per cap, the two base layers (no resets on either side) are coded as tokens.
//! Every other layer gets a 2-bit kind: with resets on both sides (`m = min(a, b) >=
//! 1`) the layer is checked against its base relative `(a - m, b - m, f)` delayed by
//! `m (M + 1)` piles, which holds for almost all of them, and then only its first
//! `m (M + 1)` piles are coded (usually all won or all lost: no tokens at all);
//! layers with resets on one side only are all won, all lost, or tokens.

use alloc::vec::Vec;

use super::base::{Layers, SolveBox, SolveError};
use super::bits::BitWriter;
use super::code::{self, index_of, CapCoder};
use super::windowed::PileSink;
use super::Solution;
use nimbot::table::format::{crc32, TableFile, FORMAT_VERSION, MAGIC};
use nimbot::table::Layout;
use nimbot::{Params, Position, TableError};

/// Choices the writer makes; every choice gives a valid table of the same values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// Code layers with resets on both sides as delayed copies of their base
    /// relative where that holds (kinds 0 to 2), instead of tokens (kind 3).
    pub copies: bool,
}

impl Default for Encoding {
    fn default() -> Self {
        Encoding { copies: true }
    }
}

/// Encode a whole-game solution (a box from [`SolveBox::games`]) as a table blob
/// with the default [`Encoding`].
///
/// `generator` names the program that wrote it (stored verbatim). A box that
/// starts above cap M (from [`SolveBox::around`]) is refused with
/// [`TableError::BadParams`].
///
/// [`SolveBox::games`]: crate::solver::SolveBox::games
/// [`SolveBox::around`]: crate::solver::SolveBox::around
pub fn encode(solution: &Solution, generator: &str) -> Result<Vec<u8>, TableError> {
    encode_with(solution, generator, &Encoding::default())
}

/// [`encode`] with chosen [`Encoding`] settings.
pub fn encode_with(
    solution: &Solution,
    generator: &str,
    encoding: &Encoding,
) -> Result<Vec<u8>, TableError> {
    let bx = solution.solve_box();
    if bx.c_min != bx.init_max {
        return Err(TableError::BadParams);
    }
    let params =
        Params::new(bx.n_max, bx.resets, bx.init_max).map_err(|_| TableError::BadParams)?;
    let mut layers = Vec::new();
    for (c, _) in Layers::new(params.stones(), params.init_max()) {
        layers.extend(solution.cap_runs(c).ok_or(TableError::BadParams)?);
    }
    encode_layers(&params, &layers, generator, encoding).map_err(|_| TableError::BadParams)
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
    let r = params.resets();
    let mut layers = Vec::new();
    for (c, hi) in Layers::new(params.stones(), params.init_max()) {
        for a in 0..=r {
            for b in 0..=r {
                for f in [false, true] {
                    let values = ((c + 1)..=hi).map(|s| {
                        Position::new(s, c, a, b, f, params.init_max())
                            .map(|p| value(&p))
                            .unwrap_or(true)
                    });
                    layers.push(runs_of(values));
                }
            }
        }
    }
    encode_layers(params, &layers, generator, &Encoding::default()).unwrap_or_default()
}

/// Alternating won/lost run lengths of one layer's values, starting with a won
/// run (possibly empty); the last run is implied and not stored.
pub fn runs_of(values: impl Iterator<Item = bool>) -> Vec<u32> {
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

/// Tokens `(w, l, k)` of a run list: periods (won run, lost run) with repeats
/// folded; an odd list ends with `l = 0` (lost for ever).
fn tokens(runs: &[u32]) -> Vec<(u32, u32, u32)> {
    let mut out: Vec<(u32, u32, u32)> = Vec::new();
    for pair in runs.chunks(2) {
        let w = pair[0];
        let l = pair.get(1).copied().unwrap_or(0);
        match out.last_mut() {
            Some((pw, pl, k)) if *pw == w && *pl == l && l > 0 => *k += 1,
            _ => out.push((w, l, 0)),
        }
    }
    out
}

/// Write the token list of a run list.
fn write_tokens(out: &mut BitWriter, runs: &[u32]) -> Result<(), SolveError> {
    code::write_tokens(out, &tokens(runs))
}

/// Run boundaries: the offsets where the value changes (cumulative run lengths).
fn boundaries(runs: &[u32]) -> Vec<u32> {
    runs.iter()
        .scan(0u32, |at, &r| {
            *at += r;
            Some(*at)
        })
        .collect()
}

/// The value at offset `t` of a layer with boundaries `b` (won before the first).
fn value_at(b: &[u32], t: u32) -> bool {
    b.partition_point(|&x| x <= t) % 2 == 0
}

/// The boundaries of `b` strictly between `lo` and `hi`.
fn inside(b: &[u32], lo: u32, hi: u32) -> &[u32] {
    let from = b.partition_point(|&x| x <= lo);
    let to = b.partition_point(|&x| x < hi);
    b.get(from..to.max(from)).unwrap_or_default()
}

/// Whether the layer with boundaries `v` equals the one with boundaries `u`
/// delayed by `d` on offsets `d .. n`.
fn delayed_copy(v: &[u32], u: &[u32], d: u32, n: u32) -> bool {
    if d >= n {
        return true;
    }
    value_at(v, d) == value_at(u, 0)
        && inside(v, d, n)
            .iter()
            .map(|&x| x - d)
            .eq(inside(u, 0, n - d).iter().copied())
}

/// The token list of a layer's first `n` offsets, or its kind when they are all
/// won (0) or all lost (1).
fn head(v: &[u32], n: u32) -> Result<u32, Vec<u32>> {
    if inside(v, 0, n).is_empty() {
        return Ok(u32::from(!value_at(v, 0)));
    }
    // The runs before n (the last one continues past it).
    let mut prev = 0;
    Err(v
        .iter()
        .take_while(|&&b| b < n)
        .map(|&b| {
            let r = b - prev;
            prev = b;
            r
        })
        .collect())
}

/// Bits of a token list.
fn token_bits(runs: &[u32]) -> Result<u64, SolveError> {
    let mut w = BitWriter::default();
    write_tokens(&mut w, runs)?;
    Ok(w.bits)
}

/// Code one cap's layers (runs in key order, `n` piles each) into `stream`;
/// returns the base layers' offsets from the cap's start.
fn encode_cap(
    stream: &mut BitWriter,
    layers: &[Vec<u32>],
    params: &Params,
    n: u32,
    encoding: &Encoding,
) -> Result<[u64; 2], SolveError> {
    let r = params.resets();
    let bounds: Vec<Vec<u32>> = layers.iter().map(|runs| boundaries(runs)).collect();
    let start = stream.bits;
    let mut kinds = BitWriter::default();
    let mut extras = BitWriter::default();
    for a in 0..=r {
        for b in 0..=r {
            for f in [false, true] {
                let k = Layout::key(r, a, b, f);
                if a == 0 && b == 0 {
                    continue;
                }
                let m = a.min(b);
                let full = head(&bounds[k], n).map_err(|_| &layers[k]);
                let kind = if m == 0 {
                    match full {
                        Ok(kind) => kind,
                        Err(runs) => {
                            write_tokens(&mut extras, runs)?;
                            2
                        }
                    }
                } else {
                    let d = u32::from(m) * (params.init_max() + 1);
                    let source = &bounds[Layout::key(r, a - m, b - m, f)];
                    let copy = encoding.copies && delayed_copy(&bounds[k], source, d, n);
                    match (copy, head(&bounds[k], d.min(n))) {
                        (true, Ok(kind)) => kind,
                        (true, Err(prefix)) if token_bits(&prefix)? <= token_bits(&layers[k])? => {
                            write_tokens(&mut extras, &prefix)?;
                            2
                        }
                        _ => {
                            write_tokens(&mut extras, &layers[k])?;
                            3
                        }
                    }
                };
                kinds.push(kind.into(), 2)?;
            }
        }
    }
    stream.append(&kinds)?;
    stream.append(&extras)?;
    let mut base = [0u64; 2];
    for (f, at) in base.iter_mut().enumerate() {
        *at = stream.bits - start;
        write_tokens(stream, &layers[Layout::key(r, 0, 0, f == 1)])?;
    }
    Ok(base)
}

/// Code the runs of every layer (in layer order) and serialize the table.
fn encode_layers(
    params: &Params,
    layers: &[Vec<u32>],
    generator: &str,
    encoding: &Encoding,
) -> Result<Vec<u8>, SolveError> {
    let per_cap = Layout::keys_per_cap(params.resets());
    let mut stream = BitWriter::default();
    let mut entries = Vec::new();
    for ((c, hi), cap_layers) in
        Layers::new(params.stones(), params.init_max()).zip(layers.chunks(per_cap))
    {
        let start = stream.bits;
        let base = encode_cap(&mut stream, cap_layers, params, hi - c, encoding)?;
        entries.push((start, base));
    }
    serialize(params, &stream, &entries, generator)
}

/// The table file of a coded stream whose caps start at `entries` (stream bit,
/// base layers' offsets from it), lowest cap first.
fn serialize(
    params: &Params,
    stream: &BitWriter,
    entries: &[(u64, [u64; 2])],
    generator: &str,
) -> Result<Vec<u8>, SolveError> {
    let (index, offset_bits, base_bits) = index_of(stream.bits, entries)?;
    let file = TableFile {
        magic: MAGIC,
        format_version: FORMAT_VERSION,
        generator,
        n_max: params.stones(),
        resets: params.resets(),
        init_max: params.init_max(),
        offset_bits,
        base_bits,
        caps: entries.len() as u32,
        index: index.bytes(),
        stream_bits: stream.bits as u32,
        stream: stream.bytes(),
    };
    let mut blob = postcard::to_allocvec(&file).map_err(|_| SolveError::OutOfMemory)?;
    let crc = crc32(&blob);
    blob.extend_from_slice(&crc.to_le_bytes());
    Ok(blob)
}

/// The streaming table writer: a [`PileSink`] for
/// [`solve_windowed`](crate::solve_windowed) that codes each cap as its
/// piles come (folding their runs into tokens on the way), so that writing a
/// table never holds more than one cap's tokens and the coded caps. Gives the same
/// blob as [`encode`] of the full solution.
///
/// ```
/// use nimbot::{Params, Table};
/// use nimbot_solve::{solve_windowed, Encoding, SolveBox, TableWriter};
///
/// let params = Params::new(200, 2, 3).unwrap();
/// let mut writer = TableWriter::new(&params, Encoding::default()).unwrap();
/// solve_windowed(SolveBox::games(200, 2, 3), &mut writer, &mut |_, _| {}).unwrap();
/// let blob = writer.finish("example").unwrap();
/// assert_eq!(Table::from_bytes(&blob).unwrap().params(), params);
/// ```
///
/// Several threads ([`SharedSolve`](crate::SharedSolve)) each write into a writer
/// of their own, any caps in any order; [`TableWriter::merge`] puts them together.
#[derive(Debug)]
pub struct TableWriter {
    params: Params,
    coder: Coder,
    /// Per cap from the lowest: its coded bits and its base layers' offsets in
    /// them, once it is in.
    caps: Vec<Option<(BitWriter, [u64; 2])>>,
}

/// The writer's coder, with or without delayed copies.
#[derive(Debug)]
enum Coder {
    Copies(CapCoder<true>),
    Plain(CapCoder<false>),
}

impl TableWriter {
    /// A writer for the whole-game box of `params`.
    ///
    /// # Errors
    /// [`SolveError::OutOfMemory`] if its few arrays cannot be had.
    pub fn new(params: &Params, encoding: Encoding) -> Result<Self, SolveError> {
        let bx = SolveBox::games(params.stones(), params.resets(), params.init_max());
        let mut caps = Vec::new();
        caps.resize_with(bx.layer_bounds().count(), || None);
        Ok(TableWriter {
            params: *params,
            coder: if encoding.copies {
                Coder::Copies(CapCoder::new(&bx)?)
            } else {
                Coder::Plain(CapCoder::new(&bx)?)
            },
            caps,
        })
    }

    /// Bytes of the coded caps so far.
    pub fn coded_bytes(&self) -> u64 {
        self.caps
            .iter()
            .flatten()
            .map(|(bits, _)| bits.bytes().len() as u64)
            .sum()
    }

    /// Take the caps `other` (a writer of the same box) has coded.
    ///
    /// # Errors
    /// [`TableError::BadParams`] if its box differs or a cap is in both.
    pub fn merge(&mut self, other: TableWriter) -> Result<(), TableError> {
        if other.params != self.params {
            return Err(TableError::BadParams);
        }
        for (mine, theirs) in self.caps.iter_mut().zip(other.caps) {
            if theirs.is_some() {
                if mine.is_some() {
                    return Err(TableError::BadParams);
                }
                *mine = theirs;
            }
        }
        Ok(())
    }

    /// The table blob, once every cap is in (the solve returned `Ok`).
    ///
    /// # Errors
    /// [`TableError::BadParams`] if caps are missing.
    pub fn finish(self, generator: &str) -> Result<Vec<u8>, TableError> {
        let mut stream = BitWriter::default();
        let mut entries = Vec::new();
        for cap in &self.caps {
            let (bits, base) = cap.as_ref().ok_or(TableError::BadParams)?;
            entries.push((stream.bits, *base));
            stream.append(bits).map_err(|_| TableError::BadParams)?;
        }
        serialize(&self.params, &stream, &entries, generator).map_err(|_| TableError::BadParams)
    }
}

impl PileSink for TableWriter {
    fn piles(&mut self, cap: u32, first: u32, words: &[u64]) -> Result<(), SolveError> {
        match &mut self.coder {
            Coder::Copies(c) => c.piles(cap, first, words),
            Coder::Plain(c) => c.piles(cap, first, words),
        }
    }

    fn cap_done(&mut self, cap: u32) -> Result<(), SolveError> {
        let mut bits = BitWriter::default();
        let base = match &mut self.coder {
            Coder::Copies(c) => c.finish_cap(cap, &mut bits)?,
            Coder::Plain(c) => c.finish_cap(cap, &mut bits)?,
        };
        let slot = cap
            .checked_sub(self.params.init_max())
            .and_then(|i| self.caps.get_mut(i as usize))
            .ok_or(SolveError::BadParams)?;
        *slot = Some((bits, base));
        Ok(())
    }
}
