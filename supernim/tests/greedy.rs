//! The host player's choice against greedy (`nimbot_supernim::Perfect` with
//! `Model::Greedy`): among its moves of the best exact value, the one with the best
//! expected result against greedy down to the cap. Checked against an expectimax
//! written here over the plain rules and minimax of `tests/plain`, on every
//! position of games from small starts with a short cap.

use std::collections::HashMap;

use nimbot::{Player, SplitMix64};
use nimbot_supernim::{
    heap_reach, Belief, Chooser, Game, GreedyPlayer, Heaps, Model, Move, MoveValue, Perfect,
    HEAP_REACH,
};

mod plain;

use plain::{horizon, minimax, starts, successors};

type Values = HashMap<(Vec<u32>, u32), i32>;

/// A win 1, a draw 1/2, a loss 0.
fn result(margin: i32) -> f64 {
    match margin.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

/// Each move's result (heaps, points) and exact value for the mover.
fn valued(h: &[u32], plies: u32, values: &mut Values) -> Vec<(Vec<u32>, i32, i32)> {
    let mut next = successors(h);
    next.sort();
    next.dedup();
    next.into_iter()
        .map(|(n, points)| {
            let v = points - minimax(&n, plies - 1, values);
            (n, points, v)
        })
        .collect()
}

/// The player to move (its final margin under exact play `margin`): the best
/// expected result over its moves of the best exact value.
fn player(h: &[u32], plies: u32, margin: i32, values: &mut Values) -> f64 {
    if margin > 0 {
        return 1.0;
    }
    if plies == 0 || h.is_empty() {
        return result(margin);
    }
    let moves = valued(h, plies, values);
    let best = moves.iter().map(|m| m.2).max().unwrap();
    moves
        .iter()
        .filter(|m| m.2 == best)
        .map(|(n, _, _)| greedy(n, plies - 1, margin, values))
        .fold(0.0, f64::max)
}

/// Greedy to move: it splits a 2 if there is one, else plays any distinct move,
/// each as likely; a move below its best value adds what it loses to the margin.
fn greedy(h: &[u32], plies: u32, margin: i32, values: &mut Values) -> f64 {
    if plies == 0 || h.is_empty() {
        return result(margin);
    }
    let (best, replies) = greedy_replies(h, plies, values);
    let p = 1.0 / replies.len() as f64;
    replies
        .iter()
        .map(|(n, _, v)| p * player(n, plies - 1, margin + best - v, values))
        .sum()
}

/// Greedy's replies, each as likely (a split of a 2 if there is one, else every
/// distinct move), with the best value among all its moves.
fn greedy_replies(h: &[u32], plies: u32, values: &mut Values) -> (i32, Vec<(Vec<u32>, i32, i32)>) {
    let moves = valued(h, plies, values);
    let best = moves.iter().map(|m| m.2).max().unwrap();
    let replies = match moves.iter().find(|m| m.1 == 2) {
        Some(split) => vec![split.clone()],
        None => moves,
    };
    (best, replies)
}

fn sizes(h: &Heaps) -> Vec<u32> {
    h.sizes().iter().map(|&n| u32::from(n)).collect()
}

#[test]
fn the_choice_among_equal_moves_is_the_best_expected_result_against_greedy() {
    const CAP: u32 = 9;
    let mut values = Values::new();
    let mut bot = Perfect::new(50_000_000, Model::Greedy);
    let (mut checked, mut mattered) = (0, 0);
    let starts = starts(2..=3, 5);
    for (i, start) in starts.iter().enumerate() {
        for seat in [Player::First, Player::Second] {
            let mut greedy_player = GreedyPlayer(SplitMix64::new(i as u64 * 2 + 1));
            let mut game = Game::new(Heaps::new(start).unwrap(), CAP).unwrap();
            while game.end().is_none() {
                let mover = game.to_move();
                if mover != seat {
                    let mv = greedy_player.choose(&game).unwrap();
                    game.play(mover, mv).unwrap();
                    continue;
                }
                let h = sizes(game.heaps());
                let left = game.plies_left();
                let value = minimax(&h, left, &mut values);
                // As if the player were level (margin 0) or 2 points short of it
                // (margin -2): the choice is made only then.
                for margin in [0, -2] {
                    let d = bot.decide(game.heaps(), left, margin - value);
                    let moves = valued(&h, left, &mut values);
                    let ties: Vec<_> = moves.iter().filter(|m| m.2 == value).collect();
                    let chances: Vec<f64> = ties
                        .iter()
                        .map(|(n, _, _)| greedy(n, left - 1, margin, &mut values))
                        .collect();
                    let want = chances.iter().copied().fold(0.0, f64::max);
                    let mv = d.mv.unwrap();
                    let (n, _) = game.heaps().apply(mv).unwrap();
                    let n = sizes(&n);
                    let points = if mv == Move::Split(2) { 2 } else { 0 };
                    assert_eq!(points - minimax(&n, left - 1, &mut values), value);
                    if ties.len() > 1 {
                        // The first move (in the order of the moves) whose chance is
                        // above every earlier one's: equal chances keep the earlier.
                        let mut first: Option<(Move, f64)> = None;
                        for m in game.heaps().moves() {
                            let (n, _) = game.heaps().apply(m).unwrap();
                            let n = sizes(&n);
                            let points = if m == Move::Split(2) { 2 } else { 0 };
                            // Its chance if it is of the best value (the ties are
                            // the distinct results of those moves).
                            let Some(at) = ties.iter().position(|t| t.0 == n && t.1 == points)
                            else {
                                continue;
                            };
                            let c = chances[at];
                            if first.is_none_or(|(_, b)| c > b + 1e-9) {
                                first = Some((m, c));
                            }
                        }
                        assert_eq!(d.mv, first.map(|f| f.0), "{h:?} {left}");
                        let got = d.chance.unwrap_or(-1.0);
                        assert_eq!(d.chance_depth, left, "{h:?} {left}");
                        assert!((got - want).abs() < 1e-9, "{h:?} {left}: {got} {want}");
                        let mine = greedy(&n, left - 1, margin, &mut values);
                        assert!((mine - want).abs() < 1e-9, "{h:?} {left} {mv:?}");
                        checked += 1;
                        if chances.iter().any(|&c| (c - want).abs() > 1e-9) {
                            mattered += 1;
                        }
                    }
                }
                let mv = bot.choose(&game).unwrap();
                game.play(mover, mv).unwrap();
            }
        }
    }
    println!("{checked} choices checked, {mattered} where the moves of equal value differ");
    assert!(checked > 200, "{checked}");
    assert!(mattered > 20, "{mattered}");
}

/// A heap's reach from its definition: a 2 lasts one ply, another even `n` one ply
/// and its two halves, an odd `n` one ply and then `3n + 1`; capped.
fn reach(n: u32, memo: &mut HashMap<u32, u32>) -> u32 {
    if n == 2 {
        return 1;
    }
    if let Some(&r) = memo.get(&n) {
        return r;
    }
    let r = if n % 2 == 1 {
        1 + reach(3 * n + 1, memo)
    } else {
        1 + 2 * reach(n / 2, memo)
    };
    let r = r.min(HEAP_REACH);
    memo.insert(n, r);
    r
}

#[test]
fn a_heaps_reach_follows_its_definition() {
    let mut memo = HashMap::new();
    for n in 1..=3333u16 {
        assert_eq!(heap_reach(n), reach(u32::from(n), &mut memo), "{n}");
    }
    // The examples of docs/other-games.md.
    assert_eq!(
        (heap_reach(16), heap_reach(10), heap_reach(7)),
        (15, 33, 64)
    );
}

/// Greedy's chance to go wrong on its next move only: the expected result when the
/// branch is judged right after that move (a move below its best value adds what it
/// loses to the margin).
fn greedy_next(h: &[u32], plies: u32, margin: i32, values: &mut Values) -> f64 {
    if plies == 0 || h.is_empty() {
        return result(margin);
    }
    let (best, replies) = greedy_replies(h, plies, values);
    let p = 1.0 / replies.len() as f64;
    replies
        .iter()
        .map(|(_, _, v)| p * result(margin + best - v))
        .sum()
}

#[test]
fn on_a_budget_too_small_for_the_cap_the_choice_looks_at_greedys_next_move() {
    // The whole expectimax does not fit the budget; the second attempt, over the
    // opponent's next move only, does: the chance is the two plies' and the move
    // the first of the best of them.
    let mut values = Values::new();
    let mut checked = 0;
    for (start, plies) in [(&[1, 3, 4][..], 10), (&[3, 4, 5], 10), (&[1, 3, 4], 12)] {
        for lead in [0, -2] {
            let mut bot = Perfect::new(5_000, Model::Greedy);
            let value = minimax(start, plies, &mut values);
            let margin = lead + value;
            let d = bot.decide(&Heaps::new(start).unwrap(), plies, lead);
            let mut first: Option<(Vec<u32>, f64)> = None;
            for (n, _, v) in valued(start, plies, &mut values) {
                if v != value {
                    continue;
                }
                let c = greedy_next(&n, plies - 1, margin, &mut values);
                if first.as_ref().is_none_or(|(_, b)| c > b + 1e-9) {
                    first = Some((n, c));
                }
            }
            let (_, want) = first.unwrap();
            assert_eq!(
                (d.exact, d.value, d.chance_depth),
                (true, value, 2),
                "{start:?} {lead}: {d:?}"
            );
            let got = d.chance.unwrap();
            assert!((got - want).abs() < 1e-9, "{start:?} {lead}: {got} {want}");
            // Its move is one of the best value with that chance.
            let (n, _) = Heaps::new(start).unwrap().apply(d.mv.unwrap()).unwrap();
            let mine = greedy_next(&sizes(&n), plies - 1, margin, &mut values);
            assert!((mine - want).abs() < 1e-9, "{start:?} {lead}: {d:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

#[test]
fn a_learning_player_learns_the_move_its_opponent_played() {
    // Far from the cap (no exact values): what it learns is what a belief shown the
    // opponent's move learns.
    let start = Heaps::new(&[2, 2, 5, 7]).unwrap();
    let mut game = Game::new(start, 100).unwrap();
    let mut bot = Perfect::learning(2_000);
    let mut want = Belief::default();
    for _ in 0..3 {
        let mine = bot.choose(&game).unwrap();
        game.play(Player::First, mine).unwrap();
        let before = game.heaps().clone();
        // The last of its moves (any but the first tells it from another).
        let theirs = *before.moves().last().unwrap();
        game.play(Player::Second, theirs).unwrap();
        want.observe(&before, None, theirs);
        bot.choose(&game).unwrap();
        assert_eq!(bot.belief(), Some(&want), "after {theirs:?}");
        // Asked again at the same point of the game: the same game, nothing
        // forgotten.
        bot.decide(game.heaps(), game.plies_left(), game.lead());
        assert_eq!(bot.belief(), Some(&want), "asked again after {theirs:?}");
    }
}

#[test]
fn the_weighing_spends_its_budget_then_a_quarter_of_it() {
    // Here the expectimax fits neither the budget (down to the cap) nor a quarter of
    // it (over greedy's next move): each attempt stops one node past its bound,
    // after the exact search that a player without a model makes too.
    let h = Heaps::new(&[1, 3, 4]).unwrap();
    let alone = Perfect::new(1_000, Model::None).decide(&h, 10, 0);
    let d = Perfect::new(1_000, Model::Greedy).decide(&h, 10, 0);
    assert!(alone.exact && d.exact, "{alone:?} {d:?}");
    assert_eq!((d.chance, d.chance_depth), (None, 0));
    assert_eq!(d.nodes - alone.nodes, (1_000 + 1) + (1_000 / 4 + 1));
}

#[test]
fn what_one_move_solved_serves_the_next() {
    // A move solved to the cap with a large budget, greedy's reply of the best
    // value, then the next move on a budget far too small to solve anything anew:
    // the solver's table and the expectimax's memo answer it, to the cap.
    let mut values = Values::new();
    let start = [1, 3, 4];
    let mut bot = Perfect::new(1_000_000, Model::Greedy);
    let h0 = Heaps::new(&start).unwrap();
    let d0 = bot.decide(&h0, 8, 0);
    assert_eq!((d0.exact, d0.chance_depth), (true, 8), "{d0:?}");
    let (h1, mine) = h0.apply(d0.mv.unwrap()).unwrap();
    let best = minimax(&sizes(&h1), 7, &mut values);
    let reply = h1
        .moves()
        .into_iter()
        .find(|&m| {
            let (n, points) = h1.apply(m).unwrap();
            points as i32 - minimax(&sizes(&n), 6, &mut values) == best
        })
        .unwrap();
    let (h2, theirs) = h1.apply(reply).unwrap();
    let lead = mine as i32 - theirs as i32;
    bot.budget = 100;
    let d = bot.decide(&h2, 6, lead);
    let h = sizes(&h2);
    let value = minimax(&h, 6, &mut values);
    let margin = lead + value;
    let ties: Vec<_> = valued(&h, 6, &mut values)
        .into_iter()
        .filter(|m| m.2 == value)
        .collect();
    assert!(ties.len() > 1 && margin <= 0, "{h:?} {margin}");
    let want = ties
        .iter()
        .map(|(n, _, _)| greedy(n, 5, margin, &mut values))
        .fold(0.0, f64::max);
    assert_eq!(
        (d.exact, d.value, d.chance_depth),
        (true, value, 6),
        "{h:?}: {d:?}"
    );
    assert!(d.nodes <= 100, "{d:?}");
    assert!(
        (d.chance.unwrap() - want).abs() < 1e-9,
        "{h:?}: {d:?} {want}"
    );
}

#[test]
fn the_player_spends_its_budget_as_documented() {
    let h = Heaps::new(&[3, 5, 6, 9]).unwrap();
    // Far from the cap (beyond 40 plies): a twentieth of the budget, deep enough
    // for more than one ply.
    let d = Perfect::new(20_000, Model::None).decide(&h, 100, 0);
    assert!(
        !d.exact && d.depth >= 2 && d.nodes <= 20_000 / 20 + 1,
        "{d:?}"
    );
    // Near it, a budget too small for the whole game: not exact, and what is left
    // after the failed attempt (nothing) still gives the first ply's estimate.
    let d = Perfect::new(5_000, Model::None).decide(&h, 30, 0);
    assert!(!d.exact && d.depth >= 1 && d.depth < 30, "{d:?}");
    // No plies left: no move.
    let d = Perfect::new(1_000, Model::None).decide(&h, 0, 0);
    assert_eq!((d.mv, d.depth, d.nodes), (None, 0, 0));
    // Solved: each move that leaves heaps is searched at one node at least, and the
    // count says so.
    let h = Heaps::new(&[1, 2, 4]).unwrap();
    let d = Perfect::new(1_000_000, Model::None).decide(&h, 6, 0);
    let searched = h
        .moves()
        .into_iter()
        .filter(|&m| !h.apply(m).unwrap().0.is_empty())
        .count();
    assert!(d.exact && d.nodes >= searched as u64, "{d:?}");
}

/// Each move's exact value, in the order of the moves, from the plain minimax.
fn exact_values(h: &Heaps, plies: u32, values: &mut Values) -> Vec<MoveValue> {
    h.moves()
        .into_iter()
        .map(|mv| {
            let (n, points) = h.apply(mv).unwrap();
            let value = points as i32 - minimax(&sizes(&n), plies - 1, values);
            MoveValue { mv, value }
        })
        .collect()
}

#[test]
fn a_learning_player_uses_exact_values_near_the_cap_and_forgets_a_past_opponent() {
    // Near the cap it judges the opponent's move by the exact values of its moves
    // (here from the plain minimax).
    let mut values = Values::new();
    let mut game = Game::new(Heaps::new(&[1, 2, 4, 5]).unwrap(), 10).unwrap();
    let mut bot = Perfect::learning(400_000);
    let mut want = Belief::default();
    for _ in 0..2 {
        let mine = bot.choose(&game).unwrap();
        game.play(Player::First, mine).unwrap();
        let before = game.heaps().clone();
        let left = game.plies_left();
        let exact = exact_values(&before, left, &mut values);
        // The worst of its moves: one a strong player never plays.
        let theirs = exact.iter().min_by_key(|m| m.value).unwrap().mv;
        game.play(Player::Second, theirs).unwrap();
        want.observe(&before, Some(&exact), theirs);
        bot.choose(&game).unwrap();
        assert_eq!(bot.belief(), Some(&want), "after {theirs:?}");
    }
    assert_ne!(want, Belief::default());
    // A new opponent: everything learnt is forgotten, and a new game (more plies
    // left than at the last move) is a new opponent.
    bot.new_opponent();
    assert_eq!(
        (bot.belief(), bot.model),
        (Some(&Belief::default()), Belief::default().model())
    );
    let mut again = Perfect::learning(400_000);
    let h = Heaps::new(&[2, 5, 7, 9]).unwrap();
    again.observe(&h, 8, Move::Grow(5));
    assert_ne!(again.belief(), Some(&Belief::default()));
    again.observe(&h, 9, Move::Split(2));
    let mut fresh = Belief::default();
    fresh.observe(&h, Some(&exact_values(&h, 9, &mut values)), Move::Split(2));
    assert_eq!(again.belief(), Some(&fresh));
}

#[test]
fn far_from_the_cap_and_not_winning_the_player_keeps_sticks_on_the_board() {
    // Among the moves of the best estimate (a plain horizon search to the depth
    // the player completed), one whose heaps reach (the definition's, above) at
    // least twice the plies left, the least reach among those; ahead, the first.
    const PLIES: u32 = 60;
    let mut memo = HashMap::new();
    let mut kept = 0;
    for start in [
        &[1, 1, 3][..],
        &[1, 1, 1, 4],
        &[1, 1, 2, 2],
        &[1, 1, 3, 5],
        &[1, 1, 3, 6],
    ] {
        let h = Heaps::new(start).unwrap();
        for lead in [0, -2, 4] {
            let d = Perfect::new(2_000, Model::Greedy).decide(&h, PLIES, lead);
            assert!(d.depth >= 2 && !d.exact, "{start:?}: {d:?}");
            let estimates: Vec<(Move, i32)> = h
                .moves()
                .into_iter()
                .map(|m| {
                    let (n, points) = h.apply(m).unwrap();
                    (
                        m,
                        points as i32 - horizon(&sizes(&n), d.depth - 1, PLIES - 1),
                    )
                })
                .collect();
            let best = estimates.iter().map(|e| e.1).max().unwrap();
            let ties: Vec<Move> = estimates
                .iter()
                .filter(|e| e.1 == best)
                .map(|e| e.0)
                .collect();
            assert!(ties.len() > 1, "{start:?}");
            if lead + best > 0 {
                assert_eq!(d.mv, Some(ties[0]), "{start:?} {lead}");
                continue;
            }
            let mut key = |m: Move| {
                let (n, _) = h.apply(m).unwrap();
                let r: u32 = sizes(&n).iter().map(|&x| reach(x, &mut memo)).sum();
                (r.min(2 * PLIES), std::cmp::Reverse(r))
            };
            let top = ties.iter().map(|&m| key(m)).max().unwrap();
            let mv = d.mv.unwrap();
            assert!(
                ties.contains(&mv) && key(mv) == top,
                "{start:?} {lead}: {mv:?}"
            );
            kept += usize::from(mv != ties[0]);
        }
    }
    assert!(kept >= 5, "{kept}");
}

#[test]
fn far_from_the_cap_the_deepening_spends_a_share_of_the_budget_and_counts_it() {
    // Far from the cap the horizon search gets one part in 20 of the budget: with
    // a small budget it stops short of the cap, and the nodes it reports are
    // counted within that share (plus what the weighing adds within the rest).
    let budget = 2_000;
    let heaps = Heaps::new(&[5, 6, 7, 9]).unwrap();
    let mut p = Perfect::learning(budget);
    let d = p.decide(&heaps, 120, 0);
    assert!(d.mv.is_some());
    assert!(!d.exact && d.depth < 120, "{d:?}");
    assert!(d.nodes > 0 && d.nodes <= budget, "{d:?}");
}
