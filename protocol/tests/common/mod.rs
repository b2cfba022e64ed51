//! Helpers shared by the line-protocol tests: sessions, one command and its reply,
//! dialogues checked line by line, `moves` and `query` read by the grammar, a
//! Super-Nim move's `opp` line.
#![allow(dead_code)]

use nimbot::{Engine, Move, Player, Value};
use nimbot_protocol::grammar::{Entry, Response};
use nimbot_protocol::{Session, MAX_REPLY};
use nimbot_solve::SolvingEngine;

/// The `opp` line of a Super-Nim move, written from docs/protocol.md apart from
/// the grammar's writer.
pub fn opp_line(mv: nimbot_supernim::Move) -> String {
    use nimbot_supernim::Move::{Grow, Merge, Split};
    match mv {
        Merge { from, onto } => format!("opp merge {from} {onto}"),
        Grow(n) => format!("opp grow {n}"),
        Split(n) => format!("opp split {n}"),
    }
}

/// A protocol session on the in-memory solver.
pub fn session() -> Session<SolvingEngine> {
    Session::new(SolvingEngine::default())
}

/// Send one command line; its one reply, checked to fit [`MAX_REPLY`].
pub fn send<E: Engine>(s: &mut Session<E>, line: &str) -> String {
    let reply = s
        .handle_line(line.as_bytes())
        .expect("a command gets a reply");
    assert!(reply.len() <= MAX_REPLY);
    String::from_utf8(reply.to_vec()).expect("replies are ASCII")
}

/// Send each line in turn and check its reply.
pub fn dialogue<E: Engine>(s: &mut Session<E>, exchanges: &[(&str, &str)]) {
    for &(line, expected) in exchanges {
        assert_eq!(send(s, line), expected, "reply to {line}");
    }
}

/// Send each line in turn, check its reply (an error) and that the game's state is
/// still `state` after it.
pub fn refused<E: Engine, S: AsRef<str>>(s: &mut Session<E>, state: &str, cases: &[(&str, S)]) {
    for (line, expected) in cases {
        assert_eq!(send(s, line), expected.as_ref(), "{line}");
        assert_eq!(send(s, "state"), state, "after {line}");
    }
}

/// The bot's opening move when it sits first; nothing yet when second.
pub fn opening(s: &mut Session<SolvingEngine>, bot: Player) -> String {
    if bot == Player::First {
        send(s, "go")
    } else {
        String::new()
    }
}

/// A `moves` reply's head and every move it lists, read by the grammar.
#[derive(Debug, PartialEq, Eq)]
pub struct Listing {
    /// The position's value for the mover.
    pub value: Value,
    /// Its distance (`-`: unknown).
    pub distance: Option<u16>,
    /// Its moves, every page of them in order.
    pub moves: Vec<Entry>,
}

/// `moves POS` on `s`, every page (following `more I`), each reply read by
/// [`Response::parse`] and checked to fit [`MAX_REPLY`]; with the number of pages.
/// A page is as full as the line allows: it leaves room for the longest `more I`
/// (` more 4294967295`, 16 bytes), and ends before a move only when that move and
/// that room would not fit.
pub fn all_moves<E: Engine>(s: &mut Session<E>, pos: &str) -> (Listing, usize) {
    let mut listing: Option<Listing> = None;
    let mut from = 0;
    // The previous page's length without its ` more I`.
    let mut cut: Option<(usize, String)> = None;
    for pages in 1.. {
        let line = format!("moves {pos} {from}");
        let reply = send(s, &line);
        let Some(Response::Moves(page)) = Response::parse(reply.as_bytes()) else {
            panic!("{line} -> {reply}: not a `moves` reply");
        };
        assert!(reply.len() <= MAX_REPLY, "{line} -> {reply}");
        if let Some((len, prev)) = cut.take() {
            let first = reply.split(' ').nth(3).unwrap_or("");
            assert!(
                len + 1 + first.len() + 16 > MAX_REPLY,
                "{prev} was cut before {first}, which fit"
            );
        }
        let all = listing.get_or_insert_with(|| Listing {
            value: page.value,
            distance: page.distance,
            moves: Vec::new(),
        });
        assert_eq!(
            (all.value, all.distance),
            (page.value, page.distance),
            "{line}: the head changed between pages"
        );
        let before = all.moves.len();
        all.moves.extend(page.moves.iter());
        match page.more {
            Some(i) => {
                assert!(all.moves.len() > before, "{line} -> {reply}: an empty page");
                assert_eq!(i as usize, all.moves.len(), "{line} -> {reply}");
                let len = reply.rfind(" more ").unwrap_or(reply.len());
                // Room for any `more I`, however far the list goes.
                assert!(len + 16 <= MAX_REPLY, "{line} -> {reply}: no room for more");
                cut = Some((len, reply.clone()));
                from = i;
            }
            None => return (listing.expect("a page was read"), pages),
        }
    }
    unreachable!("pages are counted up from 1")
}

/// `query POS` on `s`, read by [`Response::parse`]: (value, move, distance).
pub fn query<E: Engine>(s: &mut Session<E>, pos: &str) -> (Value, Move, Option<u16>) {
    let line = format!("query {pos}");
    let reply = send(s, &line);
    match Response::parse(reply.as_bytes()) {
        Some(Response::Query {
            value,
            mv,
            distance,
        }) => (value, mv, distance),
        _ => panic!("{line} -> {reply}: not a `query` reply"),
    }
}
