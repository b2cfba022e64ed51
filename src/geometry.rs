//! The geometry of a box of games: which caps and piles hold positions whose cap
//! still binds. Defined once here for the solver, the table and the distances.
//!
//! A cap `c` above the box's lowest cap `c_min` only exists after takes of `c_min,
//! c_min + 1, ..., c - 1`, so in games of at most `n_max` stones its piles stop at
//! `hi(c) = n_max - (c_min + ... + (c - 1))`. A *layer* is one cap and one
//! (own resets, opponent resets, pending reset) key; it stores piles `c + 1 ..= hi(c)`.

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

/// `c_min + (c_min + 1) + ... + (c - 1)`: stones that went before the cap reached c.
pub(crate) const fn stones_below_cap(c_min: u32, c: u32) -> u64 {
    let (c, m) = (c as u64, c_min as u64);
    if c <= m {
        return 0;
    }
    (c * (c - 1) - m * (m - 1)) / 2
}

/// The highest pile of cap `c` in a box of at most `n_max` stones starting at cap
/// `c_min` (0 when no position has that cap).
pub(crate) const fn highest_pile(n_max: u32, c_min: u32, c: u32) -> u64 {
    (n_max as u64).saturating_sub(stones_below_cap(c_min, c))
}

/// The caps with stored piles, lowest first, as `(cap, highest stored pile)`: caps
/// `c_min, c_min + 1, ...` while some pile lies above the cap.
#[derive(Clone, Debug)]
pub(crate) struct Layers {
    c: u64,
    hi: u64,
}

impl Layers {
    /// The caps of the box of games of at most `n_max` stones from cap `c_min`.
    pub(crate) const fn new(n_max: u32, c_min: u32) -> Self {
        Layers {
            c: c_min as u64,
            hi: n_max as u64,
        }
    }
}

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

    #[test]
    fn caps_of_the_default_box() {
        let caps: Vec<_> = Layers::new(999, 3).collect();
        assert_eq!(caps.first(), Some(&(3, 999)));
        // 3 + 4 + ... + 43 = 943 stones leave 56 > 44 for cap 44; cap 45 has none.
        assert_eq!(caps.last(), Some(&(44, 56)));
        for &(c, hi) in &caps {
            assert_eq!(highest_pile(999, 3, c), u64::from(hi));
        }
        assert_eq!(key(4, 4, 4, true), keys_per_cap(4) - 1);
    }
}
