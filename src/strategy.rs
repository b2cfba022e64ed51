//! Choosing a move from won/lost knowledge: any source of that knowledge (the
//! in-memory solver, the flash table) is an [`Oracle`], and [`best_move`] turns it
//! into a legal move that wins whenever the position is won.

use crate::rules::{Move, Position};
use crate::text::{text, Text};
use crate::value::Value;

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
    pub const fn text(self) -> Text {
        match self {
            DecideError::OutOfRange => text!("position outside the engine's limits"),
            DecideError::TooLarge => text!("position too large to solve here"),
            DecideError::BadTable => text!("table data damaged"),
        }
    }

    /// The [`text`](Self::text) as a `&str` (not on the AVR, whose text stays in
    /// program memory).
    #[cfg(not(target_arch = "avr"))]
    pub const fn as_str(self) -> &'static str {
        self.text().as_str()
    }
}

crate::text::error_from_text!(DecideError);

/// Knows, for some set of positions whose cap still binds (`c < s`), whether the
/// player to move wins.
pub trait Oracle {
    /// The value of `pos` for its mover; [`DecideError::OutOfRange`] outside the
    /// oracle's limits. Only asked about positions with `c < s`.
    fn value(&self, pos: &Position) -> Result<Value, DecideError>;

    /// The largest pile `p` in `lo..=hi` such that `layer` with `p` stones (its own
    /// pile is ignored) is lost for its mover; `lo` is at least the cap + 1.
    ///
    /// The default asks [`Oracle::value`] pile by pile; a table answers with one pass
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
            if self.value(&pos)? == Value::Lost {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// How many piles `p` in `lo..=hi` leave `layer` (its own pile ignored) lost for
    /// its mover; `lo` is at least the cap + 1. The default asks pile by pile.
    fn count_losses_in(&self, layer: &Position, lo: u32, hi: u32) -> Result<u32, DecideError> {
        let mut n = 0u32;
        for p in lo.max(layer.cap().saturating_add(1))..=hi {
            if let Some(pos) = layer.with_stones(p) {
                if self.value(&pos)? == Value::Lost {
                    n += 1;
                }
            }
        }
        Ok(n)
    }
}

/// How to move in a lost position. Won positions always get a winning move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The first legal move, "take 1, no reset": the baseline.
    First,
    /// Set a trap (the default): the move after which the opponent has the fewest
    /// winning replies (each take 1..=limit, with and without a reset it has, counted
    /// as one), then the smallest take (the game stays long, with more chances for the
    /// opponent to go wrong), then no reset (resets are kept). Needs only won/lost
    /// knowledge.
    #[default]
    Trap,
    /// Hold out longest (host engines with the solver): the move after which the game
    /// lasts longest when the opponent wins as fast as it can, then as [`Policy::Trap`].
    /// Needs distances to the end, which only an engine with the in-memory solver has;
    /// a table-only engine plays [`Policy::Trap`] instead.
    Longest,
    /// Exploit systematic error (host engines): weigh an ensemble of plausible wrong
    /// models of the game, learn during the game which ones fit the opponent's moves,
    /// and play the lost move after which the likeliest replies are real blunders,
    /// then as [`Policy::Trap`]. Needs the host's ensemble; other engines play it as
    /// [`Policy::Trap`].
    Exploit,
}

impl Policy {
    /// The policy's name in the line protocol and on the command line.
    pub const fn text(self) -> Text {
        match self {
            Policy::First => text!("first"),
            Policy::Trap => text!("trap"),
            Policy::Longest => text!("longest"),
            Policy::Exploit => text!("exploit"),
        }
    }

    /// The [`text`](Self::text) as a `&str` (not on the AVR, whose text stays in
    /// program memory).
    #[cfg(not(target_arch = "avr"))]
    pub const fn as_str(self) -> &'static str {
        self.text().as_str()
    }

    /// The policy called `name`, if any.
    pub fn from_name(name: &[u8]) -> Option<Self> {
        match name {
            b"first" => Some(Policy::First),
            b"trap" => Some(Policy::Trap),
            b"longest" => Some(Policy::Longest),
            b"exploit" => Some(Policy::Exploit),
            _ => None,
        }
    }
}

/// The opponent's replies from `q`: (winning ones, all legal ones), each take in
/// `1..=limit` with and without a reset it has counted as one reply.
pub fn reply_counts<O: Oracle + ?Sized>(
    oracle: &O,
    q: &Position,
) -> Result<(u32, u32), DecideError> {
    let (s, c, limit) = (q.stones(), q.cap(), q.limit());
    let resets: &[bool] = if q.own_resets() > 0 {
        &[false, true]
    } else {
        &[false]
    };
    let (mut winning, mut total) = (0u32, 0u32);
    for &reset in resets {
        total = total.saturating_add(limit);
        // Takes of the whole pile or more end the game.
        if limit >= s {
            winning = winning.saturating_add(limit - s + 1);
        }
        // Takes below the cap (and the pile) land in one layer.
        let w = limit.min(c.saturating_sub(1)).min(s.saturating_sub(1));
        if w >= 1 {
            if let Ok(Some(template)) = q.after(Move::new(1, reset)) {
                let lo = s - w;
                winning = winning.saturating_add(oracle.count_losses_in(
                    &template,
                    lo.max(c + 1),
                    s - 1,
                )?);
                for p in lo..=c.min(s - 1) {
                    if template.with_stones(p).and_then(|t| t.trivial_value()) == Some(Value::Lost)
                    {
                        winning += 1;
                    }
                }
            }
        }
        // Taking exactly the cap (when it is below the pile) raises it.
        if limit >= c && c < s {
            if let Ok(Some(next)) = q.after(Move::new(c, reset)) {
                if position_value(oracle, &next)? == Value::Lost {
                    winning += 1;
                }
            }
        }
    }
    Ok((winning, total))
}

/// The move for `pos` under `policy`: a winning move whenever `pos` is won (as
/// [`best_move`]), otherwise the policy's choice among the legal moves
/// ([`Policy::Longest`] needs distances to the end and [`Policy::Exploit`] the host's
/// ensemble of models: both are played as [`Policy::Trap`] here).
pub fn decide<O: Oracle + ?Sized>(
    oracle: &O,
    pos: &Position,
    policy: Policy,
) -> Result<Decision, DecideError> {
    let d = best_move(oracle, pos)?;
    if d.value == Value::Won || policy == Policy::First {
        return Ok(d);
    }
    trap_move(oracle, pos).map(|mv| Decision {
        mv,
        value: Value::Lost,
    })
}

/// [`Policy::Trap`]'s move in a lost position.
fn trap_move<O: Oracle + ?Sized>(oracle: &O, pos: &Position) -> Result<Move, DecideError> {
    let resets: &[bool] = if pos.own_resets() > 0 {
        &[false, true]
    } else {
        &[false]
    };
    // (move, winning replies) of the best move so far.
    let mut best: Option<(Move, u32)> = None;
    for take in 1..=pos.limit().min(pos.stones()) {
        for &reset in resets {
            let mv = Move::new(take, reset);
            let Ok(Some(next)) = pos.after(mv) else {
                continue;
            };
            let (w, _) = reply_counts(oracle, &next)?;
            // Ties keep the earlier move: smaller take first, then no reset.
            if best.is_none_or(|(_, bw)| w < bw) {
                best = Some((mv, w));
            }
        }
    }
    Ok(best.map_or(Move::new(1, false), |(mv, _)| mv))
}

/// A chosen move, and the value of the position it was chosen in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The move to play; always legal in the position it was chosen for.
    pub mv: Move,
    /// [`Value::Won`] if the position is won, and then `mv` keeps it won.
    pub value: Value,
}

/// The value of `pos` for its mover: positions whose cap no longer binds are
/// decided by the rules, the rest by `oracle`.
pub fn position_value<O: Oracle + ?Sized>(
    oracle: &O,
    pos: &Position,
) -> Result<Value, DecideError> {
    match pos.trivial_value() {
        Some(v) => Ok(v),
        None => oracle.value(pos),
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
            value: Value::Won,
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
                    value: Value::Won,
                });
            }
            // Piles at or below the cap are decided by the rules.
            for p in (lo..=c.min(s - 1)).rev() {
                if template.with_stones(p).and_then(|t| t.trivial_value()) == Some(Value::Lost) {
                    return Ok(Decision {
                        mv: Move::new(s - p, reset),
                        value: Value::Won,
                    });
                }
            }
        }
        if limit >= c {
            let mv = Move::new(c, reset);
            if let Ok(Some(next)) = pos.after(mv) {
                if position_value(oracle, &next)? == Value::Lost {
                    return Ok(Decision {
                        mv,
                        value: Value::Won,
                    });
                }
            }
        }
    }
    Ok(Decision {
        mv: Move::new(1, false),
        value: Value::Lost,
    })
}
