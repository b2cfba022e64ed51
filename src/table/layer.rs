//! The coding of layers (see `table/FORMAT.md`): a layer's won/lost values over
//! pile offsets `t = s - (c + 1)` as *tokens*, periods of a won run then a lost run,
//! repeated.
//!
//! A token list is `count(T)` and `T` tokens `(w, l, k)` = "w won piles then l lost
//! piles, k + 1 times"; `l = 0` means lost for ever and ends the list (no `k`).
//! After the last token the values are won for ever. Tokens after the first are
//! coded against the previous one: a unit change of `w` or `l` in three bits.
//!
//! Everything here is `u32`: offsets and run lengths are below the table's pile
//! limit, and [`FOREVER`] stands for "to the end of the layer".

use super::bits::BitReader;
use super::source::ByteSource;
use crate::num::checked_mul;
use crate::value::Value;

/// The offset after every pile: runs "for ever" end here.
pub(crate) const FOREVER: u32 = u32::MAX;

/// Reads tokens one by one, undoing the delta coding.
struct Tokens<'r, 's, S: ?Sized> {
    r: &'r mut BitReader<'s, S>,
    left: u32,
    prev: Option<(u32, u32)>,
}

impl<'r, 's, S: ByteSource + ?Sized> Tokens<'r, 's, S> {
    fn new(r: &'r mut BitReader<'s, S>) -> Option<Self> {
        let left = r.count()?;
        Some(Tokens {
            r,
            left,
            prev: None,
        })
    }

    /// The next `(w, l, k)`, `Some(None)` after the last, `None` if it does not
    /// decode.
    #[inline]
    fn next(&mut self) -> Option<Option<(u32, u32, u32)>> {
        if self.left == 0 {
            return Some(None);
        }
        self.left -= 1;
        let (w, l) = match self.prev {
            None => (self.r.count()?, self.r.count()?),
            Some((pw, pl)) => {
                if self.r.bit()? {
                    // A unit step of one of the two lengths; l stays a finite run
                    // (pl >= 1: a token with l = 0 is the last).
                    match self.r.read(2)? {
                        0 => (pw.checked_add(1)?, pl),
                        1 => (pw.checked_sub(1)?, pl),
                        2 => (pw, pl.checked_add(1)?),
                        _ if pl > 1 => (pw, pl - 1),
                        _ => return None,
                    }
                } else {
                    let dw = self.r.signed()?;
                    (pw.checked_add_signed(dw)?, self.r.count()?)
                }
            }
        };
        let k = if l == 0 {
            // Lost for ever: nothing may follow.
            if self.left != 0 {
                return None;
            }
            0
        } else {
            self.r.count()?
        };
        self.prev = Some((w, l));
        Some(Some((w, l, k)))
    }
}

/// Skip a token list.
pub(crate) fn skip_tokens<S: ByteSource + ?Sized>(r: &mut BitReader<'_, S>) -> Option<()> {
    let mut tokens = Tokens::new(r)?;
    while tokens.next()?.is_some() {}
    Some(())
}

/// Where visited runs go: clipped to offsets `lo ..= hi`, then moved by `shift`.
pub(crate) struct Clip<'v> {
    pub(crate) lo: u32,
    pub(crate) hi: u32,
    pub(crate) shift: u32,
    pub(crate) visit: &'v mut dyn FnMut(u32, u32, Value),
}

impl Clip<'_> {
    /// Pass on the part of the run `first ..= last` inside the clip.
    #[inline(never)]
    pub(crate) fn emit(&mut self, first: u32, last: u32, won: bool) {
        let (first, last) = (first.max(self.lo), last.min(self.hi));
        if first <= last {
            (self.visit)(
                first.saturating_add(self.shift),
                last.saturating_add(self.shift),
                Value::from_mover_wins(won),
            );
        }
    }

    /// The runs of one period starting at `b`: `w` won piles, then lost up to
    /// `lost_end`.
    fn period(&mut self, b: u32, w: u32, lost_end: u32) {
        if w > 0 {
            self.emit(b, b.saturating_add(w - 1), true);
        }
        self.emit(b.saturating_add(w), lost_end, false);
    }
}

/// Visit the runs of the token list at `r` that meet the clip's offsets, clipped
/// to them. A repeated period is skipped by arithmetic, not pile by pile.
pub(crate) fn visit_tokens<S: ByteSource + ?Sized>(
    r: &mut BitReader<'_, S>,
    out: &mut Clip<'_>,
) -> Option<()> {
    let (lo, hi) = (out.lo, out.hi);
    let mut tokens = Tokens::new(r)?;
    let mut base = 0u32;
    while let Some((w, l, k)) = tokens.next()? {
        if base > hi {
            return Some(());
        }
        if l == 0 {
            out.period(base, w, FOREVER);
            return Some(());
        }
        let period = w.checked_add(l)?;
        // A token that runs past the end of any layer is still valid: clip it.
        let end = base.saturating_add(checked_mul(period, k.saturating_add(1)).unwrap_or(FOREVER));
        if end > lo {
            // Periods before `lo` are skipped (l > 0, so the period is never 0).
            let mut i = lo.saturating_sub(base).checked_div(period)?;
            while i <= k {
                let b = base.saturating_add(checked_mul(i, period).unwrap_or(FOREVER));
                if b > hi {
                    break;
                }
                out.period(b, w, b.saturating_add(period - 1));
                let Some(next) = i.checked_add(1) else {
                    break;
                };
                i = next;
            }
        }
        base = end;
    }
    out.emit(base, FOREVER, true);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::{skip_tokens, visit_tokens, Clip};
    use crate::table::bits::BitReader;
    use crate::value::Value;
    use std::vec::Vec;

    /// A token as written: the first, or a unit step (0 `w + 1`, 1 `w - 1`,
    /// 2 `l + 1`, 3 `l - 1`) or a full token coded against the previous one.
    #[derive(Clone, Copy)]
    enum Tok {
        Step(u64, u64),
        Full(u64, u64, u64),
    }

    /// Bits least significant first, and the codes of `table/FORMAT.md`, written
    /// apart from the reader and from the solver's writer.
    #[derive(Default)]
    struct Bits(Vec<bool>);

    impl Bits {
        fn field(&mut self, v: u64, width: u32) {
            self.0.extend((0..width).map(|i| (v >> i) & 1 == 1));
        }
        fn count(&mut self, n: u64) {
            let n = n + 1;
            let z = 63 - n.leading_zeros();
            self.field(1 << z, z + 1);
            self.field(n, z);
        }
        fn signed(&mut self, d: i64) {
            self.count(if d >= 0 {
                2 * d as u64
            } else {
                2 * (-d) as u64 - 1
            });
        }
        /// `count(T)`, then each token: the first as `w l [k]`, a step as
        /// `1 step k`, a full one as `0 signed(w - w_prev) l [k]`.
        fn tokens(&mut self, list: &[(Tok, i64)]) {
            self.count(list.len() as u64);
            let mut prev_w = 0;
            for (i, &(tok, w_now)) in list.iter().enumerate() {
                match tok {
                    Tok::Full(w, l, k) => {
                        if i == 0 {
                            self.count(w);
                        } else {
                            self.field(0, 1);
                            self.signed(w as i64 - prev_w);
                        }
                        self.count(l);
                        if l > 0 {
                            self.count(k);
                        }
                    }
                    Tok::Step(step, k) => {
                        self.field(1, 1);
                        self.field(step, 2);
                        self.count(k);
                    }
                }
                prev_w = w_now;
            }
        }
        fn bytes(&self) -> Vec<u8> {
            let mut out = std::vec![0u8; self.0.len().div_ceil(8) + 4];
            for (i, _) in self.0.iter().enumerate().filter(|(_, &b)| b) {
                out[i / 8] |= 1 << (i % 8);
            }
            out
        }
    }

    /// The values a token list stands for (`table/FORMAT.md`): each `(w, l, k)` is
    /// `k + 1` times `w` won then `l` lost; `l = 0` is lost for ever after its won
    /// piles; after the last token, won for ever.
    fn expand(tokens: &[(u64, u64, u64)], len: usize) -> Vec<bool> {
        let mut out = Vec::new();
        for &(w, l, k) in tokens {
            if l == 0 {
                out.extend((0..w).map(|_| true));
                out.resize(len.max(out.len()), false);
                return out;
            }
            for _ in 0..=k {
                out.extend((0..w).map(|_| true).chain((0..l).map(|_| false)));
                if out.len() > len {
                    return out;
                }
            }
        }
        out.resize(len.max(out.len()), true);
        out
    }

    /// The runs `visit_tokens` gives for offsets `lo ..= hi` (moved by `shift`),
    /// as one value an offset; `None` if the list does not decode.
    fn visited(bytes: &[u8], end: u32, lo: u32, hi: u32, shift: u32) -> Option<Vec<bool>> {
        let mut r = BitReader::new(bytes, 0, 0, end);
        let mut got = Vec::new();
        let mut next = lo + shift;
        let mut visit = |first: u32, last: u32, v: Value| {
            assert_eq!(first, next, "runs in order, without gaps");
            assert!(first <= last && last <= hi + shift);
            got.extend((first..=last).map(|_| v == Value::Won));
            next = last + 1;
        };
        let mut out = Clip {
            lo,
            hi,
            shift,
            visit: &mut visit,
        };
        visit_tokens(&mut r, &mut out)?;
        Some(got)
    }

    /// A list as written (each token with the `w` it leaves), and its tokens.
    type List<'a> = (&'a [(Tok, i64)], &'a [(u64, u64, u64)]);

    /// Lists with every kind of token, read over every clip of their first piles:
    /// the runs give each pile the value the tokens stand for, and nothing past
    /// the clip.
    #[test]
    fn token_lists_read_as_the_runs_they_stand_for() {
        use Tok::{Full, Step};
        let lists: [List; 5] = [
            (
                &[
                    (Full(2, 3, 1), 2),
                    (Step(0, 0), 3),
                    (Step(2, 1), 3),
                    (Step(1, 0), 2),
                    (Step(3, 2), 2),
                    (Full(7, 1, 0), 7),
                    (Full(0, 2, 2), 0),
                    (Full(4, 0, 0), 4),
                ],
                &[
                    (2, 3, 1),
                    (3, 3, 0),
                    (3, 4, 1),
                    (2, 4, 0),
                    (2, 3, 2),
                    (7, 1, 0),
                    (0, 2, 2),
                    (4, 0, 0),
                ],
            ),
            (
                &[(Full(0, 1, 3), 0), (Step(2, 0), 0)],
                &[(0, 1, 3), (0, 2, 0)],
            ),
            (&[(Full(1, 0, 0), 1)], &[(1, 0, 0)]),
            (&[(Full(0, 0, 0), 0)], &[(0, 0, 0)]),
            (&[], &[]),
        ];
        for (n, (list, tokens)) in lists.iter().enumerate() {
            let mut w = Bits::default();
            w.tokens(list);
            let end = w.0.len() as u32;
            let want = expand(tokens, 80);
            let bytes = w.bytes();
            for lo in 0..70 {
                for hi in lo..70 {
                    let got = visited(&bytes, end, lo, hi, 5 * (lo % 3));
                    let want = &want[lo as usize..=hi as usize];
                    assert_eq!(got.as_deref(), Some(want), "list {n}, {lo}..={hi}");
                }
            }
            // Skipping the list ends where it ends.
            let mut r = BitReader::new(&bytes[..], 0, 0, end);
            assert_eq!(skip_tokens(&mut r), Some(()));
            assert_eq!(r.position(), end, "list {n}");
        }
    }

    /// A period repeated a million times is skipped by arithmetic: the piles far
    /// along it read as they should.
    #[test]
    fn long_repeats_are_clipped() {
        let mut w = Bits::default();
        w.tokens(&[(Tok::Full(2, 1, 999_999), 2), (Tok::Full(1, 0, 0), 1)]);
        let bytes = w.bytes();
        let end = w.0.len() as u32;
        let at = 3 * 999_990;
        let got = visited(&bytes, end, at, at + 40, 0).unwrap();
        let mut want: Vec<bool> = (0..30).map(|i| i % 3 != 2).collect();
        want.extend([true]);
        want.resize(41, false);
        assert_eq!(got, want);
    }

    /// What the format forbids does not decode: a step to `l = 0` or below
    /// `w = 0`, a change of `w` below 0, a token after "lost for ever", a list cut
    /// short.
    #[test]
    fn forbidden_lists_do_not_decode() {
        use Tok::{Full, Step};
        let bad: [&[(Tok, i64)]; 4] = [
            &[(Full(2, 1, 0), 2), (Step(3, 0), 2)],
            &[(Full(0, 2, 0), 0), (Step(1, 0), 0)],
            &[(Full(0, 0, 0), 0), (Step(0, 0), 1)],
            &[(Full(3, 0, 0), 3), (Full(3, 1, 0), 3)],
        ];
        for (n, list) in bad.iter().enumerate() {
            let mut w = Bits::default();
            w.tokens(list);
            let (end, bytes) = (w.0.len() as u32, w.bytes());
            assert_eq!(visited(&bytes, end, 0, 50, 0), None, "list {n}");
            let mut r = BitReader::new(&bytes[..], 0, 0, end);
            assert_eq!(skip_tokens(&mut r), None, "list {n}");
        }
        // w - 3 below zero (hand-coded: the writer above cannot express it).
        let mut w = Bits::default();
        w.count(2);
        w.count(2);
        w.count(1);
        w.count(0);
        w.field(0, 1);
        w.signed(-3);
        w.count(1);
        w.count(0);
        let end = w.0.len() as u32;
        assert_eq!(visited(&w.bytes(), end, 0, 50, 0), None);
        // Cut one bit short.
        let mut w = Bits::default();
        w.tokens(&[(Full(2, 3, 1), 2), (Step(0, 4), 3)]);
        let end = w.0.len() as u32;
        assert_eq!(visited(&w.bytes(), end - 1, 0, 50, 0), None);
        assert!(visited(&w.bytes(), end, 0, 50, 0).is_some());
    }
}
