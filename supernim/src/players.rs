//! Players for Super-Nim: the search player, a random and a greedy opponent with
//! a hand-written seeded generator, so every game is reproducible, and the random
//! starts of a match. The host plays matches between them on `nimbot-engine`'s
//! runner.

use super::rules::{Game, Heaps, Move};
use super::search::decide;
use nimbot::SplitMix64;

/// Something that picks Super-Nim moves.
pub trait Chooser {
    /// The move for the player to move in `game`; `None` if it has none.
    fn choose(&mut self, game: &Game) -> Option<Move>;
}

/// The search player ([`decide`]) with a node budget per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchPlayer {
    /// Nodes per move.
    pub budget: u32,
}

impl Chooser for SearchPlayer {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        decide(game, self.budget).mv
    }
}

/// Plays a uniformly random distinct legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomPlayer(pub SplitMix64);

impl Chooser for RandomPlayer {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let moves = game.heaps().moves();
        let at = self.0.below(moves.len() as u64) as usize;
        moves.get(at).copied()
    }
}

/// Scores whenever it can (splits a 2), otherwise plays a random move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GreedyPlayer(pub SplitMix64);

impl Chooser for GreedyPlayer {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let moves = game.heaps().moves();
        if moves.contains(&Move::Split(2)) {
            return Some(Move::Split(2));
        }
        let at = self.0.below(moves.len() as u64) as usize;
        moves.get(at).copied()
    }
}

/// A random start: 2 to 6 heaps of 1 to 10 sticks each.
pub fn random_start(rng: &mut SplitMix64) -> Heaps {
    let mut sizes = [0u32; 6];
    let count = 2 + rng.below(5) as usize;
    for s in sizes.iter_mut().take(count) {
        *s = 1 + rng.below(10) as u32;
    }
    // 2..=6 heaps of 1..=10 are always within the bounds.
    Heaps::new(sizes.get(..count).unwrap_or(&[1])).unwrap_or_default()
}
