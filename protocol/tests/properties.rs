//! Property tests (proptest) of the line protocol: every valid command, spaced at
//! random, gets exactly one reply, the documented one (as the grammar reads it),
//! the same as with canonical spacing.

use nimbot::{Policy, Position, Table, TableEngine};
use nimbot_protocol::grammar::{Limits, Phrase, Reason, Response};
use nimbot_protocol::{ActiveGame, Session, MAX_LINE};
use proptest::prelude::*;

/// The embedded table's games: up to 999 stones, M = 3.
const N: u32 = 999;
const M: u32 = 3;

/// Piles that can still be in play with cap c in games of at most N stones.
fn highest_pile(c: u32) -> u32 {
    let gone: u32 = (M..c).sum();
    N.saturating_sub(gone)
}

/// A valid command, its numbers read against the session's state when it is sent.
#[derive(Clone, Debug)]
enum Cmd {
    New {
        n: u32,
        r: u8,
        first: bool,
    },
    Go,
    Opp {
        take: u32,
        reset: bool,
    },
    Query {
        s: u32,
        c: u32,
        a: u8,
        b: u8,
        f: bool,
    },
    State,
    End,
    Policy(Option<Policy>),
    Version,
    Limits,
    Help,
}

fn command() -> impl Strategy<Value = Cmd> {
    prop_oneof![
        2 => (1u32..=999, 0u8..=4, any::<bool>()).prop_map(|(n, r, first)| Cmd::New { n, r, first }),
        6 => Just(Cmd::Go),
        6 => (any::<u32>(), any::<bool>()).prop_map(|(take, reset)| Cmd::Opp { take, reset }),
        2 => (any::<u32>(), M..46u32, 0u8..=4, 0u8..=4, any::<bool>())
            .prop_map(|(s, c, a, b, f)| Cmd::Query { s: 1 + s % highest_pile(c).max(1), c, a, b, f }),
        1 => Just(Cmd::State),
        1 => Just(Cmd::End),
        1 => prop_oneof![
            Just(None),
            Just(Some(Policy::First)),
            Just(Some(Policy::Trap)),
            Just(Some(Policy::Longest)),
            Just(Some(Policy::Exploit)),
        ]
        .prop_map(Cmd::Policy),
        1 => Just(Cmd::Version),
        1 => Just(Cmd::Limits),
        1 => Just(Cmd::Help),
    ]
}

/// The tokens of `cmd` for the current game, and the reply the protocol documents.
fn tokens_and_reply(cmd: &Cmd, session: &Session<TableEngine>) -> (Vec<String>, Reply) {
    let game = match session.game() {
        Some(&ActiveGame::Expanding(g, bot)) => Some((g, bot)),
        _ => None,
    };
    let t = |v: &[&dyn ToString]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    match *cmd {
        Cmd::New { n, r, first } => {
            let seat = if first { "first" } else { "second" };
            (t(&[&"new", &n, &r, &M, &seat]), Reply::Is(Response::Ok))
        }
        Cmd::Go => {
            let reply = match game {
                None => error("no game (send new)"),
                Some((g, _)) if g.winner().is_some() => error("the game is over"),
                Some((g, bot)) if g.to_move() != bot => {
                    error("out of turn: the opponent is to move (send opp)")
                }
                Some(_) => Reply::Move,
            };
            (t(&[&"go"]), reply)
        }
        Cmd::Opp { take, reset } => {
            let Some((g, bot)) = game else {
                return (t(&[&"opp", &1, &0]), error("no game (send new)"));
            };
            if g.winner().is_some() {
                return (t(&[&"opp", &1, &0]), error("the game is over"));
            }
            if g.to_move() == bot {
                return (
                    t(&[&"opp", &1, &0]),
                    error("out of turn: the bot is to move (send go)"),
                );
            }
            let k = 1 + take % g.limit();
            let reset = reset && g.resets_left(bot.other()) > 0 && k < g.stones();
            let reply = if k >= g.stones() {
                Reply::Is(Response::Lost)
            } else {
                Reply::Move
            };
            (t(&[&"opp", &k, &u8::from(reset)]), reply)
        }
        Cmd::Query { s, c, a, b, f } => {
            let pos = Position::new(s, c, a, b, f, M).unwrap();
            let table = Table::embedded();
            let d = session.policy().decide(&table, &pos).unwrap();
            // A table-only engine knows no distance.
            let reply = Response::Query {
                value: d.value,
                mv: d.mv,
                distance: None,
            };
            (
                t(&[&"query", &s, &c, &a, &b, &u8::from(f)]),
                Reply::Is(reply),
            )
        }
        Cmd::State => {
            let reply = if game.is_none() {
                Reply::Is(Response::State(None))
            } else {
                Reply::State
            };
            (t(&[&"state"]), reply)
        }
        Cmd::End => (t(&[&"end"]), Reply::Is(Response::Ok)),
        Cmd::Policy(p) => {
            let mut words = t(&[&"policy"]);
            words.extend(p.map(|p| p.as_str().to_string()));
            // The table knows values only: it refuses the policies that need more.
            let reply = match p {
                Some(Policy::Longest | Policy::Exploit) => {
                    error("policy not played by this engine")
                }
                _ => Reply::Is(Response::Policy(p.unwrap_or(session.policy()))),
            };
            (words, reply)
        }
        Cmd::Version => (
            t(&[&"version"]),
            Reply::Is(Response::Version {
                software: Phrase::Bytes(nimbot::SOFTWARE.as_bytes()),
                protocol: 2,
            }),
        ),
        Cmd::Limits => (
            t(&[&"limits"]),
            Reply::Is(Response::Limits(Limits {
                stones: 999,
                resets: 4,
                init_max: Some(3),
                line: MAX_LINE as u32,
            })),
        ),
        Cmd::Help => (t(&[&"help"]), Reply::Help),
    }
}

/// The reply the protocol documents, as the grammar reads it.
#[derive(Debug)]
enum Reply {
    Is(Response<'static>),
    /// `state stones ...`.
    State,
    /// `help ...`.
    Help,
    /// `move K F`, or `move K F won`.
    Move,
}

fn error(text: &'static str) -> Reply {
    Reply::Is(Response::Error(Reason::Says(Phrase::Bytes(
        text.as_bytes(),
    ))))
}

fn check_reply(want: &Reply, got: &str) -> Result<(), TestCaseError> {
    let reply = Response::parse(got.as_bytes());
    let fits = match want {
        Reply::Is(r) => reply == Some(*r),
        Reply::State => matches!(reply, Some(Response::State(Some(_)))),
        Reply::Help => matches!(reply, Some(Response::Help(_))),
        Reply::Move => matches!(reply, Some(Response::Move { .. })),
    };
    prop_assert!(fits, "{:?} is not {:?}", got, want);
    Ok(())
}

/// Spaces and tabs, at least one when `need`.
fn gap(need: bool) -> impl Strategy<Value = String> {
    prop::collection::vec(prop_oneof![Just(' '), Just('\t')], usize::from(need)..4)
        .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_valid_command_gets_its_one_reply_whatever_the_spacing(
        cmds in prop::collection::vec((command(), prop::collection::vec(gap(true), 8), gap(false), gap(false)), 1..60),
    ) {
        let engine = || TableEngine::embedded();
        let mut spaced = Session::new(engine());
        let mut plain = Session::new(engine());
        for (cmd, gaps, lead, trail) in &cmds {
            let (words, want) = tokens_and_reply(cmd, &plain);
            let mut line = lead.clone();
            for (i, w) in words.iter().enumerate() {
                if i > 0 {
                    line.push_str(&gaps[i - 1]);
                }
                line.push_str(w);
            }
            line.push_str(trail);
            // What LineReader hands over for a `\r\n` line is the text without it.
            prop_assert!(line.len() <= MAX_LINE);
            let a = spaced.handle_line(line.as_bytes()).expect("one reply");
            let b = plain.handle_line(words.join(" ").as_bytes()).expect("one reply");
            let (a, b) = (String::from_utf8(a.to_vec()).unwrap(), String::from_utf8(b.to_vec()).unwrap());
            prop_assert_eq!(&a, &b, "spacing changed the reply to {:?}", line);
            check_reply(&want, &a)?;
            prop_assert!(spaced.game() == plain.game());
        }
    }
}
