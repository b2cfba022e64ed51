//! The move nimbot plays in a won position (`--win smallest|fastest`). The engines
//! play the smallest winning take (the first winning move of `Position::moves`'
//! order); [`Win::Fastest`] plays instead the winning move after which the game
//! ends soonest with best play (the least distance to the end, `nimbot::probe`),
//! ties to the smaller take and no reset. Lost positions are the policy's.
//!
//! An engine adapter over any [`Engine`] with distances, in the library so that
//! tests and other front ends play won positions as the command does.

use nimbot::engine::Limits;
use nimbot::probe::{evaluate_move, root_moves, Evaluation};
use nimbot::{DecideError, Decision, Engine, Params, Policy, Position};

/// The choice of winning move: the core's registry of won-side choices.
pub use nimbot::policy::Win;

/// An engine whose won positions are played as `win` says.
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
        let mut best: Option<(u16, nimbot::Move)> = None;
        for mv in root_moves(pos) {
            let m = evaluate_move(&mut self.inner, pos, mv)?;
            match m.distance {
                Some(dist) if m.value.is_won() && best.is_none_or(|(b, _)| dist < b) => {
                    best = Some((dist, mv));
                }
                _ => {}
            }
        }
        // Without distances (a game too large for them): the smallest take.
        Ok(Decision {
            mv: best.map_or(d.mv, |(_, mv)| mv),
            value: d.value,
        })
    }

    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        self.inner.evaluate(pos)
    }
}
