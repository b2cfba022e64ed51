//! The line protocol: one command per line in, exactly one reply line out.
//!
//! Defined once here and spoken by every adapter: the host binary on stdin/stdout,
//! firmware on a UART, the tiny static binary. It runs over any `embedded-io`
//! [`Read`]/[`Write`] pair with fixed buffers; nothing in it panics, and nothing
//! allocates but the host's Super-Nim player (feature `alloc`).
//!
//! Its grammar is [`grammar`]: every command and reply as a type, with one parser
//! and one writer each, which the [`Session`] reads and answers with
//! (docs/protocol.md explains it; its summary, `GRAMMAR`, is
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
//! - `alloc`: a heap (hosts): `new supernim` plays the host's player
//!   (`nimbot_supernim::Perfect`: exact near the cap, learning the opponent's
//!   model from its moves) unless told `player search`, the boards' player.
//! - `async`: `serve_async` over `embedded-io-async`.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The host's Super-Nim player (feature `alloc`) keeps its tables on the heap.
#[cfg(feature = "alloc")]
extern crate alloc;

use embedded_io::{Read, Write};
#[cfg(feature = "async")]
use embedded_io_async::{Read as AsyncRead, Write as AsyncWrite};
use heapless::Vec;

use grammar::{Command, Context, Opp, Phrase, Question, Response, State};
#[cfg(not(target_arch = "avr"))]
use grammar::{Entry, List};
use nimbot::text::text;
use nimbot::{
    bot_move, DecideError, Engine, Game, MoveError, Outcome, Params, Player, Policy, Position,
};
#[cfg(not(target_arch = "avr"))]
use nimbot::{evaluate_move, root_moves};

mod game;
#[cfg(feature = "related-games")]
mod games;
pub mod grammar;
mod reply;

pub use game::ActiveGame;
#[cfg(feature = "related-games")]
pub use games::SUPERNIM_MOVE_LIMIT;
pub use grammar::BANNER;
pub use reply::{Reply, MAX_REPLY};

use game::{check_turn, refuse, turn_of, Error};

/// Longest accepted command line, in bytes, without its line ending.
pub const MAX_LINE: usize = 80;
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
/// [`grammar::COMMANDS`] by a test (protocol/tests/grammar.rs).
pub const GRAMMAR: &str = concat!(
    "\
new N R M first|second               -> ok
go                                   -> move K F [won]
opp K F                              -> move K F [won] | lost
query S C A B F                      -> win|lose K F D
moves S C A B F [I]                  -> moves win|lose D K[r]:w|lD ... [more I]
state                                -> state stones S limit L cap C resets A B pending F turn T | state none
end                                  -> ok
version                              -> version nimbot X.Y.Z commit C table T protocol P
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
new supernim H1,H2,... first|second [cap C] [heaps K] [player perfect|search] [nodes K] -> ok
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
pub const HELP_GAMES: &str = "help new N R M|fibonacci N|supernim H,.. first|second;go;opp K F;\
    query|moves S C A B F;state;end;policy;version;limits";
/// The reply to `help` in a build of Expanding Nim only.
#[doc(hidden)]
pub const HELP_EXPANDING: &str = "help new N R M first|second;go;opp K F;query|moves S C A B F;\
    state;end;policy;version;limits";
/// The reply to `help` on the AVR (the Arduino Uno), which has no `moves`.
#[doc(hidden)]
pub const HELP_AVR: &str = "help new N R M first|second;go;opp K F;query S C A B F;state;\
    end;policy;version;limits";

/// The reply to `help` in this build.
const HELP: &str = if cfg!(feature = "related-games") {
    HELP_GAMES
} else if cfg!(target_arch = "avr") {
    HELP_AVR
} else {
    HELP_EXPANDING
};

/// [`HELP`] without its first word, `help `: the list [`Response::Help`] carries.
const HELP_LIST: &str = match core::str::from_utf8(HELP.as_bytes().split_at(5).1) {
    Ok(list) => list,
    Err(_) => panic!("the help is ASCII"),
};

/// A protocol session: the engine, the policy and the game in progress, if any.
#[derive(Debug)]
pub struct Session<E> {
    engine: E,
    game: Option<ActiveGame>,
    policy: Policy,
    /// The Super-Nim player and its settings.
    #[cfg(feature = "related-games")]
    supernim: games::SuperNimBot,
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
            #[cfg(feature = "related-games")]
            supernim: games::SuperNimBot::default(),
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
                Response::Error(text!("line too long").into()).write(reply);
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

    /// The body of [`handle_line`](Self::handle_line): the command read by the
    /// grammar ([`Command::parse`]), carried out, and its reply written by the
    /// grammar ([`Response::write`]) to `out`, in place of what it held; false for a
    /// blank line.
    // Out of line on the AVR: inlined into a firmware's read loop, whose frame
    // holds the line and reply buffers (about 300 bytes), every local of a command
    // would sit past the 64 bytes the AVR's `ldd`/`std` reach from the frame
    // pointer, and each of its loads and stores would take seven instructions
    // instead of one (2.4 KB more on the Arduino Uno). Out of line on 64-bit
    // targets too (the tiny binary: 0.8 KB less); the boards' 32-bit builds come
    // out smaller inlined.
    #[cfg_attr(any(target_arch = "avr", target_pointer_width = "64"), inline(never))]
    fn reply_to(&mut self, line: &[u8], out: &mut Reply) -> bool {
        let done = match Command::parse(line, self.context()) {
            Ok(None) => {
                out.0.clear();
                return false;
            }
            Ok(Some(command)) => self.run(command, out),
            Err(why) => Err(why),
        };
        if let Err(why) = done {
            Response::Error(why.into()).write(out);
        }
        true
    }

    /// How `opp` reads its move in the game in progress.
    fn context(&self) -> Context {
        match self.game {
            #[cfg(feature = "related-games")]
            Some(ActiveGame::Fibonacci(..)) => Context::Fibonacci,
            #[cfg(feature = "related-games")]
            Some(ActiveGame::SuperNim(..)) => Context::SuperNim,
            _ => Context::Expanding,
        }
    }

    /// Carry out `command` and write its reply to `out` (each reply is written
    /// where it is made, so that an image holds each reply's writer once).
    fn run(&mut self, command: Command<'_>, out: &mut Reply) -> Result<(), Error> {
        match (command, &mut self.game) {
            (
                Command::New {
                    stones,
                    resets,
                    init_max,
                    seat,
                },
                _,
            ) => {
                let resets = u8::try_from(resets).unwrap_or(u8::MAX);
                let params = Params::new(stones, resets, init_max).map_err(|e| e.text())?;
                self.engine.prepare(&params).map_err(|e| e.text())?;
                self.game = Some(ActiveGame::Expanding(Game::new(params), seat));
            }
            #[cfg(feature = "related-games")]
            (Command::NewFibonacci { stones, seat }, _) => {
                self.game = Some(games::new_fibonacci(stones, seat)?);
            }
            #[cfg(feature = "related-games")]
            (Command::NewSuperNim(start), _) => {
                self.game = Some(games::new_supernim(start, &mut self.supernim)?);
            }
            #[cfg(feature = "related-games")]
            (Command::Go, Some(ActiveGame::Fibonacci(g, bot))) => {
                return games::fib_go(g, *bot, out)
            }
            #[cfg(feature = "related-games")]
            (Command::Opp(Opp::Fibonacci(take)), Some(ActiveGame::Fibonacci(g, bot))) => {
                return games::fib_opp(g, *bot, take, out)
            }
            #[cfg(feature = "related-games")]
            (Command::Go, Some(ActiveGame::SuperNim(g, bot))) => {
                return games::sn_go(g, *bot, &mut self.supernim, out)
            }
            #[cfg(feature = "related-games")]
            (Command::Opp(Opp::SuperNim(mv)), Some(ActiveGame::SuperNim(g, bot))) => {
                return games::sn_opp(g, *bot, mv, &mut self.supernim, out)
            }
            (Command::Go, _) => {
                let (mut game, bot) = self.turn(true)?;
                self.bot_move(&mut game, bot, out)?;
                self.game = Some(ActiveGame::Expanding(game, bot));
                return Ok(());
            }
            (Command::Opp(Opp::Take(mv)), _) => {
                let (mut game, bot) = self.turn(false)?;
                let outcome = match game.play(bot.other(), mv) {
                    Ok(outcome) => outcome,
                    Err(e) => {
                        refuse(e, out);
                        return Ok(());
                    }
                };
                match outcome {
                    Outcome::Won(_) => Response::Lost.write(out),
                    Outcome::Continue => self.bot_move(&mut game, bot, out)?,
                }
                self.game = Some(ActiveGame::Expanding(game, bot));
                return Ok(());
            }
            (Command::Query(q), _) => {
                let pos = self.position(q)?;
                let decision = self
                    .engine
                    .decide(&pos, self.policy)
                    .map_err(|e| e.text())?;
                // The AVR's table engine has no distances: `-` without asking (flash).
                #[cfg(not(target_arch = "avr"))]
                let distance = self.engine.evaluate(&pos).map_err(|e| e.text())?.distance;
                #[cfg(target_arch = "avr")]
                let distance = None;
                Response::Query {
                    value: decision.value,
                    mv: decision.mv,
                    distance,
                }
                .write(out);
                return Ok(());
            }
            #[cfg(not(target_arch = "avr"))]
            (Command::Moves(q, from), _) => return self.moves(q, from, out),
            (Command::State, _) => {
                self.state(out);
                return Ok(());
            }
            (Command::End, _) => self.game = None,
            (Command::Version, _) => {
                Response::Version {
                    software: Phrase::Text(text!(grammar::SOFTWARE)),
                    protocol: PROTOCOL_VERSION,
                }
                .write(out);
                return Ok(());
            }
            (Command::Limits, _) => {
                let limits = self.engine.limits();
                Response::Limits(grammar::Limits {
                    stones: limits.max_stones,
                    resets: limits.max_resets,
                    init_max: limits.init_max,
                    line: MAX_LINE as u32,
                })
                .write(out);
                return Ok(());
            }
            (Command::Policy(policy), _) => {
                if let Some(policy) = policy {
                    // An engine never plays one policy under another's name.
                    if !self.engine.plays(policy) {
                        return Err(DecideError::Unsupported.text());
                    }
                    self.policy = policy;
                }
                Response::Policy(self.policy).write(out);
                return Ok(());
            }
            (Command::Help, _) => {
                Response::Help(Phrase::Text(text!(HELP_LIST))).write(out);
                return Ok(());
            }
            // A move of another game than the one in progress: the parser reads
            // `opp` as the game in progress has it, so none comes here; and the
            // related games' `new` in a build without them, refused as read.
            _ => return Err(text!("unknown command (try help)")),
        }
        Response::Ok.write(out);
        Ok(())
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

    /// The Expanding Nim game, refused when it is not the bot's turn (`want_bot`)
    /// or the opponent's.
    // Inlined, as `check_turn` (smaller images: the game is not copied out and back).
    #[cfg_attr(not(target_pointer_width = "64"), inline(always))]
    fn turn(&self, want_bot: bool) -> Result<(Game, Player), Error> {
        let (game, bot) = self.expanding().ok_or(text!("no game (send new)"))?;
        check_turn(game.winner().is_some(), game.to_move(), bot, want_bot)?;
        Ok((game, bot))
    }

    /// Decide and play the bot's move on `game` (a copy: the caller commits it).
    fn bot_move(&mut self, game: &mut Game, bot: Player, out: &mut Reply) -> Result<(), Error> {
        let mv = bot_move(&mut self.engine, self.policy, game, bot).map_err(|e| e.text())?;
        let outcome = game
            .play(bot, mv)
            .map_err(|e| MoveError::Illegal(e).text())?;
        Response::Move {
            mv,
            won: outcome == Outcome::Won(bot),
        }
        .write(out);
        Ok(())
    }

    /// The position `S C A B F` of `query` and `moves` (M: the game's, else the
    /// engine's, else [`DEFAULT_INIT_MAX`]).
    fn position(&self, q: Question) -> Result<Position, Error> {
        let init_max = match (self.expanding(), self.engine.limits().init_max) {
            (Some((g, _)), _) => g.params().init_max(),
            (None, Some(m)) => m,
            (None, None) => DEFAULT_INIT_MAX,
        };
        let clamp = |v: u32| u8::try_from(v).unwrap_or(u8::MAX);
        let (own, opp) = (clamp(q.own_resets), clamp(q.opp_resets));
        Position::new(q.stones, q.cap, own, opp, q.pending, init_max).map_err(|e| e.text())
    }

    /// `moves S C A B F [FROM]`: the position's value and distance, then its moves
    /// from number FROM (0 = the first), as many as fit the line, then `more I` if
    /// moves from number I are left.
    #[cfg(not(target_arch = "avr"))]
    fn moves(&mut self, q: Question, from: u32, out: &mut Reply) -> Result<(), Error> {
        let pos = self.position(q)?;
        let eval = self.engine.evaluate(&pos).map_err(|e| e.text())?;
        // An engine without distances (`-` above) gets `-` for every move too.
        let known = eval.distance.is_some();
        // Room kept at the end of the line for " more I".
        const MORE: usize = 16;
        let mut len = grammar::Page::head_len(eval.value, eval.distance);
        let mut more = None;
        let mut page = Vec::<Entry, { MAX_REPLY / 5 }>::new();
        for (i, mv) in (0u32..).zip(root_moves(&pos)).skip(from as usize) {
            let m = evaluate_move(&mut self.engine, &pos, mv).map_err(|e| e.text())?;
            let entry = Entry {
                mv,
                wins: m.value.is_won(),
                distance: m.distance.filter(|_| known),
            };
            len += entry.line_len();
            // A move that does not fit starts the next line.
            if len + MORE > MAX_REPLY || page.push(entry).is_err() {
                more = Some(i);
                break;
            }
        }
        Response::Moves(grammar::Page {
            value: eval.value,
            distance: eval.distance,
            moves: List::of(&page),
            more,
        })
        .write(out);
        Ok(())
    }

    /// The reply to `state`.
    fn state(&self, out: &mut Reply) {
        match &self.game {
            None => Response::State(None).write(out),
            Some(ActiveGame::Expanding(game, bot)) => Response::State(Some(State {
                stones: game.stones(),
                limit: game.limit(),
                cap: game.cap(),
                own_resets: game.resets_left(*bot),
                opp_resets: game.resets_left(bot.other()),
                pending: game.reset_pending(),
                turn: turn_of(game.winner().map(Some), game.to_move(), *bot),
            }))
            .write(out),
            #[cfg(feature = "related-games")]
            Some(ActiveGame::Fibonacci(game, bot)) => games::fib_state(game, *bot).write(out),
            #[cfg(feature = "related-games")]
            Some(ActiveGame::SuperNim(game, bot)) => games::sn_state(game, *bot).write(out),
        }
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
