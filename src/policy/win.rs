//! [`Win::Fastest`] played: an engine adapter that, in a won position, plays the
//! winning move after which the game ends soonest with best play (the least distance
//! to the end, from the root probe), ties to the smaller take and no reset. Engines
//! play the smallest winning take by themselves; lost positions stay the policy's.

use super::{Policy, Win};
use crate::engine::{Engine, Limits};
use crate::probe::{evaluate_move, root_moves};
use crate::rules::{Move, Params, Position};
use crate::strategy::{DecideError, Decision};
use crate::value::Evaluation;

/// An engine whose won positions are played as `win` says (`--win` of the `nimbot`
/// command). Without distances (a game too large for them) it plays the smallest
/// winning take.
#[derive(Debug)]
pub struct WinChoice<E> {
    inner: E,
    win: Win,
}

impl<E: Engine> WinChoice<E> {
    /// `inner`, winning as `win` says.
    pub fn new(inner: E, win: Win) -> Self {
        WinChoice { inner, win }
    }
}

impl<E: Engine> Engine for WinChoice<E> {
    fn limits(&self) -> Limits {
        self.inner.limits()
    }

    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        self.inner.prepare(params)
    }

    fn plays(&self, policy: Policy) -> bool {
        self.inner.plays(policy)
    }

    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError> {
        let d = self.inner.decide(pos, policy)?;
        if self.win == Win::Smallest || !d.value.is_won() {
            return Ok(d);
        }
        let mut best: Option<(u16, Move)> = None;
        for mv in root_moves(pos) {
            let m = evaluate_move(&mut self.inner, pos, mv)?;
            match m.distance {
                Some(dist) if m.value.is_won() && best.is_none_or(|(b, _)| dist < b) => {
                    best = Some((dist, mv));
                }
                _ => {}
            }
        }
        Ok(Decision {
            mv: best.map_or(d.mv, |(_, mv)| mv),
            value: d.value,
        })
    }

    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        self.inner.evaluate(pos)
    }
}
