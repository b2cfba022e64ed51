//! The referee against models written apart from it: random games, illegal moves,
//! garbage, closed connections and clocks included, judged by `nimbot-judge` (the
//! rules of docs/rules.md, written without nimbot) and a recount of each player's
//! clock, in docs/rules.md's order: out of turn, then time, then the take, then the
//! reset, then the win. Every state message is read back with the JSON reader and
//! compared field by field with the judge's state.

use heapless::Vec;
use nimbot::{Params, Player};
use nimbot_judge::{Judge, Refusal};
use nimbot_platform::json::{Object, Value};
use nimbot_platform::referee::{CurrentMax, Referee, MAX_STATE};
use nimbot_platform::wire::message::{Hello, WireError};
use nimbot_platform::wire::{Reason, MAX_NAME};

const NAMES: [&[u8]; 2] = [b"alice", b"bob"];

/// xorshift64*: the test's own dice, the same games on every run.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) % n
    }
}

fn names() -> [Vec<u8, MAX_NAME>; 2] {
    NAMES.map(|n| Vec::from_slice(n).unwrap())
}

/// The course server's reason text: `Player <offender>` and what it did.
fn reason_text(offender: usize, reason: Reason) -> String {
    let what = match reason {
        Reason::Won => "won the game! Congrats!",
        Reason::IllegalMove => "made an illegal move",
        Reason::TooManyResets => "used too many resets",
        Reason::OutOfTurn => "moved out of turn",
        Reason::TimeLimit => "exceeded time limit",
        Reason::Unknown => unreachable!(),
    };
    format!(
        "Player {} {what}",
        std::str::from_utf8(NAMES[offender]).unwrap()
    )
}

fn field<'a>(obj: &Object<'a>, key: &str) -> Value<'a> {
    obj.get(key)
        .unwrap_or_else(|| panic!("no {key} in {:?}", String::from_utf8_lossy(obj.text())))
}

/// What the models say the referee must have done.
struct Expect<'a> {
    judge: &'a Judge,
    /// Microseconds each seat has been charged, `None` before its first charge.
    used: [Option<u64>; 2],
    /// The verdict, as (winner, reason), if the game just ended.
    verdict: Option<(usize, Reason)>,
    take: u32,
    reset: bool,
    meaning: CurrentMax,
}

/// `msg` says what `want` says: finished, winner and reason, the limit as the server
/// reports it, the pile, the move shown, the resets, clocks and names.
fn check_state(msg: &[u8], want: &Expect) {
    let obj = Object::parse(msg).expect("a state message is one JSON object");
    let j = want.judge;
    assert_eq!(
        field(&obj, "finished").as_bool(),
        Some(want.verdict.is_some())
    );
    match want.verdict {
        Some((winner, reason)) => {
            assert_eq!(field(&obj, "winner").as_str(), Some(NAMES[winner]));
            let offender = if reason == Reason::Won {
                winner
            } else {
                1 - winner
            };
            let text = reason_text(offender, reason);
            assert_eq!(field(&obj, "reason").as_str(), Some(text.as_bytes()));
        }
        None => {
            assert!(obj.get("winner").is_none() && obj.get("reason").is_none());
        }
    }
    let current_max = match want.meaning {
        CurrentMax::Limit => j.limit(),
        CurrentMax::Largest => j.limit() - 1,
    };
    assert_eq!(field(&obj, "current_max").as_u32(), Some(current_max));
    assert_eq!(field(&obj, "stones_left").as_u32(), Some(j.stones()));
    assert_eq!(field(&obj, "stones_removed").as_u32(), Some(want.take));
    assert_eq!(field(&obj, "reset_used").as_bool(), Some(want.reset));
    for seat in 0..2 {
        let p = field(&obj, ["player_0", "player_1"][seat])
            .as_object()
            .unwrap();
        assert_eq!(field(&p, "resets_left").as_u32(), Some(j.resets(seat)));
        assert_eq!(field(&p, "name").as_str(), Some(NAMES[seat]));
        let taken = field(&p, "time_taken");
        match want.used[seat] {
            // Never charged: the integer 0, as the course's server prints it.
            None => assert_eq!(taken.as_u32(), Some(0)),
            // Python's float text (`0.0012`, `7e-06`), read by the standard library.
            Some(us) => match taken {
                Value::Number(text) => {
                    let secs: f64 = std::str::from_utf8(text).unwrap().parse().unwrap();
                    assert_eq!((secs * 1e6).round() as u64, us, "{secs}");
                }
                other => panic!("time_taken {other:?}"),
            },
        }
    }
}

/// One event a seat can cause.
#[derive(Clone, Copy, Debug)]
enum Event {
    Move { take: u32, reset: bool },
    Garbage,
    Closed,
    Timeout,
}

#[test]
fn random_games_are_judged_by_the_rules_and_the_clocks() {
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
    let mut verdicts = [0u32; 6];
    for game in 0..1500 {
        let n = 1 + dice.below(60) as u32;
        let r = dice.below(3) as u8;
        let m = 1 + dice.below(5) as u32;
        let limit_us = 2_000 + dice.below(6_000);
        let meaning = if game % 2 == 0 {
            CurrentMax::Limit
        } else {
            CurrentMax::Largest
        };
        let params = Params::new(n, r, m).unwrap();
        let mut referee = Referee::new(params, names(), limit_us, meaning);
        let mut judge = Judge::new(n, u32::from(r), m);
        let mut used: [Option<u64>; 2] = [None, None];
        let mut closed = [false; 2];
        for _ in 0..200 {
            let turn = judge.turn();
            // Mostly the player to move; sometimes the other one.
            let seat = if dice.below(12) == 0 { 1 - turn } else { turn };
            let limit = judge.limit();
            let event = match dice.below(60) {
                0 => Event::Garbage,
                1 => Event::Closed,
                2 => Event::Timeout,
                k => Event::Move {
                    take: match k {
                        3 => 0,
                        4 | 5 => limit + 1 + dice.below(3) as u32,
                        _ => 1 + dice.below(u64::from(limit)) as u32,
                    },
                    reset: dice.below(4) == 0,
                },
            };
            let elapsed = dice.below(1_200);
            let player = Player::from_index(seat);
            let mover = Player::from_index(turn);
            // What the models say happens: the verdict (winner, reason) if any.
            let (got, verdict, shown) = match event {
                Event::Timeout => {
                    let got = referee.on_timeout(elapsed);
                    used[turn] = Some(used[turn].unwrap_or(0) + elapsed);
                    (got, Some((1 - turn, Reason::TimeLimit)), (0, false))
                }
                Event::Closed => {
                    closed[seat] = true;
                    let got = referee.on_closed(player, elapsed);
                    if seat == turn {
                        used[turn] = Some(used[turn].unwrap_or(0) + elapsed);
                        (got, Some((1 - turn, Reason::TimeLimit)), (0, false))
                    } else {
                        assert!(got.is_none(), "closing the waiting seat says nothing");
                        // Its turn comes after the mover plays; the host asks then.
                        continue;
                    }
                }
                Event::Garbage | Event::Move { .. } => {
                    let (got, mv) = match event {
                        Event::Move { take, reset } => {
                            let text = format!(
                                r#"{{"order": {seat}, "num_stones": {take}, "reset": {reset}}}"#
                            );
                            (
                                referee.on_message(player, text.as_bytes(), elapsed),
                                Some((take, reset)),
                            )
                        }
                        _ => (referee.on_garbage(player, elapsed), None),
                    };
                    let shown = mv.unwrap_or((0, false));
                    if seat != turn {
                        (got, Some((turn, Reason::OutOfTurn)), shown)
                    } else {
                        let total = used[seat].unwrap_or(0) + elapsed;
                        used[seat] = Some(total);
                        if total > limit_us {
                            (got, Some((1 - seat, Reason::TimeLimit)), shown)
                        } else if let Some((take, reset)) = mv {
                            let verdict = match judge.play(seat, take, reset) {
                                Ok(()) => judge.winner().map(|w| (w, Reason::Won)),
                                Err(Refusal::BadTake) => Some((1 - seat, Reason::IllegalMove)),
                                Err(Refusal::NoResetsLeft) => {
                                    Some((1 - seat, Reason::TooManyResets))
                                }
                                Err(other) => panic!("the judge refused {other:?}"),
                            };
                            (got, verdict, shown)
                        } else {
                            (got, Some((1 - seat, Reason::IllegalMove)), shown)
                        }
                    }
                }
            };
            let msg: Vec<u8, MAX_STATE> = got.expect("every event of a live game gets a state");
            assert_eq!(
                referee.verdict().map(|v| (v.winner.index(), v.reason)),
                verdict,
                "game {game}: {event:?} by seat {seat} (to move {turn})"
            );
            let expect = Expect {
                judge: &judge,
                used,
                verdict,
                take: shown.0,
                reset: shown.1,
                meaning,
            };
            check_state(&msg, &expect);
            for (seat, spent) in used.iter().enumerate() {
                let p = Player::from_index(seat);
                let spent = spent.unwrap_or(0);
                assert_eq!(referee.used_us(p), spent);
                assert_eq!(referee.remaining_us(p), limit_us.saturating_sub(spent));
            }
            if let Some((_, reason)) = verdict {
                verdicts[reason as usize] += 1;
                // Nothing follows a verdict, whoever speaks.
                assert!(referee
                    .on_message(mover, b"{\"num_stones\": 1}", 0)
                    .is_none());
                assert!(referee.on_garbage(mover.other(), 0).is_none());
                assert!(referee.on_timeout(0).is_none());
                assert!(referee.verdict().is_some());
                break;
            }
            assert_eq!(referee.to_move().index(), judge.turn());
            assert_eq!(referee.game().stones(), judge.stones());
            // The seat that closed earlier loses on time when its turn comes.
            let next = judge.turn();
            let late = dice.below(100);
            let got = referee.closed_mover(late);
            if closed[next] {
                used[next] = Some(used[next].unwrap_or(0) + late);
                let msg = got.expect("a closed mover loses at once");
                let verdict = Some((1 - next, Reason::TimeLimit));
                assert_eq!(
                    referee.verdict().map(|v| (v.winner.index(), v.reason)),
                    verdict
                );
                check_state(
                    &msg,
                    &Expect {
                        judge: &judge,
                        used,
                        verdict,
                        take: 0,
                        reset: false,
                        meaning,
                    },
                );
                verdicts[Reason::TimeLimit as usize] += 1;
                break;
            }
            assert!(got.is_none(), "an open mover is waited for");
        }
    }
    println!("endings (won, illegal, resets, out of turn, time): {verdicts:?}");
    // Every kind of ending happened, many times over.
    for (kind, count) in verdicts.iter().take(5).enumerate() {
        assert!(*count >= 50, "ending {kind} seen {count} times");
    }
}

#[test]
fn hellos_seat_by_order() {
    let first = Hello::parse(br#"{"name": "ann", "order": 0}"#).unwrap();
    assert_eq!((first.seat, first.name), (Player::First, &b"ann"[..]));
    let second = Hello::parse(br#"{"order": 1, "name": "b\"en"}"#).unwrap();
    assert_eq!(second.seat, Player::Second);
    assert_eq!(second.safe_name().as_slice(), b"b__en");
    // Each refusal names what is missing.
    assert!(matches!(Hello::parse(b"[1]"), Err(WireError::Json(_))));
    for (msg, word) in [
        (&br#"{"order": 0}"#[..], "name"),
        (br#"{"name": "x", "order": 2}"#, "order"),
        (br#"{"name": "x", "order": -1}"#, "order"),
    ] {
        let err = Hello::parse(msg).unwrap_err();
        assert!(err.to_string().contains(word), "{err}");
    }
}
