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
