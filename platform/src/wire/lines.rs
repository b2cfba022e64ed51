//! The platform's text lines: what the stock `exp-nim` client prints to a bot, and
//! the server's `game-log.txt`, which share their lines (`You took 3 stones.` to a
//! bot, `Player alice took 3 stones.` in the log), and the reason texts that end a
//! game (in both, and in the state message's `reason`). Each line is a [`Line`]
//! read by [`Line::parse`] and written by [`Line::emit`]; the texts are spelled here
//! and nowhere else in the repository (a tidy test holds it).

use nimbot::{
    text::{parse_u32, Decimal},
    Move,
};

use super::limits::MAX_NAME;
use super::reason::Reason;
use crate::json::Writer;

/// The prompt `exp-nim` writes when it wants a move (no newline after it).
pub const PROMPT: &[u8] = b"Please enter your move: ";
/// How exp-nim starts a line about the bot's own move.
pub const YOU_TOOK: &[u8] = b"You took ";
/// How exp-nim starts a line about the opponent's move.
pub const OPPONENT_TOOK: &[u8] = b"Opponent took ";
/// How a line with the pile's count starts.
pub const STONES_LEFT: &[u8] = b"Stones left: ";
/// How a line with the state's `current_max` starts.
pub const CURRENT_MAX: &[u8] = b"Current max: ";

/// The line before the reason (some copies: `Game over!`).
pub const GAME_OVER: &[u8] = b"Game over";
/// The same in some copies.
pub const GAME_OVER_BANG: &[u8] = b"Game over!";
/// What exp-nim answers a line it cannot read.
pub const INVALID: &[u8] = b"Invalid move string";

/// The line between two move records (39 dashes).
pub const DASHES: &[u8] = b"---------------------------------------";

/// Who made a reported move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover<'a> {
    /// `You took ...` (exp-nim, the bot's own move).
    You,
    /// `Opponent took ...` (exp-nim).
    Opponent,
    /// `Player NAME took ...` (the game log).
    Player(&'a [u8]),
}

/// A reason text: `Player NAME` and the ending of a [`Reason`], e.g. `Player alice
/// won the game! Congrats!`. NAME is the winner for [`Reason::Won`], the player at
/// fault otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending<'a> {
    /// How the game ended (never [`Reason::Unknown`] when parsed).
    pub reason: Reason,
    /// The name in the text.
    pub player: &'a [u8],
}

impl<'a> Ending<'a> {
    /// Read a reason text; `None` for a text of no known form.
    pub fn parse(text: &'a [u8]) -> Option<Self> {
        let reason = Reason::classify(text);
        let cut = text.len().checked_sub(reason.suffix().len())?;
        let player = text.get(b"Player ".len()..cut)?;
        (reason != Reason::Unknown).then_some(Ending { reason, player })
    }

    /// Write the text (no line end).
    pub fn emit<const N: usize>(&self, w: &mut Writer<N>) {
        w.raw(b"Player ")
            .raw(self.player)
            .raw(self.reason.suffix().as_bytes());
    }
}

/// One line of `exp-nim`'s output or of the game log (without its line end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// `You took K stones.`, `Opponent took 1 stones and used reset.` or `Player
    /// NAME took K stones.` (the platform writes "stones" for one too; `1 stone`
    /// is read as well).
    Took(Mover<'a>, Move),
    /// `Current max: X` (the state message's `current_max`).
    CurrentMax(u32),
    /// `Stones left: S`.
    StonesLeft(u32),
    /// The line of 39 dashes ending a move's record (any run of dashes is read).
    Dashes,
    /// `Game over` (also `Game over!`): the reason line follows.
    GameOver,
    /// A reason text ([`Ending`]).
    Ending(Ending<'a>),
    /// The prompt, when a line holds only it.
    Prompt,
    /// `Invalid move string`: exp-nim could not read the bot's answer.
    Invalid,
    /// A line that starts like a move, a maximum or a count but cannot be read
    /// (`Stones left: x`, `You took two stones.`).
    Unreadable(&'a [u8]),
    /// A line of no known form (banners, reset counts of some copies).
    Other(&'a [u8]),
}

impl<'a> Line<'a> {
    /// Read one line (trailing spaces, tabs and `\r` are ignored).
    #[inline(never)]
    pub fn parse(line: &'a [u8]) -> Self {
        // Lines that start with a fixed text and end with a number or a move,
        // tried in turn (a loop over a table compiles smaller than a branch each).
        const HEADS: [&[u8]; 4] = [YOU_TOOK, OPPONENT_TOOK, CURRENT_MAX, STONES_LEFT];
        let line = trim(line);
        for (i, head) in HEADS.into_iter().enumerate() {
            let Some(rest) = after_prefix(line, head) else {
                continue;
            };
            let read = match i {
                0 => took(rest).map(|mv| Line::Took(Mover::You, mv)),
                1 => took(rest).map(|mv| Line::Took(Mover::Opponent, mv)),
                2 => parse_u32(rest).map(Line::CurrentMax),
                _ => parse_u32(rest).map(Line::StonesLeft),
            };
            return read.unwrap_or(Line::Unreadable(line));
        }
        if let Some(e) = Ending::parse(line) {
            return Line::Ending(e);
        }
        if let Some(rest) = after_prefix(line, b"Player ") {
            // The name may hold spaces and even " took ": the last one counts.
            // Copies print other lines about a player (`Player x has 0 resets left`).
            let mut at = rest.len();
            while at > 0 {
                at -= 1;
                if let (Some(name), Some(tail)) = (rest.get(..at), rest.get(at..)) {
                    if let Some(tail) = after_prefix(tail, b" took ") {
                        return took(tail).map_or(Line::Unreadable(line), |mv| {
                            Line::Took(Mover::Player(name), mv)
                        });
                    }
                }
            }
            return Line::Other(line);
        }
        if let Some(kind) = Line::whole(line) {
            return kind;
        }
        if line.first() == Some(&b'-') && line.iter().all(|&b| b == b'-') {
            return Line::Dashes;
        }
        Line::Other(line)
    }

    /// The lines that are one fixed text (`Game over`, `Game over!`, `Invalid move
    /// string`, the prompt), read from a trimmed line: what a reader that takes the
    /// other lines apart itself asks.
    pub fn whole(line: &[u8]) -> Option<Line<'static>> {
        const WHOLE: [(&[u8], Line<'static>); 3] = [
            (GAME_OVER, Line::GameOver),
            (GAME_OVER_BANG, Line::GameOver),
            (INVALID, Line::Invalid),
        ];
        for (text, kind) in WHOLE {
            if line == text {
                return Some(kind);
            }
        }
        (line == trim(PROMPT)).then_some(Line::Prompt)
    }

    /// Write the line and its `\n` (the prompt without one).
    pub fn emit<const N: usize>(&self, w: &mut Writer<N>) {
        match *self {
            Line::Took(who, mv) => {
                match who {
                    Mover::You => w.raw(YOU_TOOK),
                    Mover::Opponent => w.raw(OPPONENT_TOOK),
                    Mover::Player(name) => w.raw(b"Player ").raw(name).raw(b" took "),
                };
                w.raw(&Decimal::new(mv.take)).raw(if mv.reset {
                    b" stones and used reset."
                } else {
                    b" stones."
                });
            }
            Line::CurrentMax(x) => {
                w.raw(CURRENT_MAX).raw(&Decimal::new(x));
            }
            Line::StonesLeft(s) => {
                w.raw(STONES_LEFT).raw(&Decimal::new(s));
            }
            Line::Dashes => {
                w.raw(DASHES);
            }
            Line::GameOver => {
                w.raw(GAME_OVER);
            }
            Line::Ending(e) => e.emit(w),
            Line::Prompt => {
                w.raw(PROMPT);
                return;
            }
            Line::Invalid => {
                w.raw(INVALID);
            }
            Line::Unreadable(text) | Line::Other(text) => {
                w.raw(text);
            }
        }
        w.raw(b"\n");
    }
}

/// Room for one [`record`].
pub const MAX_RECORD: usize = 3 * MAX_NAME;

/// What exp-nim prints after a move, and the game log's record of it: the move
/// line, `Current max: X`, `Stones left: S` and the dashes, each ended.
pub fn record<const N: usize>(
    w: &mut Writer<N>,
    who: Mover<'_>,
    mv: Move,
    current_max: u32,
    stones_left: u32,
) {
    for line in [
        Line::Took(who, mv),
        Line::CurrentMax(current_max),
        Line::StonesLeft(stones_left),
        Line::Dashes,
    ] {
        line.emit(w);
    }
}

/// What follows `prefix` in `line`, if `line` starts with it. (`strip_prefix`, but
/// with no slice split the optimizer must prove in bounds: some compilers leave
/// that panic path in, and small builds link only without one.)
pub fn after_prefix<'a>(line: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    if line.get(..prefix.len())? == prefix {
        line.get(prefix.len()..)
    } else {
        None
    }
}

/// `K stones.` or `K stones and used reset.` (also `1 stone.`, and without the dot):
/// what follows `You took ` and the like.
pub fn took(rest: &[u8]) -> Option<Move> {
    let len = rest.iter().position(|b| *b == b' ')?;
    let (k, tail) = rest.split_at_checked(len)?;
    let take = parse_u32(k)?;
    let tail = match tail.split_last() {
        Some((b'.', head)) => head,
        _ => tail,
    };
    // " stone" or " stones", then " and used reset" if a reset was used: matched
    // piece by piece, which compiles smaller than the four whole endings.
    let tail = after_prefix(tail, b" stone")?;
    let tail = after_prefix(tail, b"s").unwrap_or(tail);
    let reset = match tail {
        [] => false,
        _ if after_prefix(tail, b" and used reset")?.is_empty() => true,
        _ => return None,
    };
    Some(Move::new(take, reset))
}

/// `line` without trailing spaces, tabs and `\r`.
pub fn trim(line: &[u8]) -> &[u8] {
    let mut l = line;
    while let [rest @ .., last] = l {
        if matches!(*last, b' ' | b'\r' | b'\t') {
            l = rest;
        } else {
            break;
        }
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: Line<'_>) -> std::string::String {
        let mut w = Writer::<256>::new();
        line.emit(&mut w);
        std::string::String::from_utf8(w.finish().unwrap().to_vec()).unwrap()
    }

    #[test]
    fn lines_read_what_they_write() {
        let lines = [
            Line::Took(Mover::You, Move::new(3, false)),
            Line::Took(Mover::Opponent, Move::new(1, true)),
            Line::Took(Mover::Player(b"first noob took x"), Move::new(12, true)),
            Line::CurrentMax(4),
            Line::StonesLeft(0),
            Line::Dashes,
            Line::GameOver,
            Line::Ending(Ending {
                reason: Reason::TooManyResets,
                player: b"first noob",
            }),
            Line::Invalid,
            Line::Other(b"Good luck have fun!"),
        ];
        for line in lines {
            let t = text(line);
            assert_eq!(Line::parse(t.trim_end().as_bytes()), line, "{t:?}");
        }
        assert_eq!(text(lines[1]), "Opponent took 1 stones and used reset.\n");
        assert_eq!(text(Line::Dashes).len(), 40);
        assert_eq!(text(Line::Prompt), "Please enter your move: ");
        assert_eq!(Line::parse(b"Please enter your move: "), Line::Prompt);
    }

    #[test]
    fn moves_and_endings_are_read_strictly() {
        for (rest, want) in [
            (&b"1 stone."[..], Some(Move::new(1, false))),
            (b"12 stones", Some(Move::new(12, false))),
            (b"1 stone and used reset.", Some(Move::new(1, true))),
            (b"3 stones and used reset", Some(Move::new(3, true))),
            (b"3 stoness", None),
            (b"3 stones and used", None),
            (b"3 stones and used reset!", None),
            (b"3 stones and used resets", None),
            (b"3 stones.", Some(Move::new(3, false))),
            (b"3 stonesand used reset", None),
            (b"3 ston", None),
            (b"x stones", None),
            (b"3", None),
        ] {
            assert_eq!(took(rest), want, "{:?}", core::str::from_utf8(rest));
        }
        assert_eq!(
            Line::parse(b"Player a b won the game! Congrats!\r"),
            Line::Ending(Ending {
                reason: Reason::Won,
                player: b"a b"
            })
        );
        assert_eq!(Ending::parse(b"Player x lost"), None);
        assert_eq!(Ending::parse(b"Bob won the game! Congrats!"), None);
        assert_eq!(
            Line::parse(b"Stones left: x"),
            Line::Unreadable(b"Stones left: x")
        );
        assert_eq!(
            Line::parse(b"Player a took two stones."),
            Line::Unreadable(b"Player a took two stones.")
        );
        assert_eq!(
            Line::parse(b"Player x has 0 resets left"),
            Line::Other(b"Player x has 0 resets left")
        );
    }
}
