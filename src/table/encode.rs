//! The table writer: a solved box in, a format-v2 blob out (see `table/FORMAT.md`
//! and [`super::layer`] for the coding).
//!
//! Each layer is coded explicitly or, when cheaper, as a copy of an earlier explicit
//! layer of the same cap: the writer tries every such source at every shift that
//! lines up the two layers' last run boundaries, keeps the cheapest coding, and
//! places a restart point whenever the stream has grown by
//! [`Encoding::restart_bits`] since the last one.

use alloc::vec::Vec;

use super::bits::{width_for, BitWriter};
use super::checksum::crc32;
use super::format::{TableFile, FORMAT_VERSION, MAGIC};
use super::TableError;
use crate::geometry::{keys_per_cap, Layers};
use crate::rules::{Params, Position};
use crate::solver::Solution;

/// Choices the writer makes; every choice gives a valid table of the same values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// Code layers as copies of related layers when that is shorter.
    pub copies: bool,
    /// Stream bits between restart points: fewer points make a smaller table and
    /// slower probes (a probe decodes up to this many bits to reach its layer).
    pub restart_bits: u32,
}

impl Default for Encoding {
    fn default() -> Self {
        Encoding {
            copies: true,
            restart_bits: 256,
        }
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
    Ok(encode_layers(&params, &layers, generator, encoding))
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
    encode_layers(params, &layers, generator, &Encoding::default())
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
fn tokens(runs: &[u32]) -> Vec<(u64, u64, u64)> {
    let mut out: Vec<(u64, u64, u64)> = Vec::new();
    for pair in runs.chunks(2) {
        let w = u64::from(pair[0]);
        let l = pair.get(1).map_or(0, |&l| u64::from(l));
        match out.last_mut() {
            Some((pw, pl, k)) if *pw == w && *pl == l && l > 0 => *k += 1,
            _ => out.push((w, l, 0)),
        }
    }
    out
}

/// Write a token list (the inverse of `layer::Tokens`).
fn write_tokens(out: &mut BitWriter, runs: &[u32]) {
    let tokens = tokens(runs);
    out.count(tokens.len() as u64);
    let mut prev: Option<(u64, u64)> = None;
    for &(w, l, k) in &tokens {
        match prev {
            None => {
                out.count(w);
                out.count(l);
            }
            Some((pw, pl)) => {
                let step = match (w as i64 - pw as i64, l as i64 - pl as i64) {
                    _ if pl == 0 || l == 0 => None,
                    (1, 0) => Some(0),
                    (-1, 0) => Some(1),
                    (0, 1) => Some(2),
                    (0, -1) => Some(3),
                    _ => None,
                };
                match step {
                    Some(op) => {
                        out.push(1, 1);
                        out.push(op, 2);
                    }
                    None => {
                        out.push(0, 1);
                        out.signed(w as i64 - pw as i64);
                        out.count(l);
                    }
                }
            }
        }
        out.count(k);
        prev = Some((w, l));
    }
}

/// Run boundaries: the offsets where the value changes (cumulative run lengths).
fn boundaries(runs: &[u32]) -> Vec<u64> {
    runs.iter()
        .scan(0u64, |at, &r| {
            *at += u64::from(r);
            Some(*at)
        })
        .collect()
}

/// The value at offset `t` of a layer with boundaries `b` (won before the first).
fn value_at(b: &[u64], t: u64) -> bool {
    b.partition_point(|&x| x <= t) % 2 == 0
}

/// The smallest `start` such that layer `v` equals layer `u` shifted by `d` from
/// `start` to the end (`n` piles), or `None`.
fn copy_start(v: &[u64], u: &[u64], d: i64, n: u64) -> Option<u64> {
    let last = n.checked_sub(1)?;
    let src_last = u64::try_from(last as i64 - d).ok()?;
    if value_at(v, last) != value_at(u, src_last) {
        return None;
    }
    let mut i = v.len();
    let mut j = u.partition_point(|&x| (x as i64 + d) < n as i64);
    while i > 0 && j > 0 && v[i - 1] as i64 == u[j - 1] as i64 + d {
        i -= 1;
        j -= 1;
    }
    let mut start = 0i64;
    if i > 0 {
        start = start.max(v[i - 1] as i64);
    }
    if j > 0 {
        start = start.max(u[j - 1] as i64 + d);
    }
    let start = start.max(d).max(0) as u64;
    (start < n).then_some(start)
}

/// The runs of `v` before offset `start` (the value at `start - 1` continues).
fn prefix_runs(v: &[u64], start: u64) -> Vec<u32> {
    let mut prev = 0u64;
    v.iter()
        .take_while(|&&b| b < start)
        .map(|&b| {
            let r = b - prev;
            prev = b;
            r as u32
        })
        .collect()
}

/// Code one cap's layers (in key order) into `out`.
fn encode_cap(
    out: &mut BitWriter,
    layers: &[Vec<u32>],
    n: u64,
    c: u32,
    copies: bool,
    mut placed: impl FnMut(&mut BitWriter),
) {
    let bounds: Vec<Vec<u64>> = layers.iter().map(|r| boundaries(r)).collect();
    let mut explicit: Vec<usize> = Vec::new();
    let max_shift = 2 * i64::from(c) + 8;
    for (k, runs) in layers.iter().enumerate() {
        placed(out);
        let mut best = BitWriter::default();
        best.push(0, 1);
        write_tokens(&mut best, runs);
        let mut copied = false;
        let v = &bounds[k];
        if copies && best.bits > 8 {
            let anchor = v.last().copied().unwrap_or(0) as i64;
            for &j in &explicit {
                let u = &bounds[j];
                let lo = u.partition_point(|&x| (x as i64) < anchor - max_shift);
                for &ub in u
                    .iter()
                    .skip(lo)
                    .take_while(|&&x| x as i64 <= anchor + max_shift)
                {
                    let d = anchor - ub as i64;
                    let Some(start) = copy_start(v, u, d, n) else {
                        continue;
                    };
                    let mut w = BitWriter::default();
                    w.push(1, 1);
                    w.gamma((k - j) as u64);
                    w.signed(d);
                    w.count(start);
                    write_tokens(&mut w, &prefix_runs(v, start));
                    if w.bits < best.bits {
                        best = w;
                        copied = true;
                    }
                }
            }
        }
        if !copied {
            explicit.push(k);
        }
        for (i, byte) in best.bytes.iter().enumerate() {
            let width = (best.bits - 8 * i as u64).min(8) as u32;
            out.push(u64::from(*byte), width);
        }
    }
}

/// Code the runs of every layer (in layer order) and serialize the table.
fn encode_layers(
    params: &Params,
    layers: &[Vec<u32>],
    generator: &str,
    encoding: &Encoding,
) -> Vec<u8> {
    let per_cap = keys_per_cap(params.resets());
    let mut stream = BitWriter::default();
    let mut restarts: Vec<(u64, u64)> = Vec::new();
    let mut layer = 0u64;
    let budget = u64::from(encoding.restart_bits.max(1));
    for ((c, hi), cap_layers) in
        Layers::new(params.stones(), params.init_max()).zip(layers.chunks(per_cap))
    {
        encode_cap(
            &mut stream,
            cap_layers,
            u64::from(hi - c),
            c,
            encoding.copies,
            |s| {
                let due = match restarts.last() {
                    None => true,
                    Some(&(_, at)) => s.bits - at >= budget,
                };
                if due {
                    restarts.push((layer, s.bits));
                }
                layer += 1;
            },
        );
    }
    let layer_bits = width_for(layer.max(1));
    let offset_bits = width_for(stream.bits + 1);
    let mut index = BitWriter::default();
    for &(l, at) in &restarts {
        index.push(l, u32::from(layer_bits));
        index.push(at, u32::from(offset_bits));
    }
    let file = TableFile {
        magic: MAGIC,
        format_version: FORMAT_VERSION,
        generator,
        n_max: params.stones(),
        resets: params.resets(),
        init_max: params.init_max(),
        layer_bits,
        offset_bits,
        restarts: restarts.len() as u32,
        index: &index.bytes,
        stream_bits: stream.bits as u32,
        stream: &stream.bytes,
    };
    let mut blob = postcard::to_allocvec(&file).unwrap_or_default();
    let crc = crc32(&blob);
    blob.extend_from_slice(&crc.to_le_bytes());
    blob
}
