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
