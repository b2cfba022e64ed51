//! Where the token lists of a cap's layers start, remembered during one decision.
//!
//! Format v3 finds a layer's tokens by skipping the token lists of the earlier
//! layers of its cap (see `Table::kind`), and a decision reads a dozen or more
//! layers, several in the same cap: without memory every read skips the same lists
//! again. [`LayerCache`] keeps, for the last few caps read, the stream offsets
//! found while skipping, so that each list of a cap is skipped once per decision.
//! It lives on the stack of one decision (`Cached`, made by `Table::cached`); a table holds none.

use core::cell::Cell;

/// Caps remembered at once: a decision's replies land in its own cap's layers and
/// in the next cap's (after a take of the cap).
const SLOTS: usize = 2;

/// Token lists remembered per cap: the embedded table (R = 4) has 48 layers per
/// cap besides the two base layers; a bigger table skips on from the last one.
/// Offsets are kept as `u16` bits past the cap's first list (a cap's lists take a
/// few hundred bits), which halves the cache; one further away is not kept.
const DEPTH: usize = 48;

/// The offsets of the token lists of up to [`SLOTS`] caps.
pub(crate) struct LayerCache {
    /// The cap index plus one of each slot, 0 when empty.
    caps: [Cell<u32>; SLOTS],
    /// How many offsets of each slot are known.
    known: [Cell<u8>; SLOTS],
    /// `at[s][k]`: where the token list after the first `k + 1` lists starts, in
    /// bits past the first list.
    at: [[Cell<u16>; DEPTH]; SLOTS],
    /// The slot taken next for a new cap.
    next: Cell<u8>,
}

impl LayerCache {
    pub(crate) fn new() -> Self {
        LayerCache {
            caps: Default::default(),
            known: Default::default(),
            at: core::array::from_fn(|_| core::array::from_fn(|_| Cell::new(0))),
            next: Cell::new(0),
        }
    }

    /// The slot of cap `i`, taken (and emptied) if the cap is not remembered.
    fn slot(&self, i: u32) -> usize {
        let tag = i.saturating_add(1);
        if let Some(s) = self.caps.iter().position(|c| c.get() == tag) {
            return s;
        }
        let s = usize::from(self.next.get()) % SLOTS;
        self.next.set(((s + 1) % SLOTS) as u8);
        if let (Some(c), Some(k)) = (self.caps.get(s), self.known.get(s)) {
            c.set(tag);
            k.set(0);
        }
        s
    }

    /// The most lists of cap `i` known skipped, up to `listed`, and where the list
    /// after them starts (`(0, first)` when none is known).
    pub(crate) fn nearest(&self, i: u32, listed: u32, first: u32) -> (u32, u32) {
        let s = self.slot(i);
        let known = self.known.get(s).map_or(0, |k| u32::from(k.get()));
        let n = known.min(listed);
        match n.checked_sub(1) {
            Some(k) => match self.at.get(s).and_then(|a| a.get(k as usize)) {
                Some(at) => match first.checked_add(u32::from(at.get())) {
                    Some(at) => (n, at),
                    None => (0, first),
                },
                None => (0, first),
            },
            None => (0, first),
        }
    }

    /// The list after the first `n` lists of cap `i`, whose first list starts at
    /// `first`, starts at `at`.
    pub(crate) fn record(&self, i: u32, n: u32, first: u32, at: u32) {
        let s = self.slot(i);
        let Some(known) = self.known.get(s) else {
            return;
        };
        let Some(past) = at.checked_sub(first).and_then(|d| u16::try_from(d).ok()) else {
            return;
        };
        if n == u32::from(known.get()) + 1 {
            if let Some(cell) = self.at.get(s).and_then(|a| a.get(n as usize - 1)) {
                cell.set(past);
                known.set(n as u8);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{LayerCache, DEPTH};

    /// What a decision gets back: for each cap, the most lists known skipped (up to
    /// those asked for) and where the next starts; two caps at once, a new cap
    /// taking the slot of the one that came first.
    #[test]
    fn the_last_two_caps_keep_their_lists() {
        let c = LayerCache::new();
        assert_eq!(c.nearest(7, 5, 1000), (0, 1000));
        for (n, at) in [(1, 1010), (2, 1025), (3, 1031)] {
            c.record(7, n, 1000, at);
        }
        // Out of turn, or too far past the first list for a `u16`: not kept.
        c.record(7, 5, 1000, 1040);
        c.record(7, 4, 1000, 1000 + 70_000);
        assert_eq!(c.nearest(7, 9, 1000), (3, 1031));
        assert_eq!(c.nearest(7, 2, 1000), (2, 1025));
        assert_eq!(c.nearest(7, 0, 1000), (0, 1000));
        // A second cap keeps its own lists, and the first cap its.
        assert_eq!(c.nearest(8, 4, 2000), (0, 2000));
        c.record(8, 1, 2000, 2040);
        assert_eq!(c.nearest(8, 4, 2000), (1, 2040));
        assert_eq!(c.nearest(7, 9, 1000), (3, 1031));
        // A third cap takes cap 7's slot; cap 8's stays.
        assert_eq!(c.nearest(9, 1, 3000), (0, 3000));
        assert_eq!(c.nearest(8, 4, 2000), (1, 2040));
        assert_eq!(c.nearest(9, 1, 3000), (0, 3000));
        assert_eq!(c.nearest(7, 9, 1000), (0, 1000));
        // A cap's first DEPTH lists are kept, no more.
        let d = DEPTH as u32;
        for n in 1..=d + 1 {
            c.record(7, n, 1000, 1000 + 3 * n);
        }
        assert_eq!(c.nearest(7, d + 5, 1000), (d, 1000 + 3 * d));
        assert_eq!(c.nearest(7, 10, 1000), (10, 1030));
    }
}
