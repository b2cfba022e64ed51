//! The one runner of a two-player game in this process: the Expanding Nim arena
//! ([`arena`](crate::arena)) and Super-Nim's matches ([`supernim`](crate::supernim))
//! both play their games through [`run`].
//!
//! A game is anything that says whose turn it is and judges a move by its own rules
//! ([`Rules`]); a player is anything that, shown the game, chooses a move ([`Seat`]).
//! The runner alternates the seats, shows every move to both players before the
//! game judges it, and stops at the end with the winner and the plies; or at the first player that has no move or plays one the
//! rules refuse ([`Stop`]), leaving the game as it was, so the caller decides what
//! a refusal means (the arena, like the course's server, counts it as a loss).
//!
//! ```
//! use nimbot::{DecideError, Game, Move, Params, Player};
//! use nimbot_engine::runner::{run, Seat};
//!
//! /// Takes one stone a move.
//! struct One;
//! impl Seat<Game, DecideError> for One {
//!     fn choose(&mut self, _: &Game) -> Result<Move, DecideError> {
//!         Ok(Move::new(1, false))
//!     }
//! }
//!
//! // Seven stones, one a move: the first player takes the last.
//! let mut game = Game::new(Params::new(7, 0, 1).unwrap());
//! let finish = run(&mut game, &mut One, &mut One, &mut |_| {}).ok().unwrap();
//! assert_eq!((finish.winner, finish.plies), (Some(Player::First), 7));
//! ```
//!
//! The tournament is not played here: its bots are processes behind TCP, refereed
//! by `nimbot-match`'s game loop.

use nimbot::{IllegalMove, Player};
use nimbot_supernim as sn;

/// A two-player game as the runner plays it.
pub trait Rules {
    /// A move.
    type Move: Copy;
    /// Why the rules refuse a move.
    type Refusal;

    /// The player to move; `None` once the game is over.
    fn to_move(&self) -> Option<Player>;

    /// Play `mv` for `player`; a refused move changes nothing.
    ///
    /// # Errors
    /// Why the rules refuse the move.
    fn play(&mut self, player: Player, mv: Self::Move) -> Result<(), Self::Refusal>;

    /// The winner of a game that is over; `None` for a draw (or a game not over).
    fn winner(&self) -> Option<Player>;

    /// Plies played (refused moves do not count).
    fn plies(&self) -> u32;
}

/// A player of the game `G`, whose failures to choose are `E`s.
pub trait Seat<G: Rules, E> {
    /// The move in `game`, for the player to move.
    ///
    /// # Errors
    /// Why it has no move.
    fn choose(&mut self, game: &G) -> Result<G::Move, E>;

    /// `mv` is about to be played in `game` (before it is judged), by this player
    /// when `own`.
    fn observe(&mut self, game: &G, mv: G::Move, own: bool) {
        let _ = (game, mv, own);
    }
}

/// A game played to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finish {
    /// The winner; `None` for a draw.
    pub winner: Option<Player>,
    /// Plies played.
    pub plies: u32,
}

/// Why a game stopped before its end (the game is left as it was before the move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop<M, R, E> {
    /// The player to move had no move.
    NoMove {
        /// Its seat.
        by: Player,
        /// What it answered.
        error: E,
    },
    /// The rules refused the move of the player to move.
    Refused {
        /// Its seat.
        by: Player,
        /// The move.
        mv: M,
        /// Why.
        error: R,
    },
}

/// Play `game` to its end, `first` and `second` in their seats, showing `watch`
/// the game before the first move and after every move.
///
/// # Errors
/// [`Stop`] at the first player with no move or with a move the rules refuse.
#[allow(clippy::type_complexity)]
pub fn run<'s, G: Rules, E>(
    game: &mut G,
    first: &mut (dyn Seat<G, E> + 's),
    second: &mut (dyn Seat<G, E> + 's),
    watch: &mut dyn FnMut(&G),
) -> Result<Finish, Stop<G::Move, G::Refusal, E>> {
    watch(game);
    while let Some(by) = game.to_move() {
        let (mover, other) = match by {
            Player::First => (&mut *first, &mut *second),
            Player::Second => (&mut *second, &mut *first),
        };
        let mv = mover
            .choose(game)
            .map_err(|error| Stop::NoMove { by, error })?;
        mover.observe(game, mv, true);
        other.observe(game, mv, false);
        game.play(by, mv)
            .map_err(|error| Stop::Refused { by, mv, error })?;
        watch(game);
    }
    Ok(Finish {
        winner: game.winner(),
        plies: game.plies(),
    })
}

impl Rules for nimbot::Game {
    type Move = nimbot::Move;
    type Refusal = IllegalMove;

    fn to_move(&self) -> Option<Player> {
        nimbot::Game::winner(self)
            .is_none()
            .then(|| nimbot::Game::to_move(self))
    }

    fn play(&mut self, player: Player, mv: nimbot::Move) -> Result<(), IllegalMove> {
        nimbot::Game::play(self, player, mv).map(|_| ())
    }

    fn winner(&self) -> Option<Player> {
        nimbot::Game::winner(self)
    }

    fn plies(&self) -> u32 {
        self.moves()
    }
}

impl Rules for sn::Game {
    type Move = sn::Move;
    type Refusal = sn::Error;

    fn to_move(&self) -> Option<Player> {
        self.end().is_none().then(|| sn::Game::to_move(self))
    }

    fn play(&mut self, player: Player, mv: sn::Move) -> Result<(), sn::Error> {
        sn::Game::play(self, player, mv).map(|_| ())
    }

    fn winner(&self) -> Option<Player> {
        match self.verdict() {
            Some(sn::Verdict::Winner(p)) => Some(p),
            _ => None,
        }
    }

    fn plies(&self) -> u32 {
        sn::Game::plies(self)
    }
}
