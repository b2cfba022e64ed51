//! The game in progress: which game a session plays ([`ActiveGame`]), and the rules
//! of a turn that every game's commands share: whose turn it is, and the refusals of
//! a move out of turn, after the end, or against the rules.

#[cfg(feature = "related-games")]
use nimbot::fibonacci as fib;
use nimbot::text::{text, Text};
use nimbot::{Game, IllegalMove, Player};
#[cfg(feature = "related-games")]
use nimbot_supernim as sn;

use crate::grammar::{Phrase, Reason, Response, Turn};
use crate::reply::Reply;

/// The game a session is playing, with the bot's seat.
// On a host a Super-Nim game holds up to 1024 heaps (2 KB) in place: the core
// does not box (no heap), and a session holds one game.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActiveGame {
    /// Expanding Nim with resets (`new N R M ...`).
    Expanding(Game, Player),
    /// Fibonacci Nim (`new fibonacci ...`).
    #[cfg(feature = "related-games")]
    Fibonacci(fib::Game, Player),
    /// Super-Nim (`new supernim ...`).
    #[cfg(feature = "related-games")]
    SuperNim(sn::Game, Player),
}

/// Why a command was refused: the words of its `error ...` line. The refusal
/// of an illegal move, with numbers, is written where it arises ([`refuse`]).
pub(crate) type Error = Text;

/// Writes the refusal of the illegal move `e` (with the take and the limit of a
/// take out of range) to `out`.
pub(crate) fn refuse(e: IllegalMove, out: &mut Reply) {
    let reason = match e {
        IllegalMove::BadTake { take, limit } => Reason::BadTake { take, limit },
        e => Reason::Illegal(Phrase::Text(e.text())),
    };
    Response::Error(reason).write(out);
}

/// The refusal of a move out of turn or after the end, if any.
#[cfg_attr(not(target_pointer_width = "64"), inline(always))]
pub(crate) fn check_turn(
    over: bool,
    to_move: Player,
    bot: Player,
    want_bot: bool,
) -> Result<(), Error> {
    if over {
        return Err(text!("the game is over"));
    }
    match (to_move == bot, want_bot) {
        (true, false) => Err(text!("out of turn: the bot is to move (send go)")),
        (false, true) => Err(text!("out of turn: the opponent is to move (send opp)")),
        _ => Ok(()),
    }
}

/// Whose turn it is (or the result: `over` is `Some(winner)`, a draw `Some(None)`),
/// from the bot's side.
pub(crate) fn turn_of(over: Option<Option<Player>>, to_move: Player, bot: Player) -> Turn {
    match over {
        Some(Some(p)) if p == bot => Turn::Won,
        Some(Some(_)) => Turn::Lost,
        Some(None) => Turn::Draw,
        None if to_move == bot => Turn::Bot,
        None => Turn::Opponent,
    }
}
