//! The coding of one layer (see `table/FORMAT.md`): its won/lost values over piles
//! `c + 1, c + 2, ...` as *periods*, a won run then a lost run, repeated.
//!
//! A layer is either **explicit**, a list of tokens `(w, l, k)` = "w won piles then
//! l lost piles, k + 1 times" (l = 0: lost for ever), won for ever after the last
//! token; or a **copy**: its own tokens for the piles before `start`, then from
//! `start` on the values of an earlier explicit layer `shift` piles back. Within a
//! cap the deep-reset layers are the shallow ones delayed, so copies are cheap.
//!
//! Positions here are pile offsets `t = s - (c + 1)` from the first stored pile.

use super::bits::BitReader;

/// The position after every pile: runs "for ever" end here.
pub(crate) const FOREVER: u64 = u64::MAX;

/// Where a layer's values come from, read from its header.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Header {
    /// Tokens at this stream position.
    Explicit { tokens: u64 },
    /// Own tokens for `t < start`, then layer `back` layers earlier at `t - shift`.
    Copy {
        back: u64,
        shift: i64,
        start: u64,
        tokens: u64,
    },
}

/// Read a layer's header and skip its tokens: `r` ends after the layer.
pub(crate) fn read_layer(r: &mut BitReader) -> Option<Header> {
    let header = if r.bit()? {
        let back = r.gamma()?;
        let shift = r.signed()?;
        let start = r.count()?;
        Header::Copy {
            back,
            shift,
            start,
            tokens: r.position(),
        }
    } else {
        Header::Explicit {
            tokens: r.position(),
        }
    };
    skip_tokens(r)?;
    Some(header)
}

/// Reads tokens one by one, undoing the delta coding.
struct Tokens<'r, 'a> {
    r: &'r mut BitReader<'a>,
    left: u64,
    prev: Option<(u64, u64)>,
}

impl<'r, 'a> Tokens<'r, 'a> {
    fn new(r: &'r mut BitReader<'a>) -> Option<Self> {
        let left = r.count()?;
        Some(Tokens {
            r,
            left,
            prev: None,
        })
    }

    /// The next `(w, l, k)`, `Some(None)` after the last, `None` if it does not
    /// decode.
    fn next(&mut self) -> Option<Option<(u64, u64, u64)>> {
        if self.left == 0 {
            return Some(None);
        }
        self.left -= 1;
        let (w, l) = match self.prev {
            None => (self.r.count()?, self.r.count()?),
            Some((pw, pl)) => {
                if self.r.bit()? {
                    // A unit step of one of the two lengths; l stays a finite run.
                    match self.r.read(2)? {
                        0 => (pw.checked_add(1)?, pl),
                        1 => (pw.checked_sub(1)?, pl),
                        2 if pl > 0 => (pw, pl.checked_add(1)?),
                        3 if pl > 1 => (pw, pl - 1),
                        _ => return None,
                    }
                } else {
                    let dw = self.r.signed()?;
                    let w = i64::try_from(pw).ok()?.checked_add(dw)?;
                    (u64::try_from(w).ok()?, self.r.count()?)
                }
            }
        };
        if w > u64::from(u32::MAX) || l > u64::from(u32::MAX) {
            return None;
        }
        let k = self.r.count()?;
        if k > u64::from(u32::MAX) {
            return None;
        }
        self.prev = Some((w, l));
        Some(Some((w, l, k)))
    }
}

/// Skip a token list.
fn skip_tokens(r: &mut BitReader) -> Option<()> {
    let mut tokens = Tokens::new(r)?;
    while tokens.next()?.is_some() {}
    Some(())
}

/// Where visited runs go: clipped to offsets `lo ..= hi`, then moved by `shift`.
struct Clip<'v> {
    lo: u64,
    hi: u64,
    shift: i64,
    visit: &'v mut dyn FnMut(u64, u64, bool),
}

impl Clip<'_> {
    #[inline(never)]
    fn emit(&mut self, first: u64, last: u64, won: bool) {
        let (first, last) = (first.max(self.lo), last.min(self.hi));
        if first <= last {
            (self.visit)(
                first.checked_add_signed(self.shift).unwrap_or(FOREVER),
                last.checked_add_signed(self.shift).unwrap_or(FOREVER),
                won,
            );
        }
    }

    /// The runs of one period starting at `b`: `w` won piles, then lost up to
    /// `b + period - 1` (the end of time for a final lost run).
    fn period(&mut self, b: u64, w: u64, lost_end: u64) {
        if w > 0 {
            self.emit(b, b.saturating_add(w - 1), true);
        }
        self.emit(b.saturating_add(w), lost_end, false);
    }
}

/// Visit the runs of the token list at `r` that meet offsets `lo ..= hi`, clipped to
/// them, as `visit(first, last, won)` with `shift` added to both ends.
pub(crate) fn visit_tokens(
    r: &mut BitReader,
    lo: u64,
    hi: u64,
    shift: i64,
    visit: &mut dyn FnMut(u64, u64, bool),
) -> Option<()> {
    let mut out = Clip {
        lo,
        hi,
        shift,
        visit,
    };
    let mut tokens = Tokens::new(r)?;
    let mut base = 0u64;
    while let Some((w, l, k)) = tokens.next()? {
        if base > hi {
            return Some(());
        }
        if l == 0 {
            out.period(base, w, FOREVER);
            return Some(());
        }
        let period = w.saturating_add(l);
        let end = base.saturating_add(period.saturating_mul(k + 1));
        if end > lo {
            // l > 0, so the period is never 0.
            let mut i = lo.saturating_sub(base).checked_div(period)?;
            while i <= k {
                let b = base.saturating_add(i.saturating_mul(period));
                if b > hi {
                    break;
                }
                out.period(b, w, b.saturating_add(period - 1));
                i += 1;
            }
        }
        base = end;
    }
    out.emit(base, FOREVER, true);
    Some(())
}
