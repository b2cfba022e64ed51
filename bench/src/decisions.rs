//! The exploit policy's decisions as they come up in games: nimbot, with an
//! ensemble of its own, plays each systematic wrong model from a spread of starts
//! in the lost seat, and every ensemble it chooses with is kept. `nimbot bench
//! --exploit` ([`crate::exploit`]) re-times these decisions; apart from the
//! timing, so that tests see the positions a benchmark measures.

use std::sync::Arc;

use nimbot::{best_move, position_value, DecideError, Move, Params, Player, Position, Value};
use nimbot_engine::arena::{play, ModelBot, Mover};
use nimbot_engine::exploit::{Ensemble, Models};
use nimbot_engine::models::{Model, Order, Solved};
use nimbot_solve::{longest_move, Distances, Solution};

/// Every lost position nimbot meets, with the ensemble as it stood before it
/// chose there, in games against each systematic family of `models`: starts from
/// N / 8 to N of `game` in eighths (R and M as `game`'s), nimbot in the lost seat
/// by `solution`; `distances` hold out when the ensemble expects no blunder.
pub fn lost_decisions(
    game: &Params,
    models: &Arc<Models>,
    solution: &Solution,
    distances: &Distances,
) -> Vec<(Ensemble, Position)> {
    let (stones, resets, init_max) = (game.stones(), game.resets(), game.init_max());
    let mut recorder = Recorder {
        models,
        ensemble: None,
        solution,
        distances,
        snaps: Vec::new(),
    };
    let order = Order {
        largest_first: false,
        reset_first: false,
    };
    for model in Model::families(init_max) {
        let Some(sol) = models.solution_of(&model.rules) else {
            continue;
        };
        for n in (stones / 8..=stones).step_by((stones as usize / 8).max(1)) {
            let Ok(p) = Params::new(n, resets, init_max) else {
                continue;
            };
            // nimbot takes the lost seat.
            let seat = if position_value(solution, &p.start()) == Ok(Value::Won) {
                Player::Second
            } else {
                Player::First
            };
            let solved = Solved {
                model,
                solution: sol,
            };
            let mut bot = ModelBot::new(solved, order);
            // A refused or failed game still leaves its snapshots.
            let _ = play(p, seat, &mut recorder, &mut bot);
        }
    }
    recorder.snaps
}

/// nimbot with an ensemble of its own that keeps a copy of it at every lost
/// position, before it chooses there: the decisions the benchmark re-times.
struct Recorder<'a> {
    models: &'a Arc<Models>,
    ensemble: Option<Ensemble>,
    solution: &'a Solution,
    distances: &'a Distances,
    snaps: Vec<(Ensemble, Position)>,
}

impl Mover for Recorder<'_> {
    fn start(&mut self, params: &Params) -> Result<(), DecideError> {
        self.ensemble = Some(Ensemble::new(self.models.clone(), params));
        Ok(())
    }

    fn choose(&mut self, pos: &Position) -> Result<Move, DecideError> {
        let won = best_move(self.solution, pos)?;
        let Some(ens) = self.ensemble.as_ref().filter(|_| won.value == Value::Lost) else {
            return Ok(won.mv);
        };
        self.snaps.push((ens.clone(), *pos));
        match ens.choose(pos) {
            Some(mv) => Ok(mv),
            None => longest_move(self.solution, self.distances, pos).map(|d| d.mv),
        }
    }

    fn observe(&mut self, at: &Position, mv: Move, own: bool) {
        if let Some(ens) = self.ensemble.as_mut() {
            ens.played(at, mv, !own);
        }
    }
}
