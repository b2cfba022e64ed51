//! The replies ([`Response`]): each parsed from a line and written to a [`Reply`].

use crate::reply::Reply;
use nimbot::text::{match_text, parse_u32, text, Decimal, Text};
use nimbot::{Move, Policy, Value};
#[cfg(feature = "related-games")]
use nimbot_supernim as sn;

use super::words::{flag, Item, List, Phrase, Words};

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

    pub(super) fn parse(word: &[u8]) -> Option<Turn> {
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

    pub(super) fn parse_move(w: &mut Words<'a>) -> Option<Response<'a>> {
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

    pub(super) fn parse_moves(w: &mut Words<'a>) -> Option<Response<'a>> {
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

    pub(super) fn parse_state(w: &mut Words<'a>) -> Option<Response<'a>> {
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
pub(super) fn after_space(line: &[u8], len: usize) -> Option<&[u8]> {
    line.get(len..)?.strip_prefix(b" ")
}

/// `take K is outside 1..=L`.
pub(super) fn bad_take(what: &[u8]) -> Option<Reason<'static>> {
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

pub(super) fn value(word: &[u8]) -> Option<Value> {
    match word {
        b"win" => Some(Value::Won),
        b"lose" => Some(Value::Lost),
        _ => None,
    }
}

/// A distance, or `-` for none.
pub(super) fn parse_distance(word: &[u8]) -> Option<Option<u16>> {
    match word {
        b"-" => Some(None),
        d => Some(Some(u16::try_from(parse_u32(d)?).ok()?)),
    }
}

pub(super) fn digits(n: u32) -> usize {
    Decimal::new(n).as_bytes().len()
}

pub(super) fn distance_len(d: Option<u16>) -> usize {
    d.map_or(1, |d| digits(u32::from(d)))
}

/// A Super-Nim move starting with `kind`.
#[cfg(feature = "related-games")]
pub(super) fn sn_move(kind: &[u8], w: &mut Words<'_>) -> Option<sn::Move> {
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

/// The writer's pieces. Writes past [`MAX_REPLY`](crate::MAX_REPLY) are dropped;
/// the replies are far shorter.
impl Reply {
    // One copy of the loop for the many call sites (smaller on every target).
    #[inline(never)]
    pub(super) fn put(&mut self, text: Text) {
        for b in text.bytes() {
            self.put_byte(b);
        }
    }

    pub(super) fn put_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.put_byte(b);
        }
    }

    pub(super) fn put_byte(&mut self, b: u8) {
        let _ = self.0.push(b);
    }

    pub(super) fn put_num(&mut self, n: u32) {
        // With the related games the 64-bit writer is there anyway: one of the two.
        #[cfg(feature = "related-games")]
        self.put_num64(u64::from(n));
        #[cfg(not(feature = "related-games"))]
        self.put_bytes(&Decimal::new(n));
    }

    /// A number that may not fit 32 bits (Fibonacci Nim's).
    #[cfg(feature = "related-games")]
    pub(super) fn put_num64(&mut self, n: u64) {
        self.put_bytes(&Decimal::new(n));
    }

    /// `template`, each `#` in it replaced by the next of `numbers`.
    #[inline(never)]
    pub(super) fn fill(&mut self, template: Text, numbers: &[u32]) {
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
    pub(super) fn put_distance(&mut self, d: Option<u16>) {
        match d {
            Some(d) => self.put_num(u32::from(d)),
            None => self.put_byte(b'-'),
        }
    }

    pub(super) fn put_move(&mut self, mv: Move) {
        self.fill(text!("# #"), &[mv.take, u32::from(mv.reset)]);
    }

    pub(super) fn put_won(&mut self, won: bool) {
        if won {
            self.put(text!(" won"));
        }
    }

    #[cfg(feature = "related-games")]
    pub(super) fn put_sn_move(&mut self, mv: sn::Move) {
        match mv {
            sn::Move::Merge { from, onto } => {
                self.fill(text!("merge # #"), &[u32::from(from), u32::from(onto)])
            }
            sn::Move::Grow(n) => self.fill(text!("grow #"), &[u32::from(n)]),
            sn::Move::Split(n) => self.fill(text!("split #"), &[u32::from(n)]),
        }
    }
}
