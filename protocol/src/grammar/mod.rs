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

use crate::reply::Reply;

mod response;
mod words;

use nimbot::text::{parse_u32, text, word_index, Text};
use nimbot::{Move, Player, Policy};
#[cfg(feature = "related-games")]
use nimbot_supernim::{self as sn, MAX_HEAPS};
pub use response::{Entry, Limits, Page, Reason, Response, State, Turn};
#[cfg(feature = "related-games")]
use words::Tokens;
use words::{seat_text, Words};
pub use words::{Item, List, Phrase};

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
    /// model (`nimbot_supernim::Perfect`; builds with a heap only, the default
    /// there).
    Perfect,
    /// `search`: the boards' bounded search (`nimbot_supernim::decide`; the
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
        // By position in one list: a loop instead of a comparison per name, the
        // smaller code.
        let names = text!("new go opp query moves state end version limits policy help");
        let command = match word_index(name, names, b' ') {
            Some(0) => Self::parse_new(&mut words)?,
            Some(1) => Command::Go,
            Some(2) => Command::Opp(parse_opp(&mut words, context)?),
            Some(3) => Command::Query(Question::parse(
                &mut words,
                text!("usage: query STONES CAP OWN_RESETS OPP_RESETS PENDING(0|1)"),
            )?),
            // Not on the AVR: the Arduino Uno's 32 KB of flash have no room for it.
            #[cfg(not(target_arch = "avr"))]
            Some(4) => {
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
            Some(5) => Command::State,
            Some(6) => Command::End,
            Some(7) => Command::Version,
            Some(8) => Command::Limits,
            Some(9) => Command::Policy(match words.next() {
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
            Some(10) => Command::Help,
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
            Some(w) if word_index(w, text!("fibonacci supernim"), b' ').is_some() => {
                Err(text!("this build plays Expanding Nim only"))
            }
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
