//! The cap index: for every cap, where its coded layers start in the stream and
//! where its two base layers (no resets on either side) begin, so that a probe
//! reaches its cap without decoding any other.

use super::bits::BitReader;
use super::format::Layout;
use super::source::ByteSource;
use crate::num::checked_mul;

/// One cap's entry: stream bit offsets of the cap (its layer kinds) and of its
/// base layers without and with a pending reset.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CapEntry {
    pub(crate) start: u32,
    pub(crate) base: [u32; 2],
}

/// The entry of the `i`-th cap (cap `M + i`); `None` past the last or if the
/// source cannot be read. [`Layout::check`] has checked the order of all of them.
pub(crate) fn cap_entry<S: ByteSource + ?Sized>(
    src: &S,
    layout: &Layout,
    i: u32,
) -> Option<CapEntry> {
    if i >= layout.caps {
        return None;
    }
    let entry_bits = layout.offset_bits + 2 * layout.base_bits;
    let at = checked_mul(i, entry_bits)?;
    let end = checked_mul(layout.caps, entry_bits)?;
    let mut r = BitReader::new(src, layout.index_at, at, end);
    let start = r.read_long(layout.offset_bits)?;
    let base0 = start.checked_add(r.read_long(layout.base_bits)?)?;
    let base1 = start.checked_add(r.read_long(layout.base_bits)?)?;
    Some(CapEntry {
        start,
        base: [base0, base1],
    })
}
