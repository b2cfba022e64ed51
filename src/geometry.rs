//! The geometry of a box of games: which caps and piles hold positions whose cap
//! still binds. Defined once here for the table reader and, through
//! [`Layout`](crate::table::Layout)'s functions of the same names, for the
//! solver, its distances and the table writer (crate `nimbot-solve`).
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

/// How many caps have stored piles, at compile time too.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_of_the_default_box() {
        // 3 + 4 + ... + 43 = 943 stones leave 56 > 44 for cap 44; cap 45 has none.
        assert_eq!(highest_pile(999, 3, 3), Some(999));
        assert_eq!(highest_pile(999, 3, 44), Some(56));
        assert_eq!(highest_pile(999, 3, 45), Some(12));
        assert_eq!(cap_count(999, 3), 42);
        assert_eq!(cap_count(3, 3), 0);
        assert_eq!(
            highest_pile(1_000_000_000, 1, 44_721),
            Some(1_000_000_000 - 999_961_560)
        );
        assert_eq!(highest_pile(999, 3, 100), None);
        assert_eq!(key(4, 4, 4, true), keys_per_cap(4) - 1);
    }
}
