//! Choosing a move from won/lost knowledge: any source of that knowledge (the
//! in-memory solver, the flash table) is an [`Oracle`], and [`best_move`] turns it
//! into a legal move that wins whenever the position is won.

use core::fmt;

use crate::rules::{Move, Position};

/// The position lies outside what an oracle or engine knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecideError {
    /// Outside the limits of the table or solution (stones, resets, cap or M).
    OutOfRange,
    /// Solving it on the fly would take more memory or time than allowed.
    TooLarge,
    /// The table's data is damaged (it passed its checksum, so this is a bug or an
    /// attack, never a panic).
    BadTable,
}

impl DecideError {
    /// A short, static description (also used by the line protocol).
    pub const fn as_str(self) -> &'static str {
        match self {
            DecideError::OutOfRange => "position outside the engine's limits",
            DecideError::TooLarge => "position too large to solve here",
            DecideError::BadTable => "table data damaged",
        }
    }
}

impl fmt::Display for DecideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Knows, for some set of positions whose cap still binds (`c < s`), whether the
/// player to move wins.
pub trait Oracle {
    /// `Ok(true)` if the mover wins `pos`; [`DecideError::OutOfRange`] outside the
    /// oracle's limits. Only asked about positions with `c < s`.
    fn is_win(&self, pos: &Position) -> Result<bool, DecideError>;

    /// The largest pile `p` in `lo..=hi` such that `layer` with `p` stones (its own
    /// pile is ignored) is lost for its mover; `lo` is at least the cap + 1.
    ///
    /// The default asks [`Oracle::is_win`] pile by pile; a table answers with one pass
    /// over the layer.
    fn largest_loss_in(
        &self,
        layer: &Position,
        lo: u32,
        hi: u32,
    ) -> Result<Option<u32>, DecideError> {
        let lo = lo.max(layer.cap().saturating_add(1));
        for p in (lo..=hi).rev() {
            let Some(pos) = layer.with_stones(p) else {
                continue;
            };
            if !self.is_win(&pos)? {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }
}

/// A chosen move, and whether it keeps a won game won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The move to play; always legal in the position it was chosen for.
    pub mv: Move,
    /// True if the position is won and `mv` keeps it won.
    pub wins: bool,
}

/// Whether the mover wins `pos`: positions whose cap no longer binds are decided by
/// the rules, the rest by `oracle`.
pub fn position_value<O: Oracle + ?Sized>(oracle: &O, pos: &Position) -> Result<bool, DecideError> {
    match pos.trivial_value() {
        Some(v) => Ok(v),
        None => oracle.is_win(pos),
    }
}

/// A winning move whenever `pos` is won, else a legal move.
///
/// A win takes the whole pile when the limit allows (never with a reset). Otherwise
/// moves without a reset are tried before moves with one, so resets are kept: first
/// takes below the cap (which keep it, so the replies form one layer and the oracle
/// finds a lost one in a single pass; the smallest such take wins), then taking the
/// cap itself. A reset is never proposed without one left. In a lost position the
/// move is "take 1, no reset": the refined choice belongs to the trap-play policy.
pub fn best_move<O: Oracle + ?Sized>(oracle: &O, pos: &Position) -> Result<Decision, DecideError> {
    let (s, c, limit) = (pos.stones(), pos.cap(), pos.limit());
    if limit >= s {
        return Ok(Decision {
            mv: Move::new(s, false),
            wins: true,
        });
    }
    let resets: &[bool] = if pos.own_resets() > 0 {
        &[false, true]
    } else {
        &[false]
    };
    for &reset in resets {
        // Replies to takes 1..=w (w < c) all sit in the layer of this template.
        let Ok(Some(template)) = pos.after(Move::new(1, reset)) else {
            continue;
        };
        let w = limit.min(c.saturating_sub(1));
        if w >= 1 {
            let lo = s - w;
            // Piles above the cap: ask the oracle for the largest lost one.
            if let Some(p) = oracle.largest_loss_in(&template, lo.max(c + 1), s - 1)? {
                return Ok(Decision {
                    mv: Move::new(s - p, reset),
                    wins: true,
                });
            }
            // Piles at or below the cap are decided by the rules.
            for p in (lo..=c.min(s - 1)).rev() {
                if template.with_stones(p).and_then(|t| t.trivial_value()) == Some(false) {
                    return Ok(Decision {
                        mv: Move::new(s - p, reset),
                        wins: true,
                    });
                }
            }
        }
        if limit >= c {
            let mv = Move::new(c, reset);
            if let Ok(Some(next)) = pos.after(mv) {
                if !position_value(oracle, &next)? {
                    return Ok(Decision { mv, wins: true });
                }
            }
        }
    }
    Ok(Decision {
        mv: Move::new(1, false),
        wins: false,
    })
}
