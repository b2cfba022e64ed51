//! Engines: what every adapter asks for a move. An engine knows its limits, can be
//! told a game is starting (so it can make sure it covers it) and decides moves
//! ([`Engine::decide`]); [`bot_move`] is the one path by which the bot moves in a
//! game, for the line protocol and both tournament clients alike.

use crate::policy::{Knowledge, Policy};
use crate::rules::{Game, IllegalMove, Move, Params, Player, Position, MAX_RESETS, MAX_STONES};
use crate::strategy::{position_value, DecideError, Decision, Oracle};
use crate::table::{ByteSource, EmbeddedSource, Table};
use crate::text::{text, Text};
use crate::value::Evaluation;

/// What an engine can answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest starting pile it plays.
    pub max_stones: u32,
    /// Largest number of resets per player.
    pub max_resets: u8,
    /// The only M it plays, or `None` for any.
    pub init_max: Option<u32>,
}

impl Limits {
    /// Everything the rules allow: what a solving engine covers (within its
    /// memory budget).
    pub const RULES: Limits = Limits {
        max_stones: MAX_STONES,
        max_resets: MAX_RESETS,
        init_max: None,
    };
}

/// A source of moves: what the adapters play with.
pub trait Engine {
    /// What this engine covers.
    fn limits(&self) -> Limits;

    /// Get ready for a game with `params`, e.g. by solving it.
    ///
    /// # Errors
    /// [`DecideError::OutOfRange`] if the engine does not cover the game's positions,
    /// [`DecideError::TooLarge`] if covering them would take more memory than allowed.
    fn prepare(&mut self, params: &Params) -> Result<(), DecideError>;

    /// Whether this engine plays `policy`. An engine never plays one policy under
    /// another's name: [`Engine::decide`] refuses the others with
    /// [`DecideError::Unsupported`], and adapters check this before they accept a
    /// policy. By default the policies that the value of positions suffices for
    /// ([`Policy::needs`]): [`Policy::First`] and [`Policy::Trap`].
    fn plays(&self, policy: Policy) -> bool {
        policy.needs() == Knowledge::Values
    }

    /// The move for `pos`: a winning one whenever `pos` is won, else `policy`'s
    /// choice among the legal moves. The move is always legal in `pos`.
    ///
    /// # Errors
    /// [`DecideError::OutOfRange`] for a position outside the engine's limits,
    /// [`DecideError::TooLarge`] if solving it would take more than allowed,
    /// [`DecideError::BadTable`] if the table's data is found damaged,
    /// [`DecideError::Unsupported`] for a policy the engine does not play
    /// ([`Engine::plays`]).
    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError>;

    /// The value of `pos` for its mover and, if this engine knows distances, its
    /// distance to the end (engines with the solver, within their memory budget).
    ///
    /// # Errors
    /// As [`Engine::decide`].
    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError>;
}

/// The evaluation of an engine without distances: the value alone.
fn values_only<O: Oracle + ?Sized>(oracle: &O, pos: &Position) -> Result<Evaluation, DecideError> {
    Ok(Evaluation {
        value: position_value(oracle, pos)?,
        distance: None,
    })
}

/// Why the bot has no move to play in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game is already over.
    GameOver,
    /// The engine cannot decide the position.
    Engine(DecideError),
    /// The engine proposed a move the game refuses (a bug, never played).
    Illegal(IllegalMove),
}

impl MoveError {
    /// A short, static description.
    pub const fn text(self) -> Text {
        match self {
            MoveError::GameOver => text!("the game is over"),
            MoveError::Engine(e) => e.text(),
            MoveError::Illegal(_) => text!("engine proposed an illegal move"),
        }
    }
}

crate::text::error_from_text!(MoveError);

/// The bot's move in `game`, seated as `bot`: `policy`'s move from `engine` for the
/// current position, checked against the game (not yet played: the protocol plays
/// it at once, the tournament clients when the server confirms it). A reset on the
/// move that empties the pile is dropped: it changes nothing and would be illegal
/// with none left.
///
/// # Errors
/// [`MoveError::GameOver`] if the game has ended, [`MoveError::Engine`] if the engine
/// cannot decide, [`MoveError::Illegal`] if its move is not legal for `bot` now
/// (including when it is not `bot`'s turn).
pub fn bot_move<E: Engine + ?Sized>(
    engine: &mut E,
    policy: Policy,
    game: &Game,
    bot: Player,
) -> Result<Move, MoveError> {
    let pos = game.position().ok_or(MoveError::GameOver)?;
    let mut mv = engine.decide(&pos, policy).map_err(MoveError::Engine)?.mv;
    if mv.take >= game.stones() {
        mv.reset = false;
    }
    game.check(bot, mv).map_err(MoveError::Illegal)?;
    Ok(mv)
}

/// Answers from a table (by default the one embedded in flash) and nothing else:
/// what the firmware plays with. It plays [`Policy::First`] and [`Policy::Trap`]
/// and refuses the others (they need distances or models, which only the host has).
///
/// # Errors
/// [`Engine::prepare`] refuses a game beyond the table with
/// [`DecideError::OutOfRange`]; [`Engine::decide`] answers a position beyond it the
/// same way (unless a winning move lands inside the table), and
/// [`DecideError::BadTable`] if the table's data turns out damaged.
#[derive(Clone, Debug)]
pub struct TableEngine<S = EmbeddedSource> {
    table: Table<S>,
}

#[cfg(feature = "default-table")]
impl TableEngine {
    /// An engine on the table embedded at build time (feature `default-table`),
    /// checked when the crate was compiled.
    pub fn embedded() -> Self {
        TableEngine::new(Table::embedded())
    }
}

impl<S> TableEngine<S> {
    /// An engine on `table`.
    pub const fn new(table: Table<S>) -> Self {
        TableEngine { table }
    }

    /// The table it answers from.
    pub const fn table(&self) -> &Table<S> {
        &self.table
    }
}

impl<S: ByteSource> Engine for TableEngine<S> {
    fn limits(&self) -> Limits {
        let p = self.table.params();
        Limits {
            max_stones: p.stones(),
            max_resets: p.resets(),
            init_max: Some(p.init_max()),
        }
    }

    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        if self.table.covers(params) {
            Ok(())
        } else {
            Err(DecideError::OutOfRange)
        }
    }

    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError> {
        // One decision reads many layers of the same caps: remember their offsets.
        policy.decide(&self.table.cached(), pos)
    }

    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        values_only(&self.table, pos)
    }
}

#[cfg(feature = "alloc")]
pub use solving::{SolvingEngine, TableOrSolverEngine};

#[cfg(feature = "alloc")]
mod solving {
    use super::*;
    use crate::distance::DistanceCache;
    use crate::policy::longest_move;
    use crate::solver::CodedSolution;
    use crate::solver::{Solution, SolutionCache, SolveBox};
    use crate::value::Value;

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
        /// ([`memory_bytes`](crate::distance::Distances::memory_bytes)): 256 MiB, two
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
            let table = sol.table();
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
}
