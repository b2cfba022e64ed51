//! The related games on the line protocol: Fibonacci Nim and Super-Nim.
//!
//! A game of either kind starts with `new fibonacci ...` or `new supernim ...`; while
//! it is in progress [`Session`](super::Session) hands `go`, `opp` and `state` to
//! the functions here.

use super::{ActiveGame, Error, Out, Words};
use crate::fibonacci as fib;
use crate::num::parse_u32;
use crate::rules::{IllegalMove, Player};
use crate::supernim::{self as sn, Heaps, DEFAULT_NODE_BUDGET, MAX_HEAPS};

/// Move limit of a Super-Nim game on the protocol; it then ends on points.
pub const SUPERNIM_MOVE_LIMIT: u32 = 200;
/// The Super-Nim player's node budget per move on the protocol.
pub const SUPERNIM_NODE_BUDGET: u32 = DEFAULT_NODE_BUDGET;

/// A related game as the session plays it. `go`, `opp` and `state` are written once
/// ([`handle`]) over what differs between the games.
pub(super) trait Played: Clone {
    /// A move of this game.
    type Move: Copy;
    /// `None` while the game goes on; then `Some(winner)`, `None` for a draw.
    fn result(&self) -> Option<Option<Player>>;
    /// The player to move.
    fn to_move(&self) -> Player;
    /// The opponent's move: the rest of an `opp` line.
    fn read_move(words: &mut Words<'_>) -> Result<Self::Move, Error>;
    /// The bot's move.
    fn choose(&self) -> Result<Self::Move, Error>;
    /// Play `mv` for `who`; `true` if it ended the game.
    fn play(&mut self, who: Player, mv: Self::Move) -> Result<bool, Error>;
    /// A move as the protocol writes it.
    fn write_move(mv: Self::Move, out: &mut Out);
    /// The end of a reply once a move ended the game.
    fn write_end(&self, bot: Player, out: &mut Out);
    /// The `state` reply up to its ` turn ...`.
    fn write_state(&self, bot: Player, out: &mut Out);
}

/// `go`, `opp` or `state` (`cmd`) in a related game. A refused command leaves the
/// game as it was.
pub(super) fn handle<G: Played>(
    cmd: &[u8],
    game: &mut G,
    bot: Player,
    words: &mut Words<'_>,
    out: &mut Out,
) -> Result<(), Error> {
    match cmd {
        b"go" => {
            words.end()?;
            let mut next = game.clone();
            go(&mut next, bot, out)?;
            *game = next;
        }
        b"opp" => {
            let mv = G::read_move(words)?;
            check_turn(game, bot, false)?;
            let mut next = game.clone();
            if next.play(bot.other(), mv)? {
                next.write_end(bot, out);
            } else {
                go(&mut next, bot, out)?;
            }
            *game = next;
        }
        _ => {
            words.end()?;
            game.write_state(bot, out);
            out.str(" turn ");
            out.str(turn_word(game.result(), game.to_move(), bot));
        }
    }
    Ok(())
}

/// The bot moves in `game`: `move MOVE`, and the end if it ended the game.
fn go<G: Played>(game: &mut G, bot: Player, out: &mut Out) -> Result<(), Error> {
    check_turn(game, bot, true)?;
    let mv = game.choose()?;
    let ended = game.play(bot, mv)?;
    out.str("move ");
    G::write_move(mv, out);
    if ended {
        out.str(" ");
        game.write_end(bot, out);
    }
    Ok(())
}

impl Played for fib::Game {
    type Move = u64;

    fn result(&self) -> Option<Option<Player>> {
        self.winner().map(Some)
    }
    fn to_move(&self) -> Player {
        fib::Game::to_move(self)
    }
    fn read_move(words: &mut Words<'_>) -> Result<u64, Error> {
        const USAGE: Error = Error::Msg("usage: opp TAKE");
        let take = words.number().map_err(|e| e.or(USAGE))?;
        words.end()?;
        Ok(u64::from(take))
    }
    fn choose(&self) -> Result<u64, Error> {
        let decision = self.decide().ok_or(Error::Msg("the game is over"))?;
        Ok(decision.take)
    }
    fn play(&mut self, who: Player, take: u64) -> Result<bool, Error> {
        let outcome = fib::Game::play(self, who, take).map_err(fib_error)?;
        Ok(outcome != fib::Outcome::Continue)
    }
    fn write_move(take: u64, out: &mut Out) {
        out.num(take);
    }
    /// `won` or `lost`.
    fn write_end(&self, bot: Player, out: &mut Out) {
        out.str(turn_word(self.result(), self.to_move(), bot));
    }
    fn write_state(&self, _: Player, out: &mut Out) {
        out.str("state fibonacci stones ");
        out.num(self.stones());
        out.str(" limit ");
        out.num(self.limit());
    }
}

impl Played for sn::Game {
    type Move = sn::Move;

    fn result(&self) -> Option<Option<Player>> {
        self.verdict().map(|v| match v {
            sn::Verdict::Winner(p) => Some(p),
            sn::Verdict::Draw => None,
        })
    }
    fn to_move(&self) -> Player {
        sn::Game::to_move(self)
    }
    fn read_move(words: &mut Words<'_>) -> Result<sn::Move, Error> {
        const USAGE: Error = Error::Msg("usage: opp merge A B | opp grow A | opp split A");
        let kind = words.next().ok_or(USAGE)?;
        let mut size = || -> Result<u16, Error> {
            let n = words.number().map_err(|e| e.or(USAGE))?;
            // A size no heap can have is simply "no such heap".
            Ok(u16::try_from(n).unwrap_or(u16::MAX))
        };
        let mv = match kind {
            b"merge" => {
                let from = size()?;
                let onto = size()?;
                sn::Move::Merge { from, onto }
            }
            b"grow" => sn::Move::Grow(size()?),
            b"split" => sn::Move::Split(size()?),
            _ => return Err(USAGE),
        };
        words.end()?;
        Ok(mv)
    }
    fn choose(&self) -> Result<sn::Move, Error> {
        sn::decide(self, SUPERNIM_NODE_BUDGET)
            .mv
            .ok_or(Error::Msg("no move"))
    }
    fn play(&mut self, who: Player, mv: sn::Move) -> Result<bool, Error> {
        let outcome = sn::Game::play(self, who, mv).map_err(sn_error)?;
        Ok(outcome != sn::Outcome::Continue)
    }
    fn write_move(mv: sn::Move, out: &mut Out) {
        let (word, a, b) = match mv {
            sn::Move::Merge { from, onto } => ("merge ", from, Some(onto)),
            sn::Move::Grow(n) => ("grow ", n, None),
            sn::Move::Split(n) => ("split ", n, None),
        };
        out.str(word);
        out.num(a);
        if let Some(b) = b {
            out.str(" ");
            out.num(b);
        }
    }
    /// `over won|lost|draw`.
    fn write_end(&self, bot: Player, out: &mut Out) {
        out.str("over ");
        out.str(turn_word(self.result(), self.to_move(), bot));
    }
    fn write_state(&self, bot: Player, out: &mut Out) {
        out.str("state supernim heaps ");
        for (i, &h) in self.heaps().sizes().iter().enumerate() {
            if i > 0 {
                out.str(",");
            }
            out.num(h);
        }
        if self.heaps().is_empty() {
            out.str("-");
        }
        out.str(" score ");
        out.num(self.score(bot));
        out.str(" ");
        out.num(self.score(bot.other()));
    }
}

/// `new fibonacci STONES first|second`, after the word `fibonacci`.
pub(super) fn new_fibonacci(words: &mut Words<'_>) -> Result<ActiveGame, Error> {
    const USAGE: Error = Error::Msg("usage: new fibonacci STONES first|second");
    let stones = words.number().map_err(|e| e.or(USAGE))?;
    let seat = seat(words).ok_or(USAGE)?;
    words.end()?;
    let game = fib::Game::new(u64::from(stones)).map_err(fib_error)?;
    Ok(ActiveGame::Fibonacci(game, seat))
}

/// `new supernim H1,H2,... first|second`, after the word `supernim`.
pub(super) fn new_supernim(words: &mut Words<'_>) -> Result<ActiveGame, Error> {
    const USAGE: Error = Error::Msg("usage: new supernim H1,H2,... first|second");
    let list = words.next().ok_or(USAGE)?;
    let seat = seat(words).ok_or(USAGE)?;
    words.end()?;
    let mut sizes = [0u32; MAX_HEAPS];
    let mut count = 0usize;
    for item in list.split(|b| *b == b',') {
        let n = parse_u32(item).ok_or(Error::BadNumber)?;
        let slot = sizes
            .get_mut(count)
            .ok_or(Error::Msg(sn::Error::TooManyHeaps.as_str()))?;
        *slot = n;
        count += 1;
    }
    let heaps = Heaps::new(sizes.get(..count).unwrap_or(&[])).map_err(sn_error)?;
    let game = sn::Game::new(heaps, SUPERNIM_MOVE_LIMIT).map_err(sn_error)?;
    Ok(ActiveGame::SuperNim(game, seat))
}

fn seat(words: &mut Words<'_>) -> Option<Player> {
    match words.next()? {
        b"first" => Some(Player::First),
        b"second" => Some(Player::Second),
        _ => None,
    }
}

fn fib_error(e: fib::Error) -> Error {
    match e {
        fib::Error::BadTake { take, limit } => Error::Illegal(IllegalMove::BadTake {
            take: u32::try_from(take).unwrap_or(u32::MAX),
            limit: u32::try_from(limit).unwrap_or(u32::MAX),
        }),
        other => Error::Msg(other.as_str()),
    }
}

fn sn_error(e: sn::Error) -> Error {
    Error::Msg(e.as_str())
}

/// Whose turn it is (or the result), from the bot's side.
fn turn_word(over: Option<Option<Player>>, to_move: Player, bot: Player) -> &'static str {
    match over {
        Some(Some(p)) if p == bot => "won",
        Some(Some(_)) => "lost",
        Some(None) => "draw",
        None if to_move == bot => "bot",
        None => "opponent",
    }
}

/// The game must go on, with the bot to move (`want_bot`) or the opponent.
fn check_turn<G: Played>(game: &G, bot: Player, want_bot: bool) -> Result<(), Error> {
    if game.result().is_some() {
        return Err(Error::Msg("the game is over"));
    }
    match (game.to_move() == bot, want_bot) {
        (true, false) => Err(Error::Msg("out of turn: the bot is to move (send go)")),
        (false, true) => Err(Error::Msg(
            "out of turn: the opponent is to move (send opp)",
        )),
        _ => Ok(()),
    }
}
