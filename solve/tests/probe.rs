//! The root probe and distances to the end beyond the raw minimax's reach
//! (tests/minimax.rs checks every reachable state up to 60 stones): random
//! positions of games up to 5,000 stones against the solver's values, one ply deep;
//! the probe's moves are the legal ones and page from anywhere. (The distances'
//! parity against the solver on whole boxes is a unit test of the solver; the line
//! protocol's `moves` on the probe is protocol/tests/engines.rs.)

use nimbot::{
    evaluate_move, position_value, root_moves, Engine, Move, Policy, Position, SplitMix64, Win,
    WinChoice,
};
use nimbot_solve::{Distances, Solution, SolveBox, SolvingEngine};

/// A random position of the box of `n` stones (R, M): a stored one (cap below the
/// pile) most of the time, sometimes one whose cap is open.
fn random_position(rng: &mut SplitMix64, n: u32, r: u8, m: u32) -> Position {
    // Cap c is reachable with pile s when s + m + ... + (c - 1) <= n.
    loop {
        let c = m + rng.below(u64::from(n / 20 + 2)) as u32;
        let below: u64 = (u64::from(m)..u64::from(c)).sum();
        let Some(room) = u64::from(n).checked_sub(below) else {
            continue;
        };
        if room == 0 {
            continue;
        }
        let s = 1 + rng.below(room) as u32;
        let a = rng.below(u64::from(r) + 1) as u8;
        let b = rng.below(u64::from(r) + 1) as u8;
        return Position::new(s, c, a, b, rng.chance(0.5), m).unwrap();
    }
}

#[test]
fn root_probe_agrees_with_the_solver_on_random_positions_up_to_5000_stones() {
    let (n, r, m) = (5000, 4, 3);
    let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
    let mut engine = SolvingEngine::default();
    engine
        .prepare(&nimbot::Params::new(n, r, m).unwrap())
        .unwrap();
    let mut rng = SplitMix64::new(25);
    let (mut positions, mut moves) = (0, 0);
    while positions < 3000 {
        let pos = random_position(&mut rng, n, r, m);
        let want = position_value(&sol, &pos).unwrap();
        let e = engine.evaluate(&pos).unwrap();
        assert_eq!(e.value, want, "{pos:?}");
        let d = e.distance.expect("the solver's engine knows distances");
        assert_eq!(d % 2 == 1, want.is_won(), "parity at {pos:?}");
        let (mut fastest_win, mut longest) = (None::<u16>, 0u16);
        for mv in root_moves(&pos) {
            let me = evaluate_move(&mut engine, &pos, mv).unwrap();
            let wins = match pos.after(mv).unwrap() {
                None => true,
                Some(next) => !position_value(&sol, &next).unwrap().is_won(),
            };
            assert_eq!(me.value.is_won(), wins, "{pos:?} {mv:?}");
            let md = me.distance.unwrap();
            assert_eq!(md % 2 == 1, wins, "{pos:?} {mv:?}");
            if wins {
                fastest_win = Some(fastest_win.map_or(md, |f| f.min(md)));
            }
            longest = longest.max(md);
            moves += 1;
        }
        // The position's distance from its moves: the winner's fastest, the
        // loser's longest.
        assert_eq!(d, fastest_win.unwrap_or(longest), "{pos:?}");
        positions += 1;
    }
    assert!(moves > 3000 * 4, "{moves}");
}

#[test]
fn root_moves_are_the_legal_moves_up_to_the_pile_and_page_from_anywhere() {
    for (s, c, a, f) in [
        (20, 3, 4, false),
        (7, 6, 0, false),
        (5, 3, 1, true),
        (3, 9, 2, false),
    ] {
        let pos = Position::new(s, c, a, 1, f, 3).unwrap();
        let all: Vec<Move> = root_moves(&pos).collect();
        // The one enumeration of legal moves, less what repeats taking the pile.
        let legal: Vec<Move> = pos
            .moves()
            .filter(|mv| mv.take < s || (mv.take == s && !mv.reset))
            .collect();
        assert_eq!(all, legal, "{pos:?}");
        for i in 0..=all.len() + 2 {
            assert_eq!(root_moves(&pos).nth(i), all.get(i).copied(), "{pos:?} {i}");
            let rest: Vec<Move> = root_moves(&pos).skip(i).collect();
            assert_eq!(rest, all.get(i..).unwrap_or(&[]), "{pos:?} {i}");
        }
    }
    // A pile of a billion stones under a cap of 800 million: the 1.5 billionth move
    // (a reset move) is found at once, and the list ends where it should.
    let pos = Position::new(1_000_000_000, 800_000_000, 1, 0, false, 3).unwrap();
    assert_eq!(
        root_moves(&pos).nth(1_500_000_000),
        Some(Move::new(700_000_001, true))
    );
    assert_eq!(root_moves(&pos).nth(1_600_000_000), None);
    assert_eq!(root_moves(&pos).skip(1_599_999_999).count(), 1);
}

#[test]
fn the_win_choice_plays_the_smallest_or_the_fastest_winning_move_as_asked() {
    // Distances solved apart (nimbot_solve::Distances) judge `--win fastest`; the
    // plain list of legal moves judges `--win smallest`.
    let (n, r, m) = (300, 2, 3);
    let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
    let dist = Distances::solve(sol.solve_box()).unwrap();
    // What a winning move leaves: the distance of the lost position it hands over.
    let left = |pos: &Position, mv: Move| match pos.after(mv).unwrap() {
        None => Some(0),
        Some(next) if !position_value(&sol, &next).unwrap().is_won() => dist.get(&next),
        Some(_) => None,
    };
    let mut smallest = WinChoice::new(SolvingEngine::new(1 << 30), Win::Smallest);
    let mut fastest = WinChoice::new(SolvingEngine::new(1 << 30), Win::Fastest);
    let mut rng = SplitMix64::new(46);
    let (mut won, mut differ) = (0, 0);
    for _ in 0..400 {
        let pos = random_position(&mut rng, n, r, m);
        let a = smallest.decide(&pos, Policy::First).unwrap();
        let b = fastest.decide(&pos, Policy::First).unwrap();
        assert_eq!(a.value, b.value, "{pos:?}");
        if !a.value.is_won() {
            // Lost: the policy's move, the same under either choice.
            assert_eq!(a.mv, b.mv, "{pos:?}");
            continue;
        }
        won += 1;
        let winning: Vec<(Move, u16)> = pos
            .moves()
            .filter_map(|mv| left(&pos, mv).map(|d| (mv, d)))
            .collect();
        // The smallest: the first winning move in the rules' order.
        assert_eq!(a.mv, winning[0].0, "{pos:?}");
        // The fastest: a winning move of least distance left, ties to the earlier.
        let least = winning.iter().map(|&(_, d)| d).min().unwrap();
        let first_least = winning.iter().find(|&&(_, d)| d == least).unwrap().0;
        assert_eq!(b.mv, first_least, "{pos:?}");
        differ += usize::from(a.mv != b.mv);
    }
    assert!(won > 100 && differ > 10, "{won} won, {differ} differ");
}
