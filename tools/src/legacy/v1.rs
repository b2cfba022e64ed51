//! Format version 1 (one Huffman code over absolute run lengths, identical layers
//! stored once), kept only so that `nimbot-table bench` can print its size next to
//! version 2's for the same limits. Copied from the core at the commit before v2;
//! nothing reads these blobs any more.
#![allow(dead_code)]

use std::collections::BTreeMap;

use nimbot::table::{crc32, runs_of};
use nimbot::Params;
use serde::Serialize;

use super::solver::{layer_bounds, OldSolution};

const ALPHABET: usize = 64;
const ESCAPE: usize = ALPHABET - 1;
const MAX_CODE_LEN: usize = 15;
const MAGIC: [u8; 4] = *b"NIMT";
const FORMAT_VERSION: u32 = 1;

#[derive(Serialize)]
struct TableFile<'a> {
    magic: [u8; 4],
    format_version: u32,
    generator: &'a str,
    n_max: u32,
    resets: u8,
    init_max: u32,
    code_lengths: &'a [u8],
    dir_bits: u8,
    directory: &'a [u8],
    unique_layers: u32,
    offset_bits: u8,
    offsets: &'a [u8],
    stream_bits: u32,
    stream: &'a [u8],
}

fn width_for(n: u64) -> u8 {
    let mut w = 1u8;
    while w < 64 && (1u64 << w) < n {
        w += 1;
    }
    w
}

/// The version-1 blob of a solved box of whole games.
pub fn encode_v1(solution: &OldSolution, params: &Params, generator: &str) -> Vec<u8> {
    let mut layers = Vec::new();
    let bx = solution.solve_box();
    for (c, _) in layer_bounds(&bx) {
        for a in 0..=params.resets() {
            for b in 0..=params.resets() {
                for f in [false, true] {
                    let values = solution.layer_values(c, a, b, f);
                    layers.push(runs_of(values.into_iter().flatten()));
                }
            }
        }
    }
    encode_layers(params, &layers, generator)
}

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

/// Deduplicate, Huffman-code and serialize the runs of every layer (in
/// directory order).
pub fn encode_layers(params: &Params, layers: &[Vec<u32>], generator: &str) -> Vec<u8> {
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
