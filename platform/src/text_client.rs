//! Playing through the stock `exp-nim` text client, as a state machine with no I/O.
//!
//! `exp-nim` joins the game itself and talks to the bot in text (docs/tournament.md): it
//! writes `Please enter your move: ` with no newline when it wants a move, and the bot
//! answers one line `K F`. After each move it prints `You took K stones.` or
//! `Opponent took K stones.` (with ` and used reset` before the dot when a reset was
//! used), `Current max: X`, `Stones left: S` and a line of dashes; at the end
//! `Game over` and the reason. The host feeds every byte of its stdin to
//! [`TextClient::feed`] and writes what [`TextAction::Send`] returns to its stdout.
//!
//! Lines it does not know are ignored (copies print banners and reset counts);
//! `Current max` is ignored because its meaning varies. The first player must be
//! told N on its command line; the second derives N from the first
//! `Opponent took K` and `Stones left: S` (N = S + K). The game is tracked in a
//! [`Game`] and `Stones left` is checked against it.

use heapless::Vec;

use super::json::Writer;
use super::wire::lines::{self, after_prefix, took, trim, Line, Mover};
use super::wire::{GameResult, Reason};
use nimbot::{
    bot_move,
    text::{parse_u32, Decimal},
    DecideError, Engine, Game, Move, MoveError, Outcome, ParamError, Params, Player, Policy,
};

/// Longest line kept; longer lines are ignored whole.
pub const MAX_TEXT_LINE: usize = 256;
pub use super::wire::lines::PROMPT;

/// One answer line, `K F\n`.
pub type Answer = Vec<u8, 16>;

/// What the host does after a byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextAction {
    /// Nothing yet.
    None,
    /// Write this line (the bot's move) and flush.
    Send(Answer),
    /// The game is over.
    Finished(GameResult),
}

/// Why the text client gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextError {
    /// Bad parameters (given, or derived for the second seat).
    Params(ParamError),
    /// The first seat needs N on the command line.
    NoStones,
    /// The engine cannot play this game.
    Engine(DecideError),
    /// The bot has no move to send (the engine failed or proposed an illegal move,
    /// which is never sent).
    Move(MoveError),
    /// What `exp-nim` printed contradicts the tracked game.
    Mismatch(&'static str),
    /// `exp-nim` rejected our move line.
    Rejected,
    /// The input ended before the game did.
    Eof,
}

nimbot::error_from_as_str!(TextError);

impl TextError {
    /// A short, static description.
    pub const fn as_str(self) -> &'static str {
        match self {
            TextError::Params(e) => e.as_str(),
            TextError::NoStones => "the first seat needs --stones N",
            TextError::Engine(e) => e.as_str(),
            TextError::Move(e) => e.as_str(),
            TextError::Mismatch(m) => m,
            TextError::Rejected => "exp-nim rejected our move",
            TextError::Eof => "input ended before the game did (no result)",
        }
    }
}

/// The bot's side of one game through `exp-nim`.
#[derive(Clone, Debug)]
pub struct TextClient {
    seat: Player,
    stones: Option<u32>,
    resets: u8,
    init_max: u32,
    game: Option<Game>,
    line: Vec<u8, MAX_TEXT_LINE>,
    overlong: bool,
    /// The opponent's first move, seen before N is known (second seat).
    first_opp: Option<Move>,
    sent: Option<Move>,
    over: bool,
    result: Option<GameResult>,
    policy: Policy,
}

impl TextClient {
    /// A client for `seat` in a game of `stones` (required for the first seat; checked
    /// when given for the second), `resets` and `init_max`.
    pub fn new(
        seat: Player,
        stones: Option<u32>,
        resets: u8,
        init_max: u32,
    ) -> Result<Self, TextError> {
        let game = match (seat, stones) {
            (Player::First, None) => return Err(TextError::NoStones),
            (Player::First, Some(n)) => Some(Game::new(
                Params::new(n, resets, init_max).map_err(TextError::Params)?,
            )),
            (Player::Second, n) => {
                // Validate what we can now; N comes later.
                Params::new(n.unwrap_or(1), resets, init_max).map_err(TextError::Params)?;
                None
            }
        };
        Ok(TextClient {
            seat,
            stones,
            resets,
            init_max,
            game,
            line: Vec::new(),
            overlong: false,
            first_opp: None,
            sent: None,
            over: false,
            result: None,
            policy: Policy::default(),
        })
    }

    /// The same client, moving by `policy` in lost positions.
    pub fn with_policy(self, policy: Policy) -> Self {
        TextClient { policy, ..self }
    }

    /// Get the engine ready when the game is known from the start (first seat).
    pub fn prepare<E: Engine + ?Sized>(&self, engine: &mut E) -> Result<(), TextError> {
        match &self.game {
            Some(g) => engine.prepare(&g.params()).map_err(TextError::Engine),
            None => Ok(()),
        }
    }

    /// The game as tracked so far.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The result once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Feed one byte of `exp-nim`'s output.
    pub fn feed<E: Engine + ?Sized>(
        &mut self,
        b: u8,
        engine: &mut E,
    ) -> Result<TextAction, TextError> {
        if let Some(r) = self.result {
            return Ok(TextAction::Finished(r));
        }
        if b == b'\n' {
            let overlong = self.overlong;
            self.overlong = false;
            let line = core::mem::take(&mut self.line);
            if overlong {
                return Ok(TextAction::None);
            }
            return self.on_line(trim(&line), engine);
        }
        if self.line.push(b).is_err() {
            self.overlong = true;
            self.line.clear();
            return Ok(TextAction::None);
        }
        if !self.overlong && self.line.ends_with(PROMPT) {
            self.line.clear();
            return self.on_prompt(engine);
        }
        Ok(TextAction::None)
    }

    /// The input ended: the result if the game is decided, else [`TextError::Eof`].
    pub fn end_of_input(&mut self) -> Result<GameResult, TextError> {
        if let Some(r) = self.result {
            return Ok(r);
        }
        if self.over || self.game.is_some_and(|g| g.winner().is_some()) {
            return self.finish(Reason::Unknown);
        }
        Err(TextError::Eof)
    }

    fn on_prompt<E: Engine + ?Sized>(&mut self, engine: &mut E) -> Result<TextAction, TextError> {
        let game = self
            .game
            .ok_or(TextError::Mismatch("prompt before the game is known"))?;
        if self.sent.is_some() {
            return Err(TextError::Rejected);
        }
        if game.winner().is_some() || game.to_move() != self.seat {
            return Err(TextError::Mismatch("prompt when it is not our turn"));
        }
        let mv = bot_move(engine, self.policy, &game, self.seat).map_err(TextError::Move)?;
        self.sent = Some(mv);
        // At most ten digits and ` 1\n`: the answer always fits.
        let mut answer = Answer::new();
        let _ = answer.extend_from_slice(&Decimal::new(mv.take));
        let _ = answer.extend_from_slice(if mv.reset { b" 1\n" } else { b" 0\n" });
        Ok(TextAction::Send(answer))
    }

    fn on_line<E: Engine + ?Sized>(
        &mut self,
        line: &[u8],
        engine: &mut E,
    ) -> Result<TextAction, TextError> {
        if line.is_empty() {
            return Ok(TextAction::None);
        }
        if self.over {
            let r = self.finish(Reason::classify(line))?;
            return Ok(TextAction::Finished(r));
        }
        if line == trim(PROMPT) {
            return self.on_prompt(engine);
        }
        if line == lines::GAME_OVER || line == lines::GAME_OVER_BANG {
            self.over = true;
            return Ok(TextAction::None);
        }
        if line.starts_with(lines::INVALID.get(..12).unwrap_or(lines::INVALID)) {
            return Err(TextError::Rejected);
        }
        if let Some(rest) = after_prefix(line, lines::YOU_TOOK) {
            let mv = took(rest).ok_or(TextError::Mismatch("unreadable move line"))?;
            if self.sent != Some(mv) {
                return Err(TextError::Mismatch(
                    "exp-nim reports a move we did not send",
                ));
            }
            self.sent = None;
            self.play(self.seat, mv)?;
            return Ok(TextAction::None);
        }
        if let Some(rest) = after_prefix(line, lines::OPPONENT_TOOK) {
            let mv = took(rest).ok_or(TextError::Mismatch("unreadable move line"))?;
            if self.game.is_none() {
                if self.first_opp.is_some() {
                    return Err(TextError::Mismatch("two opponent moves before Stones left"));
                }
                self.first_opp = Some(mv);
                return Ok(TextAction::None);
            }
            self.play(self.seat.other(), mv)?;
            return Ok(TextAction::None);
        }
        if let Some(rest) = after_prefix(line, lines::STONES_LEFT) {
            let left = parse_u32(trim(rest)).ok_or(TextError::Mismatch("unreadable stones"))?;
            if let (None, Some(mv)) = (self.game, self.first_opp.take()) {
                let n = left
                    .checked_add(mv.take)
                    .ok_or(TextError::Mismatch("pile too large"))?;
                if self.stones.is_some_and(|given| given != n) {
                    return Err(TextError::Mismatch("N differs from --stones"));
                }
                let params =
                    Params::new(n, self.resets, self.init_max).map_err(TextError::Params)?;
                engine.prepare(&params).map_err(TextError::Engine)?;
                self.game = Some(Game::new(params));
                self.play(Player::First, mv)?;
            }
            let game = self
                .game
                .ok_or(TextError::Mismatch("stones before any move"))?;
            if game.stones() != left {
                return Err(TextError::Mismatch("Stones left differs from the moves"));
            }
            return Ok(TextAction::None);
        }
        Ok(TextAction::None)
    }

    fn play(&mut self, who: Player, mv: Move) -> Result<Outcome, TextError> {
        let game = self
            .game
            .as_mut()
            .ok_or(TextError::Mismatch("move before the game is known"))?;
        game.play(who, mv)
            .map_err(|_| TextError::Mismatch("exp-nim reports an illegal move"))
    }

    fn finish(&mut self, mut reason: Reason) -> Result<GameResult, TextError> {
        let mut game = self
            .game
            .ok_or(TextError::Mismatch("game over before any move"))?;
        if game.winner().is_none() && reason == Reason::Won {
            // The winning move may be announced only by the reason line.
            if let Some(mv) = self.sent.take() {
                let _ = game.play(self.seat, mv);
            }
        }
        let winner = match game.winner() {
            Some(w) => {
                reason = Reason::Won;
                w
            }
            None => {
                let mover = if self.sent.is_some() {
                    self.seat
                } else {
                    game.to_move()
                };
                reason
                    .fault_winner(mover)
                    .ok_or(TextError::Mismatch("game over but the winner is unknown"))?
            }
        };
        let r = GameResult::new(winner, self.seat, reason, game.moves());
        self.game = Some(game);
        self.result = Some(r);
        Ok(r)
    }
}

/// Room for one move report of [`move_report`].
pub const MAX_REPORT: usize = 128;

/// What `exp-nim` writes after a move: `You took K stones.` (or `Opponent took`,
/// with ` and used reset` before the dot), `Current max: X`, `Stones left: S` and a
/// line of 39 dashes, each line ended. The other end of [`TextClient`], for a host
/// that is the text client of a bot (the tournament's `text:` bots).
pub fn move_report(
    yours: bool,
    mv: Move,
    current_max: u32,
    stones_left: u32,
) -> Vec<u8, MAX_REPORT> {
    let who = if yours { Mover::You } else { Mover::Opponent };
    let mut w = Writer::<MAX_REPORT>::new();
    lines::record(&mut w, who, mv, current_max, stones_left);
    // Three u32 and fixed words fit in MAX_REPORT.
    w.finish().unwrap_or_default()
}

/// What `exp-nim` writes for an answer it cannot read (then the prompt again).
pub fn invalid() -> Vec<u8, 32> {
    line_text(Line::Invalid)
}

/// What `exp-nim` writes at the end, before the reason line: `Game over`.
pub fn game_over() -> Vec<u8, 32> {
    line_text(Line::GameOver)
}

fn line_text(line: Line<'_>) -> Vec<u8, 32> {
    let mut w = Writer::<32>::new();
    line.emit(&mut w);
    w.finish().unwrap_or_default()
}

/// A bot's answer line `K F` as `exp-nim` reads it: K stones, F a reset when it
/// is a non-zero integer; `None` for a line it answers with `Invalid move string`.
pub fn parse_answer(line: &[u8]) -> Option<Move> {
    let mut words = line
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty());
    let take = parse_u32(words.next()?)?;
    let reset = parse_u32(words.next()?)? != 0;
    Some(Move::new(take, reset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::take_one::TakeOne;

    #[test]
    fn what_the_writer_writes_the_reader_reads() {
        let mut c = TextClient::new(Player::Second, None, 1, 3).unwrap();
        let mut text = std::vec::Vec::new();
        text.extend_from_slice(&move_report(false, Move::new(2, true), 3, 5));
        text.extend_from_slice(PROMPT);
        let acts = run(&mut c, core::str::from_utf8(&text).unwrap());
        assert_eq!(acts, [TextAction::Send(Vec::from_slice(b"1 0\n").unwrap())]);
        assert_eq!(c.game().unwrap().params().stones(), 7);
        let ans = parse_answer(b"1 0\n").unwrap();
        assert_eq!(ans, Move::new(1, false));
        assert_eq!(parse_answer(b"3 1"), Some(Move::new(3, true)));
        assert_eq!(parse_answer(b"3"), None);
        assert_eq!(parse_answer(b"x 0"), None);
        let report = move_report(true, ans, 3, 4);
        assert_eq!(
            core::str::from_utf8(&report).unwrap(),
            "You took 1 stones.\nCurrent max: 3\nStones left: 4\n---------------------------------------\n"
        );
    }

    fn run(c: &mut TextClient, text: &str) -> std::vec::Vec<TextAction> {
        text.bytes()
            .map(|b| c.feed(b, &mut TakeOne { reset: false }).unwrap())
            .filter(|a| *a != TextAction::None)
            .collect()
    }

    #[test]
    fn second_seat_derives_n_and_finishes() {
        let mut c = TextClient::new(Player::Second, None, 1, 3).unwrap();
        let acts = run(
            &mut c,
            "Game mode\nGood luck have fun!\nOpponent took 2 stones and used reset.\nCurrent max: 3\n\
             Stones left: 2\nPlayer x has 0 resets left\n----------\nPlease enter your move: ",
        );
        assert_eq!(acts, [TextAction::Send(Vec::from_slice(b"1 0\n").unwrap())]);
        assert_eq!(c.game().unwrap().params().stones(), 4);
        let acts = run(
            &mut c,
            "You took 1 stones.\nCurrent max: 3\nStones left: 1\n-----\n\
             Opponent took 1 stones.\nCurrent max: 3\nStones left: 0\n-----\nGame over\n\
             Player x won the game! Congrats!\n",
        );
        let [TextAction::Finished(r)] = acts[..] else {
            panic!("{acts:?}")
        };
        assert!(!r.won && r.reason == Reason::Won && r.moves == 3);
    }

    #[test]
    fn first_seat_and_errors() {
        assert_eq!(
            TextClient::new(Player::First, None, 1, 3).err(),
            Some(TextError::NoStones)
        );
        let mut c = TextClient::new(Player::First, Some(5), 1, 3).unwrap();
        assert_eq!(run(&mut c, "Please enter your move:\n").len(), 1);
        assert_eq!(c.clone().end_of_input(), Err(TextError::Eof));
        assert_eq!(
            "Invalid move string\n"
                .bytes()
                .try_for_each(|b| c.feed(b, &mut TakeOne { reset: false }).map(|_| ())),
            Err(TextError::Rejected)
        );
        let mut c = TextClient::new(Player::First, Some(5), 1, 3).unwrap();
        run(
            &mut c,
            "Please enter your move: You took 1 stones.\nStones left: 4\n",
        );
        let mut d = c.clone();
        assert_eq!(
            "Stones left: 3\n"
                .bytes()
                .try_for_each(|b| d.feed(b, &mut TakeOne { reset: false }).map(|_| ())),
            Err(TextError::Mismatch("Stones left differs from the moves"))
        );
        let acts = run(&mut c, "Game over\nPlayer y exceeded time limit\n");
        let [TextAction::Finished(r)] = acts[..] else {
            panic!("{acts:?}")
        };
        assert!(r.won && r.reason == Reason::TimeLimit);
    }
}
