//! An engine for the adapters' unit tests.

use nimbot::{DecideError, Decision, Engine, Evaluation, Limits, Params, Policy, Position};

/// An engine for the adapters' unit tests: always takes 1 stone (with a reset when
/// `reset` is set and it has one left), whatever the position is worth.
pub(crate) struct TakeOne {
    pub reset: bool,
}

impl Engine for TakeOne {
    fn limits(&self) -> Limits {
        Limits {
            max_stones: 1000,
            max_resets: 4,
            init_max: None,
        }
    }
    fn prepare(&mut self, _: &Params) -> Result<(), DecideError> {
        Ok(())
    }
    fn decide(&mut self, pos: &Position, _: Policy) -> Result<Decision, DecideError> {
        Ok(Decision {
            mv: nimbot::Move::new(1, self.reset && pos.own_resets() > 0),
            value: nimbot::Value::Lost,
        })
    }
    fn evaluate(&mut self, _: &Position) -> Result<Evaluation, DecideError> {
        Ok(Evaluation {
            value: nimbot::Value::Lost,
            distance: None,
        })
    }
}
