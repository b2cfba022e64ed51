//! The host's Super-Nim player (`nimbot::supernim::Perfect`) against the exact
//! solver: on every position of games from the small starts at cap 24, none of its
//! moves loses value.

use nimbot::{
    supernim::{Chooser, Game, GreedyPlayer, Heaps, RandomPlayer},
    supernim::{Model, Perfect, Solver, PERFECT_NODE_BUDGET},
    Player, SplitMix64,
};

// Each test file uses a part of the shared helpers.
#[allow(dead_code)]
mod supernim_plain;

use supernim_plain::starts;

#[test]
fn the_player_never_loses_value_on_games_from_the_small_starts() {
    const CAP: u32 = 24;
    // Every start of 2..=4 heaps of 1..=6 sticks.
    let starts = starts(2..=4, 6);
    assert_eq!(starts.len(), 203);
    let mut solver = Solver::new(u64::MAX, 1 << 24);
    let mut bot = Perfect::new(PERFECT_NODE_BUDGET, Model::None);
    let (mut checked, mut lost) = (0, Vec::new());
    for (i, start) in starts.iter().enumerate() {
        for seat in [Player::First, Player::Second] {
            // The opponent alternates between random and greedy, seeded by the start.
            let rng = SplitMix64::new(i as u64 * 2 + seat.index() as u64);
            let mut random = RandomPlayer(rng);
            let mut greedy = GreedyPlayer(rng);
            let other: &mut dyn Chooser = if i % 2 == 0 { &mut random } else { &mut greedy };
            let mut game = Game::new(Heaps::new(start).unwrap(), CAP).unwrap();
            while game.end().is_none() {
                let mover = game.to_move();
                let mv = if mover == seat {
                    let mv = bot.choose(&game).unwrap();
                    let left = game.plies_left();
                    let best = solver.value(game.heaps(), left).unwrap();
                    let (child, points) = game.heaps().apply(mv).unwrap();
                    let mine = points as i32 - solver.value(&child, left - 1).unwrap();
                    if mine < best {
                        lost.push(format!(
                            "{:?} with {} plies left: {mv:?} {mine}, best {best}",
                            game.heaps().sizes(),
                            game.plies_left()
                        ));
                    }
                    checked += 1;
                    mv
                } else {
                    other.choose(&game).unwrap()
                };
                game.play(mover, mv).unwrap();
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
