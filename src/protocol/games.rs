//! The related games on the line protocol: Fibonacci Nim and Super-Nim.
//!
//! A game of either kind starts with `new fibonacci ...` or `new supernim ...`; while
//! it is in progress `go`, `opp`, `state` and `end` belong to it, everything else
//! (and every other `new`) is handled as before by [`Session`](super::Session).
//! Kept in its own module so the Expanding Nim protocol stays as it was.

use super::{parse_u32, Error, Out, Words};
use crate::fibonacci::{FibError, FibGame, FibOutcome};
use crate::rules::{IllegalMove, Player};
use crate::supernim::{
    sn_decide, Heaps, SnError, SnGame, SnMove, SnOutcome, SnVerdict, DEFAULT_NODE_BUDGET, MAX_HEAPS,
};

/// Move limit of a Super-Nim game on the protocol; it then ends on points.
pub const SUPERNIM_MOVE_LIMIT: u32 = 200;
/// The Super-Nim player's node budget per move on the protocol.
pub const SUPERNIM_NODE_BUDGET: u32 = DEFAULT_NODE_BUDGET;

/// A game of one of the related kinds, with the bot's seat.
#[derive(Debug, Default)]
pub(super) enum OtherGame {
    /// None in progress: the session handles the command.
    #[default]
    None,
    Fibonacci(FibGame, Player),
    SuperNim(SnGame, Player),
}

impl OtherGame {
    /// Handle `cmd` if it belongs to a related game: a `new` naming one, or `go`,
    /// `opp`, `state`, `end` while one is in progress. `None`: not ours.
    pub(super) fn handle(
        &mut self,
        cmd: &[u8],
        words: &mut Words<'_>,
        out: &mut Out,
    ) -> Option<Result<(), Error>> {
        if cmd == b"new" {
            let mut ahead = words.clone();
            return match ahead.next() {
                Some(b"fibonacci") => Some(self.new_fibonacci(&mut ahead, out)),
                Some(b"supernim") => Some(self.new_supernim(&mut ahead, out)),
                _ => None,
            };
        }
        let result = match (cmd, &mut *self) {
            (_, OtherGame::None) => return None,
            (b"end", game) => words.end().map(|()| {
                *game = OtherGame::None;
                out.str("ok");
            }),
            (b"go", OtherGame::Fibonacci(g, bot)) => words.end().and_then(|()| {
                let mut next = *g;
                fib_go(&mut next, *bot, out)?;
                *g = next;
                Ok(())
            }),
            (b"opp", OtherGame::Fibonacci(g, bot)) => fib_opp(g, *bot, words, out),
            (b"state", OtherGame::Fibonacci(g, bot)) => {
                words.end().map(|()| fib_state(g, *bot, out))
            }
            (b"go", OtherGame::SuperNim(g, bot)) => words.end().and_then(|()| {
                let mut next = g.clone();
                sn_go(&mut next, *bot, out)?;
                *g = next;
                Ok(())
            }),
            (b"opp", OtherGame::SuperNim(g, bot)) => sn_opp(g, *bot, words, out),
            (b"state", OtherGame::SuperNim(g, bot)) => words.end().map(|()| sn_state(g, *bot, out)),
            _ => return None,
        };
        Some(result)
    }

    fn new_fibonacci(&mut self, words: &mut Words<'_>, out: &mut Out) -> Result<(), Error> {
        const USAGE: Error = Error::Msg("usage: new fibonacci STONES first|second");
        let stones = words.number().map_err(|e| e.or(USAGE))?;
        let seat = seat(words).ok_or(USAGE)?;
        words.end()?;
        let game = FibGame::new(u64::from(stones)).map_err(fib_error)?;
        *self = OtherGame::Fibonacci(game, seat);
        out.str("ok");
        Ok(())
    }

    fn new_supernim(&mut self, words: &mut Words<'_>, out: &mut Out) -> Result<(), Error> {
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
                .ok_or(Error::Msg(SnError::TooManyHeaps.as_str()))?;
            *slot = n;
            count += 1;
        }
        let heaps = Heaps::new(sizes.get(..count).unwrap_or(&[])).map_err(sn_error)?;
        let game = SnGame::new(heaps, SUPERNIM_MOVE_LIMIT).map_err(sn_error)?;
        *self = OtherGame::SuperNim(game, seat);
        out.str("ok");
        Ok(())
    }
}

fn seat(words: &mut Words<'_>) -> Option<Player> {
    match words.next()? {
        b"first" => Some(Player::First),
        b"second" => Some(Player::Second),
        _ => None,
    }
}

fn fib_error(e: FibError) -> Error {
    match e {
        FibError::BadTake { take, limit } => Error::Illegal(IllegalMove::BadTake {
            take: u32::try_from(take).unwrap_or(u32::MAX),
            limit: u32::try_from(limit).unwrap_or(u32::MAX),
        }),
        other => Error::Msg(other.as_str()),
    }
}

fn sn_error(e: SnError) -> Error {
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

fn check_turn(over: bool, to_move: Player, bot: Player, want_bot: bool) -> Result<(), Error> {
    if over {
        return Err(Error::Msg("the game is over"));
    }
    match (to_move == bot, want_bot) {
        (true, false) => Err(Error::Msg("out of turn: the bot is to move (send go)")),
        (false, true) => Err(Error::Msg(
            "out of turn: the opponent is to move (send opp)",
        )),
        _ => Ok(()),
    }
}

fn fib_go(game: &mut FibGame, bot: Player, out: &mut Out) -> Result<(), Error> {
    check_turn(game.winner().is_some(), game.to_move(), bot, true)?;
    let decision = game.decide().ok_or(Error::Msg("the game is over"))?;
    let outcome = game.play(bot, decision.take).map_err(fib_error)?;
    out.str("move ");
    out.num64(decision.take);
    if outcome == FibOutcome::Won(bot) {
        out.str(" won");
    }
    Ok(())
}

fn fib_opp(
    game: &mut FibGame,
    bot: Player,
    words: &mut Words<'_>,
    out: &mut Out,
) -> Result<(), Error> {
    const USAGE: Error = Error::Msg("usage: opp TAKE");
    let take = words.number().map_err(|e| e.or(USAGE))?;
    words.end()?;
    check_turn(game.winner().is_some(), game.to_move(), bot, false)?;
    let mut next = *game;
    match next.play(bot.other(), u64::from(take)).map_err(fib_error)? {
        FibOutcome::Won(_) => out.str("lost"),
        FibOutcome::Continue => fib_go(&mut next, bot, out)?,
    }
    *game = next;
    Ok(())
}

fn fib_state(game: &FibGame, bot: Player, out: &mut Out) {
    out.str("state fibonacci stones ");
    out.num64(game.stones());
    out.str(" limit ");
    out.num64(game.limit());
    out.str(" turn ");
    let over = game.winner().map(Some);
    out.str(turn_word(over, game.to_move(), bot));
}

fn sn_over(game: &SnGame) -> Option<Option<Player>> {
    game.verdict().map(|v| match v {
        SnVerdict::Winner(p) => Some(p),
        SnVerdict::Draw => None,
    })
}

/// ` over won|lost|draw` once the game has ended.
fn sn_result(game: &SnGame, bot: Player, out: &mut Out) {
    if let Some(over) = sn_over(game) {
        out.str("over ");
        out.str(turn_word(Some(over), game.to_move(), bot));
    }
}

fn sn_go(game: &mut SnGame, bot: Player, out: &mut Out) -> Result<(), Error> {
    check_turn(game.end().is_some(), game.to_move(), bot, true)?;
    let mv = sn_decide(game, SUPERNIM_NODE_BUDGET)
        .mv
        .ok_or(Error::Msg("no move"))?;
    let outcome = game.play(bot, mv).map_err(sn_error)?;
    out.str("move ");
    out.sn_move(mv);
    if let SnOutcome::Over(_) = outcome {
        out.str(" ");
        sn_result(game, bot, out);
    }
    Ok(())
}

fn sn_opp(
    game: &mut SnGame,
    bot: Player,
    words: &mut Words<'_>,
    out: &mut Out,
) -> Result<(), Error> {
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
            SnMove::Merge { from, onto }
        }
        b"grow" => SnMove::Grow(size()?),
        b"split" => SnMove::Split(size()?),
        _ => return Err(USAGE),
    };
    words.end()?;
    check_turn(game.end().is_some(), game.to_move(), bot, false)?;
    let mut next = game.clone();
    match next.play(bot.other(), mv).map_err(sn_error)? {
        SnOutcome::Over(_) => sn_result(&next, bot, out),
        SnOutcome::Continue => sn_go(&mut next, bot, out)?,
    }
    *game = next;
    Ok(())
}

fn sn_state(game: &SnGame, bot: Player, out: &mut Out) {
    out.str("state supernim heaps ");
    for (i, &h) in game.heaps().sizes().iter().enumerate() {
        if i > 0 {
            out.str(",");
        }
        out.num(u32::from(h));
    }
    if game.heaps().is_empty() {
        out.str("-");
    }
    out.str(" score ");
    out.num(game.score(bot));
    out.str(" ");
    out.num(game.score(bot.other()));
    out.str(" turn ");
    out.str(turn_word(sn_over(game), game.to_move(), bot));
}

impl Out {
    /// A `u64` in decimal.
    fn num64(&mut self, n: u64) {
        let high = n / 1_000_000_000;
        let low = (n % 1_000_000_000) as u32;
        if high == 0 {
            self.num(low);
            return;
        }
        self.num64(high);
        // The low nine digits, zero-padded.
        let mut digits = [b'0'; 9];
        let mut rest = low;
        for d in digits.iter_mut().rev() {
            *d = b'0' + (rest % 10) as u8;
            rest /= 10;
        }
        for &d in &digits {
            let _ = self.0.push(d);
        }
    }

    fn sn_move(&mut self, mv: SnMove) {
        match mv {
            SnMove::Merge { from, onto } => {
                self.str("merge ");
                self.num(u32::from(from));
                self.str(" ");
                self.num(u32::from(onto));
            }
            SnMove::Grow(n) => {
                self.str("grow ");
                self.num(u32::from(n));
            }
            SnMove::Split(n) => {
                self.str("split ");
                self.num(u32::from(n));
            }
        }
    }
}
