//! A table decoded into one bit per stored position, for passes over the whole
//! table (verify, plot) that would be slow walking runs position by position.

use nimbot::{Position, Table};

/// Every stored value of a table: `(cap, own, opp, pending)` layers of piles
/// `cap + 1 ..= highest pile`.
pub struct Decoded {
    init_max: u32,
    resets: u8,
    /// Per cap from M up: (cap, highest stored pile, first bit).
    caps: Vec<(u32, u32, usize)>,
    bits: Vec<u64>,
}

impl Decoded {
    /// Decode `table`, calling `progress` with the number of caps done.
    pub fn new(table: &Table<&[u8]>, mut progress: impl FnMut(u64)) -> Result<Self, String> {
        let p = table.params();
        let keys = keys_per_cap(p.resets());
        let mut caps = Vec::new();
        let mut total = 0usize;
        for c in p.init_max()..=table.top_cap() {
            let hi = table.highest_pile(c);
            caps.push((c, hi, total));
            total += (hi - c) as usize * keys;
        }
        let mut d = Decoded {
            init_max: p.init_max(),
            resets: p.resets(),
            caps,
            bits: vec![0; total.div_ceil(64)],
        };
        for i in 0..d.caps.len() {
            let (c, _, _) = d.caps[i];
            for a in 0..=d.resets {
                for b in 0..=d.resets {
                    for f in [false, true] {
                        let mut runs = Vec::new();
                        table
                            .layer_runs(c, a, b, f, |first, last, won| {
                                runs.push((first, last, won))
                            })
                            .map_err(|e| format!("cap {c} resets {a}/{b} pending {f}: {e}"))?;
                        for (first, last, won) in runs {
                            for s in first..=last {
                                if won {
                                    let at = d.bit(s, c, a, b, f).ok_or("run outside its layer")?;
                                    d.bits[at / 64] |= 1 << (at % 64);
                                }
                            }
                        }
                    }
                }
            }
            progress(i as u64 + 1);
        }
        Ok(d)
    }

    /// `(cap, highest stored pile)` per cap, lowest first.
    pub fn layers(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.caps.iter().map(|&(c, hi, _)| (c, hi))
    }

    fn bit(&self, s: u32, c: u32, a: u8, b: u8, f: bool) -> Option<usize> {
        if a > self.resets || b > self.resets {
            return None;
        }
        let &(cap, hi, off) = self.caps.get(c.checked_sub(self.init_max)? as usize)?;
        if cap != c || s <= c || s > hi {
            return None;
        }
        let r = usize::from(self.resets) + 1;
        let key = (usize::from(a) * r + usize::from(b)) * 2 + usize::from(f);
        Some(off + key * (hi - c) as usize + (s - c - 1) as usize)
    }

    /// The stored value at `(s, c, a, b, f)`, `None` if the table does not store it.
    pub fn value(&self, s: u32, c: u32, a: u8, b: u8, f: bool) -> Option<bool> {
        let at = self.bit(s, c, a, b, f)?;
        Some(self.bits[at / 64] >> (at % 64) & 1 == 1)
    }

    /// The stored value of `pos` (which must have the table's M).
    pub fn get(&self, pos: &Position) -> Option<bool> {
        if pos.init_max() != self.init_max {
            return None;
        }
        self.value(
            pos.stones(),
            pos.cap(),
            pos.own_resets(),
            pos.opp_resets(),
            pos.reset_pending(),
        )
    }
}

/// Layers per cap: every (own, opponent) reset pair, both values of f.
pub fn keys_per_cap(resets: u8) -> usize {
    2 * (usize::from(resets) + 1).pow(2)
}

/// Positions a table stores: every pile above the cap, every layer.
pub fn stored_positions(table: &Table<&[u8]>) -> u64 {
    let p = table.params();
    (p.init_max()..=table.top_cap())
        .map(|c| u64::from(table.highest_pile(c) - c))
        .sum::<u64>()
        * keys_per_cap(p.resets()) as u64
}
