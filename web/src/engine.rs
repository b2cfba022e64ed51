//! The page's engine: the table's values, the table box's distances, the solver
//! beyond them.

use std::cell::RefCell;

use nimbot::{
    DecideError, Decision, Engine, Evaluation, Limits, Params, Policy, Position, Table, TableEngine,
};
use nimbot_solve::{Distances, Solution, SolveBox, SolvingEngine, TableOrSolverEngine};

/// The embedded table's bytes.
pub(crate) const TABLE: &[u8] = include_bytes!("../../table/default.nimt");

/// The solver's memory at its peak, beyond the table.
pub const SOLVER_BUDGET: u64 = 64 << 20;

thread_local! {
    /// The page's engine, made on first use ([`with_engine`]).
    static ENGINE: RefCell<Option<WebEngine>> = const { RefCell::new(None) };
}

/// The engine, made on first use.
pub(crate) fn with_engine<T>(f: impl FnOnce(&mut WebEngine) -> T) -> T {
    ENGINE.with(|cell| f(cell.borrow_mut().get_or_insert_with(WebEngine::new)))
}

/// The page's engine: the table's values with the distances of the table's whole
/// box (2.7 MB, kept: loaded from the site's `distances.bin` by
/// [`nb_load_distances`](crate::nb_load_distances), or else solved on the first question that needs them),
/// and the solver for every other game (its own distances, replaced from one game
/// to the next), so that a look beyond the table does not cost the table's
/// distances again.
pub struct WebEngine {
    pub(crate) both: TableOrSolverEngine<'static>,
    pub(crate) table_box: SolveBox,
    pub(crate) table_distances: Option<Distances>,
    /// The table box's values as the solver's bits (about 0.2 MB, made on the
    /// first `longest` move in a lost position): with the box's distances, what
    /// [`longest_move`](nimbot_solve::longest_move) reads.
    table_solution: Option<Solution>,
}

impl WebEngine {
    pub(crate) fn new() -> Self {
        let table = Table::from_bytes(TABLE).ok().map(TableEngine::new);
        let table_box = table.as_ref().map_or(SolveBox::games(1, 0, 1), |t| {
            let p = t.table().params();
            SolveBox::games(p.stones(), p.resets(), p.init_max())
        });
        WebEngine {
            both: TableOrSolverEngine::new(table, SolvingEngine::new(SOLVER_BUDGET)),
            table_box,
            table_distances: None,
            table_solution: None,
        }
    }

    /// The `longest` move at `pos`, a position of the table's box, from the
    /// box's distances (loaded with the page) and values: the move the solver
    /// would choose after solving the whole game, without that solve.
    fn longest_in_table(&mut self, pos: &Position) -> Option<Result<Decision, DecideError>> {
        if !self.table_covers(pos) {
            return None;
        }
        if self.table_distances.is_none() {
            self.table_distances = Distances::solve(self.table_box).ok();
        }
        if self.table_solution.is_none() {
            self.table_solution = Solution::solve(self.table_box).ok();
        }
        let (sol, dist) = (
            self.table_solution.as_ref()?,
            self.table_distances.as_ref()?,
        );
        dist.covers(pos)
            .then(|| nimbot_solve::longest_move(sol, dist, pos))
    }

    /// Whether the table answers `pos` (it lies in a game the table covers).
    pub(crate) fn table_covers(&self, pos: &Position) -> bool {
        Params::new(
            pos.stones(),
            pos.own_resets().max(pos.opp_resets()),
            pos.init_max(),
        )
        .is_ok_and(|p| self.both.table_covers(&p))
    }

    /// Whether `pos` lies outside the table box's positions (a cap no game of the
    /// box reaches at its pile), though its game's limits are the table's.
    #[cfg(test)]
    fn table_box_lacks(&mut self, pos: &Position) -> bool {
        self.table_distance(pos).is_none()
    }

    /// The distance of `pos` from the table box's distances, if it lies there.
    fn table_distance(&mut self, pos: &Position) -> Option<u16> {
        if !self.table_covers(pos) {
            return None;
        }
        if self.table_distances.is_none() {
            self.table_distances = Distances::solve(self.table_box).ok();
        }
        self.table_distances.as_ref()?.get(pos)
    }
}

/// Its own answers first; the rest is the engine it wraps.
impl Engine for WebEngine {
    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError> {
        if policy == Policy::Longest {
            if let Some(d) = self.longest_in_table(pos) {
                return d;
            }
        }
        self.both.decide(pos, policy)
    }

    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        if let Some(d) = self.table_distance(pos) {
            // The value is the table's (an odd distance says the same: the tests
            // check one against the other).
            // (A position the table's layers do not hold, a cap no game of its
            // pile reaches, goes to the solver.)
            let table = self.both.table();
            if let Some(value) = table.and_then(|t| nimbot::position_value(t, pos).ok()) {
                return Ok(Evaluation {
                    value,
                    distance: Some(d),
                });
            }
        }
        self.both.evaluate(pos)
    }

    fn plays(&self, policy: Policy) -> bool {
        self.both.plays(policy)
    }

    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        self.both.prepare(params)
    }

    fn limits(&self) -> Limits {
        self.both.limits()
    }
}

/// The engine's table, asked for values only.
pub(crate) struct ValuesOnly<'a>(pub(crate) &'a mut WebEngine);

impl Engine for ValuesOnly<'_> {
    fn limits(&self) -> Limits {
        self.0.limits()
    }

    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        self.0.prepare(params)
    }

    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError> {
        self.0.decide(pos, policy)
    }

    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        let table = self.0.both.table();
        match table.map(|t| nimbot::position_value(t, pos)) {
            Some(Ok(value)) => Ok(Evaluation {
                value,
                distance: None,
            }),
            // Not in the table's layers: the whole answer, from the solver.
            _ => self.0.evaluate(pos),
        }
    }
}

#[cfg(test)]
mod longest_tests {
    use super::*;
    use nimbot::SplitMix64;

    #[test]
    fn longest_from_the_table_box_is_the_solvers_move() {
        // The page's `longest` (the table box's values and distances) against the
        // engine it replaces (the solver on the whole game, then its distances),
        // in positions of random games, lost ones mostly.
        let mut web = WebEngine::new();
        let table = Table::from_bytes(TABLE).ok().map(TableEngine::new);
        let mut solver = TableOrSolverEngine::new(table, SolvingEngine::new(SOLVER_BUDGET));
        let mut rng = SplitMix64::new(32);
        let (mut lost, mut checked) = (0, 0);
        while checked < 300 {
            let s = 2 + rng.below(998) as u32;
            let c = 3 + rng.below(12) as u32;
            let (a, b, f) = (rng.below(5) as u8, rng.below(5) as u8, rng.chance(0.3));
            let Ok(pos) = Position::new(s, c, a, b, f, 3) else {
                continue;
            };
            if !web.table_covers(&pos) || web.table_box_lacks(&pos) {
                continue;
            }
            let params = Params::new(999, 4, 3).unwrap();
            solver.prepare(&params).unwrap();
            let want = solver.decide(&pos, Policy::Longest).unwrap();
            let got = web.decide(&pos, Policy::Longest).unwrap();
            assert_eq!(got, want, "{pos:?}");
            lost += usize::from(!got.value.is_won());
            checked += 1;
        }
        assert!(lost > 50, "{lost}");
    }
}
