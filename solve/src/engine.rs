//! The engines that solve: [`SolvingEngine`] (anything the rules allow, within a
//! memory budget) and [`TableOrSolverEngine`] (the table where it answers, the
//! solver elsewhere), and [`longest_move`], the `longest` policy's move, which needs
//! the distances only a solve knows. The core's engines (`nimbot::TableEngine`)
//! read a table; these make their answers.

use nimbot::table::Table;
use nimbot::{
    best_move, position_value, reply_counts, DecideError, Decision, Engine, Evaluation, Knowledge,
    Limits, Move, Oracle, Params, Policy, Position, TableEngine, Value,
};

use crate::distance::{DistanceCache, Distances};
use crate::{CodedSolution, Solution, SolutionCache, SolveBox};

impl Oracle for Solution {
    fn value(&self, pos: &Position) -> Result<Value, DecideError> {
        Solution::value(self, pos).ok_or(DecideError::OutOfRange)
    }
}

/// Solves in memory whatever it is asked, within a memory budget
/// ([`SolveBox::memory_bytes`]), keeping the last solution for the next question.
///
/// # Errors
/// [`DecideError::TooLarge`] from [`Engine::prepare`] or [`Engine::decide`] when
/// the game (or the box around the position) needs more memory than the budget;
/// [`DecideError::OutOfRange`] if the solver refuses the box.
#[derive(Debug)]
pub struct SolvingEngine {
    solutions: SolutionCache,
    /// Distances to the end, made when first needed (`longest` in a lost
    /// position, [`Engine::evaluate`]); they come from the rules alone, so they
    /// outlive the solution they were first made for.
    distances: DistanceCache,
}

impl SolvingEngine {
    /// Default budget: 1 GiB at the solve's peak ([`SolveBox::memory_bytes`]:
    /// the windowed solver's 16 bytes a pile and the coded solution), about
    /// N = 60 million (its cost: docs/figures.md). Bigger boxes are refused with [`DecideError::TooLarge`] instead
    /// of exhausting the machine.
    pub const DEFAULT_BUDGET: u64 = 1 << 30;
    /// Largest memory for distances to the end
    /// ([`memory_bytes`](Distances::memory_bytes)): 256 MiB, two
    /// bytes a position, about 14,000 stones with R = 4 (N <= 999 needs 2.7 MB).
    /// Beyond it a `longest` move in a lost position is refused with
    /// [`DecideError::TooLarge`] and [`Engine::evaluate`] has no distance.
    pub const DISTANCE_BUDGET: u64 = 256 << 20;

    /// An engine that refuses boxes needing more than `budget` bytes.
    pub fn new(budget: u64) -> Self {
        SolvingEngine {
            solutions: SolutionCache::new(budget),
            distances: DistanceCache::new(),
        }
    }

    /// Solve `bx` unless the kept solution already covers it.
    fn ensure(
        &mut self,
        bx: SolveBox,
        pos: Option<&Position>,
    ) -> Result<&CodedSolution, DecideError> {
        self.solutions.ensure(bx, pos)
    }

    /// The distance to the end of `pos`, from distances of `bx` (a box that
    /// holds `pos`) unless kept ones cover it; `None` beyond
    /// [`SolvingEngine::DISTANCE_BUDGET`].
    pub fn distance(&mut self, pos: &Position, bx: SolveBox) -> Option<u16> {
        self.distances.get(pos, bx, Self::DISTANCE_BUDGET)
    }
}

impl Default for SolvingEngine {
    fn default() -> Self {
        Self::new(Self::DEFAULT_BUDGET)
    }
}

impl Engine for SolvingEngine {
    fn limits(&self) -> Limits {
        Limits::RULES
    }

    fn plays(&self, policy: Policy) -> bool {
        // Values and distances: the solved game has both; models it has not.
        matches!(policy.needs(), Knowledge::Values | Knowledge::Distances)
    }

    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        let bx = SolveBox::games(params.stones(), params.resets(), params.init_max());
        self.ensure(bx, Some(&params.start())).map(|_| ())
    }

    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError> {
        self.ensure(SolveBox::around(pos), Some(pos))?;
        let sol = self.solutions.get().ok_or(DecideError::OutOfRange)?;
        let table = sol.table()?;
        if policy.needs() == Knowledge::Values {
            return policy.decide(&table.cached(), pos);
        }
        // Won positions need no distances: only compute them for a lost one.
        let base = Policy::First.decide(&table.cached(), pos)?;
        if base.value == Value::Won {
            return Ok(base);
        }
        // Distances take two bytes a position: past the budget they are not
        // made.
        let dist = self
            .distances
            .covering(pos, sol.solve_box(), Self::DISTANCE_BUDGET)
            .ok_or(DecideError::TooLarge)?;
        longest_move(&table, dist, pos)
    }

    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        let sol = self.ensure(SolveBox::around(pos), Some(pos))?;
        let (value, bx) = (position_value(sol, pos)?, sol.solve_box());
        Ok(Evaluation {
            value,
            distance: self.distance(pos, bx),
        })
    }
}

/// The table whenever it covers the position, the in-memory solver otherwise
/// (bigger piles, more resets, another M). [`Policy::Longest`] in a lost
/// position solves the game once for its distances; [`Policy::Exploit`] is
/// refused (its models are `exploit::HostEngine`'s).
///
/// # Errors
/// As [`SolvingEngine`] for whatever the table does not answer; a damaged table
/// ([`DecideError::BadTable`]) is reported, not bypassed.
#[derive(Debug)]
pub struct TableOrSolverEngine<'a> {
    table: Option<TableEngine<&'a [u8]>>,
    solver: SolvingEngine,
    /// A game the table covers, which the solver prepares only if a `longest`
    /// move is asked for.
    deferred: Option<Params>,
}

#[cfg(feature = "default-table")]
impl TableOrSolverEngine<'static> {
    /// The embedded table (feature `default-table`) backed by a default
    /// [`SolvingEngine`].
    pub fn embedded() -> Self {
        TableOrSolverEngine::new(Some(TableEngine::embedded()), SolvingEngine::default())
    }
}

impl<'a> TableOrSolverEngine<'a> {
    /// Ask `table` first, then `solver`.
    pub fn new(table: Option<TableEngine<&'a [u8]>>, solver: SolvingEngine) -> Self {
        TableOrSolverEngine {
            table,
            solver,
            deferred: None,
        }
    }

    /// The table, if there is one.
    pub fn table(&self) -> Option<&Table<&'a [u8]>> {
        self.table.as_ref().map(TableEngine::table)
    }

    /// Whether the table alone covers games with `params`.
    pub fn table_covers(&self, params: &Params) -> bool {
        self.table().is_some_and(|t| t.covers(params))
    }
}

impl Engine for TableOrSolverEngine<'_> {
    fn limits(&self) -> Limits {
        self.solver.limits()
    }

    fn plays(&self, policy: Policy) -> bool {
        self.solver.plays(policy)
    }

    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        if self.table_covers(params) {
            self.deferred = Some(*params);
            Ok(())
        } else {
            self.deferred = None;
            self.solver.prepare(params)
        }
    }

    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError> {
        if policy == Policy::Longest {
            // A won position needs no distances: the table's winning move is the
            // solver's. Only a lost one is worth solving the whole game for.
            if let Some(table) = self.table.as_mut() {
                if let Ok(d) = table.decide(pos, Policy::First) {
                    if d.value == Value::Won {
                        return Ok(d);
                    }
                }
            }
            // Distances come from the solver: solve the whole game once.
            if let Some(params) = self.deferred.take() {
                self.solver.prepare(&params)?;
            }
            return self.solver.decide(pos, policy);
        }
        if let Some(table) = self.table.as_mut() {
            match table.decide(pos, policy) {
                Err(DecideError::OutOfRange) => {}
                answer => return answer,
            }
        }
        self.solver.decide(pos, policy)
    }

    /// The table's value where it answers, with a distance from the solver's
    /// distances of the table's whole box (made once, a few milliseconds for
    /// the default table); the solver's answer elsewhere.
    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        let Some(table) = self.table.as_mut() else {
            return self.solver.evaluate(pos);
        };
        let e = match table.evaluate(pos) {
            Err(DecideError::OutOfRange) => return self.solver.evaluate(pos),
            answer => answer?,
        };
        let p = table.table().params();
        let table_box = SolveBox::games(p.stones(), p.resets(), p.init_max());
        let distance = e
            .distance
            .or_else(|| self.solver.distance(pos, table_box))
            .or_else(|| self.solver.distance(pos, SolveBox::around(pos)));
        Ok(Evaluation { distance, ..e })
    }
}

/// [`Policy::Longest`]'s move: a winning move whenever `pos` is won (as
/// [`best_move`]); in a lost position the move after which the game lasts
/// longest with best play, then the one leaving the opponent the fewest winning
/// replies, then the smallest take, then no reset.
///
/// # Errors
/// As [`best_move`]; [`DecideError::OutOfRange`] if `distances` do not cover a
/// position the move leads to.
pub fn longest_move<O: Oracle + ?Sized>(
    solution: &O,
    distances: &Distances,
    pos: &Position,
) -> Result<Decision, DecideError> {
    let decision = best_move(solution, pos)?;
    if decision.value == Value::Won {
        return Ok(decision);
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
        mv: best.map_or(decision.mv, |(mv, _, _)| mv),
        value: Value::Lost,
    })
}
