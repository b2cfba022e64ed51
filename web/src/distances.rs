//! The table box's distances as the site ships them (`web/site/distances.bin`).

use nimbot_solve::{Distances, SolveBox};

use crate::engine::{with_engine, WebEngine};
use crate::exchange::{take_input, Refusal};

/// Take the distances file the page wrote at [`nb_input`](crate::nb_input) as the distances of
/// the table's box, in place of solving them: 1 if they are, else
/// [`Refusal::BadDistances`] (the engine then solves them when first needed).
/// The scratch memory is given back either way.
#[no_mangle]
pub extern "C" fn nb_load_distances() -> i32 {
    let bytes = take_input();
    let distances = decode_distances(&bytes);
    drop(bytes);
    with_engine(|engine| match distances {
        Some(d) if d.solve_box() == engine.table_box => {
            engine.table_distances = Some(d);
            1
        }
        _ => Refusal::BadDistances as i32,
    })
}
/// The header of a distances file: magic, the box (N, R, M, lowest cap), the
/// number of entries and their checksum ([`fnv1a`]).
const DISTANCES_MAGIC: &[u8; 8] = b"NBDIST1\n";
pub(crate) const DISTANCES_HEADER: usize = 8 + 4 + 1 + 4 + 4 + 4 + 4;

/// FNV-1a (32 bits) over the entries, one 16-bit entry a step (the gzip around
/// the file checks its bytes on the way; this checks the decoding).
fn fnv1a(entries: &[u16]) -> u32 {
    entries.iter().fold(0x811c_9dc5, |h, &e| {
        (h ^ u32::from(e)).wrapping_mul(0x0100_0193)
    })
}

/// The distances of a box as the site ships them (`web/site/distances.bin`, then
/// compressed with gzip, which the browser undoes): the header, then each entry of
/// [`Distances::entries`] as its difference from the one before, one byte (-127 ..=
/// 127) when it fits, else the byte 0x80 and the entry itself (two bytes, little
/// endian). Along a layer's piles a distance mostly stays or moves by a few
/// plies: 1.35 M entries of the table's box take about 1.4 MB, 20 KB compressed.
pub fn encode_distances(d: &Distances) -> Vec<u8> {
    let bx = d.solve_box();
    let entries = d.entries();
    let mut out = Vec::with_capacity(DISTANCES_HEADER + entries.len() + entries.len() / 16);
    out.extend_from_slice(DISTANCES_MAGIC);
    out.extend_from_slice(&bx.n_max.to_le_bytes());
    out.push(bx.resets);
    out.extend_from_slice(&bx.init_max.to_le_bytes());
    out.extend_from_slice(&bx.c_min.to_le_bytes());
    out.extend_from_slice(
        &u32::try_from(entries.len())
            .unwrap_or(u32::MAX)
            .to_le_bytes(),
    );
    out.extend_from_slice(&fnv1a(entries).to_le_bytes());
    let mut prev = 0u16;
    for &e in entries {
        match i8::try_from(e.wrapping_sub(prev) as i16) {
            Ok(step) if step != i8::MIN => out.push(step as u8),
            _ => {
                out.push(0x80);
                out.extend_from_slice(&e.to_le_bytes());
            }
        }
        prev = e;
    }
    out
}

/// The distances [`encode_distances`] wrote, if `bytes` is such a file whole
/// (its length, its entries' count and checksum as the header says).
pub fn decode_distances(bytes: &[u8]) -> Option<Distances> {
    let (head, mut body) = (
        bytes.get(..DISTANCES_HEADER)?,
        bytes.get(DISTANCES_HEADER..)?,
    );
    let u32_at = |at: usize| Some(u32::from_le_bytes(head.get(at..at + 4)?.try_into().ok()?));
    if head.get(..8)? != DISTANCES_MAGIC {
        return None;
    }
    let bx = SolveBox {
        n_max: u32_at(8)?,
        resets: *head.get(12)?,
        init_max: u32_at(13)?,
        c_min: u32_at(17)?,
    };
    let count = usize::try_from(u32_at(21)?).ok()?;
    let mut entries = Vec::new();
    entries.try_reserve_exact(count).ok()?;
    let mut prev = 0u16;
    while let Some((&b, rest)) = body.split_first() {
        prev = if b == 0x80 {
            let (e, rest) = rest.split_first_chunk::<2>()?;
            body = rest;
            u16::from_le_bytes(*e)
        } else {
            body = rest;
            prev.wrapping_add(b as i8 as i16 as u16)
        };
        if entries.len() == count {
            return None;
        }
        entries.push(prev);
    }
    if entries.len() != count || fnv1a(&entries) != u32_at(25)? {
        return None;
    }
    Distances::from_entries(bx, entries).ok()
}

/// The distances of the embedded table's box, solved (what the site's
/// `distances.bin` holds).
///
/// # Errors
/// The solver's, if the box cannot be solved here.
pub fn table_box_distances() -> Result<Distances, nimbot_solve::SolveError> {
    Distances::solve(WebEngine::new().table_box)
}
