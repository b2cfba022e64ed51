//! The related games on the line protocol: Fibonacci Nim and Super-Nim.
//!
//! A game of either kind starts with `new fibonacci ...` or `new supernim ...`; while
//! it is in progress [`Session`](super::Session) hands `go`, `opp` and `state` to
//! the functions here, each returning the reply for the grammar to write. A refused
//! command leaves the game as it was.

use super::game::{check_turn, refuse, turn_of, ActiveGame, Error};
use super::grammar::{List, Response, SuperNimPlayer, SuperNimStart, Turn};
use super::reply::Reply;
use nimbot::{fibonacci as fib, text::text, IllegalMove, Player};
use nimbot_supernim::{self as sn, Heaps, DEFAULT_NODE_BUDGET, MAX_HEAPS};

/// Move limit (the cap) of a Super-Nim game on the protocol unless `new supernim`
/// names one (`cap C`); the game then ends on points.
pub const SUPERNIM_MOVE_LIMIT: u32 = 200;
/// The player a session plays unless `new supernim` names one (`player P`): the
/// host's where there is a heap (feature `alloc`), else the boards' search.
const DEFAULT_PLAYER: SuperNimPlayer = if cfg!(feature = "alloc") {
    SuperNimPlayer::Perfect
} else {
    SuperNimPlayer::Search
};

/// The Super-Nim bot of a session: which player, its node budget per move, and
/// on a host the host's player itself (its solver table kept from game to game).
#[derive(Debug)]
pub(super) struct SuperNimBot {
    player: SuperNimPlayer,
    /// Nodes per move (`nodes K`); `None`: the player's default.
    nodes: Option<u32>,
    #[cfg(feature = "alloc")]
    perfect: Option<alloc::boxed::Box<sn::Perfect>>,
}

impl Default for SuperNimBot {
    fn default() -> Self {
        SuperNimBot {
            player: DEFAULT_PLAYER,
            nodes: None,
            #[cfg(feature = "alloc")]
            perfect: None,
        }
    }
}

impl SuperNimBot {
    /// Starts a game with `player` and `nodes` a move: a learning host player
    /// forgets the last opponent.
    fn start(&mut self, player: SuperNimPlayer, nodes: Option<u32>) {
        self.player = player;
        self.nodes = nodes;
        #[cfg(feature = "alloc")]
        if player == SuperNimPlayer::Perfect {
            let budget = nodes.map_or(sn::PERFECT_NODE_BUDGET, u64::from);
            let perfect = self
                .perfect
                .get_or_insert_with(|| alloc::boxed::Box::new(sn::Perfect::learning(budget)));
            perfect.budget = budget;
            perfect.new_opponent();
        }
    }

    /// The move for the player to move in `game`.
    fn decide(&mut self, game: &sn::Game) -> Option<sn::Move> {
        #[cfg(feature = "alloc")]
        if let (SuperNimPlayer::Perfect, Some(perfect)) = (self.player, self.perfect.as_mut()) {
            return perfect
                .decide(game.heaps(), game.plies_left(), game.lead())
                .mv;
        }
        sn::decide(game, self.nodes.unwrap_or(DEFAULT_NODE_BUDGET)).mv
    }

    /// Shows the player the opponent's move `mv` in `game` (before it is played).
    fn observe(&mut self, game: &sn::Game, mv: sn::Move) {
        #[cfg(feature = "alloc")]
        if let (SuperNimPlayer::Perfect, Some(perfect)) = (self.player, self.perfect.as_mut()) {
            perfect.observe(game.heaps(), game.plies_left(), mv);
        }
        #[cfg(not(feature = "alloc"))]
        let _ = (game, mv);
    }
}

/// `new fibonacci STONES first|second`.
pub(super) fn new_fibonacci(stones: u32, seat: Player) -> Result<ActiveGame, Error> {
    let game = fib::Game::new(u64::from(stones)).map_err(|e| e.text())?;
    Ok(ActiveGame::Fibonacci(game, seat))
}

/// `new supernim H1,H2,... first|second [cap C] [heaps K] [player P] [nodes K]`:
/// the cap (moves, default [`SUPERNIM_MOVE_LIMIT`]), the most heaps a position
/// may hold (default and at most [`MAX_HEAPS`]; a host plays a board's game with
/// `heaps 12`), the player and its node budget, set on `bot` once the game is
/// accepted.
pub(super) fn new_supernim(
    start: SuperNimStart<'_>,
    bot: &mut SuperNimBot,
) -> Result<ActiveGame, Error> {
    // Taken apart at once, in the order of use: the boards' code is smaller than
    // with `start` kept whole to the end.
    let SuperNimStart {
        player,
        nodes,
        heaps,
        most,
        cap,
        seat,
    } = start;
    let player = player.unwrap_or(DEFAULT_PLAYER);
    if player == SuperNimPlayer::Perfect && !cfg!(feature = "alloc") {
        return Err(text!("this build plays player search only"));
    }
    if nodes == Some(0) {
        return Err(text!("nodes must be at least 1"));
    }
    // The grammar has checked that there are at most MAX_HEAPS.
    let mut sizes = [0u32; MAX_HEAPS];
    let mut count = 0;
    for (slot, n) in sizes.iter_mut().zip(heaps.iter()) {
        *slot = n;
        count += 1;
    }
    let limit = most.unwrap_or(MAX_HEAPS as u32) as usize;
    let heaps = Heaps::new(sizes.get(..count).unwrap_or(&[]))
        .and_then(|h| h.with_limit(limit))
        .map_err(|e| e.text())?;
    let game = sn::Game::new(heaps, cap.unwrap_or(SUPERNIM_MOVE_LIMIT)).map_err(|e| e.text())?;
    bot.start(player, nodes);
    Ok(ActiveGame::SuperNim(game, seat))
}

/// `go` in a Fibonacci Nim game.
pub(super) fn fib_go(game: &mut fib::Game, bot: Player, out: &mut Reply) -> Result<(), Error> {
    let mut next = *game;
    fib_move(&mut next, bot, out)?;
    *game = next;
    Ok(())
}

/// The bot's move on `game` (a copy: the caller commits it).
fn fib_move(game: &mut fib::Game, bot: Player, out: &mut Reply) -> Result<(), Error> {
    check_turn(game.winner().is_some(), game.to_move(), bot, true)?;
    let decision = game.decide().ok_or(text!("the game is over"))?;
    let outcome = game.play(bot, decision.take).map_err(|e| e.text())?;
    Response::FibonacciMove {
        take: decision.take,
        won: outcome == fib::Outcome::Won(bot),
    }
    .write(out);
    Ok(())
}

/// `opp K` in a Fibonacci Nim game.
pub(super) fn fib_opp(
    game: &mut fib::Game,
    bot: Player,
    take: u32,
    out: &mut Reply,
) -> Result<(), Error> {
    check_turn(game.winner().is_some(), game.to_move(), bot, false)?;
    let mut next = *game;
    let outcome = match next.play(bot.other(), u64::from(take)) {
        Ok(outcome) => outcome,
        // A take out of range is refused as an illegal move, with its numbers.
        Err(fib::Error::BadTake { take, limit }) => {
            let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
            let (take, limit) = (clamp(take), clamp(limit));
            refuse(IllegalMove::BadTake { take, limit }, out);
            return Ok(());
        }
        Err(e) => return Err(e.text()),
    };
    match outcome {
        fib::Outcome::Won(_) => Response::Lost.write(out),
        fib::Outcome::Continue => fib_move(&mut next, bot, out)?,
    }
    *game = next;
    Ok(())
}

/// `state` in a Fibonacci Nim game.
pub(super) fn fib_state(game: &fib::Game, bot: Player) -> Response<'static> {
    Response::FibonacciState {
        stones: game.stones(),
        limit: game.limit(),
        turn: turn_of(game.winner().map(Some), game.to_move(), bot),
    }
}

/// How a Super-Nim game ended (`Some(winner)`, a draw `Some(None)`), if it has.
fn sn_end(game: &sn::Game) -> Option<Option<Player>> {
    game.verdict().map(|v| match v {
        sn::Verdict::Winner(p) => Some(p),
        sn::Verdict::Draw => None,
    })
}

/// The result of a Super-Nim game once it has ended, from the bot's side.
fn sn_over(game: &sn::Game, bot: Player) -> Option<Turn> {
    sn_end(game).map(|end| turn_of(Some(end), game.to_move(), bot))
}

/// `go` in a Super-Nim game.
pub(super) fn sn_go(
    game: &mut sn::Game,
    bot: Player,
    player: &mut SuperNimBot,
    out: &mut Reply,
) -> Result<(), Error> {
    let mut next = game.clone();
    sn_move(&mut next, bot, player, out)?;
    *game = next;
    Ok(())
}

/// The bot's move on `game` (a copy: the caller commits it).
fn sn_move(
    game: &mut sn::Game,
    bot: Player,
    player: &mut SuperNimBot,
    out: &mut Reply,
) -> Result<(), Error> {
    check_turn(game.end().is_some(), game.to_move(), bot, true)?;
    let mv = player.decide(game).ok_or(text!("no move"))?;
    game.play(bot, mv).map_err(|e| e.text())?;
    Response::SuperNimMove {
        mv,
        over: sn_over(game, bot),
    }
    .write(out);
    Ok(())
}

/// `opp MOVE` in a Super-Nim game.
pub(super) fn sn_opp(
    game: &mut sn::Game,
    bot: Player,
    mv: sn::Move,
    player: &mut SuperNimBot,
    out: &mut Reply,
) -> Result<(), Error> {
    check_turn(game.end().is_some(), game.to_move(), bot, false)?;
    let mut next = game.clone();
    let outcome = next.play(bot.other(), mv).map_err(|e| e.text())?;
    // A legal move: the player learns from it.
    player.observe(game, mv);
    match outcome {
        sn::Outcome::Over(_) => {
            Response::SuperNimOver(sn_over(&next, bot).unwrap_or(Turn::Draw)).write(out)
        }
        sn::Outcome::Continue => sn_move(&mut next, bot, player, out)?,
    }
    *game = next;
    Ok(())
}

/// `state` in a Super-Nim game.
pub(super) fn sn_state(game: &sn::Game, bot: Player) -> Response<'_> {
    Response::SuperNimState {
        heaps: List::of(game.heaps().sizes()),
        score: [game.score(bot), game.score(bot.other())],
        turn: turn_of(sn_end(game), game.to_move(), bot),
    }
}
