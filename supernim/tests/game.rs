//! Super-Nim: move generation against hand-worked positions from the rules, the
//! bounds, the game record and the search (and its values against a plain
//! negamax). Games between players are played on `nimbot-engine`'s runner and
//! tested there (`engine/tests/runner.rs`).

use nimbot::{Player, SplitMix64};
use nimbot_supernim::{self as sn, decide_heaps, random_start, Heaps, BOARD_HEAPS, MAX_HEAPS};

fn heaps(sizes: &[u32]) -> Heaps {
    Heaps::new(sizes).unwrap()
}

fn after(h: &Heaps, mv: sn::Move) -> (Vec<u16>, u32) {
    let (next, points) = h.apply(mv).unwrap();
    (next.sizes().to_vec(), points)
}

#[test]
fn moves_of_the_rules_example() {
    // The seed's example heaps (2, 4, 2, 5, 7).
    let h = heaps(&[2, 4, 2, 5, 7]);
    use sn::Move::*;
    assert_eq!(
        h.moves().as_slice(),
        [
            Split(2),
            Split(4),
            Grow(5),
            Grow(7),
            Merge { from: 2, onto: 4 },
            Merge { from: 2, onto: 5 },
            Merge { from: 2, onto: 7 },
            Merge { from: 4, onto: 5 },
            Merge { from: 4, onto: 7 },
            Merge { from: 5, onto: 7 },
        ]
    );
    // "put the first heap onto the second, getting (6,2,5,7)".
    assert_eq!(after(&h, Merge { from: 2, onto: 4 }), (vec![2, 5, 6, 7], 0));
    // "put the second heap onto the last instead, getting (2,2,5,10)": 4 + 7 capped.
    assert_eq!(
        after(&h, Merge { from: 4, onto: 7 }),
        (vec![2, 2, 5, 10], 0)
    );
    // Either heap may go on top: the result is the same.
    assert_eq!(
        after(&h, Merge { from: 7, onto: 4 }),
        (vec![2, 2, 5, 10], 0)
    );
    // "What you cannot do is to put the first heap onto the third".
    assert_eq!(
        h.apply(Merge { from: 2, onto: 2 }),
        Err(sn::Error::SameSize)
    );
    // "replace the 4th heap by (2,4,2,16,7)".
    assert_eq!(after(&h, Grow(5)), (vec![2, 2, 4, 7, 16], 0));
    // "the second heap ... can be split to give (2,2,2,2,5,7)".
    assert_eq!(after(&h, Split(4)), (vec![2, 2, 2, 2, 5, 7], 0));
    // "if min splits the first heap, min gets 2 points, and the remaining heap is (4,2,5,7)".
    assert_eq!(after(&h, Split(2)), (vec![2, 4, 5, 7], 2));
    // Wrong parity and missing heaps are refused.
    assert_eq!(h.apply(Grow(4)), Err(sn::Error::WrongParity));
    assert_eq!(h.apply(Split(5)), Err(sn::Error::WrongParity));
    assert_eq!(h.apply(Split(6)), Err(sn::Error::NoSuchHeap));
    // A missing heap is named first, even when the parity is wrong too.
    assert_eq!(h.apply(Grow(6)), Err(sn::Error::NoSuchHeap));
    assert_eq!(h.apply(Split(9)), Err(sn::Error::NoSuchHeap));
    assert_eq!(
        h.apply(Merge { from: 3, onto: 4 }),
        Err(sn::Error::NoSuchHeap)
    );
}

#[test]
fn more_hand_worked_moves() {
    use sn::Move::*;
    // A 1 grows to 4; 1 onto 1 is not a move; 1 onto 3 makes 4.
    let h = heaps(&[1, 1, 3]);
    assert_eq!(
        h.moves().as_slice(),
        [Grow(1), Grow(3), Merge { from: 1, onto: 3 }]
    );
    assert_eq!(after(&h, Grow(1)), (vec![1, 3, 4], 0));
    assert_eq!(after(&h, Grow(3)), (vec![1, 1, 10], 0));
    assert_eq!(after(&h, Merge { from: 1, onto: 3 }), (vec![1, 4], 0));
    // Heaps above 10 (from growth) are capped when merged: 16 onto 5 is 10.
    let h = heaps(&[5, 16]);
    assert_eq!(after(&h, Merge { from: 16, onto: 5 }), (vec![10], 0));
    assert_eq!(after(&h, Split(16)), (vec![5, 8, 8], 0));
    // The last 2 split ends the game: no sticks remain.
    let h = heaps(&[2]);
    assert_eq!(h.moves().as_slice(), [Split(2)]);
    let (next, points) = h.apply(Split(2)).unwrap();
    assert!(next.is_empty());
    assert_eq!((points, next.sticks()), (2, 0));
}

/// Every move `apply` accepts from `h`, found by trying every candidate of every
/// kind between the heap sizes present, one per distinct result.
fn accepted_moves(h: &Heaps) -> Vec<sn::Move> {
    let sizes = h.sizes();
    let mut out = Vec::new();
    for &a in sizes {
        for mv in [sn::Move::Grow(a), sn::Move::Split(a)] {
            if h.apply(mv).is_ok() && !out.contains(&mv) {
                out.push(mv);
            }
        }
        for &b in sizes {
            let mv = sn::Move::Merge {
                from: a.min(b),
                onto: a.max(b),
            };
            if h.apply(mv).is_ok() && !out.contains(&mv) {
                out.push(mv);
            }
        }
    }
    out
}

#[test]
fn generated_moves_are_exactly_the_accepted_ones_in_order() {
    // Random positions up to the heap bound, with large heaps near the growth bound.
    let mut rng = SplitMix64::new(7);
    for case in 0..20_000 {
        let count = 1 + (rng.next_u64() % BOARD_HEAPS as u64) as usize;
        let top = if case % 4 == 0 { 9999 } else { 12 };
        let sizes: Vec<u32> = (0..count)
            .map(|_| 1 + (rng.next_u64() % top) as u32)
            .collect();
        // Half with the boards' limit (splits need a free slot), half without.
        let h = heaps(&sizes);
        let h = if case % 2 == 0 {
            h.with_limit(BOARD_HEAPS).unwrap()
        } else {
            h
        };
        let moves = h.moves();
        let streamed: Vec<sn::Move> = h.move_iter().collect();
        assert_eq!(moves.as_slice(), streamed.as_slice(), "{sizes:?}");
        let mut expected = accepted_moves(&h);
        let mut got = streamed.clone();
        let key = |m: &sn::Move| format!("{m:?}");
        expected.sort_by_key(key);
        got.sort_by_key(key);
        assert_eq!(got, expected, "{sizes:?}");
        // The documented order: a split of a 2 first, merges last.
        if h.sizes().contains(&2) {
            assert_eq!(streamed.first(), Some(&sn::Move::Split(2)), "{sizes:?}");
        }
        let first_merge = streamed
            .iter()
            .position(|m| matches!(m, sn::Move::Merge { .. }));
        if let Some(at) = first_merge {
            assert!(streamed[at..]
                .iter()
                .all(|m| matches!(m, sn::Move::Merge { .. })));
        }
    }
}

#[test]
fn bounds_are_typed_errors_and_moves_past_them_are_not_generated() {
    assert_eq!(Heaps::new(&[]), Err(sn::Error::NoHeaps));
    assert_eq!(Heaps::new(&[3, 0]), Err(sn::Error::EmptyHeap));
    assert_eq!(Heaps::new(&[10_000]), Err(sn::Error::HeapTooLarge));
    assert_eq!(Heaps::new(&[u32::MAX]), Err(sn::Error::HeapTooLarge));
    assert_eq!(
        Heaps::new(&[1; MAX_HEAPS + 1]),
        Err(sn::Error::TooManyHeaps)
    );
    // Twelve heaps: a split of an 8 needs a thirteenth slot; a split of a 2 frees one.
    let full = heaps(&[2, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        .with_limit(BOARD_HEAPS)
        .unwrap();
    assert_eq!(full.len(), BOARD_HEAPS);
    assert!(heaps(&[1; 12]).moves().contains(&sn::Move::Grow(1)));
    assert_eq!(
        heaps(&[1, 2, 3]).with_limit(2),
        Err(sn::Error::BadHeapLimit)
    );
    assert_eq!(
        heaps(&[1]).with_limit(MAX_HEAPS + 1),
        Err(sn::Error::BadHeapLimit)
    );
    assert_eq!(heaps(&[1]).with_limit(0), Err(sn::Error::BadHeapLimit));
    // Without a limit of its own, a position holds MAX_HEAPS heaps.
    let twelve_eights = heaps(&[8; 12]);
    assert_eq!(twelve_eights.limit(), MAX_HEAPS);
    assert!(twelve_eights.moves().contains(&sn::Move::Split(8)));
    assert!(!full.moves().contains(&sn::Move::Split(8)));
    assert!(full.moves().contains(&sn::Move::Split(2)));
    assert_eq!(full.apply(sn::Move::Split(8)), Err(sn::Error::TooManyHeaps));
    // 3 x 3333 + 1 = 10000 passes the size bound; 3 x 3331 + 1 = 9994 does not.
    let h = heaps(&[3333, 3331]);
    assert!(!h.moves().contains(&sn::Move::Grow(3333)));
    assert_eq!(h.apply(sn::Move::Grow(3333)), Err(sn::Error::HeapTooLarge));
    assert_eq!(after(&h, sn::Move::Grow(3331)).0, vec![3333, 9994]);
    // Twelve equal 4s: no merge (equal sizes), no split (no slot): the game stalls
    // at once and is judged on points.
    let game = sn::Game::new(heaps(&[4; 12]).with_limit(BOARD_HEAPS).unwrap(), 100).unwrap();
    assert_eq!(game.end(), Some(sn::End::Stalled));
    assert_eq!(game.verdict(), Some(sn::Verdict::Draw));
    assert_eq!(
        sn::Game::new(heaps(&[3]), 0).unwrap_err(),
        sn::Error::BadMoveLimit
    );
    assert_eq!(
        sn::Game::new(heaps(&[3]), 1_001).unwrap_err(),
        sn::Error::BadMoveLimit
    );
}

#[test]
fn the_game_record_scores_and_judges() {
    let mut g = sn::Game::new(heaps(&[2, 2, 5]), 3).unwrap();
    for (player, mv, expected) in [
        (
            Player::Second,
            sn::Move::Split(2),
            Err(sn::Error::OutOfTurn),
        ),
        (Player::First, sn::Move::Split(2), Ok(sn::Outcome::Continue)),
        (
            Player::Second,
            sn::Move::Split(5),
            Err(sn::Error::WrongParity),
        ),
        (Player::Second, sn::Move::Grow(5), Ok(sn::Outcome::Continue)),
    ] {
        assert_eq!(g.play(player, mv), expected, "{player:?} plays {mv:?}");
    }
    assert_eq!((g.score(Player::First), g.score(Player::Second)), (2, 0));
    assert_eq!(g.heaps().sizes(), [2, 16]);
    assert_eq!(g.lead(), 2);
    // The third move reaches the move limit.
    assert_eq!(
        g.play(Player::First, sn::Move::Split(2)),
        Ok(sn::Outcome::Over(sn::End::MoveLimit))
    );
    assert_eq!(g.verdict(), Some(sn::Verdict::Winner(Player::First)));
    assert_eq!(
        g.play(Player::Second, sn::Move::Split(16)),
        Err(sn::Error::GameOver)
    );

    let mut g = sn::Game::new(heaps(&[2]), 10).unwrap();
    assert_eq!(
        g.play(Player::First, sn::Move::Split(2)),
        Ok(sn::Outcome::Over(sn::End::NoSticks))
    );
    assert_eq!(g.verdict(), Some(sn::Verdict::Winner(Player::First)));
}

#[test]
fn the_search_is_deterministic_and_keeps_its_budget() {
    // A 2 to take: take it.
    let g = sn::Game::new(heaps(&[2, 5, 9]), 50).unwrap();
    let d = sn::decide(&g, 5_000);
    assert_eq!(d.mv, Some(sn::Move::Split(2)));
    assert!(d.depth >= 2 && d.nodes <= 5_001, "{d:?}");
    assert_eq!(sn::decide(&g, 5_000), d);
    // (4, 4) with one move left in the game: any split hands the opponent nothing,
    // so the value is the lead.
    let d = decide_heaps(&heaps(&[4, 4]), 0, 1, 1_000);
    assert_eq!((d.mv, d.value), (Some(sn::Move::Split(4)), 0));
    // A single move is played without a search.
    let d = decide_heaps(&heaps(&[2, 2, 2]), 0, 50, 100_000);
    assert_eq!((d.mv, d.depth), (Some(sn::Move::Split(2)), 0));
    // (2, 4) with two moves left: take the 2, the opponent must split the 4, the
    // game ends 2 - 0. Splitting the 4 instead would end it 0 - 2, merging 0 - 0.
    let d = decide_heaps(&heaps(&[2, 4]), 0, 2, 100_000);
    assert_eq!(d.mv, Some(sn::Move::Split(2)));
    assert_eq!(d.value, 2 + sn::WIN_BONUS);
    assert_eq!(d.depth, 2);
    // A budget too small for one iteration still gives a legal move.
    let d = decide_heaps(&heaps(&[3, 5, 7, 9]), 0, 50, 3);
    assert_eq!(d.depth, 0);
    assert!(heaps(&[3, 5, 7, 9]).moves().contains(&d.mv.unwrap()));
}

/// Plain depth-limited negamax, written from the rules: every move's heaps are a
/// fresh copy (`Heaps::apply`), no pruning, no budget. The leaves as the search
/// module documents them: a finished game (no sticks, no moves left in the game,
/// no move within bounds) is worth the lead plus the win bonus toward the side
/// ahead, the horizon the lead.
fn plain_value(h: &Heaps, lead: i32, depth: u32, plies_left: u32) -> i32 {
    let moves = h.moves();
    if h.is_empty() || plies_left == 0 || moves.is_empty() {
        return lead + sn::WIN_BONUS * lead.signum();
    }
    if depth == 0 {
        return lead;
    }
    moves
        .iter()
        .map(|&mv| {
            let (child, points) = h.apply(mv).unwrap();
            -plain_value(&child, -(lead + points as i32), depth - 1, plies_left - 1)
        })
        .max()
        .unwrap()
}

#[test]
fn the_search_agrees_with_a_plain_negamax() {
    // The search plays each move on one copy of the heaps and takes it back, with
    // alpha-beta pruning: its value at the depth it completed must be the plain
    // search's, and its move must reach that value.
    let mut rng = SplitMix64::new(26);
    let mut searched = 0;
    for i in 0..300u32 {
        let mut h = random_start(&mut rng);
        for _ in 0..rng.below(12) {
            let moves = h.moves();
            if moves.is_empty() {
                break;
            }
            h = h
                .apply(moves[rng.below(moves.len() as u64) as usize])
                .unwrap()
                .0;
        }
        let lead = (i % 7) as i32 - 3;
        let plies_left = 1 + rng.below(5) as u32;
        let d = decide_heaps(&h, lead, plies_left, 200_000);
        if d.depth == 0 {
            continue;
        }
        searched += 1;
        let want = plain_value(&h, lead, d.depth, plies_left);
        assert_eq!(
            d.value,
            want,
            "{:?} lead {lead} plies {plies_left}: {d:?}",
            h.sizes()
        );
        let (child, points) = h.apply(d.mv.unwrap()).unwrap();
        let got = -plain_value(&child, -(lead + points as i32), d.depth - 1, plies_left - 1);
        assert_eq!(got, want, "{:?}: {d:?}", h.sizes());
    }
    assert!(searched > 150, "{searched} positions searched");
}

#[test]
fn the_search_agrees_with_a_plain_negamax_on_the_small_starts() {
    // Every small start three and four plies before the cap, level or behind: deep
    // enough for windows below the root's children (a pruned window there must
    // still give the exact value).
    for h in Heaps::small_starts() {
        for plies_left in 3..=4 {
            for lead in [-2, 0] {
                let d = decide_heaps(&h, lead, plies_left, 1_000_000);
                if h.moves().len() == 1 {
                    // A single move is played without a search.
                    continue;
                }
                assert_eq!(d.depth, plies_left, "{:?}", h.sizes());
                let want = plain_value(&h, lead, plies_left, plies_left);
                assert_eq!(
                    d.value,
                    want,
                    "{:?} lead {lead} plies {plies_left}",
                    h.sizes()
                );
                let (child, points) = h.apply(d.mv.unwrap()).unwrap();
                let got = -plain_value(
                    &child,
                    -(lead + points as i32),
                    plies_left - 1,
                    plies_left - 1,
                );
                assert_eq!(got, want, "{:?}: {d:?}", h.sizes());
            }
        }
    }
}

#[test]
fn a_budget_of_k_nodes_stops_the_search_after_k() {
    // A first iteration visits each root move once: with exactly that budget it
    // completes, and the second stops at its first node (one past the budget).
    for sizes in [&[1, 2][..], &[3, 5, 7, 9], &[2, 4, 6, 8, 10]] {
        let h = heaps(sizes);
        let k = h.moves().len() as u32;
        let d = decide_heaps(&h, 0, 10, k);
        assert_eq!((d.depth, d.nodes), (1, k + 1), "{sizes:?}");
        let d = decide_heaps(&h, 0, 10, k - 1);
        assert_eq!((d.depth, d.nodes), (0, k), "{sizes:?}");
    }
    // No budget: no iteration, one node tried.
    let d = decide_heaps(&heaps(&[3, 5, 7, 9]), 0, 10, 0);
    assert_eq!((d.depth, d.nodes), (0, 1));
}

#[test]
fn sticks_plies_errors_and_the_move_bound_follow_their_definitions() {
    let h = heaps(&[9, 1, 4, 4]);
    assert_eq!(h.sticks(), 18);
    // Plies count the moves played.
    let mut g = sn::Game::new(heaps(&[2, 3, 6]), 10).unwrap();
    assert_eq!(g.plies(), 0);
    for (i, mv) in [sn::Move::Split(2), sn::Move::Grow(3), sn::Move::Split(6)]
        .into_iter()
        .enumerate()
    {
        g.play(g.to_move(), mv).unwrap();
        assert_eq!((g.plies(), g.plies_left()), (i as u32 + 1, 9 - i as u32));
    }
    // A limit of MAX_HEAPS is the largest allowed.
    assert_eq!(
        h.clone().with_limit(MAX_HEAPS).map(|h| h.limit()),
        Ok(MAX_HEAPS)
    );
    assert_eq!(h.with_limit(MAX_HEAPS + 1), Err(sn::Error::BadHeapLimit));
    // The lead is the mover's points minus the other's.
    let mut g = sn::Game::new(heaps(&[2, 2, 2, 3]), 10).unwrap();
    g.play(Player::First, sn::Move::Split(2)).unwrap();
    assert_eq!(g.lead(), -2);
    g.play(Player::Second, sn::Move::Grow(3)).unwrap();
    assert_eq!(g.lead(), 2);
    // An error prints its text.
    assert_eq!(
        sn::Error::NoHeaps.to_string(),
        "at least one heap is needed"
    );
    for e in [
        sn::Error::SameSize,
        sn::Error::GameOver,
        sn::Error::TooManyHeaps,
    ] {
        assert_eq!(format!("{e}"), e.as_str());
        assert!(!e.as_str().is_empty());
    }
    // MAX_MOVES bounds the moves of a position: 46 distinct sizes have a merge per
    // pair, a growth per odd size, a split per even one.
    // So its definition, one merge per pair of distinct sizes and one Collatz step
    // per size, recounted for MAX_HEAPS sizes, is MAX_MOVES.
    let distinct = |k: usize| (0..k).map(|i| (i + 1..k).count()).sum::<usize>() + k;
    let sizes: Vec<u32> = (1..=46).collect();
    let moves = heaps(&sizes).moves().len();
    assert_eq!(moves, distinct(46));
    assert_eq!(sn::MAX_MOVES, distinct(MAX_HEAPS));
    assert!(moves <= sn::MAX_MOVES && MAX_HEAPS < moves);
}
