//! The arena: nimbot under each lost-position policy against families of fallible
//! opponents, over many starts and both seats.
//!
//! Two kinds of family ([`Family`]): opponents that err at random or by a heuristic
//! ([`Opponent`]), and opponents that err systematically, each an exact solver of one
//! wrong model of the game ([`Model`], played by [`ModelBot`]) with a tie-break
//! order drawn per game. [`play`] is the one game loop (nimbot against any
//! [`Mover`], judged by [`Game`] as the server judges); [`Arena`] plays every game
//! of one (family, policy) cell and counts them in a [`Tally`], and [`Column`]
//! sums a policy's cells: the report a command prints.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::exploit::{HostEngine, Models};
use crate::models::{Belief, Model, ModelSolution, Order, Solved};
use crate::runner::{run, Seat, Stop};
use nimbot::{
    best_move, position_value, DecideError, Engine, Game, IllegalMove, Move, ParamError, Params,
    Player, Policy, Position, Value,
};
use nimbot_solve::{longest_move, Distances, Solution, SolveBox, SolveError};

/// The arenas' generator: the core's, so one seed means the same games everywhere.
pub use nimbot::SplitMix64 as Rng;

/// One player of an arena game: nimbot under some policy, or an opponent.
pub trait Mover {
    /// Get ready for a game with `params` (before its first move).
    ///
    /// # Errors
    /// Whatever the engine behind it answers to [`Engine::prepare`].
    fn start(&mut self, params: &Params) -> Result<(), DecideError> {
        let _ = params;
        Ok(())
    }

    /// The move at `pos`, the position of the game in front of this player.
    ///
    /// # Errors
    /// Whatever the engine behind it answers to [`Engine::decide`].
    fn choose(&mut self, pos: &Position) -> Result<Move, DecideError>;

    /// `mv` was played at `at`, by this player when `own` (before it is judged).
    fn observe(&mut self, at: &Position, mv: Move, own: bool) {
        let _ = (at, mv, own);
    }
}

/// How one game went for nimbot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// nimbot won (took the last stone, or the opponent's move was refused).
    pub nimbot_won: bool,
    /// Moves played (a refused move does not count).
    pub moves: u32,
    /// nimbot's slowest decision.
    pub slowest: Duration,
}

/// Why a game could not be played to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameError {
    /// A player could not decide a position.
    Decide {
        /// The position.
        at: Position,
        /// The engine's answer.
        error: DecideError,
    },
    /// nimbot played a move the rules refuse (a bug).
    Illegal {
        /// The position.
        at: Position,
        /// The move.
        mv: Move,
        /// Why the rules refuse it.
        error: IllegalMove,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Decide { at, error } => write!(f, "no move at {at:?}: {error}"),
            GameError::Illegal { at, mv, error } => {
                write!(f, "nimbot played an illegal move {mv:?} at {at:?}: {error}")
            }
        }
    }
}

impl std::error::Error for GameError {}

/// Play one game of `params` between `nimbot`, seated at `seat`, and `opponent`,
/// on the [runner](crate::runner). Both see every move before it is judged; a move
/// the rules refuse loses for its mover, as on the server (for nimbot that is an
/// error: it never plays one).
///
/// # Errors
/// [`GameError`] if a player cannot move or nimbot's move is refused.
pub fn play(
    params: Params,
    seat: Player,
    nimbot: &mut dyn Mover,
    opponent: &mut dyn Mover,
) -> Result<Played, GameError> {
    let start = params.start();
    let failed = |error| GameError::Decide { at: start, error };
    nimbot.start(&params).map_err(failed)?;
    opponent.start(&params).map_err(failed)?;
    let mut game = Game::new(params);
    let mut nimbot = Seated {
        mover: nimbot,
        slowest: Some(Duration::ZERO),
    };
    let mut opponent = Seated {
        mover: opponent,
        slowest: None,
    };
    let (first, second): (
        &mut dyn Seat<Game, DecideError>,
        &mut dyn Seat<Game, DecideError>,
    ) = match seat {
        Player::First => (&mut nimbot, &mut opponent),
        Player::Second => (&mut opponent, &mut nimbot),
    };
    let nimbot_won = match run(&mut game, first, second, &mut |_| {}) {
        Ok(end) => end.winner == Some(seat),
        Err(Stop::Refused { by, .. }) if by != seat => true,
        Err(stop) => {
            let at = game.position().unwrap_or(start);
            return Err(match stop {
                Stop::Refused { mv, error, .. } => GameError::Illegal { at, mv, error },
                Stop::NoMove { error, .. } => GameError::Decide { at, error },
            });
        }
    };
    Ok(Played {
        nimbot_won,
        moves: game.moves(),
        slowest: nimbot.slowest.unwrap_or_default(),
    })
}

/// A [`Mover`] in a seat of the runner: it sees the position in front of it,
/// and its slowest decision is kept when `slowest` is `Some`.
struct Seated<'a> {
    mover: &'a mut dyn Mover,
    slowest: Option<Duration>,
}

impl Seat<Game, DecideError> for Seated<'_> {
    fn choose(&mut self, game: &Game) -> Result<Move, DecideError> {
        // The runner asks only while the game goes on, so there is a position.
        let pos = game.position().ok_or(DecideError::OutOfRange)?;
        let Some(slowest) = self.slowest.as_mut() else {
            return self.mover.choose(&pos);
        };
        let t = Instant::now();
        let mv = self.mover.choose(&pos);
        *slowest = (*slowest).max(t.elapsed());
        mv
    }

    fn observe(&mut self, game: &Game, mv: Move, own: bool) {
        if let Some(pos) = game.position() {
            self.mover.observe(&pos, mv, own);
        }
    }
}

/// nimbot as an engine plays it, under one policy.
#[derive(Debug)]
pub struct EngineMover<E> {
    /// The engine.
    pub engine: E,
    /// The policy for lost positions.
    pub policy: Policy,
}

impl<E: Engine> Mover for EngineMover<E> {
    fn start(&mut self, params: &Params) -> Result<(), DecideError> {
        self.engine.prepare(params)
    }

    fn choose(&mut self, pos: &Position) -> Result<Move, DecideError> {
        self.engine.decide(pos, self.policy).map(|d| d.mv)
    }
}

/// nimbot under a core policy on a solved box shared by every game (the arena's
/// `first`, `trap` and `longest`: nothing is solved per game).
#[derive(Clone, Copy, Debug)]
pub struct SolvedMover<'a> {
    /// The policy for lost positions ([`Policy::Exploit`] needs a [`HostEngine`]).
    pub policy: Policy,
    /// The solved box.
    pub solution: &'a Solution,
    /// Its distances to the end (for [`Policy::Longest`]).
    pub distances: &'a Distances,
}

impl Mover for SolvedMover<'_> {
    fn choose(&mut self, pos: &Position) -> Result<Move, DecideError> {
        let d = match self.policy {
            Policy::Longest => longest_move(self.solution, self.distances, pos),
            p => p.decide(self.solution, pos),
        };
        d.map(|d| d.mv)
    }
}

/// The fallible opponent families of the arena.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opponent {
    /// Uniformly random among the legal moves.
    Random,
    /// Always the largest take, never a reset.
    Greedy,
    /// Take-1-to-3 Nim thinking: leave a multiple of 4 (take all when it can).
    Mod4,
    /// Searches `n` plies: wins at once if it can, then (n >= 2) avoids moves that let
    /// the opponent win at once, then (n >= 3) plays a forced win in three plies;
    /// random among what is left.
    Depth(u8),
    /// Perfect, but with probability `p` a uniformly random legal move instead.
    Erring(f64),
    /// Depth-2 play that never spends a reset.
    Hoarder,
    /// Depth-2 play that resets on every move while it has resets.
    Spender,
}

impl Opponent {
    /// The families as the arena lists them.
    pub fn all() -> Vec<Opponent> {
        vec![
            Opponent::Random,
            Opponent::Greedy,
            Opponent::Mod4,
            Opponent::Depth(1),
            Opponent::Depth(2),
            Opponent::Depth(3),
            Opponent::Erring(0.02),
            Opponent::Erring(0.05),
            Opponent::Erring(0.1),
            Opponent::Erring(0.3),
            Opponent::Erring(0.5),
            Opponent::Hoarder,
            Opponent::Spender,
        ]
    }

    /// The family's name in the arena's report.
    pub fn name(&self) -> String {
        match self {
            Opponent::Random => "random".into(),
            Opponent::Greedy => "greedy-max".into(),
            Opponent::Mod4 => "nim-mod-4".into(),
            Opponent::Depth(d) => format!("depth-{d}"),
            Opponent::Erring(p) => format!("perfect-err-{:.0}%", p * 100.0),
            Opponent::Hoarder => "reset-hoarder".into(),
            Opponent::Spender => "reset-spender".into(),
        }
    }

    /// The opponent's move at `pos` (a position of a game that is not over):
    /// `solution` for the perfect moves of [`Opponent::Erring`], `rng` for the dice.
    pub fn choose(&self, pos: &Position, solution: &Solution, rng: &mut Rng) -> Move {
        let moves: Vec<Move> = pos.moves().collect();
        let pick = |rng: &mut Rng, from: &[Move]| -> Move {
            from.get(rng.below(from.len() as u64) as usize)
                .copied()
                .unwrap_or(Move::new(1, false))
        };
        match *self {
            Opponent::Random => pick(rng, &moves),
            Opponent::Greedy => Move::new(pos.limit(), false),
            Opponent::Mod4 => {
                let s = pos.stones();
                let take = if pos.limit() >= s { s } else { s % 4 };
                Move::new(
                    if (1..=pos.limit()).contains(&take) {
                        take
                    } else {
                        1
                    },
                    false,
                )
            }
            Opponent::Depth(d) => pick(rng, &shallow(pos, &moves, d)),
            Opponent::Erring(p) => {
                if rng.chance(p) {
                    return pick(rng, &moves);
                }
                match best_move(solution, pos) {
                    Ok(d) if d.value == Value::Won => d.mv,
                    _ => pick(rng, &moves),
                }
            }
            Opponent::Hoarder => {
                let no_reset: Vec<Move> = moves.iter().copied().filter(|m| !m.reset).collect();
                pick(rng, &shallow(pos, &no_reset, 2))
            }
            Opponent::Spender => {
                let own: Vec<Move> = if pos.own_resets() > 0 {
                    moves.iter().copied().filter(|m| m.reset).collect()
                } else {
                    moves.clone()
                };
                // Never reset on the winning move (it would only waste it).
                if pos.limit() >= pos.stones() {
                    return Move::new(pos.stones(), false);
                }
                pick(rng, &shallow(pos, &own, 2))
            }
        }
    }
}

/// The moves of `moves` a `depth`-ply searcher keeps (never empty).
fn shallow(pos: &Position, moves: &[Move], depth: u8) -> Vec<Move> {
    // Depth 1: take everything when allowed.
    if pos.limit() >= pos.stones() {
        return vec![Move::new(pos.stones(), false)];
    }
    if depth < 2 {
        return moves.to_vec();
    }
    // Depth 2: drop moves after which the opponent can take everything.
    let safe: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| match pos.after(m) {
            Ok(Some(next)) => next.limit() < next.stones(),
            _ => false,
        })
        .collect();
    if depth >= 3 {
        // Depth 3: a move after which every reply lets us take everything.
        let forced: Vec<Move> = safe
            .iter()
            .copied()
            .filter(|&m| {
                let Ok(Some(next)) = pos.after(m) else {
                    return false;
                };
                next.moves().all(|r| match next.after(r) {
                    Ok(Some(back)) => back.limit() >= back.stones(),
                    _ => false,
                })
            })
            .collect();
        if !forced.is_empty() {
            return forced;
        }
    }
    if safe.is_empty() {
        moves.to_vec()
    } else {
        safe
    }
}

/// A fallible opponent with its dice, for one game.
#[derive(Clone, Debug)]
pub struct Fallible<'a> {
    /// The family.
    pub opponent: Opponent,
    /// The solved box (for the perfect moves of [`Opponent::Erring`]).
    pub solution: &'a Solution,
    /// The dice.
    pub rng: Rng,
}

impl Mover for Fallible<'_> {
    fn choose(&mut self, pos: &Position) -> Result<Move, DecideError> {
        Ok(self.opponent.choose(pos, self.solution, &mut self.rng))
    }
}

/// A bot that solves a wrong model exactly, following the game in its own terms.
#[derive(Clone, Debug)]
pub struct ModelBot<'a> {
    /// The model and its solution.
    pub solved: Solved<'a>,
    /// What it believes of the game so far.
    pub belief: Belief,
    /// Its tie-break order.
    pub order: Order,
}

impl<'a> ModelBot<'a> {
    /// The bot of `solved`, breaking ties in `order`.
    pub fn new(solved: Solved<'a>, order: Order) -> Self {
        ModelBot {
            solved,
            belief: Belief::start(0, 0),
            order,
        }
    }
}

impl Mover for ModelBot<'_> {
    fn start(&mut self, params: &Params) -> Result<(), DecideError> {
        self.belief = Belief::start(params.stones(), params.resets());
        Ok(())
    }

    fn choose(&mut self, pos: &Position) -> Result<Move, DecideError> {
        Ok(self.solved.choose(&self.belief, pos, self.order))
    }

    fn observe(&mut self, _: &Position, mv: Move, _: bool) {
        self.belief = self.belief.after(&self.solved.solution.rules(), mv);
    }
}

/// An opponent family of the arena.
#[derive(Clone, Copy, Debug)]
pub enum Family {
    /// Errs at random or by a heuristic.
    Fallible(Opponent),
    /// Solves a wrong model exactly.
    Systematic(Model),
}

impl Family {
    /// Every family for a game with initial maximum `m`.
    pub fn all(m: u32) -> Vec<Family> {
        let mut v: Vec<Family> = Opponent::all().into_iter().map(Family::Fallible).collect();
        v.extend(Model::families(m).into_iter().map(Family::Systematic));
        v
    }

    /// The family's name in a game with initial maximum `m`.
    pub fn name(&self, m: u32) -> String {
        match self {
            Family::Fallible(o) => o.name(),
            Family::Systematic(model) => model.name(m),
        }
    }

    /// `fallible` or `systematic`.
    pub const fn kind(&self) -> &'static str {
        match self {
            Family::Fallible(_) => "fallible",
            Family::Systematic(_) => "systematic",
        }
    }

    /// Whether every game from one start is the same game.
    fn deterministic(&self) -> bool {
        matches!(
            self,
            Family::Fallible(Opponent::Greedy) | Family::Fallible(Opponent::Mod4)
        )
    }
}

/// Wins and games of one cell, split by the start's theoretical value for nimbot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games from won starts.
    pub won_starts: u32,
    /// Of those, won.
    pub won_start_wins: u32,
    /// Games from lost starts.
    pub lost_starts: u32,
    /// Of those, won (the opponent erred).
    pub lost_start_wins: u32,
}

impl Tally {
    /// Share of lost starts won, in percent.
    pub fn lost_start_rate(&self) -> f64 {
        percent(self.lost_start_wins, self.lost_starts)
    }

    /// Share of won starts won, in percent (100 unless nimbot has a bug).
    pub fn won_start_rate(&self) -> f64 {
        percent(self.won_start_wins, self.won_starts)
    }

    /// The 95 % interval of [`Tally::lost_start_rate`], in percent.
    pub fn lost_start_ci95(&self) -> (f64, f64) {
        wilson(self.lost_start_wins, self.lost_starts)
    }
}

fn percent(wins: u32, games: u32) -> f64 {
    if games == 0 {
        0.0
    } else {
        100.0 * f64::from(wins) / f64::from(games)
    }
}

/// The 95 % Wilson score interval of `wins` out of `games`, in percent.
pub fn wilson(wins: u32, games: u32) -> (f64, f64) {
    if games == 0 {
        return (0.0, 100.0);
    }
    let n = f64::from(games);
    let p = f64::from(wins) / n;
    let z = 1.959_964f64;
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (
        100.0 * (centre - half).max(0.0),
        100.0 * (centre + half).min(1.0),
    )
}

/// What an arena plays: the box of starts and how many games per start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaConfig {
    /// R, resets per player.
    pub resets: u8,
    /// M, the initial maximum.
    pub init_max: u32,
    /// How many starting piles, spread evenly over `1..=max_stones`.
    pub starts: u32,
    /// The largest starting pile.
    pub max_stones: u32,
    /// Games per (pile, seat) against each randomized family, each with its own seed
    /// (systematic families draw their tie-break order from it).
    pub seeds: u64,
    /// The first seed.
    pub first_seed: u64,
}

/// Why an arena could not be set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArenaError {
    /// No starts, or no stones.
    Empty,
    /// The game parameters are refused.
    Params(ParamError),
    /// The box could not be solved.
    Solve(SolveError),
    /// The ensemble's models cover N <= 2000 and R <= 6 only.
    ModelsTooLarge,
    /// A systematic family the arena was not set up with ([`Arena::new`]).
    NotSolved,
    /// A game could not be played to its end.
    Game(GameError),
}

impl From<GameError> for ArenaError {
    fn from(e: GameError) -> Self {
        ArenaError::Game(e)
    }
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Empty => f.write_str("at least one start of at least one stone"),
            ArenaError::Params(e) => write!(f, "{e}"),
            ArenaError::Solve(e) => write!(f, "{e}"),
            ArenaError::ModelsTooLarge => {
                f.write_str("the models are solved for N <= 2000 and R <= 6 only")
            }
            ArenaError::NotSolved => f.write_str("a family the arena was not set up with"),
            ArenaError::Game(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ArenaError {}

/// A game nimbot lost, as the arena names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loss {
    /// N.
    pub stones: u32,
    /// nimbot's seat.
    pub seat: Player,
    /// The game's seed.
    pub seed: u64,
    /// Moves played.
    pub moves: u32,
    /// Whether the start was won for nimbot (a bug if so).
    pub won_start: bool,
}

/// One (family, policy) cell: its tally and nimbot's slowest decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// The games.
    pub tally: Tally,
    /// nimbot's slowest decision.
    pub slowest: Duration,
}

/// What an arena solves once and every game shares.
#[derive(Debug)]
pub struct Arena {
    config: ArenaConfig,
    solution: Solution,
    distances: Distances,
    models: Arc<Models>,
    longest: Arc<(Solution, Distances)>,
    /// Systematic families whose rules the ensemble's models do not hold.
    family_solutions: Vec<ModelSolution>,
    /// The games of every start.
    starts: Vec<Params>,
    /// How long the ensemble's models took to solve.
    models_time: Duration,
}

impl Arena {
    /// Solve the box of `config`, the ensemble's models and the wrong models of
    /// `families`.
    ///
    /// # Errors
    /// [`ArenaError`] for an empty or refused box, or one beyond the models.
    pub fn new(config: ArenaConfig, families: &[Family]) -> Result<Arena, ArenaError> {
        if config.starts == 0 || config.max_stones == 0 {
            return Err(ArenaError::Empty);
        }
        let (n, r, m) = (config.max_stones, config.resets, config.init_max);
        let top = Params::new(n, r, m).map_err(ArenaError::Params)?;
        let solution = Solution::solve(SolveBox::games(n, r, m)).map_err(ArenaError::Solve)?;
        let distances = Distances::solve(solution.solve_box()).expect("distances of the box");
        let t = Instant::now();
        let models = Arc::new(Models::solve(top).ok_or(ArenaError::ModelsTooLarge)?);
        let models_time = t.elapsed();
        let mut family_solutions: Vec<ModelSolution> = Vec::new();
        for f in families {
            if let Family::Systematic(model) = f {
                if models.solution_of(&model.rules).is_none()
                    && !family_solutions.iter().any(|s| s.rules() == model.rules)
                {
                    family_solutions.push(
                        ModelSolution::solve(model.rules, n, r)
                            .ok_or(ArenaError::ModelsTooLarge)?,
                    );
                }
            }
        }
        let span = u64::from(n - 1);
        let steps = u64::from(config.starts.saturating_sub(1).max(1));
        let starts = (0..config.starts)
            .map(|i| Params::new(1 + (u64::from(i) * span / steps) as u32, r, m))
            .collect::<Result<_, _>>()
            .map_err(ArenaError::Params)?;
        let longest = Arc::new((solution.clone(), distances.clone()));
        Ok(Arena {
            config,
            solution,
            distances,
            models,
            longest,
            family_solutions,
            starts,
            models_time,
        })
    }

    /// The games of every start.
    pub fn starts(&self) -> &[Params] {
        &self.starts
    }

    /// The ensemble's models.
    pub fn models(&self) -> &Models {
        &self.models
    }

    /// How long the ensemble's models took to solve (the per-game cost the
    /// `exploit` policy pays on another thread).
    pub fn models_time(&self) -> Duration {
        self.models_time
    }

    /// nimbot under `policy`: the host engine for [`Policy::Exploit`] (with the
    /// arena's models), the core's policies on the solved box otherwise.
    fn nimbot(&self, policy: Policy) -> Box<dyn Mover + '_> {
        match policy {
            Policy::Exploit => Box::new(EngineMover {
                engine: HostEngine::with_models(self.models.clone(), self.longest.clone()),
                policy,
            }),
            p => Box::new(SolvedMover {
                policy: p,
                solution: &self.solution,
                distances: &self.distances,
            }),
        }
    }

    /// The solution of a systematic family's rules.
    fn model_solution(&self, model: &Model) -> Option<&ModelSolution> {
        self.models.solution_of(&model.rules).or_else(|| {
            self.family_solutions
                .iter()
                .find(|s| s.rules() == model.rules)
        })
    }

    /// Play every game of one cell: every pile, both seats, and for a randomized
    /// family every seed (the same seeds for every policy: they meet the same dice).
    /// `lost` hears of every game nimbot lost.
    ///
    /// # Errors
    /// [`ArenaError::Game`] if a game cannot be played to its end,
    /// [`ArenaError::NotSolved`] for a systematic family not given to [`Arena::new`].
    pub fn cell(
        &self,
        family: &Family,
        policy: Policy,
        lost: &mut dyn FnMut(Loss),
    ) -> Result<Cell, ArenaError> {
        let rounds = if family.deterministic() {
            1
        } else {
            self.config.seeds.max(1)
        };
        let mut nimbot = self.nimbot(policy);
        let mut cell = Cell::default();
        for &params in &self.starts {
            let n = params.stones();
            let first_wins = position_value(&self.solution, &params.start()) == Ok(Value::Won);
            for seat in [Player::First, Player::Second] {
                let won_start = first_wins == (seat == Player::First);
                for round in 0..rounds {
                    let seed = self
                        .config
                        .first_seed
                        .wrapping_add(round)
                        .wrapping_mul(1_000_003)
                        ^ u64::from(n) << 1
                        ^ u64::from(seat == Player::Second);
                    let mut rng = Rng::new(seed);
                    let played = match family {
                        Family::Fallible(o) => {
                            let mut opponent = Fallible {
                                opponent: *o,
                                solution: &self.solution,
                                rng,
                            };
                            play(params, seat, nimbot.as_mut(), &mut opponent)?
                        }
                        Family::Systematic(model) => {
                            let solution =
                                self.model_solution(model).ok_or(ArenaError::NotSolved)?;
                            let order = Order {
                                largest_first: rng.chance(0.5),
                                reset_first: rng.chance(0.5),
                            };
                            let solved = Solved {
                                model: *model,
                                solution,
                            };
                            let mut opponent = ModelBot::new(solved, order);
                            play(params, seat, nimbot.as_mut(), &mut opponent)?
                        }
                    };
                    cell.slowest = cell.slowest.max(played.slowest);
                    if !played.nimbot_won {
                        lost(Loss {
                            stones: n,
                            seat,
                            seed,
                            moves: played.moves,
                            won_start,
                        });
                    }
                    let win = u32::from(played.nimbot_won);
                    let t = &mut cell.tally;
                    if won_start {
                        t.won_starts += 1;
                        t.won_start_wins += win;
                    } else {
                        t.lost_starts += 1;
                        t.lost_start_wins += win;
                    }
                }
            }
        }
        Ok(cell)
    }
}

/// One policy's cells summed up: the last rows of the arena's report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Column {
    /// Per family: the share of lost starts won (percent), and whether the family
    /// is systematic.
    pub rates: Vec<(f64, bool)>,
    /// Won starts lost.
    pub won_starts_lost: u32,
    /// Won starts played.
    pub won_starts: u32,
    /// The slowest decision of every cell.
    pub slowest: Duration,
}

impl Column {
    /// Count `cell`, played against `family`.
    pub fn add(&mut self, family: &Family, cell: &Cell) {
        let t = &cell.tally;
        self.rates
            .push((t.lost_start_rate(), matches!(family, Family::Systematic(_))));
        self.won_starts_lost += t.won_starts - t.won_start_wins;
        self.won_starts += t.won_starts;
        self.slowest = self.slowest.max(cell.slowest);
    }

    /// The mean share of lost starts won over the systematic (or the fallible)
    /// families; NaN if there are none.
    pub fn mean(&self, systematic: bool) -> f64 {
        let v: Vec<f64> = self
            .rates
            .iter()
            .filter(|r| r.1 == systematic)
            .map(|r| r.0)
            .collect();
        if v.is_empty() {
            f64::NAN
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    }

    /// The lowest share of lost starts won over the families.
    pub fn worst(&self) -> f64 {
        self.rates.iter().map(|r| r.0).fold(f64::INFINITY, f64::min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn exploit_beats_first_against_a_systematic_bot_and_learns_its_model() {
        let top = Params::new(400, 4, 3).unwrap();
        let models = Arc::new(Models::solve(top).unwrap());
        let solution = Solution::solve(SolveBox::games(400, 4, 3)).unwrap();
        let distances = Distances::solve(solution.solve_box()).unwrap();
        let longest = Arc::new((solution.clone(), distances.clone()));
        let model = Model::families(3)
            .into_iter()
            .find(|m| m.rules.reset_clears_max)
            .unwrap();
        let name = model.name(3);
        let solved = Solved {
            model,
            solution: models.solution_of(&model.rules).unwrap(),
        };
        let order = Order {
            largest_first: false,
            reset_first: false,
        };
        let (mut exploit_wins, mut first_wins, mut games) = (0, 0, 0);
        let mut learned = 0;
        for n in (100..=400).step_by(5) {
            let params = Params::new(n, 4, 3).unwrap();
            // nimbot takes the lost seat.
            let seat = if position_value(&solution, &params.start()) == Ok(Value::Won) {
                Player::Second
            } else {
                Player::First
            };
            let mut exploit = EngineMover {
                engine: HostEngine::with_models(models.clone(), longest.clone()),
                policy: Policy::Exploit,
            };
            let mut bot = ModelBot::new(solved.clone(), order);
            let won = play(params, seat, &mut exploit, &mut bot).unwrap();
            exploit_wins += u32::from(won.nimbot_won);
            let mut first = SolvedMover {
                policy: Policy::First,
                solution: &solution,
                distances: &distances,
            };
            let mut bot = ModelBot::new(solved.clone(), order);
            first_wins += u32::from(play(params, seat, &mut first, &mut bot).unwrap().nimbot_won);
            games += 1;
            // The opponent's model holds a good share of the weight at the end (of
            // 18 members; models that predicted its moves as well share the rest).
            let weights = exploit.engine.ensemble().unwrap().weights();
            let own = weights.iter().find(|x| x.0 == name).unwrap().1;
            if own > 0.3 {
                learned += 1;
            }
        }
        assert!(
            first_wins * 4 < exploit_wins,
            "exploit {exploit_wins}, first {first_wins} of {games}"
        );
        assert!(
            learned * 2 > games,
            "the model held 30% of the weight in {learned} of {games} games"
        );
    }

    #[test]
    fn a_random_opponent_plays_every_legal_move_takes_above_the_pile_included() {
        let solution = Solution::solve(SolveBox::games(10, 1, 3)).unwrap();
        // 2 stones, limit 5, a reset left: ten legal moves, six of them beyond the pile.
        let pos = Position::new(2, 5, 1, 0, false, 3).unwrap();
        let mut rng = Rng::new(7);
        let seen: HashSet<Move> = (0..500)
            .map(|_| Opponent::Random.choose(&pos, &solution, &mut rng))
            .collect();
        assert_eq!(seen, pos.moves().collect::<HashSet<_>>());
        assert!(seen.contains(&Move::new(5, true)));
    }

    /// A player that always sends the same move.
    struct Stubborn(Move);

    impl Mover for Stubborn {
        fn choose(&mut self, _: &Position) -> Result<Move, DecideError> {
            Ok(self.0)
        }
    }

    #[test]
    fn a_refused_move_loses_for_the_opponent_and_is_an_error_for_nimbot() {
        let params = Params::new(10, 0, 3).unwrap();
        let (take_one, too_many) = (Move::new(1, false), Move::new(4, false));
        let mut nimbot = Stubborn(take_one);
        let played = play(params, Player::Second, &mut nimbot, &mut Stubborn(too_many));
        assert_eq!(played.map(|p| (p.nimbot_won, p.moves)), Ok((true, 0)));
        let refused = play(params, Player::First, &mut Stubborn(too_many), &mut nimbot);
        assert!(
            matches!(refused, Err(GameError::Illegal { .. })),
            "{refused:?}"
        );
        // Take 1 each: the tenth move, the second player's fifth, takes the last stone.
        let played = play(params, Player::Second, &mut nimbot, &mut Stubborn(take_one));
        assert_eq!(played.map(|p| (p.nimbot_won, p.moves)), Ok((true, 10)));
    }
}
