//! Property tests (proptest):
//! - random games, illegal moves included, through `Game` match a simple model of
//!   docs/rules.md written here from the text alone, move by move;
//! - `best_move` from a won position leaves the opponent a lost one (by the solver,
//!   and by a plain memoized search over the model for small piles);
//! - every valid line-protocol command, spaced at random, gets exactly one reply,
//!   the documented one, the same as with canonical spacing.

use std::collections::HashMap;
use std::sync::OnceLock;

use nimbot::{
    best_move, Game, IllegalMove, Move, Outcome, Params, Player, Policy, Position, Solution,
    SolveBox, Table, TableEngine,
};
use nimbot_protocol::grammar::{Limits, Phrase, Reason, Response};
use nimbot_protocol::{ActiveGame, Session, MAX_LINE};
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// A simple model of docs/rules.md: raw state, judged in the listed order.

#[derive(Clone, Debug, PartialEq, Eq)]
struct Model {
    m: u32,
    stones: u32,
    /// h: the largest take so far.
    largest: u32,
    resets: [u32; 2],
    /// The previous move declared a reset.
    pending: bool,
    turn: usize,
    winner: Option<usize>,
}

/// Why the model refuses a move (docs/rules.md's reasons; "game over" is ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    GameOver,
    OutOfTurn,
    Illegal,
    TooManyResets,
}

impl Model {
    fn new(n: u32, r: u32, m: u32) -> Self {
        Model {
            m,
            stones: n,
            largest: 0,
            resets: [r, r],
            pending: false,
            turn: 0,
            winner: None,
        }
    }

    /// L = M after the opponent's reset, else max(M, h + 1).
    fn limit(&self) -> u32 {
        if self.pending {
            self.m
        } else {
            self.m.max(self.largest + 1)
        }
    }

    /// Judge and apply: (1. time is not modelled) 2. out of turn, 3. the take,
    /// 4. the reset, 5. the empty pile wins. A refused move changes nothing.
    fn play(&mut self, player: usize, k: u32, reset: bool) -> Result<bool, Refusal> {
        if self.winner.is_some() {
            return Err(Refusal::GameOver);
        }
        if player != self.turn {
            return Err(Refusal::OutOfTurn);
        }
        if k < 1 || k > self.limit() {
            return Err(Refusal::Illegal);
        }
        if reset && self.resets[player] == 0 {
            return Err(Refusal::TooManyResets);
        }
        self.stones -= k.min(self.stones);
        self.largest = self.largest.max(k);
        if reset {
            self.resets[player] -= 1;
        }
        self.pending = reset;
        if self.stones == 0 {
            self.winner = Some(player);
            return Ok(true);
        }
        self.turn = 1 - player;
        Ok(false)
    }
}

fn seat(i: usize) -> Player {
    if i == 0 {
        Player::First
    } else {
        Player::Second
    }
}

fn refusal(e: IllegalMove) -> Refusal {
    match e {
        IllegalMove::GameOver => Refusal::GameOver,
        IllegalMove::OutOfTurn => Refusal::OutOfTurn,
        IllegalMove::BadTake { .. } => Refusal::Illegal,
        IllegalMove::NoResetsLeft => Refusal::TooManyResets,
        other => panic!("unexpected refusal {other:?}"),
    }
}

fn assert_same(game: &Game, model: &Model) {
    assert_eq!(game.stones(), model.stones);
    assert_eq!(game.largest_take(), model.largest);
    assert_eq!(u32::from(game.resets_left(Player::First)), model.resets[0]);
    assert_eq!(u32::from(game.resets_left(Player::Second)), model.resets[1]);
    assert_eq!(game.reset_pending(), model.pending);
    assert_eq!(game.winner(), model.winner.map(seat));
    if model.winner.is_none() {
        assert_eq!(game.to_move(), seat(model.turn));
        assert_eq!(game.limit(), model.limit());
        // The normalized state (s, c, a, b, f) of docs/rules.md.
        let pos = game.position().expect("game in progress");
        let me = model.turn;
        assert_eq!(pos.stones(), model.stones);
        assert_eq!(pos.cap(), model.m.max(model.largest + 1));
        assert_eq!(u32::from(pos.own_resets()), model.resets[me]);
        assert_eq!(u32::from(pos.opp_resets()), model.resets[1 - me]);
        assert_eq!(pos.reset_pending(), model.pending);
    } else {
        assert!(game.position().is_none());
    }
}

/// One attempted move, read against the state when it is played: mostly legal
/// takes by the player to move, sometimes too many stones, zero, a reset with none
/// left or the wrong player.
#[derive(Clone, Debug)]
struct Attempt {
    kind: u8,
    take: u32,
    reset: bool,
}

fn attempt() -> impl Strategy<Value = Attempt> {
    (0u8..20, 0u32..1000, any::<bool>()).prop_map(|(kind, take, reset)| Attempt {
        kind,
        take,
        reset,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn games_follow_the_rules_model(
        n in 1u32..400,
        r in 0u8..5,
        m in 1u32..7,
        moves in prop::collection::vec(attempt(), 1..120),
    ) {
        let mut game = Game::new(Params::new(n, r, m).unwrap());
        let mut model = Model::new(n, u32::from(r), m);
        assert_same(&game, &model);
        for a in moves {
            let limit = model.limit();
            let (player, take) = match a.kind {
                0 => (1 - model.turn, 1 + a.take % limit),     // out of turn
                1 => (model.turn, 0),                           // nothing taken
                2 => (model.turn, limit + 1 + a.take % 3),      // over the limit
                3 => (model.turn, a.take),                      // anything
                _ => (model.turn, 1 + a.take % limit),          // legal take
            };
            let want = model.play(player, take, a.reset);
            let got = game.play(seat(player), Move::new(take, a.reset));
            match (want, got) {
                (Ok(won), Ok(outcome)) => {
                    prop_assert_eq!(won, outcome == Outcome::Won(seat(player)));
                }
                (Err(w), Err(g)) => prop_assert_eq!(w, refusal(g)),
                (w, g) => prop_assert!(false, "model {:?}, game {:?}", w, g),
            }
            assert_same(&game, &model);
        }
    }
}

#[test]
fn bad_parameters_are_refused() {
    assert!(Params::new(0, 1, 3).is_err());
    assert!(Params::new(10, 1, 0).is_err());
    assert!(Params::new(1, 0, 1).is_ok());
}

// ---------------------------------------------------------------------------
// best_move from won positions.

const N: u32 = 999;
const R: u8 = 4;
const M: u32 = 3;

fn solution() -> &'static Solution {
    static S: OnceLock<Solution> = OnceLock::new();
    S.get_or_init(|| Solution::solve(SolveBox::games(N, R, M)).unwrap())
}

/// Piles that can still be in play with cap c in games of at most N stones.
fn highest_pile(c: u32) -> u32 {
    let gone: u32 = (M..c).sum();
    N.saturating_sub(gone)
}

/// Positions of the box: cap 3..=45, a pile that fits it, any resets and flag.
fn position() -> impl Strategy<Value = Position> {
    (M..46u32, any::<u32>(), 0..=R, 0..=R, any::<bool>()).prop_filter_map(
        "pile above the box",
        |(c, s, a, b, f)| {
            let hi = highest_pile(c);
            (hi >= 1).then(|| Position::new(1 + s % hi, c, a, b, f, M).unwrap())
        },
    )
}

/// Independent value for small piles: memoized search over the rules model's
/// moves from (s, c, a, b, f).
fn minimax(
    memo: &mut HashMap<(u32, u32, u8, u8, bool), bool>,
    p: (u32, u32, u8, u8, bool),
) -> bool {
    if let Some(&v) = memo.get(&p) {
        return v;
    }
    let (s, c, a, b, f) = p;
    let limit = if f { M } else { c };
    let mut win = false;
    'moves: for k in 1..=limit {
        for reset in [false, true] {
            if reset && a == 0 {
                continue;
            }
            if k >= s {
                if !reset {
                    win = true;
                    break 'moves;
                }
                continue;
            }
            let next = (s - k, c.max(k + 1), b, a - u8::from(reset), reset);
            if !minimax(memo, next) {
                win = true;
                break 'moves;
            }
        }
    }
    memo.insert(p, win);
    win
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn best_move_from_a_won_position_leaves_a_lost_one(pos in position()) {
        let sol = solution();
        let won = sol.value(&pos).expect("in the box").is_won();
        let d = best_move(sol, &pos).unwrap();
        prop_assert_eq!(d.value.is_won(), won);
        prop_assert!(pos.check(d.mv).is_ok(), "illegal {:?}", d.mv);
        let next = pos.after(d.mv).unwrap();
        if won {
            // Either the pile is empty (a win) or the opponent is lost.
            if let Some(next) = next {
                prop_assert_eq!(sol.value(&next), Some(nimbot::Value::Lost));
            }
            prop_assert!(!(next.is_none() && d.mv.reset), "a reset on the winning move");
        }
        // The embedded table agrees with the solver, move and value.
        let table = Table::embedded();
        prop_assert_eq!(table.probe(&pos).unwrap().is_won(), won);
        prop_assert_eq!(table.best_move(&pos).unwrap().value.is_won(), won);
    }

    #[test]
    fn solver_matches_a_plain_search_of_the_rules(
        s in any::<u32>(), c in M..12, a in 0..=R, b in 0..=R, f in any::<bool>(),
    ) {
        // Games of at most 80 stones: piles up to 80 - (M + ... + (c - 1)).
        static SMALL: OnceLock<Solution> = OnceLock::new();
        let sol = SMALL.get_or_init(|| Solution::solve(SolveBox::games(80, R, M)).unwrap());
        let s = 1 + s % (80 - (M..c).sum::<u32>());
        let pos = Position::new(s, c, a, b, f, M).unwrap();
        let mut memo = HashMap::new();
        prop_assert_eq!(
            sol.value(&pos).map(nimbot::Value::is_won),
            Some(minimax(&mut memo, (s, c, a, b, f)))
        );
    }
}

// ---------------------------------------------------------------------------
// The line protocol: valid commands with random spacing.

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
                software: Phrase::Bytes(format!("nimbot {}", nimbot::VERSION).leak().as_bytes()),
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
