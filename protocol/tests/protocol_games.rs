//! The related games on the line protocol: Fibonacci Nim and Super-Nim sessions,
//! their errors, and switching between games.

mod common;

use common::{dialogue, opening, opp_line, refused, send, session};
use nimbot::{
    fibonacci::{self as fib, is_fibonacci},
    Player, SplitMix64,
};
use nimbot_protocol::grammar::Response;
use nimbot_protocol::SUPERNIM_MOVE_LIMIT;
use nimbot_supernim::{self as sn, Heaps};

#[test]
fn a_fibonacci_game_step_by_step() {
    let mut s = session();
    dialogue(
        &mut s,
        &[
            ("new fibonacci 20 first", "ok"),
            ("state", "state fibonacci stones 20 limit 19 turn bot"),
            ("opp 1", "error out of turn: the bot is to move (send go)"),
            // 20 = 13 + 5 + 2: the bot takes 2.
            ("go", "move 2"),
        ],
    );
    let state = send(&mut s, "state");
    assert_eq!(state, "state fibonacci stones 18 limit 4 turn opponent");
    refused(
        &mut s,
        &state,
        &[
            ("opp 5", "error illegal move: take 5 is outside 1..=4"),
            ("opp 0", "error illegal move: take 0 is outside 1..=4"),
            ("opp", "error usage: opp TAKE"),
            ("opp 1 0", "error too many arguments"),
            ("opp x", "error bad number"),
            (
                "go",
                "error out of turn: the opponent is to move (send opp)",
            ),
        ],
    );
    dialogue(
        &mut s,
        &[
            // 18 - 4 = 14 = 13 + 1: the bot takes 1, and so on down to the last stone.
            ("opp 4", "move 1"),
            ("opp 2", "move 3"),
            ("opp 6", "move 2 won"),
            ("state", "state fibonacci stones 0 limit 12 turn won"),
            ("go", "error the game is over"),
            ("end", "ok"),
            ("state", "state none"),
        ],
    );
}

#[test]
fn a_super_nim_game_step_by_step() {
    let mut s = session();
    dialogue(
        &mut s,
        &[
            ("new supernim 5,2 first", "ok"),
            ("state", "state supernim heaps 2,5 score 0 0 turn bot"),
            ("go", "move split 2"),
        ],
    );
    let state = send(&mut s, "state");
    assert_eq!(state, "state supernim heaps 5 score 2 0 turn opponent");
    let usage = "error usage: opp merge A B | opp grow A | opp split A";
    refused(
        &mut s,
        &state,
        &[
            (
                "opp split 5",
                "error grow needs an odd heap, split an even one",
            ),
            ("opp grow 4", "error no heap of that size"),
            ("opp merge 5 5", "error merged heaps must differ in size"),
            ("opp merge 5", usage),
            ("opp jump 5", usage),
            ("opp grow 99999999", "error no heap of that size"),
            ("opp grow 5 5", "error too many arguments"),
            (
                "go",
                "error out of turn: the opponent is to move (send opp)",
            ),
        ],
    );
    dialogue(
        &mut s,
        &[
            // 5 -> 16; the bot's only move is to split it.
            ("opp grow 5", "move split 16"),
            ("state", "state supernim heaps 8,8 score 2 0 turn opponent"),
            ("end", "ok"),
            ("state", "state none"),
            // Games that end at once, by either side's move.
            ("new supernim 2 first", "ok"),
            ("go", "move split 2 over won"),
            ("state", "state supernim heaps - score 2 0 turn won"),
            ("go", "error the game is over"),
            ("new supernim 2 second", "ok"),
            ("opp split 2", "over lost"),
            ("opp split 2", "error the game is over"),
            // The cap: (2, 4) with two moves left, the bot first: it takes the 2,
            // the opponent must split the 4 (or merge) and the cap ends the game.
            ("new supernim 2,4 first cap 2", "ok"),
            ("go", "move split 2"),
            ("opp split 4", "over won"),
            ("state", "state supernim heaps 2,2 score 2 0 turn won"),
            // The heap limit: three heaps at most, so the 8 cannot be split.
            ("new supernim 1,8 second heaps 2 cap 1", "ok"),
            (
                "opp split 8",
                "error too many heaps (12 on a board, 1024 on a host, or heaps K)",
            ),
            ("opp grow 1", "over draw"),
        ],
    );
}

#[test]
fn bad_starts_are_refused_and_change_nothing() {
    let mut s = session();
    assert_eq!(send(&mut s, "new fibonacci 10 second"), "ok");
    let state = send(&mut s, "state");
    let supernim_usage =
        "error usage: new supernim H1,H2,... first|second [cap C] [heaps K] [player perfect|search] [nodes K]";
    refused(
        &mut s,
        &state,
        &[
            (
                "new fibonacci 1 first",
                "error a fibonacci game needs at least 2 stones",
            ),
            (
                "new fibonacci 20",
                "error usage: new fibonacci STONES first|second",
            ),
            ("new fibonacci x first", "error bad number"),
            ("new supernim first", supernim_usage),
            (
                "new supernim 3,0 first",
                "error heaps must have at least 1 stick",
            ),
            ("new supernim 3,,4 first", "error bad number"),
            ("new supernim 10000 first", "error a heap above 9999 sticks"),
            (
                "new supernim 1,2,3,4,5,6,7,8,9,10,1,2,3 first heaps 12",
                "error heaps K must hold the start, at most 12 on a board, 1024 on a host",
            ),
            (
                "new supernim 3,4 first heaps 0",
                "error heaps K must hold the start, at most 12 on a board, 1024 on a host",
            ),
            (
                "new supernim 3,4 first cap 0",
                "error the cap must be 1..=1000",
            ),
            (
                "new supernim 3,4 first cap 1001",
                "error the cap must be 1..=1000",
            ),
            ("new supernim 3,4 first cap", supernim_usage),
            ("new supernim 3,4 first cap x", "error bad number"),
            ("new supernim 3,4 first size 3", supernim_usage),
            ("new supernim 3 middle", supernim_usage),
            (
                "new 20 4 3",
                "error usage: new STONES RESETS INIT_MAX first|second",
            ),
        ],
    );
    // The longest start fits in a line, and its state in a reply. Twelve equal odd
    // heaps this large have no move within the bounds: the game is over at once,
    // a draw on points.
    let big = ["9999"; 12].join(",");
    assert_eq!(send(&mut s, &format!("new supernim {big} second")), "ok");
    assert_eq!(
        send(&mut s, "state"),
        format!("state supernim heaps {big} score 0 0 turn draw")
    );
    assert_eq!(send(&mut s, "opp split 2"), "error the game is over");
    let big = format!("9998,{}", ["9999"; 11].join(","));
    assert_eq!(send(&mut s, &format!("new supernim {big} second")), "ok");
    assert_eq!(
        send(&mut s, "state"),
        format!("state supernim heaps {big} score 0 0 turn opponent")
    );
    // A new game of another kind replaces it.
    assert_eq!(send(&mut s, "new 20 4 3 first"), "ok");
    assert!(send(&mut s, "state").starts_with("state stones 20 limit 3 cap 3"));
    dialogue(
        &mut s,
        &[
            ("new fibonacci 8 first", "ok"),
            ("state", "state fibonacci stones 8 limit 7 turn bot"),
        ],
    );
    assert!(send(&mut s, "help").contains("supernim"));
}

#[test]
fn fibonacci_games_through_the_protocol_are_won_from_every_won_seat() {
    let mut rng = SplitMix64::new(7);
    for n in 2..=150u64 {
        for bot in [Player::First, Player::Second] {
            let mut s = session();
            let seat = bot.name();
            assert_eq!(send(&mut s, &format!("new fibonacci {n} {seat}")), "ok");
            let mut game = fib::Game::new(n).unwrap();
            let mut reply = opening(&mut s, bot);
            let winner = loop {
                if bot == Player::First || !reply.is_empty() {
                    if reply == "lost" {
                        break bot.other();
                    }
                    let Some(Response::FibonacciMove { take, won }) =
                        Response::parse(reply.as_bytes())
                    else {
                        panic!("{reply}: not a Fibonacci Nim move");
                    };
                    let outcome = game.play(bot, take).expect("the bot moves legally");
                    assert_eq!(won, outcome == fib::Outcome::Won(bot), "{reply}");
                    if outcome == fib::Outcome::Won(bot) {
                        break bot;
                    }
                }
                let take = 1 + rng.below(game.limit().min(game.stones()));
                if let fib::Outcome::Won(p) = game.play(bot.other(), take).unwrap() {
                    assert_eq!(send(&mut s, &format!("opp {take}")), "lost");
                    break p;
                }
                reply = send(&mut s, &format!("opp {take}"));
            };
            if (bot == Player::First) != is_fibonacci(n) {
                assert_eq!(winner, bot, "start {n}, seat {seat}");
            }
        }
    }
}

#[test]
fn super_nim_games_through_the_protocol_stay_legal_and_end() {
    let mut rng = SplitMix64::new(3);
    for round in 0..6 {
        let bot = if round % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let start = sn::random_start(&mut rng);
        let list: Vec<String> = start.sizes().iter().map(u16::to_string).collect();
        let mut s = session();
        let seat = bot.name();
        assert_eq!(
            send(&mut s, &format!("new supernim {} {seat}", list.join(","))),
            "ok"
        );
        let mut game = sn::Game::new(
            Heaps::new(
                &start
                    .sizes()
                    .iter()
                    .map(|&h| u32::from(h))
                    .collect::<Vec<_>>(),
            )
            .unwrap(),
            SUPERNIM_MOVE_LIMIT,
        )
        .unwrap();
        let mut reply = opening(&mut s, bot);
        loop {
            if !reply.is_empty() {
                match Response::parse(reply.as_bytes()) {
                    Some(Response::SuperNimOver(_)) => {
                        assert!(game.end().is_some());
                        break;
                    }
                    Some(Response::SuperNimMove { mv, over }) => {
                        let outcome = game.play(bot, mv).expect("legal");
                        let ended = matches!(outcome, sn::Outcome::Over(_));
                        assert_eq!(over.is_some(), ended, "{reply}");
                        if ended {
                            break;
                        }
                    }
                    _ => panic!("{reply}: not a Super-Nim move"),
                }
            }
            let moves = game.heaps().moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let line = opp_line(mv);
            game.play(bot.other(), mv).unwrap();
            reply = send(&mut s, &line);
        }
        assert!(game.plies() <= SUPERNIM_MOVE_LIMIT);
        let state = send(&mut s, "state");
        let scores = format!(" score {} {} ", game.score(bot), game.score(bot.other()));
        assert!(state.contains(&scores), "{state} vs {scores}");
    }
}

#[test]
fn a_super_nim_session_plays_the_player_and_the_budget_it_was_asked_for() {
    // The session against the Super-Nim players driven directly, on the same games:
    // with `player perfect`, a learning `Perfect` that starts each game afresh and
    // is shown every opponent move; with `player search [nodes K]`, the search with
    // K nodes (the default budget without `nodes`). The opponent is greedy.
    const CAP: u32 = 12;
    let starts: Vec<Heaps> = Heaps::small_starts().step_by(9).collect();
    assert!(starts.len() >= 20);
    let (mut moves, mut perfect_not_search, mut budget_matters) = (0, 0, 0);
    for (player, nodes) in [("perfect", None), ("search", Some(40)), ("search", None)] {
        let mut s = session();
        let mut perfect = sn::Perfect::learning(sn::PERFECT_NODE_BUDGET);
        for (i, start) in starts.iter().enumerate() {
            let seat = if i % 2 == 0 {
                Player::First
            } else {
                Player::Second
            };
            let list: Vec<String> = start.sizes().iter().map(u16::to_string).collect();
            let budget = nodes.map_or(String::new(), |k| format!(" nodes {k}"));
            let new = format!(
                "new supernim {} {} cap {CAP} player {player}{budget}",
                list.join(","),
                seat.name()
            );
            assert_eq!(send(&mut s, &new), "ok", "{new}");
            perfect.new_opponent();
            let mut greedy = sn::GreedyPlayer(SplitMix64::new(i as u64));
            let mut game = sn::Game::new(start.clone(), CAP).unwrap();
            let mut reply = if seat == Player::First {
                send(&mut s, "go")
            } else {
                String::new()
            };
            while game.end().is_none() {
                let mover = game.to_move();
                if mover != seat {
                    let mv = sn::Chooser::choose(&mut greedy, &game).unwrap();
                    perfect.observe(game.heaps(), game.plies_left(), mv);
                    game.play(mover, mv).unwrap();
                    reply = send(&mut s, &opp_line(mv));
                    continue;
                }
                let Some(Response::SuperNimMove { mv, .. }) = Response::parse(reply.as_bytes())
                else {
                    panic!("{new}: expected a move, got {reply:?}");
                };
                let searched = sn::decide(&game, sn::DEFAULT_NODE_BUDGET).mv.unwrap();
                let want = match nodes {
                    _ if player == "perfect" => {
                        let d = perfect.decide(game.heaps(), game.plies_left(), game.lead());
                        let best = d.mv.unwrap();
                        perfect_not_search += usize::from(best != searched);
                        best
                    }
                    Some(k) => {
                        let few = sn::decide(&game, k).mv.unwrap();
                        budget_matters += usize::from(few != searched);
                        few
                    }
                    None => searched,
                };
                assert_eq!(mv, want, "{new}: {:?}", game.heaps().sizes());
                moves += 1;
                game.play(mover, mv).unwrap();
            }
        }
    }
    // Each player plays otherwise than the others somewhere, or this proves nothing.
    assert!(moves > 100, "{moves}");
    assert!(
        perfect_not_search > 0 && budget_matters > 0,
        "{perfect_not_search} {budget_matters}"
    );
}
