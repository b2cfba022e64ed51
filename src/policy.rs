//! How the bot moves in a lost position: the policies, in one place.
//!
//! A won position always gets a winning move ([`best_move`]); a lost one can only be
//! saved by an opponent's mistake, and a [`Policy`] is a bet on which mistake. Each
//! needs some knowledge of the game ([`Policy::needs`]): the value of positions (any
//! [`Oracle`], the flash table included), distances to the end (the in-memory
//! solver's [`Distances`](crate::distance::Distances), feature `alloc`) or models
//! of the opponent (`exploit::HostEngine`, feature `exploit`). An engine plays the
//! policies its knowledge allows and refuses the others
//! ([`Engine::plays`](crate::Engine::plays)); none plays one under another's name.
//!
//! Here: the policies' names, [`decide`] for the ones that need values only
//! ([`Policy::First`], [`Policy::Trap`]), the trap criterion ([`reply_counts`]) and,
//! with `alloc`, [`longest_move`]. The `exploit` policy's ensemble of models lives
//! in the `exploit` module (it needs threads: feature `exploit`).

use crate::rules::{Move, Position};
use crate::strategy::{best_move, position_value, DecideError, Decision, Oracle};
use crate::text::{match_text, Text};
use crate::value::Value;

/// How to move in a lost position. Won positions always get a winning move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The first legal move, "take 1, no reset": the baseline.
    First,
    /// Set a trap (the default): the move after which the opponent has the fewest
    /// winning replies (every legal reply counted, with and without a reset it has),
    /// then the smallest take (the game stays long, with more chances for the
    /// opponent to go wrong), then no reset (resets are kept). Needs only won/lost
    /// knowledge.
    #[default]
    Trap,
    /// Hold out longest: the move after which the game lasts longest when the
    /// opponent wins as fast as it can, then as [`Policy::Trap`]. Needs distances to
    /// the end of the solved game ([`longest_move`]).
    Longest,
    /// Exploit systematic error: weigh an ensemble of plausible wrong models of the
    /// game, learn during the game which ones fit the opponent's moves, and play the
    /// lost move after which the likeliest replies are real blunders (then as
    /// [`Policy::Trap`]). When no model of weight expects a blunder, or nothing is
    /// known of the opponent (a position outside a game), it holds out longest; while
    /// its models are still being solved (on another thread, from the first move of
    /// a game), or for games beyond them (N > 2000 or R > 6), it plays the trap.
    /// Needs the models (`exploit::HostEngine`).
    Exploit,
}

/// What a policy needs to know beyond the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Knowledge {
    /// The value of positions: any [`Oracle`], the flash table included.
    Values,
    /// Distances to the end of the solved game (the in-memory solver).
    Distances,
    /// Models of the opponent, learned during the game (the host's ensemble).
    Models,
}

impl Policy {
    /// The policy's name in the line protocol and on the command line.
    pub const fn text(self) -> Text {
        match_text!(self, {
            Policy::First => "first",
            Policy::Trap => "trap",
            Policy::Longest => "longest",
            Policy::Exploit => "exploit",
        })
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

    /// What the policy needs to know: an engine without it refuses the policy.
    pub const fn needs(self) -> Knowledge {
        match self {
            Policy::First | Policy::Trap => Knowledge::Values,
            Policy::Longest => Knowledge::Distances,
            Policy::Exploit => Knowledge::Models,
        }
    }
}

crate::text::str_from_text!(Policy);

/// The opponent's replies from `q`: (winning ones, all legal ones), every legal
/// move counted ([`Position::moves`]: each take in `1..=limit`, with and without a
/// reset it has), so takes beyond the pile count as the wins they are.
pub fn reply_counts<O: Oracle + ?Sized>(
    oracle: &O,
    q: &Position,
) -> Result<(u32, u32), DecideError> {
    let (s, c, limit) = (q.stones(), q.cap(), q.limit());
    let (mut winning, mut total) = (0u32, 0u32);
    for &reset in q.reset_choices() {
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

/// The move for `pos` under `policy`, for the policies won/lost knowledge suffices
/// for: a winning move whenever `pos` is won (as [`best_move`]), else
/// [`Policy::First`]'s or [`Policy::Trap`]'s.
///
/// # Errors
/// As [`best_move`]; [`DecideError::Unsupported`] for a policy that needs more than
/// values ([`Policy::needs`]), in a lost position.
pub fn decide<O: Oracle + ?Sized>(
    oracle: &O,
    pos: &Position,
    policy: Policy,
) -> Result<Decision, DecideError> {
    let d = best_move(oracle, pos)?;
    if d.value == Value::Won {
        return Ok(d);
    }
    let mv = match policy {
        Policy::First => d.mv,
        Policy::Trap => trap_move(oracle, pos)?,
        Policy::Longest | Policy::Exploit => return Err(DecideError::Unsupported),
    };
    Ok(Decision {
        mv,
        value: Value::Lost,
    })
}

/// [`Policy::Trap`]'s move in a lost position.
fn trap_move<O: Oracle + ?Sized>(oracle: &O, pos: &Position) -> Result<Move, DecideError> {
    // (move, winning replies) of the best move so far.
    let mut best: Option<(Move, u32)> = None;
    for mv in pos.moves() {
        let Ok(Some(next)) = pos.after(mv) else {
            continue;
        };
        let (w, _) = reply_counts(oracle, &next)?;
        if best.is_none_or(|(b, bw)| (w, mv.take, mv.reset) < (bw, b.take, b.reset)) {
            best = Some((mv, w));
        }
    }
    Ok(best.map_or(Move::new(1, false), |(mv, _)| mv))
}

#[cfg(feature = "alloc")]
pub use longest::longest_move;

#[cfg(feature = "alloc")]
mod longest {
    use super::*;
    use crate::distance::Distances;
    use crate::solver::Solution;

    /// [`Policy::Longest`]'s move: a winning move whenever `pos` is won (as
    /// [`best_move`]); in a lost position the move after which the game lasts
    /// longest with best play, then the one leaving the opponent the fewest winning
    /// replies, then the smallest take, then no reset.
    ///
    /// # Errors
    /// As [`best_move`]; [`DecideError::OutOfRange`] if `distances` do not cover a
    /// position the move leads to.
    pub fn longest_move(
        solution: &Solution,
        distances: &Distances,
        pos: &Position,
    ) -> Result<Decision, DecideError> {
        let d = best_move(solution, pos)?;
        if d.value == Value::Won {
            return Ok(d);
        }
        // (move, plies to the end, the opponent's winning replies) of the best so far.
        let mut best: Option<(Move, u16, u32)> = None;
        for mv in pos.moves() {
            let Ok(Some(next)) = pos.after(mv) else {
                continue;
            };
            let length = distances.get(&next).ok_or(DecideError::OutOfRange)?;
            let (w, _) = reply_counts(solution, &next)?;
            let key = (core::cmp::Reverse(length), w, mv.take, mv.reset);
            if best.is_none_or(|(b, bl, bw)| key < (core::cmp::Reverse(bl), bw, b.take, b.reset)) {
                best = Some((mv, length, w));
            }
        }
        Ok(Decision {
            mv: best.map_or(d.mv, |(mv, _, _)| mv),
            value: Value::Lost,
        })
    }
}
