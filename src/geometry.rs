//! The geometry of a box of games: which caps and piles hold positions whose cap
//! still binds. Defined once here for the solver, the table and the distances.
//!
//! A cap `c` above the box's lowest cap `c_min` only exists after takes of `c_min,
//! c_min + 1, ..., c - 1`, so in games of at most `n_max` stones its piles stop at
//! `hi(c) = n_max - (c_min + ... + (c - 1))`. A *layer* is one cap and one
//! (own resets, opponent resets, pending reset) key; it stores piles `c + 1 ..= hi(c)`.

use crate::num::checked_mul;

/// Layers per cap: every (own, opponent) reset pair and both values of the pending
/// flag, `2 (R + 1)^2`.
pub(crate) const fn keys_per_cap(resets: u8) -> usize {
    let r = resets as usize + 1;
    2 * r * r
}

/// The key of a layer within its cap: own resets, then opponent resets, then the
/// pending flag, each ascending.
pub(crate) const fn key(resets: u8, own: u8, opp: u8, pending: bool) -> usize {
    let r = resets as usize + 1;
    (own as usize * r + opp as usize) * 2 + pending as usize
}

/// The highest pile of cap `c` in a box of at most `n_max` stones starting at cap
/// `c_min`, `n_max - (c_min + ... + (c - 1))`, in `u32` arithmetic (the table's
/// probes use no 64-bit arithmetic): `None` when no position has that cap.
pub(crate) const fn highest_pile(n_max: u32, c_min: u32, c: u32) -> Option<u32> {
    if c <= c_min {
        return Some(n_max);
    }
    // (c_min + ... + (c - 1)) = i c_min + i (i - 1) / 2 with i = c - c_min.
    let i = c - c_min;
    let Some(steps) = checked_mul(i, i - 1) else {
        return None;
    };
    let Some(base) = checked_mul(i, c_min) else {
        return None;
    };
    let Some(below) = base.checked_add(steps / 2) else {
        return None;
    };
    n_max.checked_sub(below)
}

/// How many caps have stored piles (what [`Layers`] yields), at compile time too.
pub(crate) const fn cap_count(n_max: u32, c_min: u32) -> u32 {
    let (mut c, mut hi, mut n) = (c_min, n_max, 0);
    // c < hi <= n_max, so c + 1 cannot overflow.
    while hi > c {
        hi -= c;
        c += 1;
        n += 1;
    }
    n
}

/// The caps with stored piles, lowest first, as `(cap, highest stored pile)`: caps
/// `c_min, c_min + 1, ...` while some pile lies above the cap.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub(crate) struct Layers {
    c: u64,
    hi: u64,
}

#[cfg(feature = "alloc")]
impl Layers {
    /// The caps of the box of games of at most `n_max` stones from cap `c_min`.
    pub(crate) const fn new(n_max: u32, c_min: u32) -> Self {
        Layers {
            c: c_min as u64,
            hi: n_max as u64,
        }
    }
}

#[cfg(feature = "alloc")]
impl Iterator for Layers {
    type Item = (u32, u32);

    fn next(&mut self) -> Option<(u32, u32)> {
        if self.hi <= self.c {
            return None;
        }
        let out = (u32::try_from(self.c).ok()?, u32::try_from(self.hi).ok()?);
        self.hi -= self.c;
        self.c += 1;
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    #[test]
    fn caps_of_the_default_box() {
        let caps: Vec<_> = Layers::new(999, 3).collect();
        assert_eq!(caps.first(), Some(&(3, 999)));
        // 3 + 4 + ... + 43 = 943 stones leave 56 > 44 for cap 44; cap 45 has none.
        assert_eq!(caps.last(), Some(&(44, 56)));
        for &(c, hi) in &caps {
            assert_eq!(highest_pile(999, 3, c), Some(hi));
        }
        assert_eq!(cap_count(999, 3), caps.len() as u32);
        assert_eq!(cap_count(3, 3), 0);
        assert_eq!(
            highest_pile(1_000_000_000, 1, 44_721),
            Some(1_000_000_000 - 999_961_560)
        );
        assert_eq!(highest_pile(999, 3, 100), None);
        assert_eq!(key(4, 4, 4, true), keys_per_cap(4) - 1);
    }
}
