//! The related games on the line protocol: Fibonacci Nim and Super-Nim.
//!
//! A game of either kind starts with `new fibonacci ...` or `new supernim ...`; while
//! it is in progress [`Session`](super::Session) hands `go`, `opp` and `state` to
//! the functions here.

use super::MAX_LINE;
use super::{ActiveGame, Error, Out, Words};
use nimbot::fibonacci as fib;
use nimbot::num::parse_u32;
use nimbot::rules::{IllegalMove, Player};
use nimbot::supernim::{self as sn, Heaps, DEFAULT_NODE_BUDGET, MAX_HEAPS};
use nimbot::text::{match_text, text, Text};

/// Move limit (the cap) of a Super-Nim game on the protocol unless `new supernim`
/// names one (`cap C`); the game then ends on points.
pub const SUPERNIM_MOVE_LIMIT: u32 = 200;
/// The Super-Nim player's node budget per move on the protocol.
const SUPERNIM_NODE_BUDGET: u32 = DEFAULT_NODE_BUDGET;

/// `go`, `opp` or `state` (`cmd`) in a Fibonacci Nim game. A refused command
/// leaves the game as it was.
pub(super) fn fibonacci(
    cmd: &[u8],
    game: &mut fib::Game,
    bot: Player,
    words: &mut Words<'_>,
    out: &mut Out,
) -> Result<(), Error> {
    match cmd {
        b"go" => words.end().and_then(|()| {
            let mut next = *game;
            fib_go(&mut next, bot, out)?;
            *game = next;
            Ok(())
        }),
        b"opp" => fib_opp(game, bot, words, out),
        _ => words.end().map(|()| fib_state(game, bot, out)),
    }
}

/// `go`, `opp` or `state` (`cmd`) in a Super-Nim game. A refused command leaves
/// the game as it was.
pub(super) fn supernim(
    cmd: &[u8],
    game: &mut sn::Game,
    bot: Player,
    words: &mut Words<'_>,
    out: &mut Out,
) -> Result<(), Error> {
    match cmd {
        b"go" => words.end().and_then(|()| {
            let mut next = game.clone();
            sn_go(&mut next, bot, out)?;
            *game = next;
            Ok(())
        }),
        b"opp" => sn_opp(game, bot, words, out),
        _ => words.end().map(|()| sn_state(game, bot, out)),
    }
}

/// `new fibonacci STONES first|second`, after the word `fibonacci`.
pub(super) fn new_fibonacci(words: &mut Words<'_>) -> Result<ActiveGame, Error> {
    const USAGE: Error = Error::Msg(text!("usage: new fibonacci STONES first|second"));
    let stones = words.number().map_err(|e| e.or(USAGE))?;
    let seat = seat(words).ok_or(USAGE)?;
    words.end()?;
    let game = fib::Game::new(u64::from(stones)).map_err(|e| Error::Msg(e.text()))?;
    Ok(ActiveGame::Fibonacci(game, seat))
}

/// `new supernim H1,H2,... first|second [cap C] [heaps K]`, after the word
/// `supernim`: the cap (moves, default [`SUPERNIM_MOVE_LIMIT`]) and the most heaps
/// a position may hold (default and at most [`MAX_HEAPS`]; a host plays a board's
/// game with `heaps 12`).
pub(super) fn new_supernim(words: &mut Words<'_>) -> Result<ActiveGame, Error> {
    const USAGE: Error = Error::Msg(text!(
        "usage: new supernim H1,H2,... first|second [cap C] [heaps K]"
    ));
    let list = words.next().ok_or(USAGE)?;
    let seat = seat(words).ok_or(USAGE)?;
    let mut cap = SUPERNIM_MOVE_LIMIT;
    let mut limit = MAX_HEAPS as u32;
    while let Some(word) = words.next() {
        let slot = match word {
            b"cap" => &mut cap,
            b"heaps" => &mut limit,
            _ => return Err(USAGE),
        };
        *slot = words.number().map_err(|e| e.or(USAGE))?;
    }
    // A line holds at most MAX_LINE / 2 heaps ("1,1,...").
    let mut sizes = [0u32; if MAX_HEAPS < MAX_LINE / 2 {
        MAX_HEAPS
    } else {
        MAX_LINE / 2
    }];
    let mut count = 0usize;
    for item in list.split(|b| *b == b',') {
        let n = parse_u32(item).ok_or(Error::BadNumber)?;
        let slot = sizes
            .get_mut(count)
            .ok_or(Error::Msg(sn::Error::TooManyHeaps.text()))?;
        *slot = n;
        count += 1;
    }
    let heaps = Heaps::new(sizes.get(..count).unwrap_or(&[]))
        .and_then(|h| h.with_limit(limit as usize))
        .map_err(sn_error)?;
    let game = sn::Game::new(heaps, cap).map_err(sn_error)?;
    Ok(ActiveGame::SuperNim(game, seat))
}

fn seat(words: &mut Words<'_>) -> Option<Player> {
    match words.next()? {
        b"first" => Some(Player::First),
        b"second" => Some(Player::Second),
        _ => None,
    }
}

/// A refused Fibonacci Nim move: a take out of range as an illegal move with its
/// numbers (written to `out`), the others by their text.
#[inline]
fn fib_error(e: fib::Error, out: &mut Out) -> Error {
    match e {
        fib::Error::BadTake { take, limit } => out.illegal(IllegalMove::BadTake {
            take: u32::try_from(take).unwrap_or(u32::MAX),
            limit: u32::try_from(limit).unwrap_or(u32::MAX),
        }),
        other => Error::Msg(other.text()),
    }
}

fn sn_error(e: sn::Error) -> Error {
    Error::Msg(e.text())
}

/// Whose turn it is (or the result), from the bot's side.
fn turn_word(over: Option<Option<Player>>, to_move: Player, bot: Player) -> Text {
    match_text!(over, {
        Some(Some(p)) if p == bot => "won",
        Some(Some(_)) => "lost",
        Some(None) => "draw",
        None if to_move == bot => "bot",
        None => "opponent",
    })
}

fn check_turn(over: bool, to_move: Player, bot: Player, want_bot: bool) -> Result<(), Error> {
    if over {
        return Err(Error::Msg(text!("the game is over")));
    }
    match (to_move == bot, want_bot) {
        (true, false) => Err(Error::Msg(text!(
            "out of turn: the bot is to move (send go)"
        ))),
        (false, true) => Err(Error::Msg(text!(
            "out of turn: the opponent is to move (send opp)"
        ))),
        _ => Ok(()),
    }
}

fn fib_go(game: &mut fib::Game, bot: Player, out: &mut Out) -> Result<(), Error> {
    check_turn(game.winner().is_some(), game.to_move(), bot, true)?;
    let decision = game.decide().ok_or(Error::Msg(text!("the game is over")))?;
    let outcome = game
        .play(bot, decision.take)
        .map_err(|e| fib_error(e, out))?;
    out.text(text!("move "));
    out.num(decision.take);
    if outcome == fib::Outcome::Won(bot) {
        out.text(text!(" won"));
    }
    Ok(())
}

fn fib_opp(
    game: &mut fib::Game,
    bot: Player,
    words: &mut Words<'_>,
    out: &mut Out,
) -> Result<(), Error> {
    const USAGE: Error = Error::Msg(text!("usage: opp TAKE"));
    let take = words.number().map_err(|e| e.or(USAGE))?;
    words.end()?;
    check_turn(game.winner().is_some(), game.to_move(), bot, false)?;
    let mut next = *game;
    match next
        .play(bot.other(), u64::from(take))
        .map_err(|e| fib_error(e, out))?
    {
        fib::Outcome::Won(_) => out.text(text!("lost")),
        fib::Outcome::Continue => fib_go(&mut next, bot, out)?,
    }
    *game = next;
    Ok(())
}

fn fib_state(game: &fib::Game, bot: Player, out: &mut Out) {
    out.text(text!("state fibonacci stones "));
    out.num(game.stones());
    out.text(text!(" limit "));
    out.num(game.limit());
    out.text(text!(" turn "));
    let over = game.winner().map(Some);
    out.text(turn_word(over, game.to_move(), bot));
}

fn sn_over(game: &sn::Game) -> Option<Option<Player>> {
    game.verdict().map(|v| match v {
        sn::Verdict::Winner(p) => Some(p),
        sn::Verdict::Draw => None,
    })
}

/// ` over won|lost|draw` once the game has ended.
fn sn_result(game: &sn::Game, bot: Player, out: &mut Out) {
    if let Some(over) = sn_over(game) {
        out.text(text!("over "));
        out.text(turn_word(Some(over), game.to_move(), bot));
    }
}

fn sn_go(game: &mut sn::Game, bot: Player, out: &mut Out) -> Result<(), Error> {
    check_turn(game.end().is_some(), game.to_move(), bot, true)?;
    let mv = sn::decide(game, SUPERNIM_NODE_BUDGET)
        .mv
        .ok_or(Error::Msg(text!("no move")))?;
    let outcome = game.play(bot, mv).map_err(sn_error)?;
    out.text(text!("move "));
    out.sn_move(mv);
    if let sn::Outcome::Over(_) = outcome {
        out.text(text!(" "));
        sn_result(game, bot, out);
    }
    Ok(())
}

fn sn_opp(
    game: &mut sn::Game,
    bot: Player,
    words: &mut Words<'_>,
    out: &mut Out,
) -> Result<(), Error> {
    const USAGE: Error = Error::Msg(text!("usage: opp merge A B | opp grow A | opp split A"));
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
    check_turn(game.end().is_some(), game.to_move(), bot, false)?;
    let mut next = game.clone();
    match next.play(bot.other(), mv).map_err(sn_error)? {
        sn::Outcome::Over(_) => sn_result(&next, bot, out),
        sn::Outcome::Continue => sn_go(&mut next, bot, out)?,
    }
    *game = next;
    Ok(())
}

fn sn_state(game: &sn::Game, bot: Player, out: &mut Out) {
    out.text(text!("state supernim heaps "));
    for (i, &h) in game.heaps().sizes().iter().enumerate() {
        if i > 0 {
            out.text(text!(","));
        }
        out.num(u32::from(h));
    }
    if game.heaps().is_empty() {
        out.text(text!("-"));
    }
    out.text(text!(" score "));
    out.num(game.score(bot));
    out.text(text!(" "));
    out.num(game.score(bot.other()));
    out.text(text!(" turn "));
    out.text(turn_word(sn_over(game), game.to_move(), bot));
}

impl Out {
    fn sn_move(&mut self, mv: sn::Move) {
        match mv {
            sn::Move::Merge { from, onto } => {
                self.text(text!("merge "));
                self.num(u32::from(from));
                self.text(text!(" "));
                self.num(u32::from(onto));
            }
            sn::Move::Grow(n) => {
                self.text(text!("grow "));
                self.num(u32::from(n));
            }
            sn::Move::Split(n) => {
                self.text(text!("split "));
                self.num(u32::from(n));
            }
        }
    }
}
