//! The line protocol: one command per line in, exactly one reply line out.
//!
//! Defined once here and spoken by every adapter: the host binary on stdin/stdout,
//! firmware on a UART, the tiny static binary. It runs over any `embedded-io`
//! [`Read`]/[`Write`] pair with fixed buffers; nothing in it allocates or panics.
//!
//! Its grammar is [`grammar`]: every command and reply as a type, with one parser
//! and one writer each (docs/protocol.md explains it; its summary, `GRAMMAR`, is
//! what `nimbot serial --help` prints). In short: one command per line of at most
//! [`MAX_LINE`] bytes, `new`, `go`, `opp`, `query`, `moves`, `state`, `end`, `policy`,
//! `version`, `limits`, `help`; with the `related-games` feature, Fibonacci Nim and
//! Super-Nim games ([`ActiveGame`]) start with their own `new`. Any bad input gets
//! one `error <reason>` line and changes nothing.
//!
//! # Example
//! A board's whole loop, here over byte slices instead of a UART's two halves:
//! ```
//! use nimbot::{Table, TableEngine};
//! use nimbot_protocol::{serve, Session};
//!
//! // Any table made by `nimbot-table generate`, embedded in your own crate.
//! static TABLE: &[u8] = include_bytes!("../../table/default.nimt");
//!
//! let table = Table::from_bytes(TABLE)?;
//! let mut session = Session::new(TableEngine::new(table));
//! let mut uart_rx: &[u8] = b"new 8 0 3 first\ngo\nopp 3 0\n";
//! let mut buf = [0u8; 64];
//! let mut uart_tx: &mut [u8] = &mut buf;
//! serve(&mut session, &mut uart_rx, &mut uart_tx)?;
//! let sent = 64 - uart_tx.len();
//! // 8 stones, no resets, limit 3: taking 1 wins (see docs/rules.md); after the
//! // opponent takes 3, the bot may take all 4.
//! assert_eq!(&buf[..sent], b"ok\nmove 1 0\nmove 4 0 won\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Cargo features
//! - `related-games`: Fibonacci Nim and Super-Nim on the line protocol (protocol
//!   version 2; without it the protocol speaks Expanding Nim only, version 1).
//! - `async`: `serve_async` over `embedded-io-async`.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The unit tests print and collect with the standard library; the crate never does.
#[cfg(test)]
extern crate std;

use embedded_io::{Read, Write};
#[cfg(feature = "async")]
use embedded_io_async::{Read as AsyncRead, Write as AsyncWrite};
use heapless::Vec;

use nimbot::engine::{bot_move, Engine, MoveError};
#[cfg(feature = "related-games")]
use nimbot::fibonacci as fib;
use nimbot::num::{parse_u32, Decimal};
use nimbot::policy::Policy;
#[cfg(not(target_arch = "avr"))]
use nimbot::probe::{evaluate_move, root_moves};
use nimbot::rules::{Game, IllegalMove, Move, Outcome, Params, Player, Position};
use nimbot::strategy::DecideError;
#[cfg(feature = "related-games")]
use nimbot::supernim as sn;
use nimbot::text::{match_text, text, Text};

#[cfg(feature = "related-games")]
mod games;
pub mod grammar;
#[cfg(feature = "related-games")]
pub use games::SUPERNIM_MOVE_LIMIT;
pub use grammar::BANNER;

/// Longest accepted command line, in bytes, without its line ending.
pub const MAX_LINE: usize = 80;
/// Longest reply line, in bytes, without its line ending.
pub const MAX_REPLY: usize = 120;
/// The protocol's version, reported by `version`.
///
/// 1: Expanding Nim only. 2: also Fibonacci Nim and Super-Nim (`new fibonacci`,
/// `new supernim`), which builds without the `related-games` feature leave out (the
/// tiny binary, to stay small): they speak version 1.
const PROTOCOL_VERSION: u32 = if cfg!(feature = "related-games") {
    2
} else {
    1
};
/// M assumed by `query` when no game sets it and the engine accepts any M.
const DEFAULT_INIT_MAX: u32 = 3;

/// The line grammar in brief, one command a line with its reply: what `nimbot
/// serial --help` prints (docs/protocol.md explains it). Checked against
/// [`grammar::COMMANDS`] by a test (tests/grammar.rs).
pub const GRAMMAR: &str = concat!(
    "\
new N R M first|second               -> ok
go                                   -> move K F [won]
opp K F                              -> move K F [won] | lost
query S C A B F                      -> win|lose K F D
moves S C A B F [I]                  -> moves win|lose D K[r]:w|lD ... [more I]
state                                -> state stones S limit L cap C resets A B pending F turn T | state none
end                                  -> ok
version                              -> version nimbot X.Y.Z protocol P
",
    "policy [",
    nimbot::policy_names!(),
    "]  -> policy NAME
limits                               -> limits stones N resets R init_max M|any line L
help                                 -> help ...
In a game of Fibonacci Nim:
new fibonacci N first|second         -> ok
go                                   -> move K [won]
opp K                                -> move K [won] | lost
state                                -> state fibonacci stones S limit L turn T
In a game of Super-Nim:
new supernim H1,H2,... first|second [cap C] [heaps K] -> ok
go                                   -> move MOVE [over R]
opp MOVE                             -> move MOVE [over R] | over R
state                                -> state supernim heaps H1,H2,... score BOT OPP turn T
K F: take K, with a reset if F = 1. D: plies to the end, - if unknown.
T: bot|opponent|won|lost|draw. R: won|lost|draw. MOVE: merge A B | grow A | split A.
Bad input gets one \"error ...\" line and changes nothing."
);

/// The reply to `help` in a build with the related games: the commands in one
/// line. Checked against [`grammar::COMMANDS`] by a test, as the two below.
#[doc(hidden)]
pub const HELP_GAMES: &str = "help new N R M|fibonacci N|supernim H,.. first|second;go;opp M;\
    query|moves S C A B F;state;end;policy;version;limits";
/// The reply to `help` in a build of Expanding Nim only.
#[doc(hidden)]
pub const HELP_EXPANDING: &str = "help new N R M first|second;go;opp M;query|moves S C A B F;\
    state;end;policy;version;limits";
/// The reply to `help` on the AVR (the Arduino Uno), which has no `moves`.
#[doc(hidden)]
pub const HELP_AVR: &str = "help new N R M first|second;go;opp M;query S C A B F;state;\
    end;policy;version;limits";

/// The reply to `help` in this build.
const HELP: &str = if cfg!(feature = "related-games") {
    HELP_GAMES
} else if cfg!(target_arch = "avr") {
    HELP_AVR
} else {
    HELP_EXPANDING
};

/// One reply line, without its line ending: at most [`MAX_REPLY`] bytes of ASCII,
/// kept on the stack. Read it as bytes (it dereferences to `[u8]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply(Vec<u8, MAX_REPLY>);

impl Reply {
    /// The line's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl core::ops::Deref for Reply {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for Reply {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

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

/// A protocol session: the engine, the policy and the game in progress, if any.
#[derive(Debug)]
pub struct Session<E> {
    engine: E,
    game: Option<ActiveGame>,
    policy: Policy,
}

impl<E: Engine> Session<E> {
    /// A session with no game yet, playing the default policy.
    pub fn new(engine: E) -> Self {
        Session::with_policy(engine, Policy::default())
    }

    /// A session whose bot moves by `policy` in lost positions. The caller checks
    /// that the engine plays it ([`Engine::plays`]): if not, every move in a lost
    /// position is refused with the engine's error, as the `policy` command refuses it.
    pub fn with_policy(engine: E, policy: Policy) -> Self {
        Session {
            engine,
            game: None,
            policy,
        }
    }

    /// The policy for lost positions.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The engine, e.g. to inspect it after a session.
    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// The game in progress and the bot's seat.
    pub fn game(&self) -> Option<&ActiveGame> {
        self.game.as_ref()
    }

    /// Handle one line as [`LineReader`] delivers it: a command line as
    /// [`handle_line`](Self::handle_line) does, an overlong line with its error reply.
    /// Adapters that read lines themselves (e.g. firmware answering a diagnostic
    /// command of its own first) call this to reply exactly as [`serve`] does.
    pub fn handle(&mut self, line: Line<'_>) -> Option<Reply> {
        let mut reply = Reply::default();
        self.handle_into(line, &mut reply).then_some(reply)
    }

    /// [`handle`](Self::handle) writing the reply into `reply` (emptied first)
    /// instead of returning it; false, and `reply` empty, when there is none. A
    /// firmware builds every reply in the one buffer it keeps, not in copies on
    /// its stack.
    pub fn handle_into(&mut self, line: Line<'_>, reply: &mut Reply) -> bool {
        match line {
            Line::TooLong => {
                Error::Msg(text!("line too long")).write(reply);
                true
            }
            Line::Text(text) => self.reply_to(text, reply),
        }
    }

    /// Handle one command line (without its line ending). `None` for a blank line,
    /// which gets no reply; otherwise the reply line.
    pub fn handle_line(&mut self, line: &[u8]) -> Option<Reply> {
        let mut reply = Reply::default();
        self.reply_to(line, &mut reply).then_some(reply)
    }

    /// The body of [`handle_line`](Self::handle_line): the reply goes to `out`
    /// (emptied first); false for a blank line.
    // Out of line on the AVR: inlined into a firmware's read loop, whose frame
    // holds the line and reply buffers (about 300 bytes), every local of a command
    // would sit past the 64 bytes the AVR's `ldd`/`std` reach from the frame
    // pointer, and each of its loads and stores would take seven instructions
    // instead of one (2.4 KB more on the Arduino Uno).
    #[cfg_attr(target_arch = "avr", inline(never))]
    fn reply_to(&mut self, line: &[u8], out: &mut Out) -> bool {
        out.0.clear();
        let mut words = Words::new(line);
        let Some(cmd) = words.next() else {
            return false;
        };
        let result = match (cmd, &mut self.game) {
            (b"new", _) => self.cmd_new(&mut words, out),
            #[cfg(feature = "related-games")]
            (b"go" | b"opp" | b"state", Some(ActiveGame::Fibonacci(g, bot))) => {
                games::fibonacci(cmd, g, *bot, &mut words, out)
            }
            #[cfg(feature = "related-games")]
            (b"go" | b"opp" | b"state", Some(ActiveGame::SuperNim(g, bot))) => {
                games::supernim(cmd, g, *bot, &mut words, out)
            }
            (b"go", _) => words.end().and_then(|()| self.cmd_go(out)),
            (b"opp", _) => self.cmd_opp(&mut words, out),
            (b"query", _) => self.cmd_query(&mut words, out),
            // Not on the AVR: the Arduino Uno's 32 KB of flash have no room for it.
            #[cfg(not(target_arch = "avr"))]
            (b"moves", _) => self.cmd_moves(&mut words, out),
            (b"state", _) => words.end().map(|()| self.cmd_state(out)),
            (b"end", _) => words.end().map(|()| {
                self.game = None;
                out.text(text!("ok"));
            }),
            (b"version", _) => words.end().map(|()| {
                out.text(text!("version nimbot "));
                out.text(text!(nimbot::VERSION));
                out.text(text!(" protocol "));
                out.num(PROTOCOL_VERSION);
            }),
            (b"limits", _) => words.end().map(|()| self.cmd_limits(out)),
            (b"policy", _) => self.cmd_policy(&mut words, out),
            (b"help", _) => words.end().map(|()| out.text(text!(HELP))),
            _ => Err(Error::Msg(text!("unknown command (try help)"))),
        };
        if let Err(e) = result {
            e.write(out);
        }
        true
    }

    /// The Expanding Nim game in progress, if that is what is played.
    // Out of line on 64-bit targets (the tiny binary: 64 B less); the boards'
    // builds are left as they were measured.
    #[cfg_attr(target_pointer_width = "64", inline(never))]
    fn expanding(&self) -> Option<(Game, Player)> {
        match self.game {
            Some(ActiveGame::Expanding(g, bot)) => Some((g, bot)),
            _ => None,
        }
    }

    fn cmd_new(&mut self, words: &mut Words<'_>, out: &mut Out) -> Result<(), Error> {
        let mut ahead = words.clone();
        let game = match ahead.next() {
            #[cfg(feature = "related-games")]
            Some(b"fibonacci") => games::new_fibonacci(&mut ahead)?,
            #[cfg(feature = "related-games")]
            Some(b"supernim") => games::new_supernim(&mut ahead)?,
            #[cfg(not(feature = "related-games"))]
            Some(b"fibonacci" | b"supernim") => {
                return Err(Error::Msg(text!("this build plays Expanding Nim only")))
            }
            _ => self.new_expanding(words)?,
        };
        self.game = Some(game);
        out.text(text!("ok"));
        Ok(())
    }

    fn new_expanding(&mut self, words: &mut Words<'_>) -> Result<ActiveGame, Error> {
        const USAGE: Error = Error::Msg(text!("usage: new STONES RESETS INIT_MAX first|second"));
        let stones = words.number().map_err(|e| e.or(USAGE))?;
        let resets = words.number().map_err(|e| e.or(USAGE))?;
        let init_max = words.number().map_err(|e| e.or(USAGE))?;
        let seat = match words.next() {
            Some(b"first") => Player::First,
            Some(b"second") => Player::Second,
            _ => return Err(USAGE),
        };
        words.end()?;
        let resets = u8::try_from(resets).unwrap_or(u8::MAX);
        let params = Params::new(stones, resets, init_max).map_err(|e| Error::Msg(e.text()))?;
        self.engine
            .prepare(&params)
            .map_err(|e| Error::Msg(e.text()))?;
        Ok(ActiveGame::Expanding(Game::new(params), seat))
    }

    /// Decide and play the bot's move on `game` (a copy: the caller commits it).
    fn bot_move(&mut self, game: &mut Game, bot: Player, out: &mut Out) -> Result<(), Error> {
        let mv =
            bot_move(&mut self.engine, self.policy, game, bot).map_err(|e| Error::Msg(e.text()))?;
        let outcome = game
            .play(bot, mv)
            .map_err(|e| Error::Msg(MoveError::Illegal(e).text()))?;
        out.text(text!("move "));
        out.mv(mv);
        if outcome == Outcome::Won(bot) {
            out.text(text!(" won"));
        }
        Ok(())
    }

    fn cmd_go(&mut self, out: &mut Out) -> Result<(), Error> {
        let (mut game, bot) = self
            .expanding()
            .ok_or(Error::Msg(text!("no game (send new)")))?;
        if game.winner().is_some() {
            return Err(Error::Msg(text!("the game is over")));
        }
        if game.to_move() != bot {
            return Err(Error::Msg(text!(
                "out of turn: the opponent is to move (send opp)"
            )));
        }
        self.bot_move(&mut game, bot, out)?;
        self.game = Some(ActiveGame::Expanding(game, bot));
        Ok(())
    }

    fn cmd_opp(&mut self, words: &mut Words<'_>, out: &mut Out) -> Result<(), Error> {
        const USAGE: Error = Error::Msg(text!("usage: opp TAKE RESET(0|1)"));
        let take = words.number().map_err(|e| e.or(USAGE))?;
        let reset = words.flag().map_err(|e| e.or(USAGE))?;
        words.end()?;
        let (mut game, bot) = self
            .expanding()
            .ok_or(Error::Msg(text!("no game (send new)")))?;
        if game.winner().is_some() {
            return Err(Error::Msg(text!("the game is over")));
        }
        if game.to_move() == bot {
            return Err(Error::Msg(text!(
                "out of turn: the bot is to move (send go)"
            )));
        }
        match game.play(bot.other(), Move::new(take, reset)) {
            Err(e) => return Err(out.illegal(e)),
            Ok(Outcome::Won(_)) => out.text(text!("lost")),
            Ok(Outcome::Continue) => self.bot_move(&mut game, bot, out)?,
        }
        self.game = Some(ActiveGame::Expanding(game, bot));
        Ok(())
    }

    /// The position `S C A B F` of `query` and `moves` (M: the game's, else the
    /// engine's, else [`DEFAULT_INIT_MAX`]).
    fn position(&self, words: &mut Words<'_>, usage: Error) -> Result<Position, Error> {
        let mut n = [0u32; 4];
        for v in &mut n {
            *v = words.number().map_err(|e| e.or(usage))?;
        }
        let [stones, cap, own, opp] = n;
        let pending = words.flag().map_err(|e| e.or(usage))?;
        let init_max = match (self.expanding(), self.engine.limits().init_max) {
            (Some((g, _)), _) => g.params().init_max(),
            (None, Some(m)) => m,
            (None, None) => DEFAULT_INIT_MAX,
        };
        let clamp = |v: u32| u8::try_from(v).unwrap_or(u8::MAX);
        Position::new(stones, cap, clamp(own), clamp(opp), pending, init_max)
            .map_err(|e| Error::Msg(e.text()))
    }

    fn cmd_query(&mut self, words: &mut Words<'_>, out: &mut Out) -> Result<(), Error> {
        const USAGE: Error = Error::Msg(text!(
            "usage: query STONES CAP OWN_RESETS OPP_RESETS PENDING(0|1)"
        ));
        let pos = self.position(words, USAGE)?;
        words.end()?;
        let decision = self
            .engine
            .decide(&pos, self.policy)
            .map_err(|e| Error::Msg(e.text()))?;
        // The AVR's table engine has no distances: `-` without asking (flash).
        #[cfg(not(target_arch = "avr"))]
        let distance = self
            .engine
            .evaluate(&pos)
            .map_err(|e| Error::Msg(e.text()))?
            .distance;
        #[cfg(target_arch = "avr")]
        let distance = None;
        out.text(decision.value.word());
        out.text(text!(" "));
        out.mv(decision.mv);
        out.text(text!(" "));
        out.distance(distance);
        Ok(())
    }

    /// `moves S C A B F [FROM]`: the position's value and distance, then its moves
    /// from number FROM (0 = the first) as `TAKE[r]:VD` (V = w|l for the mover, D
    /// the plies to the end counting the move, or `-`), as many as fit the line,
    /// then `more I` if moves from number I are left.
    #[cfg(not(target_arch = "avr"))]
    fn cmd_moves(&mut self, words: &mut Words<'_>, out: &mut Out) -> Result<(), Error> {
        const USAGE: Error = Error::Msg(text!(
            "usage: moves STONES CAP OWN_RESETS OPP_RESETS PENDING(0|1) [FROM]"
        ));
        let pos = self.position(words, USAGE)?;
        let from = match words.next() {
            None => 0,
            Some(w) => parse_u32(w).ok_or(Error::BadNumber)?,
        };
        words.end()?;
        let fail = |e: nimbot::strategy::DecideError| Error::Msg(e.text());
        let eval = self.engine.evaluate(&pos).map_err(fail)?;
        out.text(text!("moves "));
        out.text(eval.value.word());
        out.text(text!(" "));
        out.distance(eval.distance);
        // An engine without distances (`-` above) gets `-` for every move too.
        let known = eval.distance.is_some();
        // Room kept at the end of the line for " more I".
        const MORE: usize = 16;
        for (i, mv) in (0u32..).zip(root_moves(&pos)).skip(from as usize) {
            let m = evaluate_move(&mut self.engine, &pos, mv).map_err(fail)?;
            let before = out.0.len();
            out.text(text!(" "));
            out.num(mv.take);
            if mv.reset {
                out.text(text!("r"));
            }
            out.text(if m.value.is_won() {
                text!(":w")
            } else {
                text!(":l")
            });
            out.distance(m.distance.filter(|_| known));
            if out.0.len() + MORE > MAX_REPLY {
                // The move does not fit: it starts the next line.
                out.0.truncate(before);
                out.text(text!(" more "));
                out.num(i);
                return Ok(());
            }
        }
        Ok(())
    }

    fn cmd_state(&self, out: &mut Out) {
        let Some((game, bot)) = &self.expanding() else {
            out.text(text!("state none"));
            return;
        };
        out.text(text!("state stones "));
        out.num(game.stones());
        out.text(text!(" limit "));
        out.num(game.limit());
        out.text(text!(" cap "));
        out.num(game.cap());
        out.text(text!(" resets "));
        out.num(u32::from(game.resets_left(*bot)));
        out.text(text!(" "));
        out.num(u32::from(game.resets_left(bot.other())));
        out.text(text!(" pending "));
        out.num(u32::from(game.reset_pending()));
        out.text(text!(" turn "));
        out.text(match_text!(game.winner(), {
            Some(p) if p == *bot => "won",
            Some(_) => "lost",
            None if game.to_move() == *bot => "bot",
            None => "opponent",
        }));
    }

    fn cmd_policy(&mut self, words: &mut Words<'_>, out: &mut Out) -> Result<(), Error> {
        if let Some(name) = words.next() {
            words.end()?;
            let policy = Policy::from_name(name).ok_or(Error::Msg(text!(concat!(
                "usage: policy [",
                nimbot::policy_names!(),
                "]"
            ))))?;
            // An engine never plays one policy under another's name.
            if !self.engine.plays(policy) {
                return Err(Error::Msg(DecideError::Unsupported.text()));
            }
            self.policy = policy;
        }
        out.text(text!("policy "));
        out.text(self.policy.text());
        Ok(())
    }

    fn cmd_limits(&self, out: &mut Out) {
        let limits = self.engine.limits();
        out.text(text!("limits stones "));
        out.num(limits.max_stones);
        out.text(text!(" resets "));
        out.num(u32::from(limits.max_resets));
        out.text(text!(" init_max "));
        match limits.init_max {
            Some(m) => out.num(m),
            None => out.text(text!("any")),
        }
        out.text(text!(" line "));
        out.num(MAX_LINE as u32);
    }
}

/// Why a command was refused; becomes one `error ...` line.
///
/// Small on purpose (a [`Text`] at most): every `?` of the protocol moves one, and
/// on the AVR a move is a byte at a time. The error with numbers, an illegal
/// move's, is written at once instead ([`Out::illegal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Error {
    Msg(Text),
    /// The reply, an `error ...` line, is already written to the command's
    /// [`Out`] ([`Out::illegal`]).
    Written,
    /// A token that should be a number is not one (or overflows).
    BadNumber,
    /// A command ran out of arguments; the caller substitutes its usage line.
    Missing,
}

impl Error {
    /// Replace a missing-argument error by the command's usage line.
    fn or(self, usage: Error) -> Error {
        match self {
            Error::Missing => usage,
            other => other,
        }
    }

    /// Writes the `error ...` line to `out`, in place of what it held; an
    /// [`Error::Written`] line is there already.
    fn write(self, out: &mut Out) {
        let reason = match self {
            Error::Msg(m) => m,
            Error::BadNumber => text!("bad number"),
            Error::Missing => text!("missing argument"),
            Error::Written => return,
        };
        out.0.clear();
        out.text(text!("error "));
        out.text(reason);
    }
}

/// Whitespace-separated tokens of one line.
#[derive(Clone)]
struct Words<'a> {
    rest: &'a [u8],
}

impl<'a> Words<'a> {
    fn new(line: &'a [u8]) -> Self {
        Words { rest: line }
    }

    fn next(&mut self) -> Option<&'a [u8]> {
        let is_space = |b: &u8| *b == b' ' || *b == b'\t';
        let start = self.rest.iter().position(|b| !is_space(b))?;
        let rest = self.rest.get(start..)?;
        let len = rest.iter().position(is_space).unwrap_or(rest.len());
        let (word, tail) = rest.split_at_checked(len)?;
        self.rest = tail;
        Some(word)
    }

    /// A decimal `u32` with no sign.
    fn number(&mut self) -> Result<u32, Error> {
        let word = self.next().ok_or(Error::Missing)?;
        parse_u32(word).ok_or(Error::BadNumber)
    }

    /// `0` or `1`.
    fn flag(&mut self) -> Result<bool, Error> {
        match self.next().ok_or(Error::Missing)? {
            b"0" => Ok(false),
            b"1" => Ok(true),
            _ => Err(Error::Msg(text!("flag must be 0 or 1"))),
        }
    }

    fn end(&mut self) -> Result<(), Error> {
        match self.next() {
            None => Ok(()),
            Some(_) => Err(Error::Msg(text!("too many arguments"))),
        }
    }
}

/// A reply under construction: the [`Reply`] itself, written in place. Writes
/// past [`MAX_REPLY`] are dropped; the replies above are far shorter.
type Out = Reply;

impl Out {
    /// Write the error line of the illegal move `e` (with the take and the limit
    /// for a take out of range) and return [`Error::Written`]. Called before
    /// anything else is written: a refused move comes before its reply.
    #[inline(never)]
    fn illegal(&mut self, e: IllegalMove) -> Error {
        self.text(text!("error illegal move: "));
        match e {
            IllegalMove::BadTake { take, limit } => {
                self.text(text!("take "));
                self.num(take);
                self.text(text!(" is outside 1..="));
                self.num(limit);
            }
            e => self.text(e.text()),
        }
        Error::Written
    }

    // One copy of the loop for the many call sites (smaller on every target).
    #[inline(never)]
    fn text(&mut self, text: Text) {
        for b in text.bytes() {
            if self.0.push(b).is_err() {
                return;
            }
        }
    }

    fn num(&mut self, n: impl Into<u64>) {
        for &d in Decimal::new(n).as_bytes() {
            if self.0.push(d).is_err() {
                return;
            }
        }
    }

    /// A distance to the end, or `-` when the engine has none.
    fn distance(&mut self, d: Option<u16>) {
        match d {
            Some(d) => self.num(d),
            None => self.text(text!("-")),
        }
    }

    fn mv(&mut self, mv: Move) {
        self.num(mv.take);
        self.text(if mv.reset { text!(" 1") } else { text!(" 0") });
    }
}

/// One line read by [`LineReader`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A complete line, without its line ending.
    Text(&'a [u8]),
    /// A line longer than [`MAX_LINE`]; its bytes were discarded up to the line end.
    TooLong,
}

/// Splits a byte stream into lines with a fixed buffer.
#[derive(Debug)]
pub struct LineReader {
    /// One byte more than [`MAX_LINE`]: room for the `\r` of a `\r\n` ending.
    line: Vec<u8, { MAX_LINE + 1 }>,
    overflow: bool,
    chunk: [u8; 64],
    start: usize,
    end: usize,
    eof: bool,
}

impl Default for LineReader {
    fn default() -> Self {
        LineReader {
            line: Vec::new(),
            overflow: false,
            chunk: [0; 64],
            start: 0,
            end: 0,
            eof: false,
        }
    }
}

/// The body of [`LineReader::next_line`] and [`LineReader::next_line_async`], written
/// once around `$read`, which fills `$self.chunk` and gives the count of bytes read
/// (blocking, or awaited). A macro rather than shared methods: with the loop written
/// in place the firmware image comes out 270 bytes smaller.
macro_rules! next_line_body {
    ($self:ident, $read:expr) => {{
        $self.line.clear();
        $self.overflow = false;
        loop {
            while $self.start < $self.end {
                let b = $self.chunk.get($self.start).copied().unwrap_or(b'\n');
                $self.start += 1;
                if b == b'\n' {
                    return Ok(Some($self.finish()));
                }
                if $self.line.push(b).is_err() {
                    $self.overflow = true;
                }
            }
            if $self.eof {
                return Ok(None);
            }
            let n = $read?;
            $self.start = 0;
            $self.end = n.min($self.chunk.len());
            if n == 0 {
                $self.eof = true;
                if !$self.line.is_empty() || $self.overflow {
                    return Ok(Some($self.finish()));
                }
                return Ok(None);
            }
        }
    }};
}

impl LineReader {
    /// Forgets the line so far and the bytes read ahead, as a new reader would
    /// (after an error that garbled the line), in place: a firmware keeps no
    /// second reader on its stack.
    pub fn restart(&mut self) {
        self.line.clear();
        self.overflow = false;
        self.start = 0;
        self.end = 0;
        self.eof = false;
    }

    /// The next line from `input`, or `Ok(None)` at the end of input. A last line
    /// without a line ending still counts.
    pub fn next_line<R: Read>(&mut self, input: &mut R) -> Result<Option<Line<'_>>, R::Error> {
        next_line_body!(self, input.read(&mut self.chunk))
    }

    /// [`next_line`](Self::next_line) over an `embedded-io-async` reader (feature
    /// `async`): the same lines, awaiting the input instead of blocking on it.
    #[cfg(feature = "async")]
    pub async fn next_line_async<R: AsyncRead>(
        &mut self,
        input: &mut R,
    ) -> Result<Option<Line<'_>>, R::Error> {
        next_line_body!(self, input.read(&mut self.chunk).await)
    }

    fn finish(&mut self) -> Line<'_> {
        if !self.overflow && self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        if self.overflow || self.line.len() > MAX_LINE {
            return Line::TooLong;
        }
        Line::Text(&self.line)
    }
}

/// Why [`serve`] stopped before the end of its input.
#[derive(Debug)]
pub enum ServeError<R, W> {
    /// Reading the input failed.
    Read(R),
    /// Writing a reply failed.
    Write(W),
}

impl<R: core::fmt::Debug, W: core::fmt::Debug> core::fmt::Display for ServeError<R, W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ServeError::Read(e) => write!(f, "reading the input failed: {e:?}"),
            ServeError::Write(e) => write!(f, "writing a reply failed: {e:?}"),
        }
    }
}

impl<R: core::fmt::Debug, W: core::fmt::Debug> core::error::Error for ServeError<R, W> {}

/// The body of [`serve`] and [`serve_async`], written once: `$next_line` reads the
/// next line from `$reader`, `$write` writes the bytes it is given, `$flush`
/// flushes (each blocking, or awaited).
macro_rules! serve_body {
    ($session:ident, |$reader:ident| $next_line:expr, |$bytes:ident| $write:expr, $flush:expr) => {{
        let mut $reader = LineReader::default();
        loop {
            let reply = match $next_line.map_err(ServeError::Read)? {
                None => return Ok(()),
                Some(line) => match $session.handle(line) {
                    Some(reply) => reply,
                    None => continue,
                },
            };
            for $bytes in [reply.as_bytes(), b"\n"] {
                $write.map_err(ServeError::Write)?;
            }
            $flush.map_err(ServeError::Write)?;
        }
    }};
}

/// Run a session over `input`/`output` until the end of input: every command line
/// gets exactly one reply line, every blank line none.
pub fn serve<E, R, W>(
    session: &mut Session<E>,
    input: &mut R,
    output: &mut W,
) -> Result<(), ServeError<R::Error, W::Error>>
where
    E: Engine,
    R: Read,
    W: Write,
{
    serve_body!(
        session,
        |reader| reader.next_line(input),
        |bytes| output.write_all(bytes),
        output.flush()
    )
}

/// [`serve`] over an `embedded-io-async` reader and writer (feature `async`): the
/// same replies, awaiting the input and the output instead of blocking on them.
#[cfg(feature = "async")]
pub async fn serve_async<E: Engine, R: AsyncRead, W: AsyncWrite>(
    session: &mut Session<E>,
    input: &mut R,
    output: &mut W,
) -> Result<(), ServeError<R::Error, W::Error>> {
    serve_body!(
        session,
        |reader| reader.next_line_async(input).await,
        |bytes| output.write_all(bytes).await,
        output.flush().await
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_numbers() {
        for n in [0u32, 7, 10, 999, 4_294_967_295] {
            let mut out = Out::default();
            out.num(n);
            assert_eq!(core::str::from_utf8(&out.0).unwrap(), std::format!("{n}"));
        }
    }

    #[test]
    fn words_split_on_spaces_and_tabs() {
        let mut w = Words::new(b"  opp\t3   1 ");
        assert_eq!(w.next(), Some(&b"opp"[..]));
        assert_eq!(w.number(), Ok(3));
        assert_eq!(w.flag(), Ok(true));
        assert_eq!(w.end(), Ok(()));
    }
}
