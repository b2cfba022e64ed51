//! The line protocol's Super-Nim player on a host (the host's player, learning its
//! opponent's model) against the exact solver: on every position of games from the
//! small starts at cap 24, played through a protocol session, none of its moves
//! loses value.

use nimbot::{Player, SplitMix64};
use nimbot_protocol::grammar::Response;
use nimbot_supernim::{Chooser, Game, GreedyPlayer, Heaps, RandomPlayer, Solver};

mod common;

use common::{opp_line, send, session};

/// The small starts, as sorted lists.
fn starts() -> Vec<Vec<u32>> {
    Heaps::small_starts()
        .map(|h| h.sizes().iter().map(|&n| u32::from(n)).collect())
        .collect()
}

#[test]
fn the_protocol_s_moves_never_lose_value_on_games_from_the_small_starts() {
    const CAP: u32 = 24;
    // Every start of 2..=4 heaps of 1..=6 sticks, nimbot in each seat.
    let starts = starts();
    assert_eq!(starts.len(), 203);
    let mut solver = Solver::new(u64::MAX, 1 << 24);
    let (mut checked, mut lost) = (0, Vec::new());
    let mut s = session();
    for (i, start) in starts.iter().enumerate() {
        for seat in [Player::First, Player::Second] {
            // The opponent alternates between random and greedy, seeded by the start.
            let rng = SplitMix64::new(i as u64 * 2 + seat.index() as u64);
            let mut random = RandomPlayer(rng);
            let mut greedy = GreedyPlayer(rng);
            let other: &mut dyn Chooser = if i % 2 == 0 { &mut random } else { &mut greedy };
            let list: Vec<String> = start.iter().map(u32::to_string).collect();
            let new = format!("new supernim {} {} cap {CAP}", list.join(","), seat.name());
            assert_eq!(send(&mut s, &new), "ok");
            let mut game = Game::new(Heaps::new(start).unwrap(), CAP).unwrap();
            let mut reply = if seat == Player::First {
                send(&mut s, "go")
            } else {
                String::new()
            };
            while game.end().is_none() {
                let mover = game.to_move();
                if mover != seat {
                    let mv = other.choose(&game).unwrap();
                    game.play(mover, mv).unwrap();
                    reply = send(&mut s, &opp_line(mv));
                    continue;
                }
                let Some(Response::SuperNimMove { mv, over }) = Response::parse(reply.as_bytes())
                else {
                    panic!("{new}: expected a move, got {reply:?}");
                };
                let left = game.plies_left();
                let best = solver.value(game.heaps(), left).unwrap();
                let (child, points) = game.heaps().apply(mv).unwrap();
                let mine = points as i32 - solver.value(&child, left - 1).unwrap();
                if mine < best {
                    lost.push(format!(
                        "{:?} with {left} plies left: {mv:?} {mine}, best {best}",
                        game.heaps().sizes(),
                    ));
                }
                checked += 1;
                game.play(mover, mv).unwrap();
                assert_eq!(over.is_some(), game.end().is_some(), "{new}: {reply}");
            }
        }
    }
    println!("{checked} positions checked");
    assert!(checked > 4000, "{checked}");
    assert!(
        lost.is_empty(),
        "{} moves lost value: {lost:#?}",
        lost.len()
    );
}
