//! The line protocol's grammar, written once: every command ([`Command`]) and every
//! reply ([`Response`]) as a type, each with one parser and one writer.
//!
//! The [`Session`](super::Session) parses commands and writes replies with it; the
//! host's bridge to a board writes commands and parses replies with it; the tests
//! check `parse(write(x)) == x` for every variant. Like the rest of the core it
//! allocates nothing and never panics: a line that is not in the grammar parses to
//! an error (a command, with the reason the protocol replies) or to `None` (a reply).
//!
//! What is borrowed from a parsed line (a list of heaps or of moves, an error's
//! words) is kept as the line's text and read again when asked for
//! ([`List`], [`Phrase`]); what a session writes borrows its own values instead.
//! The two forms of one value compare equal.
//!
//! The commands' forms and replies in brief, the one list the help texts, the
//! summary `nimbot serial --help` prints ([`GRAMMAR`](super::GRAMMAR)) and the
//! tables of docs/protocol.md are checked against, are [`COMMANDS`].

use super::Reply;
#[cfg(feature = "related-games")]
use nimbot::supernim::{self as sn, MAX_HEAPS};
use nimbot::text::{match_text, parse_u32, text, Decimal, Text};
use nimbot::{Move, Player, Policy, Value};

/// The line a board writes once it listens, after every reset.
pub const BANNER: &str = "nimbot ready";

/// The software's name, version and build (commit and table, [`nimbot::SOFTWARE`]),
/// as `version` reports it: all words before ` protocol P`, so that a client that
/// reads the protocol's number after the last ` protocol ` reads it as before.
pub const SOFTWARE: &str = nimbot::SOFTWARE;

/// Which game a command's words belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Expanding Nim with resets, and the commands of every game.
    Expanding,
    /// Fibonacci Nim (`new fibonacci ...`).
    Fibonacci,
    /// Super-Nim (`new supernim ...`).
    SuperNim,
}

/// One command of the protocol in brief: its form and its reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandSpec {
    /// The command's form, e.g. `opp K F` (as the tables of docs/protocol.md give it).
    pub form: &'static str,
    /// Its reply, in brief.
    pub reply: &'static str,
    /// The game it belongs to.
    pub family: Family,
}

/// The table of [`COMMANDS`], a line a command: `form => reply`, grouped by the
/// game they belong to.
macro_rules! commands {
    ($($family:ident: [$($form:expr => $reply:expr,)+])+) => {
        &[$($(CommandSpec { form: $form, reply: $reply, family: Family::$family },)+)+]
    };
}

/// Every command of the protocol, in the order docs/protocol.md lists them.
pub const COMMANDS: &[CommandSpec] = commands! {
    Expanding: [
        "new N R M first|second" => "ok",
        "go" => "move K F [won]",
        "opp K F" => "move K F [won] | lost",
        "query S C A B F" => "win|lose K F D",
        "moves S C A B F [I]" => "moves win|lose D K[r]:w|lD ... [more I]",
        "state" => "state stones S limit L cap C resets A B pending F turn T | state none",
        "end" => "ok",
        "version" => "version nimbot X.Y.Z commit C table T protocol P",
        concat!("policy [", nimbot::policy_names!(), "]") => "policy NAME",
        "limits" => "limits stones N resets R init_max M|any line L",
        "help" => "help ...",
    ]
    Fibonacci: [
        "new fibonacci N first|second" => "ok",
        "go" => "move K [won]",
        "opp K" => "move K [won] | lost",
        "state" => "state fibonacci stones S limit L turn T",
    ]
    SuperNim: [
        "new supernim H1,H2,... first|second [cap C] [heaps K] [player perfect|search] [nodes K]"
            => "ok",
        "go" => "move MOVE [over R]",
        "opp MOVE" => "move MOVE [over R] | over R",
        "state" => "state supernim heaps H1,H2,... score BOT OPP turn T",
    ]
};

/// A piece of text in a reply: fixed text a session writes, or the bytes of a
/// parsed line. The two compare equal when they read the same.
#[derive(Clone, Copy, Debug)]
pub enum Phrase<'a> {
    /// Fixed text (in program memory on the AVR).
    Text(Text),
    /// Bytes of a parsed line.
    Bytes(&'a [u8]),
}

impl Phrase<'_> {
    fn write(self, out: &mut Reply) {
        match self {
            Phrase::Text(t) => out.put(t),
            Phrase::Bytes(b) => out.put_bytes(b),
        }
    }
}

impl core::fmt::Display for Phrase<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Phrase::Text(t) => core::fmt::Display::fmt(&t, f),
            Phrase::Bytes(b) => b
                .iter()
                .try_for_each(|&b| core::fmt::Write::write_char(f, char::from(b))),
        }
    }
}

impl PartialEq for Phrase<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (*self, *other) {
            (Phrase::Text(a), Phrase::Text(b)) => a == b,
            (Phrase::Bytes(a), Phrase::Bytes(b)) => a == b,
            (Phrase::Text(t), Phrase::Bytes(b)) | (Phrase::Bytes(b), Phrase::Text(t)) => {
                t.len() == b.len() && t.bytes().eq(b.iter().copied())
            }
        }
    }
}

impl Eq for Phrase<'_> {}

/// One item of a [`List`]: read from a token, written as one.
pub trait Item: Copy {
    /// The byte between items (`,` in a list of heaps, a space in a list of moves).
    const SEPARATOR: u8;
    /// The item in `token`, if it is one.
    fn parse(token: &[u8]) -> Option<Self>;
    /// Writes the item.
    fn write(&self, out: &mut Reply);
}

/// A list of items in a command or a reply: the items a session has, or the
/// checked text of a parsed line (read again item by item). Compared item by item.
#[derive(Clone, Copy, Debug)]
pub struct List<'a, T> {
    items: &'a [T],
    text: &'a [u8],
}

impl<'a, T: Item> List<'a, T> {
    /// The list of these items.
    pub const fn of(items: &'a [T]) -> Self {
        List { items, text: &[] }
    }

    /// The list in `text`, if every item in it parses (a comma list has no empty
    /// items; a space list may have runs of spaces and tabs).
    fn parse(text: &'a [u8]) -> Option<Self> {
        for token in Tokens::new(text, T::SEPARATOR) {
            T::parse(token?)?;
        }
        Some(List { items: &[], text })
    }

    /// The items, in order.
    pub fn iter(&self) -> impl Iterator<Item = T> + 'a {
        let parsed = Tokens::new(self.text, T::SEPARATOR).filter_map(|t| t.and_then(T::parse));
        self.items.iter().copied().chain(parsed)
    }

    /// Whether the list has no items.
    pub fn is_empty(&self) -> bool {
        // Only separators in a checked text: a space list's gaps.
        self.items.is_empty() && self.text.iter().all(|b| *b == b' ' || *b == b'\t')
    }

    /// Writes the items, or a parsed list's text as it came (checked when it was
    /// parsed: no item is read again, so a session's image holds no parser of it).
    fn write(&self, out: &mut Reply) {
        for (i, item) in self.items.iter().enumerate() {
            if i > 0 {
                out.put_byte(T::SEPARATOR);
            }
            item.write(out);
        }
        out.put_bytes(self.text);
    }
}

impl<T: Item + PartialEq> PartialEq for List<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl<T: Item + Eq> Eq for List<'_, T> {}

/// The tokens of a list: split at `separator` (a comma: each token is there,
/// `None` for an empty one; a space: runs of spaces and tabs are one gap).
struct Tokens<'a> {
    rest: Option<&'a [u8]>,
    separator: u8,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a [u8], separator: u8) -> Self {
        let rest = if separator == b' ' || !text.is_empty() {
            Some(text)
        } else {
            None
        };
        Tokens { rest, separator }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Option<&'a [u8]>;
    fn next(&mut self) -> Option<Option<&'a [u8]>> {
        let rest = self.rest?;
        if self.separator == b' ' {
            let mut words = Words::new(rest);
            let word = words.next();
            self.rest = Some(words.rest);
            return word.map(Some);
        }
        let (token, tail) = match rest.iter().position(|b| *b == self.separator) {
            Some(i) => (rest.get(..i), rest.get(i + 1..)),
            None => (Some(rest), None),
        };
        self.rest = tail;
        Some(token.filter(|t| !t.is_empty()))
    }
}

impl Item for u32 {
    const SEPARATOR: u8 = b',';
    fn parse(token: &[u8]) -> Option<Self> {
        parse_u32(token)
    }
    fn write(&self, out: &mut Reply) {
        out.put_num(*self);
    }
}

impl Item for u16 {
    const SEPARATOR: u8 = b',';
    fn parse(token: &[u8]) -> Option<Self> {
        u16::try_from(parse_u32(token)?).ok()
    }
    fn write(&self, out: &mut Reply) {
        out.put_num(u32::from(*self));
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

    /// A decimal `u32` with no sign; `usage` when there is none.
    fn number(&mut self, usage: Text) -> Result<u32, Text> {
        parse_u32(self.next().ok_or(usage)?).ok_or(text!("bad number"))
    }

    /// `N` decimal `u32`s in a row; `usage` when one is missing.
    fn numbers<const N: usize>(&mut self, usage: Text) -> Result<[u32; N], Text> {
        let mut n = [0; N];
        for v in &mut n {
            *v = self.number(usage)?;
        }
        Ok(n)
    }

    /// `0` or `1`; `usage` when there is none.
    fn flag(&mut self, usage: Text) -> Result<bool, Text> {
        match self.next().ok_or(usage)? {
            b"0" => Ok(false),
            b"1" => Ok(true),
            _ => Err(text!("flag must be 0 or 1")),
        }
    }

    /// The seat `first|second`; `usage` when it is missing or another word.
    fn seat(&mut self, usage: Text) -> Result<Player, Text> {
        match self.next() {
            Some(b"first") => Ok(Player::First),
            Some(b"second") => Ok(Player::Second),
            _ => Err(usage),
        }
    }

    fn end(&mut self) -> Result<(), Text> {
        match self.next() {
            None => Ok(()),
            Some(_) => Err(text!("too many arguments")),
        }
    }

    /// The next word, if it is `want` (the words after it follow).
    fn eat(&mut self, want: &[u8]) -> Option<&mut Self> {
        (self.next()? == want).then_some(self)
    }

    /// The next word as a number (a reply's: `None` for anything else).
    fn num(&mut self) -> Option<u32> {
        parse_u32(self.next()?)
    }

    /// The next word as a small number.
    fn small<T: TryFrom<u32>>(&mut self) -> Option<T> {
        T::try_from(self.num()?).ok()
    }

    /// The end of a reply.
    fn done(&mut self) -> Option<()> {
        self.next().is_none().then_some(())
    }
}

fn seat_text(seat: Player) -> Text {
    match_text!(seat, { Player::First => "first", Player::Second => "second" })
}

fn flag(word: &[u8]) -> Option<bool> {
    match word {
        b"0" => Some(false),
        b"1" => Some(true),
        _ => None,
    }
}

/// The game in progress, which decides how `opp` reads its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Context {
    /// Expanding Nim, or no game.
    #[default]
    Expanding,
    /// Fibonacci Nim.
    #[cfg(feature = "related-games")]
    Fibonacci,
    /// Super-Nim.
    #[cfg(feature = "related-games")]
    SuperNim,
}

/// The position of `query` and `moves`: `S C A B F`, as sent (the session checks
/// it against the rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    /// S, the stones.
    pub stones: u32,
    /// C, the cap.
    pub cap: u32,
    /// A, the mover's resets.
    pub own_resets: u32,
    /// B, the opponent's resets.
    pub opp_resets: u32,
    /// F, whether the opponent has just reset.
    pub pending: bool,
}

/// The Super-Nim players a session can play (`new supernim ... player P`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuperNimPlayer {
    /// `perfect`: the host's player, exact near the cap, learning the opponent's
    /// model (`nimbot::supernim::Perfect`; builds with a heap only, the default
    /// there).
    Perfect,
    /// `search`: the boards' bounded search (`nimbot::supernim::decide`; the
    /// default without a heap).
    Search,
}

impl SuperNimPlayer {
    /// The word that names it.
    pub const fn word(self) -> Text {
        match self {
            SuperNimPlayer::Perfect => text!("perfect"),
            SuperNimPlayer::Search => text!("search"),
        }
    }
}

/// What `new supernim H1,H2,... first|second [cap C] [heaps K] [player P] [nodes K]`
/// asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuperNimStart<'a> {
    /// The heaps.
    pub heaps: List<'a, u32>,
    /// The bot's seat.
    pub seat: Player,
    /// `cap C`: the moves before the game is judged on points.
    pub cap: Option<u32>,
    /// `heaps K`: the most heaps a position may hold.
    pub most: Option<u32>,
    /// `player perfect|search`: which player the bot plays.
    pub player: Option<SuperNimPlayer>,
    /// `nodes K`: the player's node budget per move.
    pub nodes: Option<u32>,
}

/// The opponent's move of `opp`, read as the game in progress has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opp {
    /// `opp K F` (Expanding Nim).
    Take(Move),
    /// `opp K` (Fibonacci Nim).
    #[cfg(feature = "related-games")]
    Fibonacci(u32),
    /// `opp merge A B | grow A | split A` (Super-Nim).
    #[cfg(feature = "related-games")]
    SuperNim(sn::Move),
}

/// A command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// `new N R M first|second`.
    New {
        /// N.
        stones: u32,
        /// R.
        resets: u32,
        /// M.
        init_max: u32,
        /// The bot's seat.
        seat: Player,
    },
    /// `new fibonacci N first|second` (a build without the related games refuses
    /// it as it reads it).
    NewFibonacci {
        /// N.
        stones: u32,
        /// The bot's seat.
        seat: Player,
    },
    /// `new supernim H1,H2,... first|second` (a build without the related games
    /// refuses it as it reads it).
    NewSuperNim(SuperNimStart<'a>),
    /// `go`.
    Go,
    /// `opp ...`.
    Opp(Opp),
    /// `query S C A B F`.
    Query(Question),
    /// `moves S C A B F [I]`: the moves from number I (0 = the first).
    Moves(Question, u32),
    /// `state`.
    State,
    /// `end`.
    End,
    /// `version`.
    Version,
    /// `limits`.
    Limits,
    /// `policy [NAME]`.
    Policy(Option<Policy>),
    /// `help`.
    Help,
}

impl<'a> Command<'a> {
    /// The command in `line` (without its line ending), `opp` read as `context`'s
    /// game has it; `Ok(None)` for a blank line, `Err` with the reason the protocol
    /// gives for a line that is not a command.
    pub fn parse(line: &'a [u8], context: Context) -> Result<Option<Command<'a>>, Text> {
        let mut words = Words::new(line);
        let Some(name) = words.next() else {
            return Ok(None);
        };
        let command = match name {
            b"new" => Self::parse_new(&mut words)?,
            b"go" => Command::Go,
            b"opp" => Command::Opp(parse_opp(&mut words, context)?),
            b"query" => Command::Query(Question::parse(
                &mut words,
                text!("usage: query STONES CAP OWN_RESETS OPP_RESETS PENDING(0|1)"),
            )?),
            // Not on the AVR: the Arduino Uno's 32 KB of flash have no room for it.
            #[cfg(not(target_arch = "avr"))]
            b"moves" => {
                let question = Question::parse(
                    &mut words,
                    text!("usage: moves STONES CAP OWN_RESETS OPP_RESETS PENDING(0|1) [FROM]"),
                )?;
                let from = match words.next() {
                    None => 0,
                    Some(w) => parse_u32(w).ok_or(text!("bad number"))?,
                };
                Command::Moves(question, from)
            }
            b"state" => Command::State,
            b"end" => Command::End,
            b"version" => Command::Version,
            b"limits" => Command::Limits,
            b"policy" => Command::Policy(match words.next() {
                None => None,
                Some(name) => {
                    words.end()?;
                    Some(Policy::from_name(name).ok_or(text!(concat!(
                        "usage: policy [",
                        nimbot::policy_names!(),
                        "]"
                    )))?)
                }
            }),
            b"help" => Command::Help,
            _ => return Err(text!("unknown command (try help)")),
        };
        words.end()?;
        Ok(Some(command))
    }

    fn parse_new(words: &mut Words<'a>) -> Result<Command<'a>, Text> {
        let mut ahead = words.clone();
        match ahead.next() {
            #[cfg(feature = "related-games")]
            Some(b"fibonacci") => {
                let usage = text!("usage: new fibonacci STONES first|second");
                let stones = ahead.number(usage)?;
                let seat = ahead.seat(usage)?;
                *words = ahead;
                Ok(Command::NewFibonacci { stones, seat })
            }
            #[cfg(feature = "related-games")]
            Some(b"supernim") => {
                let usage = text!(
                    "usage: new supernim H1,H2,... first|second [cap C] [heaps K] [player perfect|search] [nodes K]"
                );
                let list = ahead.next().ok_or(usage)?;
                let seat = ahead.seat(usage)?;
                // The options in any order: `cap`, `heaps` and `nodes` take a number
                // (kept in that order), `player` a word. Looked up in tables, not
                // matched: a `match` on byte strings compares every arm inline, which
                // costs a board's flash.
                const OPTIONS: [&[u8]; 4] = [b"cap", b"heaps", b"nodes", b"player"];
                const PLAYERS: [&[u8]; 2] = [b"perfect", b"search"];
                let mut numbers = [None; 3];
                let mut player = None;
                while let Some(word) = ahead.next() {
                    let option = OPTIONS.iter().position(|w| *w == word).ok_or(usage)?;
                    if let Some(slot) = numbers.get_mut(option) {
                        *slot = Some(ahead.number(usage)?);
                        continue;
                    }
                    let named = ahead.next().unwrap_or_default();
                    player = Some(match PLAYERS.iter().position(|w| *w == named) {
                        Some(0) => SuperNimPlayer::Perfect,
                        Some(_) => SuperNimPlayer::Search,
                        None => return Err(usage),
                    });
                }
                let [cap, most, nodes] = numbers;
                let heaps = List::parse(list).ok_or(text!("bad number"))?;
                if Tokens::new(list, b',').nth(MAX_HEAPS).is_some() {
                    return Err(sn::Error::TooManyHeaps.text());
                }
                *words = ahead;
                Ok(Command::NewSuperNim(SuperNimStart {
                    heaps,
                    seat,
                    cap,
                    most,
                    player,
                    nodes,
                }))
            }
            #[cfg(not(feature = "related-games"))]
            Some(b"fibonacci" | b"supernim") => Err(text!("this build plays Expanding Nim only")),
            _ => {
                let usage = text!("usage: new STONES RESETS INIT_MAX first|second");
                let [stones, resets, init_max] = words.numbers(usage)?;
                Ok(Command::New {
                    stones,
                    resets,
                    init_max,
                    seat: words.seat(usage)?,
                })
            }
        }
    }

    /// Writes the command line (without its line ending) to `out`, after what it
    /// holds.
    pub fn write(&self, out: &mut Reply) {
        match self {
            Command::New {
                stones,
                resets,
                init_max,
                seat,
            } => {
                out.fill(text!("new # # # "), &[*stones, *resets, *init_max]);
                out.put(seat_text(*seat));
            }
            Command::NewFibonacci { stones, seat } => {
                out.fill(text!("new fibonacci # "), &[*stones]);
                out.put(seat_text(*seat));
            }
            Command::NewSuperNim(start) => {
                out.put(text!("new supernim "));
                start.heaps.write(out);
                out.put_byte(b' ');
                out.put(seat_text(start.seat));
                if let Some(c) = start.cap {
                    out.fill(text!(" cap #"), &[c]);
                }
                if let Some(k) = start.most {
                    out.fill(text!(" heaps #"), &[k]);
                }
                if let Some(p) = start.player {
                    out.put(text!(" player "));
                    out.put(p.word());
                }
                if let Some(k) = start.nodes {
                    out.fill(text!(" nodes #"), &[k]);
                }
            }
            Command::Go => out.put(text!("go")),
            Command::Opp(opp) => {
                out.put(text!("opp "));
                match opp {
                    Opp::Take(mv) => out.put_move(*mv),
                    #[cfg(feature = "related-games")]
                    Opp::Fibonacci(take) => out.put_num(*take),
                    #[cfg(feature = "related-games")]
                    Opp::SuperNim(mv) => out.put_sn_move(*mv),
                }
            }
            Command::Query(q) => {
                out.put(text!("query "));
                q.write(out);
            }
            Command::Moves(q, from) => {
                out.put(text!("moves "));
                q.write(out);
                out.put_byte(b' ');
                out.put_num(*from);
            }
            Command::State => out.put(text!("state")),
            Command::End => out.put(text!("end")),
            Command::Version => out.put(text!("version")),
            Command::Limits => out.put(text!("limits")),
            Command::Policy(p) => {
                out.put(text!("policy"));
                if let Some(p) = p {
                    out.put_byte(b' ');
                    out.put(p.text());
                }
            }
            Command::Help => out.put(text!("help")),
        }
    }
}

fn parse_opp(words: &mut Words<'_>, context: Context) -> Result<Opp, Text> {
    match context {
        Context::Expanding => {
            let usage = text!("usage: opp TAKE RESET(0|1)");
            let take = words.number(usage)?;
            Ok(Opp::Take(Move::new(take, words.flag(usage)?)))
        }
        #[cfg(feature = "related-games")]
        Context::Fibonacci => Ok(Opp::Fibonacci(words.number(text!("usage: opp TAKE"))?)),
        #[cfg(feature = "related-games")]
        Context::SuperNim => {
            let usage = text!("usage: opp merge A B | opp grow A | opp split A");
            let kind = words.next().ok_or(usage)?;
            // A size no heap can have is simply "no such heap".
            let mut size = || -> Result<u16, Text> {
                Ok(u16::try_from(words.number(usage)?).unwrap_or(u16::MAX))
            };
            Ok(Opp::SuperNim(match kind {
                b"merge" => {
                    let from = size()?;
                    sn::Move::Merge {
                        from,
                        onto: size()?,
                    }
                }
                b"grow" => sn::Move::Grow(size()?),
                b"split" => sn::Move::Split(size()?),
                _ => return Err(usage),
            }))
        }
    }
}

impl Question {
    fn parse(words: &mut Words<'_>, usage: Text) -> Result<Question, Text> {
        let [stones, cap, own_resets, opp_resets] = words.numbers(usage)?;
        Ok(Question {
            stones,
            cap,
            own_resets,
            opp_resets,
            pending: words.flag(usage)?,
        })
    }

    fn write(&self, out: &mut Reply) {
        out.fill(
            text!("# # # # #"),
            &[
                self.stones,
                self.cap,
                self.own_resets,
                self.opp_resets,
                u32::from(self.pending),
            ],
        );
    }
}

/// Whose turn it is in a `state` reply, or how the game ended, from the bot's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The bot is to move.
    Bot,
    /// The opponent is to move.
    Opponent,
    /// The bot won.
    Won,
    /// The bot lost.
    Lost,
    /// A draw (Super-Nim).
    Draw,
}

impl Turn {
    /// The word: `bot`, `opponent`, `won`, `lost` or `draw`.
    pub fn text(self) -> Text {
        match_text!(self, {
            Turn::Bot => "bot",
            Turn::Opponent => "opponent",
            Turn::Won => "won",
            Turn::Lost => "lost",
            Turn::Draw => "draw",
        })
    }

    fn parse(word: &[u8]) -> Option<Turn> {
        match word {
            b"bot" => Some(Turn::Bot),
            b"opponent" => Some(Turn::Opponent),
            b"won" => Some(Turn::Won),
            b"lost" => Some(Turn::Lost),
            b"draw" => Some(Turn::Draw),
            _ => None,
        }
    }
}

/// An Expanding Nim game's `state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Stones left.
    pub stones: u32,
    /// The current limit on a take.
    pub limit: u32,
    /// The cap.
    pub cap: u32,
    /// The bot's resets left.
    pub own_resets: u8,
    /// The opponent's resets left.
    pub opp_resets: u8,
    /// Whether the last move was a reset.
    pub pending: bool,
    /// Whose turn, or the result.
    pub turn: Turn,
}

/// The reply to `limits`: what an engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest pile.
    pub stones: u32,
    /// The most resets each.
    pub resets: u8,
    /// The only M, or any.
    pub init_max: Option<u32>,
    /// The longest command line.
    pub line: u32,
}

/// One move of a `moves` reply: `K[r]:VD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The move.
    pub mv: Move,
    /// Whether it wins for the mover.
    pub wins: bool,
    /// The plies to the end after it, counting it (`-`: unknown).
    pub distance: Option<u16>,
}

impl Entry {
    /// Its length in a reply, with the space before it.
    pub fn line_len(&self) -> usize {
        1 + digits(self.mv.take) + usize::from(self.mv.reset) + 2 + distance_len(self.distance)
    }
}

impl Item for Entry {
    const SEPARATOR: u8 = b' ';
    fn parse(token: &[u8]) -> Option<Self> {
        let colon = token.iter().position(|b| *b == b':')?;
        let (mv, rest) = token.split_at_checked(colon)?;
        let (take, reset) = match mv.strip_suffix(b"r") {
            Some(take) => (take, true),
            None => (mv, false),
        };
        let (wins, distance) = match rest {
            [b':', b'w', d @ ..] => (true, d),
            [b':', b'l', d @ ..] => (false, d),
            _ => return None,
        };
        Some(Entry {
            mv: Move::new(parse_u32(take)?, reset),
            wins,
            distance: parse_distance(distance)?,
        })
    }

    fn write(&self, out: &mut Reply) {
        out.put_num(self.mv.take);
        if self.mv.reset {
            out.put_byte(b'r');
        }
        out.put(if self.wins { text!(":w") } else { text!(":l") });
        out.put_distance(self.distance);
    }
}

/// A `moves` reply: the position's value and distance, a page of its moves, and
/// the number of the next move when more are left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page<'a> {
    /// The position's value for the mover.
    pub value: Value,
    /// Its distance to the end (`-`: unknown).
    pub distance: Option<u16>,
    /// Its moves, from the one asked for.
    pub moves: List<'a, Entry>,
    /// `more I`: the moves from number I on did not fit.
    pub more: Option<u32>,
}

impl Page<'_> {
    /// The length of the reply's start, `moves win|lose D`.
    pub fn head_len(value: Value, distance: Option<u16>) -> usize {
        6 + value.word().len() + 1 + distance_len(distance)
    }
}

/// A reply line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Response<'a> {
    /// `ok`.
    Ok,
    /// `move K F [won]`: the bot's move in Expanding Nim, and whether it won.
    Move {
        /// The move.
        mv: Move,
        /// Whether it emptied the pile.
        won: bool,
    },
    /// `lost`: the opponent's move emptied the pile.
    Lost,
    /// `win|lose K F D`, the answer to `query`.
    Query {
        /// The position's value.
        value: Value,
        /// The bot's move there.
        mv: Move,
        /// The position's distance (`-`: unknown).
        distance: Option<u16>,
    },
    /// `moves ...`.
    Moves(Page<'a>),
    /// `state ...` of an Expanding Nim game, or `state none`.
    State(Option<State>),
    /// `version SOFTWARE protocol P`.
    Version {
        /// The software's name and version, e.g. `nimbot 0.1.0`.
        software: Phrase<'a>,
        /// The protocol's version.
        protocol: u32,
    },
    /// `policy NAME`.
    Policy(Policy),
    /// `limits ...`.
    Limits(Limits),
    /// `help ...`: the commands in one line.
    Help(Phrase<'a>),
    /// `error ...`.
    Error(Reason<'a>),
    /// `move K [won]`: the bot's move in Fibonacci Nim.
    #[cfg(feature = "related-games")]
    FibonacciMove {
        /// Stones taken.
        take: u64,
        /// Whether it emptied the pile.
        won: bool,
    },
    /// `state fibonacci stones S limit L turn T`.
    #[cfg(feature = "related-games")]
    FibonacciState {
        /// Stones left.
        stones: u64,
        /// The limit on the next take.
        limit: u64,
        /// Whose turn, or the result.
        turn: Turn,
    },
    /// `move MOVE [over R]`: the bot's move in Super-Nim, and the result if it
    /// ended the game.
    #[cfg(feature = "related-games")]
    SuperNimMove {
        /// The move.
        mv: sn::Move,
        /// The result (won, lost or draw) if the game ended.
        over: Option<Turn>,
    },
    /// `over R`: the opponent's Super-Nim move ended the game.
    #[cfg(feature = "related-games")]
    SuperNimOver(Turn),
    /// `state supernim heaps H1,H2,...|- score BOT OPP turn T`.
    #[cfg(feature = "related-games")]
    SuperNimState {
        /// The heaps' sizes.
        heaps: List<'a, u16>,
        /// The bot's score, then the opponent's.
        score: [u32; 2],
        /// Whose turn, or the result.
        turn: Turn,
    },
}

/// Why a command was refused: the words after `error `.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason<'a> {
    /// `error TEXT`.
    Says(Phrase<'a>),
    /// `error illegal move: take K is outside 1..=L`.
    BadTake {
        /// The take.
        take: u32,
        /// The limit.
        limit: u32,
    },
    /// `error illegal move: TEXT`.
    Illegal(Phrase<'a>),
}

impl From<Text> for Reason<'_> {
    fn from(text: Text) -> Self {
        Reason::Says(Phrase::Text(text))
    }
}

impl<'a> Response<'a> {
    /// Writes the reply line (without its line ending) to `out`, in place of what
    /// it held.
    // Inlined: the session writes each reply where it makes it, so that only
    // that reply's arm is compiled there (every board's image comes out smaller
    // than with one shared copy of the whole match, or about as small as when
    // the session wrote its replies by hand).
    #[inline(always)]
    pub fn write(&self, out: &mut Reply) {
        out.0.clear();
        // Each reply's fixed words with `#` for its numbers, filled in by one loop
        // (`Reply::fill`): smaller than a call for every word and number.
        match self {
            Response::Ok => out.put(text!("ok")),
            Response::Move { mv, won } => {
                out.fill(text!("move # #"), &[mv.take, u32::from(mv.reset)]);
                out.put_won(*won);
            }
            Response::Lost => out.put(text!("lost")),
            Response::Query {
                value,
                mv,
                distance,
            } => {
                out.put(value.word());
                out.fill(text!(" # # "), &[mv.take, u32::from(mv.reset)]);
                out.put_distance(*distance);
            }
            Response::Moves(page) => {
                out.put(text!("moves "));
                out.put(page.value.word());
                out.put_byte(b' ');
                out.put_distance(page.distance);
                if !page.moves.is_empty() {
                    out.put_byte(b' ');
                }
                page.moves.write(out);
                if let Some(i) = page.more {
                    out.fill(text!(" more #"), &[i]);
                }
            }
            Response::State(None) => out.put(text!("state none")),
            Response::State(Some(s)) => {
                out.fill(
                    text!("state stones # limit # cap # resets # # pending # turn "),
                    &[
                        s.stones,
                        s.limit,
                        s.cap,
                        u32::from(s.own_resets),
                        u32::from(s.opp_resets),
                        u32::from(s.pending),
                    ],
                );
                out.put(s.turn.text());
            }
            Response::Version { software, protocol } => {
                out.put(text!("version "));
                software.write(out);
                out.fill(text!(" protocol #"), &[*protocol]);
            }
            Response::Policy(p) => {
                out.put(text!("policy "));
                out.put(p.text());
            }
            Response::Limits(l) => {
                out.fill(
                    text!("limits stones # resets # init_max "),
                    &[l.stones, u32::from(l.resets)],
                );
                match l.init_max {
                    Some(m) => out.put_num(m),
                    None => out.put(text!("any")),
                }
                out.fill(text!(" line #"), &[l.line]);
            }
            Response::Help(h) => {
                out.put(text!("help "));
                h.write(out);
            }
            Response::Error(reason) => {
                out.put(text!("error "));
                match reason {
                    Reason::Says(p) => p.write(out),
                    Reason::BadTake { take, limit } => out.fill(
                        text!("illegal move: take # is outside 1..=#"),
                        &[*take, *limit],
                    ),
                    Reason::Illegal(p) => {
                        out.put(text!("illegal move: "));
                        p.write(out);
                    }
                }
            }
            #[cfg(feature = "related-games")]
            Response::FibonacciMove { take, won } => {
                out.put(text!("move "));
                out.put_num64(*take);
                out.put_won(*won);
            }
            #[cfg(feature = "related-games")]
            Response::FibonacciState {
                stones,
                limit,
                turn,
            } => {
                out.put(text!("state fibonacci stones "));
                out.put_num64(*stones);
                out.put(text!(" limit "));
                out.put_num64(*limit);
                out.put(text!(" turn "));
                out.put(turn.text());
            }
            #[cfg(feature = "related-games")]
            Response::SuperNimMove { mv, over } => {
                out.put(text!("move "));
                out.put_sn_move(*mv);
                if let Some(r) = over {
                    out.put(text!(" over "));
                    out.put(r.text());
                }
            }
            #[cfg(feature = "related-games")]
            Response::SuperNimOver(r) => {
                out.put(text!("over "));
                out.put(r.text());
            }
            #[cfg(feature = "related-games")]
            Response::SuperNimState { heaps, score, turn } => {
                out.put(text!("state supernim heaps "));
                if heaps.is_empty() {
                    out.put_byte(b'-');
                }
                heaps.write(out);
                out.fill(text!(" score # # turn "), score);
                out.put(turn.text());
            }
        }
    }

    /// The reply in `line` (without its line ending), or `None` if it is not one.
    pub fn parse(line: &'a [u8]) -> Option<Response<'a>> {
        let mut w = Words::new(line);
        let first = w.next()?;
        let reply = match first {
            b"ok" => Response::Ok,
            b"lost" => Response::Lost,
            b"move" => Self::parse_move(&mut w)?,
            b"win" | b"lose" => Response::Query {
                value: value(first)?,
                mv: Move::new(w.num()?, flag(w.next()?)?),
                distance: parse_distance(w.next()?)?,
            },
            b"moves" => Self::parse_moves(&mut w)?,
            b"state" => Self::parse_state(&mut w)?,
            b"version" => {
                let rest = after_space(line, 7)?;
                let at = rest
                    .windows(10)
                    .rposition(|x| x == b" protocol ")
                    .filter(|i| *i > 0)?;
                let software = rest.get(..at)?;
                let mut tail = Words::new(rest.get(at + 10..)?);
                let protocol = tail.num()?;
                tail.done()?;
                return Some(Response::Version {
                    software: Phrase::Bytes(software),
                    protocol,
                });
            }
            b"policy" => Response::Policy(Policy::from_name(w.next()?)?),
            b"limits" => {
                let stones = w.eat(b"stones")?.num()?;
                let resets = w.eat(b"resets")?.small()?;
                let init_max = match w.eat(b"init_max")?.next()? {
                    b"any" => None,
                    m => Some(parse_u32(m)?),
                };
                Response::Limits(Limits {
                    stones,
                    resets,
                    init_max,
                    line: w.eat(b"line")?.num()?,
                })
            }
            b"help" => return Some(Response::Help(Phrase::Bytes(after_space(line, 4)?))),
            b"error" => {
                let rest = after_space(line, 5)?;
                return Some(Response::Error(
                    match rest.strip_prefix(b"illegal move: ") {
                        None => Reason::Says(Phrase::Bytes(rest)),
                        Some(what) => {
                            bad_take(what).unwrap_or(Reason::Illegal(Phrase::Bytes(what)))
                        }
                    },
                ));
            }
            #[cfg(feature = "related-games")]
            b"over" => Response::SuperNimOver(Turn::parse(w.next()?)?),
            _ => return None,
        };
        w.done()?;
        Some(reply)
    }

    fn parse_move(w: &mut Words<'a>) -> Option<Response<'a>> {
        let first = w.next()?;
        #[cfg(feature = "related-games")]
        if let Some(mv) = sn_move(first, w) {
            let over = match w.next() {
                None => None,
                Some(b"over") => Some(Turn::parse(w.next()?)?),
                Some(_) => return None,
            };
            return Some(Response::SuperNimMove { mv, over });
        }
        let take = nimbot::text::parse_u64(first)?;
        match w.next() {
            #[cfg(feature = "related-games")]
            None => Some(Response::FibonacciMove { take, won: false }),
            #[cfg(feature = "related-games")]
            Some(b"won") => Some(Response::FibonacciMove { take, won: true }),
            Some(f) => {
                let mv = Move::new(u32::try_from(take).ok()?, flag(f)?);
                let won = match w.next() {
                    None => false,
                    Some(b"won") => true,
                    Some(_) => return None,
                };
                Some(Response::Move { mv, won })
            }
            #[cfg(not(feature = "related-games"))]
            None => None,
        }
    }

    fn parse_moves(w: &mut Words<'a>) -> Option<Response<'a>> {
        let value = value(w.next()?)?;
        let distance = parse_distance(w.next()?)?;
        let all = w.rest;
        // The moves run to `more I` or the end.
        let mut ahead = w.clone();
        let mut more = None;
        let mut moves_len = all.len();
        loop {
            let left = ahead.rest.len();
            match ahead.next() {
                None => break,
                Some(b"more") => {
                    moves_len = all.len() - left;
                    more = Some(ahead.num()?);
                    ahead.done()?;
                    break;
                }
                Some(_) => {}
            }
        }
        let moves = List::parse(all.get(..moves_len)?)?;
        *w = Words::new(&[]);
        Some(Response::Moves(Page {
            value,
            distance,
            moves,
            more,
        }))
    }

    fn parse_state(w: &mut Words<'a>) -> Option<Response<'a>> {
        let turn = |w: &mut Words<'a>| -> Option<Turn> { Turn::parse(w.eat(b"turn")?.next()?) };
        match w.next()? {
            b"none" => Some(Response::State(None)),
            b"stones" => {
                let stones = w.num()?;
                let limit = w.eat(b"limit")?.num()?;
                let cap = w.eat(b"cap")?.num()?;
                let own_resets = w.eat(b"resets")?.small()?;
                let opp_resets = w.small()?;
                let pending = flag(w.eat(b"pending")?.next()?)?;
                Some(Response::State(Some(State {
                    stones,
                    limit,
                    cap,
                    own_resets,
                    opp_resets,
                    pending,
                    turn: turn(w)?,
                })))
            }
            #[cfg(feature = "related-games")]
            b"fibonacci" => {
                let stones = nimbot::text::parse_u64(w.eat(b"stones")?.next()?)?;
                let limit = nimbot::text::parse_u64(w.eat(b"limit")?.next()?)?;
                Some(Response::FibonacciState {
                    stones,
                    limit,
                    turn: turn(w)?,
                })
            }
            #[cfg(feature = "related-games")]
            b"supernim" => {
                let heaps = match w.eat(b"heaps")?.next()? {
                    b"-" => List::of(&[]),
                    list => List::parse(list).filter(|l| !l.is_empty())?,
                };
                let score = [w.eat(b"score")?.num()?, w.num()?];
                Some(Response::SuperNimState {
                    heaps,
                    score,
                    turn: turn(w)?,
                })
            }
            _ => None,
        }
    }
}

/// The bytes of `line` after its first word of `len` bytes and one space (a
/// reply's free text: `help ...`, `error ...`).
fn after_space(line: &[u8], len: usize) -> Option<&[u8]> {
    line.get(len..)?.strip_prefix(b" ")
}

/// `take K is outside 1..=L`.
fn bad_take(what: &[u8]) -> Option<Reason<'static>> {
    let mut w = Words::new(what);
    let take = w.eat(b"take")?.num()?;
    let limit = w
        .eat(b"is")?
        .eat(b"outside")?
        .next()?
        .strip_prefix(b"1..=")?;
    let limit = parse_u32(limit)?;
    w.done()?;
    Some(Reason::BadTake { take, limit })
}

fn value(word: &[u8]) -> Option<Value> {
    match word {
        b"win" => Some(Value::Won),
        b"lose" => Some(Value::Lost),
        _ => None,
    }
}

/// A distance, or `-` for none.
fn parse_distance(word: &[u8]) -> Option<Option<u16>> {
    match word {
        b"-" => Some(None),
        d => Some(Some(u16::try_from(parse_u32(d)?).ok()?)),
    }
}

fn digits(n: u32) -> usize {
    Decimal::new(n).as_bytes().len()
}

fn distance_len(d: Option<u16>) -> usize {
    d.map_or(1, |d| digits(u32::from(d)))
}

/// A Super-Nim move starting with `kind`.
#[cfg(feature = "related-games")]
fn sn_move(kind: &[u8], w: &mut Words<'_>) -> Option<sn::Move> {
    Some(match kind {
        b"merge" => sn::Move::Merge {
            from: w.small()?,
            onto: w.small()?,
        },
        b"grow" => sn::Move::Grow(w.small()?),
        b"split" => sn::Move::Split(w.small()?),
        _ => return None,
    })
}

/// The writer's pieces. Writes past [`MAX_REPLY`](super::MAX_REPLY) are dropped;
/// the replies are far shorter.
impl Reply {
    // One copy of the loop for the many call sites (smaller on every target).
    #[inline(never)]
    fn put(&mut self, text: Text) {
        for b in text.bytes() {
            self.put_byte(b);
        }
    }

    fn put_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.put_byte(b);
        }
    }

    fn put_byte(&mut self, b: u8) {
        let _ = self.0.push(b);
    }

    fn put_num(&mut self, n: u32) {
        // With the related games the 64-bit writer is there anyway: one of the two.
        #[cfg(feature = "related-games")]
        self.put_num64(u64::from(n));
        #[cfg(not(feature = "related-games"))]
        self.put_bytes(&Decimal::new(n));
    }

    /// A number that may not fit 32 bits (Fibonacci Nim's).
    #[cfg(feature = "related-games")]
    fn put_num64(&mut self, n: u64) {
        self.put_bytes(&Decimal::new(n));
    }

    /// `template`, each `#` in it replaced by the next of `numbers`.
    #[inline(never)]
    fn fill(&mut self, template: Text, numbers: &[u32]) {
        let mut numbers = numbers.iter();
        for b in template.bytes() {
            match (b, b == b'#') {
                (_, true) => {
                    if let Some(&n) = numbers.next() {
                        self.put_num(n);
                    }
                }
                (b, false) => self.put_byte(b),
            }
        }
    }

    /// A distance to the end, or `-` when the engine has none.
    fn put_distance(&mut self, d: Option<u16>) {
        match d {
            Some(d) => self.put_num(u32::from(d)),
            None => self.put_byte(b'-'),
        }
    }

    fn put_move(&mut self, mv: Move) {
        self.fill(text!("# #"), &[mv.take, u32::from(mv.reset)]);
    }

    fn put_won(&mut self, won: bool) {
        if won {
            self.put(text!(" won"));
        }
    }

    #[cfg(feature = "related-games")]
    fn put_sn_move(&mut self, mv: sn::Move) {
        match mv {
            sn::Move::Merge { from, onto } => {
                self.fill(text!("merge # #"), &[u32::from(from), u32::from(onto)])
            }
            sn::Move::Grow(n) => self.fill(text!("grow #"), &[u32::from(n)]),
            sn::Move::Split(n) => self.fill(text!("split #"), &[u32::from(n)]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_back() {
        let l: List<'_, u32> = List::parse(b"3,4,12").unwrap();
        assert!(l.iter().eq([3, 4, 12]));
        assert_eq!(l, List::of(&[3, 4, 12]));
        for bad in [&b""[..], b"3,,4", b",3", b"3,", b"3,x"] {
            assert!(
                List::<u32>::parse(bad).filter(|l| !l.is_empty()).is_none(),
                "{bad:?}"
            );
        }
        let e: List<'_, Entry> = List::parse(b" 1:w5  2r:l-\t3:w3 ").unwrap();
        assert_eq!(e.iter().count(), 3);
    }
}
