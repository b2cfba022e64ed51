//! The platform's JSON messages, each a type that reads itself from one complete
//! object (`parse`) and writes itself as the course's server does (`emit`: Python's
//! `json.dumps` layout, `", "` and `": "` between items). The keys are spelled here
//! and nowhere else in the repository (a tidy test holds it).
//!
//! Strings (names, the winner, the reason) are kept as they stand between the
//! quotes on the wire, escapes left in place, and written back unchanged: what one
//! end parsed the other end emits byte for byte. A writer that starts from plain
//! text makes it safe first ([`safe_name`]).

use heapless::Vec;

use super::limits::MAX_NAME;
use crate::json::{JsonError, Object, Value, Writer};
use nimbot::{Move, Player};

/// The keys of the messages, for a reader that looks fields up itself (the tiny
/// binary's client, whose every byte counts, reads the few it needs one by one).
pub mod keys {
    #[allow(missing_docs)]
    pub const NAME: &str = "name";
    #[allow(missing_docs)]
    pub const ORDER: &str = "order";
    #[allow(missing_docs)]
    pub const INIT_STONES: &str = "init_stones";
    #[allow(missing_docs)]
    pub const INIT_RESETS: &str = "init_resets";
    #[allow(missing_docs)]
    pub const INIT_MAX: &str = "init_max";
    #[allow(missing_docs)]
    pub const GAME_TIME: &str = "game_time";
    #[allow(missing_docs)]
    pub const NUM_STONES: &str = "num_stones";
    #[allow(missing_docs)]
    pub const RESET: &str = "reset";
    #[allow(missing_docs)]
    pub const FINISHED: &str = "finished";
    #[allow(missing_docs)]
    pub const WINNER: &str = "winner";
    #[allow(missing_docs)]
    pub const REASON: &str = "reason";
    #[allow(missing_docs)]
    pub const CURRENT_MAX: &str = "current_max";
    #[allow(missing_docs)]
    pub const STONES_LEFT: &str = "stones_left";
    #[allow(missing_docs)]
    pub const STONES_REMOVED: &str = "stones_removed";
    #[allow(missing_docs)]
    pub const RESET_USED: &str = "reset_used";
    #[allow(missing_docs)]
    pub const RESETS_LEFT: &str = "resets_left";
    #[allow(missing_docs)]
    pub const TIME_TAKEN: &str = "time_taken";
    #[allow(missing_docs)]
    pub const PLAYER_0: &str = "player_0";
    #[allow(missing_docs)]
    pub const PLAYER_1: &str = "player_1";
}

/// The hello and the move as a client writes them, in pieces: the key of each
/// field with what surrounds it (`{"order": `, `, "num_stones": `, ...), for a
/// writer that puts the values in between itself (the tiny binary's client).
pub mod pieces {
    /// Starts a hello, before the name.
    pub const HELLO_NAME: &[u8] = b"{\"name\": ";
    /// After the hello's name, before the seat.
    pub const HELLO_ORDER: &[u8] = b", \"order\": ";
    /// Starts a move, before the seat.
    pub const MOVE_ORDER: &[u8] = b"{\"order\": ";
    /// After the move's seat, before the take.
    pub const MOVE_TAKE: &[u8] = b", \"num_stones\": ";
    /// After the move's take, before the reset flag.
    pub const MOVE_RESET: &[u8] = b", \"reset\": ";
}

/// Why a message could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WireError {
    /// Not one well-formed JSON object.
    Json(JsonError),
    /// A field the message needs is absent or of the wrong type (its description).
    Field(&'static str),
}

nimbot::error_from_as_str!(WireError);

impl WireError {
    /// A short, static description.
    pub const fn as_str(self) -> &'static str {
        match self {
            WireError::Json(e) => e.as_str(),
            WireError::Field(what) => what,
        }
    }
}

fn object(msg: &[u8]) -> Result<Object<'_>, WireError> {
    Object::parse(msg).map_err(WireError::Json)
}

fn u32_of(obj: &Object<'_>, key: &str) -> Option<u32> {
    obj.get(key).and_then(|v| v.as_u32())
}

fn seat_of(index: u32) -> Option<Player> {
    match index {
        0 => Some(Player::First),
        1 => Some(Player::Second),
        _ => None,
    }
}

/// Writes `"key": ` after `sep` (`{` for the first item, `, ` for the others).
fn key<const N: usize>(w: &mut Writer<N>, first: bool, key: &str) {
    w.raw(if first { b"{\"" } else { b", \"" })
        .raw(key.as_bytes())
        .raw(b"\": ");
}

/// A string as it stands on the wire (escapes in place), between quotes.
fn raw_string<const N: usize>(w: &mut Writer<N>, text: &[u8]) {
    w.raw(b"\"").raw(text).raw(b"\"");
}

/// `name` cut to [`MAX_NAME`] bytes, each byte that JSON would have to escape
/// (quotes, backslashes, control and non-ASCII bytes) made `_`: a name the referee
/// can write between quotes as it is.
pub fn safe_name(name: &[u8]) -> Vec<u8, MAX_NAME> {
    let mut out = Vec::new();
    for &b in name.iter().take(MAX_NAME) {
        let safe = if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            b
        } else {
            b'_'
        };
        let _ = out.push(safe);
    }
    out
}

/// A player's first message: `{"name": "alice", "order": 0}` (order 0 moves first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hello<'a> {
    /// The name: as it stands on the wire (escapes in place) when parsed; plain
    /// text to write, escaped by [`Hello::emit`] (a client's name is whatever its
    /// user typed).
    pub name: &'a [u8],
    /// The seat asked for.
    pub seat: Player,
}

impl<'a> Hello<'a> {
    /// Read a hello: a string `name` and an `order` of 0 or 1.
    #[inline(never)]
    pub fn parse(msg: &'a [u8]) -> Result<Self, WireError> {
        let obj = object(msg)?;
        let name = obj
            .get("name")
            .and_then(|v| v.as_str())
            .ok_or(WireError::Field("hello has no string name"))?;
        let seat = u32_of(&obj, "order")
            .and_then(seat_of)
            .ok_or(WireError::Field("hello has no order 0 or 1"))?;
        Ok(Hello { name, seat })
    }

    /// Write the hello.
    #[inline(never)]
    pub fn emit<const N: usize>(&self, w: &mut Writer<N>) {
        w.raw(pieces::HELLO_NAME)
            .string(self.name)
            .raw(pieces::HELLO_ORDER)
            .num(self.seat.index() as u64)
            .raw(b"}");
    }

    /// The name made safe for the referee to keep and repeat ([`safe_name`]).
    pub fn safe_name(&self) -> Vec<u8, MAX_NAME> {
        safe_name(self.name)
    }
}

/// The server's first message: `{"init_stones": N, "init_resets": R}`, and in some
/// copies `"init_max": M, "game_time": T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Welcome {
    /// N.
    pub stones: u32,
    /// R (as sent; the rules allow at most 255).
    pub resets: u32,
    /// M, when the server says it.
    pub init_max: Option<u32>,
    /// Each player's thinking time in microseconds, when the server says it (and a
    /// client can read it).
    pub game_time_us: Option<u64>,
}

impl Welcome {
    /// Read a welcome: integer `init_stones` and `init_resets`; `init_max` an integer
    /// or null or absent; an unreadable `game_time` counts as absent.
    #[inline(never)]
    pub fn parse(msg: &[u8]) -> Result<Self, WireError> {
        let obj = object(msg)?;
        Self::read(&obj)
    }

    fn read(obj: &Object<'_>) -> Result<Self, WireError> {
        const BAD: WireError = WireError::Field("first message is not a welcome");
        let stones = u32_of(obj, "init_stones").ok_or(BAD)?;
        let resets = u32_of(obj, "init_resets").ok_or(BAD)?;
        let init_max = match obj.get("init_max") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_u32().ok_or(BAD)?),
        };
        let game_time_us = obj.get("game_time").and_then(|v| v.as_micros());
        Ok(Welcome {
            stones,
            resets,
            init_max,
            game_time_us,
        })
    }

    /// Write the welcome (`game_time` as whole seconds when it is whole, as the
    /// platform's `-t 120` prints; with up to six decimals otherwise).
    #[inline(never)]
    pub fn emit<const N: usize>(&self, w: &mut Writer<N>) {
        key(w, true, "init_stones");
        w.num(u64::from(self.stones));
        key(w, false, "init_resets");
        w.num(u64::from(self.resets));
        if let Some(m) = self.init_max {
            key(w, false, "init_max");
            w.num(u64::from(m));
        }
        if let Some(us) = self.game_time_us {
            key(w, false, "game_time");
            w.num(us / 1_000_000);
            if us % 1_000_000 != 0 {
                // Six decimals, never an exponent: read back to the microsecond.
                let mut frac = us % 1_000_000;
                let mut width = 6;
                while frac % 10 == 0 {
                    frac /= 10;
                    width -= 1;
                }
                w.raw(b".").raw(&nimbot::text::Decimal::padded(frac, width));
            }
        }
        w.raw(b"}");
    }
}

/// A move: `{"order": 0, "num_stones": 3, "reset": false}`. The server reads only
/// `num_stones` and `reset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveMessage {
    /// The sender's seat (`order`), when given.
    pub seat: Option<Player>,
    /// The take and the reset.
    pub mv: Move,
}

impl MoveMessage {
    /// Read a move as the server does: an integer `num_stones` (0 up to `u32::MAX`)
    /// and `reset` a boolean, an integer (non-zero is true, as Python's `bool()`) or
    /// null or absent (false).
    #[inline(never)]
    pub fn parse(msg: &[u8]) -> Result<Self, WireError> {
        let obj = object(msg)?;
        let take = u32_of(&obj, "num_stones").ok_or(WireError::Field("no integer num_stones"))?;
        let reset = match obj.get("reset") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => b,
            Some(v) => v.as_u32().ok_or(WireError::Field("reset is not a flag"))? != 0,
        };
        let seat = u32_of(&obj, "order").and_then(seat_of);
        Ok(MoveMessage {
            seat,
            mv: Move::new(take, reset),
        })
    }

    /// Write the move (`order` first when the seat is known).
    pub fn emit<const N: usize>(&self, w: &mut Writer<N>) {
        match self.seat {
            Some(seat) => w
                .raw(pieces::MOVE_ORDER)
                .num(seat.index() as u64)
                .raw(pieces::MOVE_TAKE),
            // The same piece without its leading comma.
            None => w
                .raw(b"{")
                .raw(pieces::MOVE_TAKE.get(2..).unwrap_or_default()),
        };
        w.num(u64::from(self.mv.take))
            .raw(pieces::MOVE_RESET)
            .boolean(self.mv.reset)
            .raw(b"}");
    }
}

/// One player's block in a state message: `{"resets_left": R, "time_taken": T,
/// "name": "..."}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatState<'a> {
    /// Resets the player has left.
    pub resets_left: Option<u32>,
    /// Thinking time used, in microseconds; `None` before the player's first move
    /// (written as the integer `0`, as the server does) or when unreadable.
    pub time_taken_us: Option<u64>,
    /// The name as it stands on the wire.
    pub name: Option<&'a [u8]>,
}

impl<'a> SeatState<'a> {
    fn read(obj: &Object<'a>) -> Self {
        SeatState {
            resets_left: u32_of(obj, "resets_left"),
            time_taken_us: match obj.get("time_taken") {
                Some(Value::Number(b"0")) => None,
                v => v.and_then(|v| v.as_micros()),
            },
            name: obj.get("name").and_then(|v| v.as_str()),
        }
    }

    fn emit<const N: usize>(&self, w: &mut Writer<N>) {
        let mut first = true;
        if let Some(r) = self.resets_left {
            key(w, true, "resets_left");
            w.num(u64::from(r));
            first = false;
        }
        key(w, first, "time_taken");
        match self.time_taken_us {
            Some(us) => w.seconds(us),
            None => w.raw(b"0"),
        };
        if let Some(name) = self.name {
            key(w, false, "name");
            raw_string(w, name);
        }
        w.raw(b"}");
    }
}

/// How a game ended, in the message that ends it: `"winner"` (a name) and
/// `"reason"` (a text [`Ending`](super::lines::Ending) reads).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct End<'a> {
    /// The winner's name as it stands on the wire.
    pub winner: Option<&'a [u8]>,
    /// The reason text as it stands on the wire.
    pub reason: Option<&'a [u8]>,
}

/// The state after a move, sent to both players: `{"finished": false,
/// "current_max": 2, "stones_left": 5, "stones_removed": 2, "reset_used": true,
/// "init_max": 3, "player_0": {...}, "player_1": {...}}`; the message that ends the
/// game has `"finished": true` and, after it, `"winner"` and `"reason"` ([`End`]).
/// Every field but `finished` may be missing in some copy of the server.
///
/// As received, a state is checked once by [`State::parse`] and its fields are read
/// when asked for (a client reads what it needs, nothing more: the tiny binary
/// counts its bytes); [`StateFields`] holds them all, for a writer
/// ([`StateFields::emit`]) or a reader that wants every one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State<'a> {
    obj: Object<'a>,
    finished: bool,
}

const SEATS: [&str; 2] = ["player_0", "player_1"];

impl<'a> State<'a> {
    /// Check a state message: one JSON object with a boolean `finished`, and not a
    /// welcome (`init_stones`).
    #[inline(never)]
    pub fn parse(msg: &'a [u8]) -> Result<Self, WireError> {
        let obj = object(msg)?;
        if obj.get("init_stones").is_some() {
            return Err(WireError::Field("second welcome message"));
        }
        let finished = obj
            .get("finished")
            .and_then(|v| v.as_bool())
            .ok_or(WireError::Field("no boolean finished"))?;
        Ok(State { obj, finished })
    }

    /// The winner and the reason, in the message that ends the game.
    pub fn end(&self) -> Option<End<'a>> {
        self.finished.then(|| End {
            winner: self.obj.get("winner").and_then(|v| v.as_str()),
            reason: self.obj.get("reason").and_then(|v| v.as_str()),
        })
    }

    /// `current_max`, whose meaning varies between copies of the server.
    pub fn current_max(&self) -> Option<u32> {
        u32_of(&self.obj, "current_max")
    }

    /// Stones left after the move.
    pub fn stones_left(&self) -> Option<u32> {
        u32_of(&self.obj, "stones_left")
    }

    /// The move's take (for a refused move, the attempt).
    pub fn stones_removed(&self) -> Option<u32> {
        u32_of(&self.obj, "stones_removed")
    }

    /// Whether the move used a reset.
    pub fn reset_used(&self) -> Option<bool> {
        self.obj.get("reset_used").and_then(|v| v.as_bool())
    }

    /// M.
    pub fn init_max(&self) -> Option<u32> {
        u32_of(&self.obj, "init_max")
    }

    /// The move the message reports, when it has both its take and its reset.
    pub fn mv(&self) -> Option<Move> {
        Some(Move::new(self.stones_removed()?, self.reset_used()?))
    }

    /// The block of `seat`, if the message has one.
    pub fn seat(&self, seat: Player) -> Option<SeatState<'a>> {
        let key = SEATS.get(seat.index())?;
        let obj = self.obj.get(key)?.as_object()?;
        Some(SeatState::read(&obj))
    }

    /// Every field.
    pub fn fields(&self) -> StateFields<'a> {
        StateFields {
            end: self.end(),
            current_max: self.current_max(),
            stones_left: self.stones_left(),
            stones_removed: self.stones_removed(),
            reset_used: self.reset_used(),
            init_max: self.init_max(),
            players: [self.seat(Player::First), self.seat(Player::Second)],
        }
    }
}

/// Every field of a [`State`], to write one ([`StateFields::emit`]) or to read one
/// whole ([`StateFields::parse`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateFields<'a> {
    /// `Some` in the message that ends the game (`finished` true).
    pub end: Option<End<'a>>,
    /// `current_max`, whose meaning varies between copies of the server: the
    /// writer chooses it.
    pub current_max: Option<u32>,
    /// Stones left after the move.
    pub stones_left: Option<u32>,
    /// The move's take (for a refused move, the attempt).
    pub stones_removed: Option<u32>,
    /// Whether the move used a reset.
    pub reset_used: Option<bool>,
    /// M.
    pub init_max: Option<u32>,
    /// The two players' blocks, `player_0` first.
    pub players: [Option<SeatState<'a>>; 2],
}

impl<'a> StateFields<'a> {
    /// Read every field of a state message ([`State::parse`], [`State::fields`]).
    #[inline(never)]
    pub fn parse(msg: &'a [u8]) -> Result<Self, WireError> {
        State::parse(msg).map(|s| s.fields())
    }

    /// Write the state in the course server's order of keys (missing fields left
    /// out; a missing winner or reason of an end written `null`).
    #[inline(never)]
    pub fn emit<const N: usize>(&self, w: &mut Writer<N>) {
        key(w, true, "finished");
        w.boolean(self.end.is_some());
        if let Some(end) = self.end {
            for (k, v) in [("winner", end.winner), ("reason", end.reason)] {
                key(w, false, k);
                match v {
                    Some(text) => raw_string(w, text),
                    None => {
                        w.raw(b"null");
                    }
                }
            }
        }
        for (k, v) in [
            ("current_max", self.current_max),
            ("stones_left", self.stones_left),
            ("stones_removed", self.stones_removed),
        ] {
            if let Some(n) = v {
                key(w, false, k);
                w.num(u64::from(n));
            }
        }
        if let Some(r) = self.reset_used {
            key(w, false, "reset_used");
            w.boolean(r);
        }
        if let Some(m) = self.init_max {
            key(w, false, "init_max");
            w.num(u64::from(m));
        }
        for (k, seat) in SEATS.iter().zip(self.players) {
            if let Some(seat) = seat {
                key(w, false, k);
                seat.emit(w);
            }
        }
        w.raw(b"}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn emit<const N: usize>(f: impl FnOnce(&mut Writer<N>)) -> std::vec::Vec<u8> {
        let mut w = Writer::<N>::new();
        f(&mut w);
        w.finish().unwrap().to_vec()
    }

    #[test]
    fn hello_and_move_round_trip() {
        let h = Hello::parse(br#"{"order": 1, "name": "a\"b"}"#).unwrap();
        assert_eq!((h.name, h.seat), (&br#"a\"b"#[..], Player::Second));
        assert_eq!(h.safe_name().as_slice(), b"a__b");
        let plain = Hello {
            name: b"a\"b",
            seat: Player::Second,
        };
        let text = emit::<64>(|w| plain.emit(w));
        assert_eq!(text, br#"{"name": "a\"b", "order": 1}"#);
        assert_eq!(Hello::parse(&text), Ok(h));
        for (bad, why) in [
            (
                &br#"{"name": "x", "order": 2}"#[..],
                "hello has no order 0 or 1",
            ),
            (br#"{"order": 0}"#, "hello has no string name"),
        ] {
            assert_eq!(Hello::parse(bad), Err(WireError::Field(why)));
        }
        assert!(matches!(Hello::parse(b"{"), Err(WireError::Json(_))));

        let m = MoveMessage::parse(br#"{"num_stones": 3, "reset": 2, "x": []}"#).unwrap();
        assert_eq!((m.seat, m.mv), (None, Move::new(3, true)));
        let m = MoveMessage {
            seat: Some(Player::First),
            ..m
        };
        let text = emit::<64>(|w| m.emit(w));
        assert_eq!(text, br#"{"order": 0, "num_stones": 3, "reset": true}"#);
        assert_eq!(MoveMessage::parse(&text), Ok(m));
        for bad in [
            &br#"{"num_stones": "1"}"#[..],
            br#"{"num_stones": -1}"#,
            br#"{"num_stones": 1, "reset": "yes"}"#,
        ] {
            assert!(MoveMessage::parse(bad).is_err());
        }
    }

    #[test]
    fn welcome_round_trips() {
        let w = Welcome::parse(br#"{"init_stones": 7, "init_resets": 1}"#).unwrap();
        assert_eq!(
            w,
            Welcome {
                stones: 7,
                resets: 1,
                init_max: None,
                game_time_us: None
            }
        );
        let full = Welcome {
            init_max: Some(3),
            game_time_us: Some(120_000_000),
            ..w
        };
        let text = emit::<128>(|o| full.emit(o));
        assert_eq!(
            text,
            br#"{"init_stones": 7, "init_resets": 1, "init_max": 3, "game_time": 120}"#
        );
        assert_eq!(Welcome::parse(&text), Ok(full));
        let half = Welcome {
            game_time_us: Some(1_500_000),
            ..full
        };
        assert!(emit::<128>(|o| half.emit(o)).ends_with(b"\"game_time\": 1.5}"));
        let tiny = Welcome {
            game_time_us: Some(7),
            ..full
        };
        let text = emit::<128>(|o| tiny.emit(o));
        assert!(text.ends_with(b"\"game_time\": 0.000007}"));
        assert_eq!(Welcome::parse(&text), Ok(tiny));
        assert!(Welcome::parse(br#"{"init_stones": 7}"#).is_err());
        assert!(
            Welcome::parse(br#"{"init_stones": 7, "init_resets": 1, "init_max": "3"}"#).is_err()
        );
    }

    #[test]
    fn the_course_servers_state_reads_and_writes_back() {
        let text = br#"{"finished": true, "winner": "A", "reason": "Player A won the game! Congrats!", "current_max": 3, "stones_left": 0, "stones_removed": 2, "reset_used": false, "init_max": 3, "player_0": {"resets_left": 0, "time_taken": 0.600915, "name": "A"}, "player_1": {"resets_left": 1, "time_taken": 0, "name": "B"}}"#;
        let s = State::parse(text).unwrap();
        assert_eq!(s.end().unwrap().winner, Some(&b"A"[..]));
        assert_eq!(s.mv(), Some(Move::new(2, false)));
        assert_eq!(s.seat(Player::First).unwrap().time_taken_us, Some(600_915));
        assert_eq!(s.seat(Player::Second).unwrap().time_taken_us, None);
        assert_eq!(emit::<512>(|w| s.fields().emit(w)), text);
        // An old copy's nulls are read as absent.
        let old = br#"{"finished": false, "reason": null, "winner": null, "stones_left": 4}"#;
        let s = StateFields::parse(old).unwrap();
        assert_eq!((s.end, s.stones_left, s.reset_used), (None, Some(4), None));
        assert_eq!(
            emit::<512>(|w| s.emit(w)),
            br#"{"finished": false, "stones_left": 4}"#
        );
        assert_eq!(
            State::parse(br#"{"init_stones": 7, "finished": false}"#),
            Err(WireError::Field("second welcome message"))
        );
        assert_eq!(
            State::parse(b"{}"),
            Err(WireError::Field("no boolean finished"))
        );
    }
}
