//! What the host's Super-Nim player learns of an unknown opponent from its moves
//! (feature `alloc`): a belief over the opponent models it can exploit, updated
//! by Bayes' rule on every move seen.
//!
//! Each model gives every legal move a probability ([`likelihood`]); a move seen
//! multiplies each model's weight by the probability it gave that move, and the
//! weights are scaled back to sum 1. Every model is mixed with a little noise
//! ([`NOISE`]: any move equally likely), so one surprising move lowers a model
//! without ruling it out. The player plays against the most likely model
//! ([`Belief::model`]).
//!
//! - greedy splits a 2 whenever one is on the board: a split of a 2 seen with other
//!   moves to choose from is evidence for it, any other move with a 2 on the board
//!   nearly rules it out;
//! - uniform (a random player) plays any move: a split of a 2 among many moves is
//!   unlikely for it;
//! - strong plays only moves of the best exact value: where the player's solver
//!   finishes on the opponent's position, a move that loses value nearly rules it
//!   out; where it does not, strong is scored as uniform (nothing tells them apart).

use alloc::vec::Vec;

use super::rules::{Heaps, Move};
use super::solver::MoveValue;

/// What [`Perfect`](super::Perfect) knows of its opponent, to choose between moves of equal value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Every legal move equally likely (also the random opponent).
    Uniform,
    /// Splits a 2 whenever it can, else any move equally likely (the greedy
    /// opponent).
    Greedy,
    /// Plays only moves of the best exact value: nothing to exploit, so no
    /// tie-break, as [`Model::None`] (what a [`Belief`] concludes of a strong
    /// opponent).
    Strong,
    /// No tie-break: the first move of best value in the order of
    /// [`Heaps::moves`].
    None,
}

impl Model {
    /// The opponent's moves of `heaps` with their probabilities under this model
    /// (empty for [`Model::None`] and [`Model::Strong`], which the tie-break
    /// does not weigh).
    pub fn distribution(self, heaps: &Heaps) -> Vec<(Move, f64)> {
        let moves = heaps.moves();
        match self {
            Model::None | Model::Strong => Vec::new(),
            Model::Greedy if moves.contains(&Move::Split(2)) => alloc::vec![(Move::Split(2), 1.0)],
            Model::Greedy | Model::Uniform => {
                let p = 1.0 / moves.len().max(1) as f64;
                moves.into_iter().map(|mv| (mv, p)).collect()
            }
        }
    }
}

/// The share of every model's probability spread evenly over all moves.
pub const NOISE: f64 = 0.05;

/// The models a [`Belief`] weighs, in the order of its weights (and of its
/// preference between equal weights: the one it can exploit most first).
pub const MODELS: [Model; 3] = [Model::Greedy, Model::Uniform, Model::Strong];

/// Weights below this are raised to it after each update, so that a model
/// ruled out by a long run of moves can come back if the opponent changes.
const FLOOR: f64 = 1e-9;

/// A belief over [`MODELS`]: their probabilities, summing to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Belief {
    weights: [f64; 3],
}

impl Default for Belief {
    /// Every model equally likely.
    fn default() -> Self {
        Belief {
            weights: [1.0 / 3.0; 3],
        }
    }
}

/// The probability `model` gives `mv` among the moves of `heaps` (without
/// noise): `values` are the exact values of those moves, when known.
pub fn likelihood(model: Model, heaps: &Heaps, values: Option<&[MoveValue]>, mv: Move) -> f64 {
    let count = heaps.move_iter().count().max(1) as f64;
    let uniform = 1.0 / count;
    match model {
        Model::Greedy if heaps.sizes().contains(&2) => {
            if mv == Move::Split(2) {
                1.0
            } else {
                0.0
            }
        }
        Model::Greedy | Model::Uniform | Model::None => uniform,
        Model::Strong => {
            let Some(values) = values else {
                return uniform;
            };
            let Some(best) = values.iter().map(|m| m.value).max() else {
                return uniform;
            };
            let tied = values.iter().filter(|m| m.value == best).count().max(1) as f64;
            match values.iter().find(|m| m.mv == mv) {
                Some(m) if m.value == best => 1.0 / tied,
                _ => 0.0,
            }
        }
    }
}

impl Belief {
    /// The probabilities of [`MODELS`], in order.
    pub fn weights(&self) -> [f64; 3] {
        self.weights
    }

    /// Updates the belief on the opponent's move `mv` in `heaps` (`values`: the
    /// exact values of its moves, when the solver finished).
    pub fn observe(&mut self, heaps: &Heaps, values: Option<&[MoveValue]>, mv: Move) {
        let count = heaps.move_iter().count().max(1) as f64;
        let mut total = 0.0;
        for (w, model) in self.weights.iter_mut().zip(MODELS) {
            let p = (1.0 - NOISE) * likelihood(model, heaps, values, mv) + NOISE / count;
            *w *= p;
            total += *w;
        }
        if total > 0.0 {
            for w in self.weights.iter_mut() {
                *w = (*w / total).max(FLOOR);
            }
        } else {
            *self = Belief::default();
        }
    }

    /// The most likely model (the first of [`MODELS`] on equal weights).
    pub fn model(&self) -> Model {
        let mut best = 0;
        for (i, w) in self.weights.iter().enumerate() {
            if *w > self.weights.get(best).copied().unwrap_or(0.0) * (1.0 + 1e-9) {
                best = i;
            }
        }
        MODELS.get(best).copied().unwrap_or(Model::Uniform)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heaps(h: &[u32]) -> Heaps {
        Heaps::new(h).unwrap()
    }

    #[test]
    fn a_split_of_every_2_seen_is_greedy_and_a_miss_is_not() {
        let mut b = Belief::default();
        // Before any move: the first model, greedy.
        assert_eq!(b.model(), Model::Greedy);
        for _ in 0..3 {
            b.observe(&heaps(&[2, 5, 7, 9]), None, Move::Split(2));
        }
        assert_eq!(b.model(), Model::Greedy);
        assert!(b.weights()[0] > 0.9, "{:?}", b.weights());
        // Greedy never leaves a 2 on the board: as many such moves as splits seen
        // and it is out.
        for _ in 0..3 {
            b.observe(&heaps(&[2, 5, 7, 9]), None, Move::Grow(5));
        }
        assert_eq!(b.model(), Model::Uniform);
    }

    #[test]
    fn a_move_that_loses_value_is_not_strong() {
        let h = heaps(&[1, 3]);
        let values = [
            MoveValue {
                mv: Move::Grow(1),
                value: 0,
            },
            MoveValue {
                mv: Move::Grow(3),
                value: -2,
            },
            MoveValue {
                mv: Move::Merge { from: 1, onto: 3 },
                value: 0,
            },
        ];
        let mut strong = Belief::default();
        let mut weak = Belief::default();
        for _ in 0..4 {
            strong.observe(&h, Some(&values), Move::Grow(1));
            weak.observe(&h, Some(&values), Move::Grow(3));
        }
        assert_eq!(strong.model(), Model::Strong);
        assert_ne!(weak.model(), Model::Strong);
        assert!(weak.weights()[2] < 0.01, "{:?}", weak.weights());
    }
}
