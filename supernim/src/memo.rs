//! The one hash table of the host's Super-Nim search (feature `alloc`): keys are
//! short lists of `u16` (the heaps and a few numbers that say what was searched),
//! values are small copies. The exact solver keeps value intervals in it, the
//! host player's expectimax its expected results.
//!
//! Open addressing with linear probing over a power-of-two slot array, the keys'
//! words in one shared list. It keeps at most its entry bound; past it (or when the
//! allocator refuses to grow) a new key is simply not stored: a search is then
//! slower, never wrong. Every allocation is fallible.

use alloc::vec::Vec;

/// One stored entry: the key's hash (0: an empty slot), where its words are in
/// [`Memo::words`], and its value.
#[derive(Clone, Copy, Debug, Default)]
struct Slot<V> {
    hash: u64,
    at: u32,
    len: u16,
    value: V,
}

/// A bounded map from `[u16]` keys to values `V`.
#[derive(Debug)]
pub(crate) struct Memo<V> {
    slots: Vec<Slot<V>>,
    words: Vec<u16>,
    used: usize,
    /// Most entries kept.
    bound: usize,
}

/// The smallest slot array (slots, a power of two).
const FIRST_SLOTS: usize = 1 << 12;

fn hash_key(key: &[u16]) -> u64 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
    for &k in key {
        h = (h.rotate_left(5) ^ u64::from(k)).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // Never 0, which marks an empty slot.
    (h ^ (h >> 29)) | 1
}

impl<V: Copy + Default> Memo<V> {
    /// An empty table keeping at most `bound` entries (it allocates on the first
    /// store).
    pub(crate) fn new(bound: usize) -> Memo<V> {
        Memo {
            slots: Vec::new(),
            words: Vec::new(),
            used: 0,
            bound,
        }
    }

    /// Entries stored.
    pub(crate) fn len(&self) -> usize {
        self.used
    }

    /// True when no new key will be stored.
    pub(crate) fn is_full(&self) -> bool {
        self.used >= self.bound
    }

    /// `Ok(slot)` of `key`, or `Err(slot)` of the empty slot where it would go
    /// (`usize::MAX` with no slot array or no empty slot).
    fn find(&self, key: &[u16], hash: u64) -> Result<usize, usize> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = (hash as usize) & mask;
        for _ in 0..self.slots.len() {
            let Some(s) = self.slots.get(i) else {
                break;
            };
            if s.hash == 0 {
                return Err(i);
            }
            if s.hash == hash {
                let at = s.at as usize;
                if self.words.get(at..at + usize::from(s.len)) == Some(key) {
                    return Ok(i);
                }
            }
            i = (i + 1) & mask;
        }
        Err(usize::MAX)
    }

    /// The value stored for `key`.
    pub(crate) fn get(&self, key: &[u16]) -> Option<V> {
        let i = self.find(key, hash_key(key)).ok()?;
        self.slots.get(i).map(|s| s.value)
    }

    /// Stores `update(old)` for `key`, `old` its value so far (`None`: new). A new
    /// key is dropped when the table is full or cannot grow.
    pub(crate) fn update(&mut self, key: &[u16], update: impl FnOnce(Option<V>) -> V) {
        let hash = hash_key(key);
        if let Ok(i) = self.find(key, hash) {
            if let Some(s) = self.slots.get_mut(i) {
                s.value = update(Some(s.value));
            }
            return;
        }
        if self.is_full() || (self.used * 2 >= self.slots.len() && !self.grow()) {
            return;
        }
        let (Ok(at), Ok(len)) = (u32::try_from(self.words.len()), u16::try_from(key.len())) else {
            return;
        };
        if self.words.try_reserve(key.len()).is_err() {
            return;
        }
        let Err(i) = self.find(key, hash) else {
            return;
        };
        if let Some(s) = self.slots.get_mut(i) {
            self.words.extend_from_slice(key);
            *s = Slot {
                hash,
                at,
                len,
                value: update(None),
            };
            self.used += 1;
        }
    }

    /// Doubles the slot array; false if the allocator refused.
    fn grow(&mut self) -> bool {
        let Some(size) = self.slots.len().checked_mul(2).map(|n| n.max(FIRST_SLOTS)) else {
            return false;
        };
        let mut slots = Vec::new();
        if slots.try_reserve_exact(size).is_err() {
            return false;
        }
        slots.resize(size, Slot::default());
        let old = core::mem::replace(&mut self.slots, slots);
        let mask = size - 1;
        for s in old.into_iter().filter(|s| s.hash != 0) {
            let mut i = (s.hash as usize) & mask;
            while self.slots.get(i).is_some_and(|t| t.hash != 0) {
                i = (i + 1) & mask;
            }
            if let Some(t) = self.slots.get_mut(i) {
                *t = s;
            }
        }
        true
    }

    /// Forgets every entry and frees the memory.
    pub(crate) fn clear(&mut self) {
        self.slots = Vec::new();
        self.words = Vec::new();
        self.used = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_their_values_and_the_bound_holds() {
        let mut memo: Memo<u32> = Memo::new(5000);
        for n in 0..6000u16 {
            memo.update(&[n, n / 3, 7], |old| old.map_or(u32::from(n), |v| v + 1));
        }
        assert_eq!(memo.len(), 5000);
        assert!(memo.is_full());
        // Every key offered before the bound is kept, across each growth of the
        // slots (the first store, and at half of 4,096 and 8,192 slots).
        for n in 0..5000u16 {
            assert_eq!(memo.get(&[n, n / 3, 7]), Some(u32::from(n)), "{n}");
        }
        // Beyond the bound: not stored.
        assert_eq!(memo.get(&[5500, 1833, 7]), None);
        // Stored keys are still updated when full; prefixes are other keys.
        memo.update(&[10, 3, 7], |old| old.map_or(0, |v| v + 1));
        assert_eq!(memo.get(&[10, 3, 7]), Some(11));
        assert_eq!(memo.get(&[10, 3]), None);
        memo.clear();
        assert_eq!((memo.len(), memo.get(&[10, 3, 7])), (0, None));
    }
}
