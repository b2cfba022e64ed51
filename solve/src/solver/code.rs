//! Coding a cap as its piles come (feature `alloc`): the table's format v3 (see
//! `table/FORMAT.md`) written by [`CapCoder`] from a windowed solve, for the
//! table writer and for solutions kept coded in memory ([`CodedSolution`]).
//!
//! Per storage bit (one layer of the cap) the coder folds the runs of won and lost
//! piles into tokens as they end, so a cap costs its tokens, never its piles. A
//! layer with resets on both sides (`m = min(a, b) >= 1`) is a delayed copy of its
//! base relative `(a - m, b - m, f)` when its value at every pile `t >= d = m (M +
//! 1)` is the relative's at `t - d`: the coder checks that on the fly, for all the
//! layers of one `m` at once, as the XOR of the pile with the pile `d` back
//! shifted by `m (R + 2)` bits (a few recent piles are kept for that).
//!
//! No panics, and every allocation is fallible ([`SolveError::OutOfMemory`]): the
//! tiny binary links it under its panic guard.

use alloc::vec::Vec;

use super::base::{filled, filled_with, Growing, SolveBox, SolveError};
use super::bits::{width_for, BitWriter};
use super::windowed::{solve_windowed, PileBits, PileSink};
use nimbot::table::{Layout, Table};
use nimbot::{DecideError, Oracle, Params, Position, Value, Visit};

/// A token `(w, l, k)`: `k + 1` times `w` won piles then `l` lost ones; `l = 0`:
/// lost for ever (the last token).
pub(crate) type Token = (u32, u32, u32);

/// A cap's index entry: where it starts in the stream, and its base layers'
/// offsets from there.
pub(crate) type Entry = (u64, [u64; 2]);

/// One layer's tokens so far.
#[derive(Clone, Debug, Default)]
struct LayerTokens {
    tokens: Growing<Token>,
    /// Where the current run began.
    since: u32,
    /// The won run waiting for the lost run after it (the current run is lost).
    won: Option<u32>,
}

impl LayerTokens {
    /// The value changes at offset `t`: the current run ends.
    fn change(&mut self, t: u32) -> Result<(), SolveError> {
        let len = t.saturating_sub(self.since);
        self.since = t;
        match self.won.take() {
            None => self.won = Some(len),
            Some(w) => match self.tokens.last_mut() {
                Some((pw, pl, k)) if *pw == w && *pl == len && len > 0 => {
                    *k = k.saturating_add(1);
                }
                _ => self.tokens.push((w, len, 0))?,
            },
        }
        Ok(())
    }

    /// The layer ends: a lost last run becomes the "lost for ever" token.
    fn end(&mut self) -> Result<(), SolveError> {
        if let Some(w) = self.won.take() {
            self.tokens.push((w, 0, 0))?;
        }
        self.since = 0;
        Ok(())
    }

    fn clear(&mut self) {
        self.tokens.clear();
        self.since = 0;
        self.won = None;
    }
}

/// Whether a token list is one value throughout: `Some(true)` all won (no token),
/// `Some(false)` all lost, `None` if it changes.
fn constant(tokens: &[Token]) -> Option<bool> {
    match tokens {
        [] => Some(true),
        [(0, 0, _)] => Some(false),
        _ => None,
    }
}

/// The tokens of the runs of `tokens` that end before offset `n` (the layer's
/// first `n` piles, its last run continuing), into `out`.
fn prefix(tokens: &[Token], n: u32, out: &mut LayerTokens) -> Result<(), SolveError> {
    out.clear();
    let mut at = 0u32;
    'all: for &(w, l, k) in tokens {
        if l == 0 {
            // "Lost for ever": the won run, then the lost one to the end.
            at = at.saturating_add(w);
            if at < n {
                out.change(at)?;
            }
            break;
        }
        for _ in 0..=k {
            for len in [w, l] {
                at = at.saturating_add(len);
                if at >= n {
                    break 'all;
                }
                out.change(at)?;
            }
        }
    }
    out.end()
}

/// Write a token list (the inverse of `layer::Tokens`).
pub(crate) fn write_tokens(out: &mut BitWriter, tokens: &[Token]) -> Result<(), SolveError> {
    out.count(tokens.len() as u64)?;
    let mut prev: Option<(u32, u32)> = None;
    for &(w, l, k) in tokens {
        match prev {
            None => {
                out.count(w.into())?;
                out.count(l.into())?;
            }
            Some((pw, pl)) => {
                let step = match (i64::from(w) - i64::from(pw), i64::from(l) - i64::from(pl)) {
                    _ if pl == 0 || l == 0 => None,
                    (1, 0) => Some(0),
                    (-1, 0) => Some(1),
                    (0, 1) => Some(2),
                    (0, -1) => Some(3),
                    _ => None,
                };
                match step {
                    Some(op) => {
                        out.push(1, 1)?;
                        out.push(op, 2)?;
                    }
                    None => {
                        out.push(0, 1)?;
                        out.signed(i64::from(w) - i64::from(pw))?;
                        out.count(l.into())?;
                    }
                }
            }
        }
        // A final "lost for ever" token has no repeat count.
        if l > 0 {
            out.count(k.into())?;
        }
        prev = Some((w, l));
    }
    Ok(())
}

/// Bytes [`CapCoder::new`] reserves for `bx`, besides the tokens.
pub(crate) fn fixed_bytes(bx: &SolveBox) -> u64 {
    let wpp = PileBits::new(bx.resets).words() as u64;
    let ring = copy_ring(bx) as u64;
    let layer = core::mem::size_of::<LayerTokens>() as u64;
    8 * wpp * (ring + 3 + 2 * u64::from(bx.resets)) + 64 * wpp * layer
}

/// Codes the caps of a box one after another as a windowed solve hands them over;
/// `COPIES`: code delayed copies (the default encoding, what table files have) or
/// every layer with resets on both sides in full (a solution kept in memory: a
/// few times larger, and the tiny binary carries less code).
#[derive(Debug)]
pub(crate) struct CapCoder<const COPIES: bool> {
    resets: u8,
    init_max: u32,
    bits: PileBits,
    /// The cap being received, and its piles so far.
    cap: Option<u32>,
    piles: u32,
    /// The last pile's words (all won before the first) and the layers' bits.
    prev: Vec<u64>,
    valid: Vec<u64>,
    /// Per storage bit: its layer's tokens.
    layers: Vec<LayerTokens>,
    /// What checking delayed copies takes (`COPIES` only).
    copy: Option<CopyCheck>,
    /// The kinds and the token lists of the cap being coded.
    scratch: BitWriter,
    extras: BitWriter,
}

/// The delayed-copy check's state: the last `ring` piles before the current
/// block, and per `m` the layers whose copy failed so far and the mask of the
/// layers with that `m`; scratch for a prefix's tokens and a token list's size.
#[derive(Debug)]
struct CopyCheck {
    /// Oldest first: pile `t0 - k` (`t0` the block's first) at `ring - k`.
    back: Vec<u64>,
    ring: usize,
    failed: Vec<u64>,
    masks: Vec<u64>,
    head: LayerTokens,
    sizing: BitWriter,
}

impl CopyCheck {
    fn new(bx: &SolveBox, bits: PileBits) -> Result<Self, SolveError> {
        let wpp = bits.words();
        let r = bx.resets;
        let mut masks = filled(wpp * usize::from(r), 0u64)?;
        for a in 1..=r {
            for b in 1..=r {
                for f in [false, true] {
                    let bit = bits.bit(a, b, f);
                    let m = usize::from(a.min(b));
                    if let Some(w) = masks.get_mut((m - 1) * wpp + bit / 64) {
                        *w |= 1 << (bit % 64);
                    }
                }
            }
        }
        let ring = copy_ring(bx);
        Ok(CopyCheck {
            back: filled(ring * wpp, 0)?,
            ring,
            failed: filled(wpp * usize::from(r), 0)?,
            masks,
            head: LayerTokens::default(),
            sizing: BitWriter::default(),
        })
    }

    /// Check the piles of `block` (offsets `t0 ..`, `wpp` words each) against
    /// their base relatives `m (M + 1)` piles back, `m (R + 2)` bits lower, for
    /// every `m`, then keep the block's last piles for the next one.
    fn check(&mut self, block: &[u64], t0: usize, wpp: usize, resets: u8, init_max: u32) {
        let n = block.len() / wpp;
        let step = usize::from(resets) + 2;
        for m in 1..=usize::from(resets) {
            let d = m * (init_max as usize + 1);
            if t0 + n <= d || d >= self.ring {
                break;
            }
            let (q, rem) = ((m * step) / 64, ((m * step) % 64) as u32);
            let (Some(mask), Some(failed)) = (
                self.masks.get((m - 1) * wpp..m * wpp),
                self.failed.get_mut((m - 1) * wpp..m * wpp),
            ) else {
                continue;
            };
            // Piles whose relative is in an earlier block, then in this one.
            let from = d.saturating_sub(t0);
            for i in from..d.min(n) {
                let at = (self.ring + i - d) * wpp;
                if let (Some(old), Some(now)) = (
                    self.back.get(at..at + wpp),
                    block.get(i * wpp..(i + 1) * wpp),
                ) {
                    differ(now, old, q, rem, mask, failed);
                }
            }
            if wpp == 1 {
                // One word a pile (R <= 4): a plain loop the compiler vectorizes.
                let (sh, keep) = if q == 0 { (rem, !0u64) } else { (0, 0) };
                let mut acc = 0u64;
                let later = block.get(from.max(d)..).unwrap_or(&[]);
                for (&now, &old) in later
                    .iter()
                    .zip(block.get(from.max(d) - d..).unwrap_or(&[]))
                {
                    acc |= now ^ ((old << sh) & keep);
                }
                if let (Some(f), Some(&k)) = (failed.first_mut(), mask.first()) {
                    *f |= acc & k;
                }
            } else {
                for i in from.max(d)..n {
                    if let (Some(old), Some(now)) = (
                        block.get((i - d) * wpp..(i - d + 1) * wpp),
                        block.get(i * wpp..(i + 1) * wpp),
                    ) {
                        differ(now, old, q, rem, mask, failed);
                    }
                }
            }
        }
        // The last `ring` piles of (back, block), oldest first.
        let keep = n.min(self.ring) * wpp;
        let back = &mut self.back;
        back.copy_within(keep.., 0);
        let len = back.len();
        if let (Some(to), Some(from)) =
            (back.get_mut(len - keep..), block.get(block.len() - keep..))
        {
            to.copy_from_slice(from);
        }
    }
}

/// Piles the delayed-copy check keeps for `bx`: the longest delay that can fall
/// inside a cap, and one pile more.
fn copy_ring(bx: &SolveBox) -> usize {
    let d_max = u64::from(bx.resets) * (u64::from(bx.init_max) + 1);
    d_max.min(u64::from(bx.n_max)) as usize + 1
}

/// Mark in `failed` the bits of `mask` where the pile `now` differs from `old`
/// shifted `64 q + rem` bits up.
#[inline]
fn differ(now: &[u64], old: &[u64], q: usize, rem: u32, mask: &[u64], failed: &mut [u64]) {
    for (i, ((&now, &k), f)) in now.iter().zip(mask).zip(failed.iter_mut()).enumerate() {
        let word = |j: Option<usize>| j.and_then(|j| old.get(j)).copied().unwrap_or(0);
        let hi = word(i.checked_sub(q));
        let was = if rem == 0 {
            hi
        } else {
            (hi << rem) | (word(i.checked_sub(q + 1)) >> (64 - rem))
        };
        *f |= (now ^ was) & k;
    }
}

impl<const COPIES: bool> CapCoder<COPIES> {
    /// A coder for `bx`'s caps.
    pub(crate) fn new(bx: &SolveBox) -> Result<Self, SolveError> {
        let bits = PileBits::new(bx.resets);
        let wpp = bits.words();
        let r = bx.resets;
        let mut valid = filled(wpp, 0u64)?;
        for a in 0..=r {
            for b in 0..=r {
                for f in [false, true] {
                    let bit = bits.bit(a, b, f);
                    if let Some(w) = valid.get_mut(bit / 64) {
                        *w |= 1 << (bit % 64);
                    }
                }
            }
        }
        let layers = filled_with(wpp * 64, LayerTokens::default)?;
        let mut prev = filled(wpp, 0u64)?;
        for (p, &v) in prev.iter_mut().zip(valid.iter()) {
            *p = v;
        }
        Ok(CapCoder {
            resets: r,
            init_max: bx.init_max,
            bits,
            cap: None,
            piles: 0,
            prev,
            valid,
            layers,
            copy: if COPIES {
                Some(CopyCheck::new(bx, bits)?)
            } else {
                None
            },
            scratch: BitWriter::default(),
            extras: BitWriter::default(),
        })
    }

    /// Take piles `first, ...` of `cap` (see [`PileSink::piles`]).
    pub(crate) fn piles(&mut self, cap: u32, first: u32, words: &[u64]) -> Result<(), SolveError> {
        if self.cap != Some(cap) {
            if self.cap.is_some() || Some(first) != cap.checked_add(1) {
                return Err(SolveError::BadParams);
            }
            self.cap = Some(cap);
            self.piles = 0;
        }
        let wpp = self.bits.words().max(1);
        let t0 = self.piles;
        for (pile, t) in words.chunks_exact(wpp).zip(t0..) {
            for (w, ((&now, prev), &valid)) in pile
                .iter()
                .zip(self.prev.iter_mut())
                .zip(self.valid.iter())
                .enumerate()
            {
                let mut changed = (now ^ *prev) & valid;
                *prev = now;
                while changed != 0 {
                    let bit = w * 64 + changed.trailing_zeros() as usize;
                    changed &= changed - 1;
                    if let Some(layer) = self.layers.get_mut(bit) {
                        layer.change(t)?;
                    }
                }
            }
        }
        if let Some(cc) = self.copy.as_mut().filter(|_| COPIES) {
            cc.check(words, t0 as usize, wpp, self.resets, self.init_max);
        }
        let n = u32::try_from(words.len() / wpp).unwrap_or(u32::MAX);
        self.piles = self.piles.saturating_add(n);
        Ok(())
    }

    /// The cap is complete: code it at the end of `out`, returning its base
    /// layers' offsets from the cap's start.
    pub(crate) fn finish_cap(
        &mut self,
        cap: u32,
        out: &mut BitWriter,
    ) -> Result<[u64; 2], SolveError> {
        if self.cap != Some(cap) {
            return Err(SolveError::BadParams);
        }
        let n = self.piles;
        let r = self.resets;
        let wpp = self.bits.words();
        for layer in self.layers.iter_mut() {
            layer.end()?;
        }
        let start = out.bits;
        // The kinds first, then the token lists they call for.
        let mut kinds = core::mem::take(&mut self.scratch);
        kinds.clear();
        let mut extras = core::mem::take(&mut self.extras);
        extras.clear();
        for a in 0..=r {
            for b in 0..=r {
                for f in [false, true] {
                    if a == 0 && b == 0 {
                        continue;
                    }
                    let bit = self.bits.bit(a, b, f);
                    let tokens = self
                        .layers
                        .get(bit)
                        .map_or(&[][..], |l| l.tokens.as_slice());
                    let m = a.min(b);
                    let kind = if !COPIES {
                        // Every layer by its tokens: kind 2 with resets on one
                        // side, 3 with resets on both.
                        write_tokens(&mut extras, tokens)?;
                        2 + u64::from(m > 0)
                    } else if m == 0 {
                        match constant(tokens) {
                            Some(won) => u64::from(!won),
                            None => {
                                write_tokens(&mut extras, tokens)?;
                                2
                            }
                        }
                    } else {
                        let d = u64::from(m) * (u64::from(self.init_max) + 1);
                        let mut kind = 3;
                        if let Some(cc) = self.copy.as_mut() {
                            let held = cc
                                .failed
                                .get((usize::from(m) - 1) * wpp + bit / 64)
                                .is_some_and(|w| w >> (bit % 64) & 1 == 0);
                            if d >= u64::from(n) || held {
                                let head_len = d.min(u64::from(n)) as u32;
                                prefix(tokens, head_len, &mut cc.head)?;
                                let head = cc.head.tokens.as_slice();
                                if let Some(won) = constant(head) {
                                    kind = u64::from(!won);
                                } else if token_bits(&mut cc.sizing, head)?
                                    <= token_bits(&mut cc.sizing, tokens)?
                                {
                                    write_tokens(&mut extras, head)?;
                                    kind = 2;
                                }
                            }
                        }
                        if kind == 3 {
                            write_tokens(&mut extras, tokens)?;
                        }
                        kind
                    };
                    kinds.push(kind, 2)?;
                }
            }
        }
        out.append(&kinds)?;
        out.append(&extras)?;
        self.scratch = kinds;
        self.extras = extras;
        let mut base = [0u64; 2];
        for (f, at) in base.iter_mut().enumerate() {
            *at = out.bits - start;
            let bit = self.bits.bit(0, 0, f == 1);
            let tokens = self
                .layers
                .get(bit)
                .map_or(&[][..], |l| l.tokens.as_slice());
            write_tokens(out, tokens)?;
        }
        for layer in self.layers.iter_mut() {
            layer.clear();
        }
        for (p, &v) in self.prev.iter_mut().zip(self.valid.iter()) {
            *p = v;
        }
        if let Some(cc) = self.copy.as_mut() {
            cc.failed.fill(0);
        }
        self.cap = None;
        Ok(base)
    }
}

/// Bits a token list takes (written to `scratch`).
fn token_bits(scratch: &mut BitWriter, tokens: &[Token]) -> Result<u64, SolveError> {
    scratch.clear();
    write_tokens(scratch, tokens)?;
    Ok(scratch.bits)
}

/// The caps of a box coded one by one into one stream, as they come from the
/// top (a probe finds a cap by its index entry, so the caps of a coded solution
/// need not be in order; a table file's are, see `TableWriter::finish`).
#[derive(Debug)]
pub(crate) struct CodedCaps {
    stream: BitWriter,
    /// Per cap from the lowest: its entry in `stream`.
    entries: Vec<Entry>,
    c_min: u32,
    /// The next cap expected (from the top), `None` once all are in.
    next: Option<u32>,
}

impl CodedCaps {
    /// Room for the caps of `bx`.
    pub(crate) fn new(bx: &SolveBox) -> Result<Self, SolveError> {
        let count = bx.layer_bounds().count();
        Ok(CodedCaps {
            stream: BitWriter::default(),
            entries: filled(count, (0u64, [0u64; 2]))?,
            c_min: bx.c_min,
            next: (bx.c_min + count as u32)
                .checked_sub(1)
                .filter(|_| count > 0),
        })
    }

    /// Code `cap` with `coder` (its piles are all in) at the end of the stream.
    pub(crate) fn add<const COPIES: bool>(
        &mut self,
        coder: &mut CapCoder<COPIES>,
        cap: u32,
    ) -> Result<(), SolveError> {
        if self.next != Some(cap) {
            return Err(SolveError::BadParams);
        }
        let start = self.stream.bits;
        let base = coder.finish_cap(cap, &mut self.stream)?;
        if let Some(e) = self.entries.get_mut((cap - self.c_min) as usize) {
            *e = (start, base);
        }
        self.next = cap.checked_sub(1).filter(|&c| c >= self.c_min);
        Ok(())
    }

    /// The stream as it is, byte-aligned and followed by the index (lowest cap
    /// first): the bytes, the index's byte offset and its field widths; `None`
    /// unless every cap is in.
    pub(crate) fn with_index(mut self) -> Result<Option<(BitWriter, u64, u8, u8)>, SolveError> {
        if self.next.is_some() {
            return Ok(None);
        }
        let stream_bits = self.stream.bits;
        let pad = (8 - stream_bits % 8) % 8;
        self.stream.push(0, pad as u32)?;
        let (index, offset_bits, base_bits) = index_of(stream_bits, &self.entries)?;
        self.stream.append(&index)?;
        Ok(Some((self.stream, stream_bits, offset_bits, base_bits)))
    }
}

/// The index of `entries`: its bytes, and the widths of the stream offset and
/// the base offsets.
pub(crate) fn index_of(
    stream_bits: u64,
    entries: &[Entry],
) -> Result<(BitWriter, u8, u8), SolveError> {
    let offset_bits = width_for(stream_bits + 1);
    let largest = entries.iter().map(|&(_, [_, b1])| b1).max().unwrap_or(0);
    let base_bits = width_for(largest + 1);
    let mut index = BitWriter::default();
    for &(start, [b0, b1]) in entries {
        index.push(start, u32::from(offset_bits))?;
        index.push(b0, u32::from(base_bits))?;
        index.push(b1, u32::from(base_bits))?;
    }
    Ok((index, offset_bits, base_bits))
}

/// A solved box kept in the table's coding (without its delayed copies): a few
/// bits a layer where the full [`Solution`](crate::Solution) keeps one bit
/// a position (a few hundred KB for the 47 billion positions of N <= 1,000,000,
/// R = 4). Made by the windowed solver in
/// memory that grows with N ([`SolveBox::memory_bytes`]); probed as a
/// [`Table`] (the box may start above cap M, for a position's box).
#[derive(Clone, Debug)]
pub struct CodedSolution {
    bx: SolveBox,
    /// The stream, then the index.
    bytes: BitWriter,
    layout: Layout,
}

/// The [`PileSink`] that codes a box's caps.
struct Coding {
    coder: CapCoder<false>,
    caps: CodedCaps,
}

impl PileSink for Coding {
    fn piles(&mut self, cap: u32, first: u32, words: &[u64]) -> Result<(), SolveError> {
        self.coder.piles(cap, first, words)
    }

    fn cap_done(&mut self, cap: u32) -> Result<(), SolveError> {
        self.caps.add(&mut self.coder, cap)
    }
}

impl CodedSolution {
    /// Solve `bx` with the windowed solver and keep it coded.
    ///
    /// # Errors
    /// What [`solve_windowed`] refuses, [`SolveError::OutOfMemory`] if the
    /// allocator refuses memory, [`SolveError::TooLong`] if the coded box would
    /// not fit the table's 32-bit offsets.
    pub fn solve(bx: SolveBox) -> Result<Self, SolveError> {
        bx.validate()?;
        let params =
            Params::new(bx.n_max, bx.resets, bx.init_max).map_err(|_| SolveError::BadParams)?;
        let mut sink = Coding {
            coder: CapCoder::new(&bx)?,
            caps: CodedCaps::new(&bx)?,
        };
        solve_windowed(bx, &mut sink, &mut |_, _| {})?;
        drop(sink.coder);
        let (bytes, stream_bits, offset_bits, base_bits) =
            sink.caps.with_index()?.ok_or(SolveError::BadParams)?;
        // Every offset below fits u32 when the whole does (in bits).
        let size = bytes.bytes().len() as u64;
        if size.saturating_mul(8) > u64::from(u32::MAX) {
            return Err(SolveError::TooLong);
        }
        let layout = Layout::of_stream(
            params,
            bx.c_min,
            stream_bits as u32,
            u32::from(offset_bits),
            u32::from(base_bits),
            size as u32,
        )
        .map_err(|_| SolveError::TooLong)?;
        Ok(CodedSolution { bx, bytes, layout })
    }

    /// The box it answers.
    pub const fn solve_box(&self) -> SolveBox {
        self.bx
    }

    /// Bytes it keeps (the coded caps and their index).
    pub fn size(&self) -> usize {
        self.bytes.bytes().len()
    }

    /// Its values as a table: probe it, or decide with it.
    ///
    /// # Errors
    /// [`DecideError::BadTable`] if its bytes and layout disagree (a bug of the
    /// coder: the layout is made from the very bytes).
    pub fn table(&self) -> Result<Table<&[u8]>, DecideError> {
        Table::from_source(self.bytes.bytes(), self.layout).map_err(|_| DecideError::BadTable)
    }

    /// The value of `pos` for its mover, or `None` outside the box (positions
    /// whose cap no longer binds are answered by the rules).
    pub fn value(&self, pos: &Position) -> Option<Value> {
        if pos.init_max() != self.bx.init_max {
            return None;
        }
        self.table().ok()?.probe(pos).ok()
    }

    /// The highest pile of cap `c` it answers (`None` beyond its caps).
    pub fn highest_pile(&self, c: u32) -> Option<u32> {
        Layout::highest_pile(self.bx.n_max, self.bx.c_min, c)
    }
}

/// A coded solution answers as its table does.
impl Oracle for CodedSolution {
    fn value(&self, pos: &Position) -> Result<Value, DecideError> {
        if pos.init_max() != self.bx.init_max {
            return Err(DecideError::OutOfRange);
        }
        Oracle::value(&self.table()?, pos)
    }

    fn runs(&self, layer: &Position, lo: u32, hi: u32, f: &mut Visit) -> Result<(), DecideError> {
        self.table()?.runs(layer, lo, hi, f)
    }
}

// Its tests compare it with the full `Solution` (solver.rs), which imports this
// file: they live in a file of their own so that this one does not import it back.
#[cfg(test)]
mod tests;
