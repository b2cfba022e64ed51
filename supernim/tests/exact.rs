//! The exact Super-Nim solver (`nimbot-supernim`) against a plain minimax written
//! from the seed's rules (`tests/plain`), and the snapshot of the values of the small
//! starts.

use std::collections::{HashMap, HashSet};

use nimbot_supernim::{Heaps, Move, Solver};

mod plain;

use plain::{horizon, minimax, starts, successors};

fn heaps(h: &[u32]) -> Heaps {
    Heaps::new(h).unwrap()
}

/// The heaps after `mv`, as the plain rules see them.
fn after(h: &[u32], mv: Move) -> Vec<u32> {
    let (next, _) = heaps(h).apply(mv).unwrap();
    next.sizes().iter().map(|&n| u32::from(n)).collect()
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_every_reachable_position() {
    // Every position (heaps, plies left) reachable from the small starts (1..=4
    // heaps of 1..=6 sticks) with a cap of 8: the value and every move's value.
    let cap = 8;
    let mut memo = HashMap::new();
    let mut solver = Solver::new(u64::MAX, 1 << 22);
    let mut seen = HashSet::new();
    let mut todo: Vec<(Vec<u32>, u32)> = starts(1..=4, 6).into_iter().map(|s| (s, cap)).collect();
    let mut checked = 0;
    while let Some((h, plies)) = todo.pop() {
        if plies == 0 || h.is_empty() || !seen.insert((h.clone(), plies)) {
            continue;
        }
        let want = minimax(&h, plies, &mut memo);
        assert_eq!(solver.value(&heaps(&h), plies), Some(want), "{h:?} {plies}");
        let values = solver.move_values(&heaps(&h), plies).unwrap();
        let mut best = i32::MIN;
        for mv in &values {
            let next = after(&h, mv.mv);
            let points = if mv.mv == Move::Split(2) { 2 } else { 0 };
            let v = points - minimax(&next, plies - 1, &mut memo);
            assert_eq!(mv.value, v, "{h:?} {plies} {:?}", mv.mv);
            best = best.max(v);
        }
        assert_eq!(best, want);
        // The solver's moves are the rules' moves, one per distinct result (heaps
        // and points: a 2 onto a 10 leaves the heaps a split of the 2 leaves).
        let mut mine: Vec<(Vec<u32>, i32)> = values
            .iter()
            .map(|m| (after(&h, m.mv), if m.mv == Move::Split(2) { 2 } else { 0 }))
            .collect();
        let mut rules = successors(&h);
        mine.sort();
        rules.sort();
        rules.dedup();
        assert_eq!(mine, rules, "{h:?}");
        checked += 1;
        for (next, _) in successors(&h) {
            todo.push((next, plies - 1));
        }
    }
    assert!(checked > 40_000, "{checked} positions");
    println!("{checked} positions");
}

#[test]
fn a_node_bound_too_small_says_so() {
    let mut solver = Solver::new(50, 1 << 16);
    assert_eq!(solver.value(&heaps(&[3, 5, 6, 9]), 20), None);
    assert_eq!(solver.move_values(&heaps(&[3, 5, 6, 9]), 20), None);
    solver.set_node_bound(u64::MAX);
    assert_eq!(solver.value(&heaps(&[2]), 5), Some(2));
}

/// The snapshot's lines: `cap C: H1,H2,... V` for every start of 2-4 heaps of
/// 1-6 sticks.
fn snapshot(caps: &[u32]) -> String {
    let mut out = String::new();
    let mut solver = Solver::new(u64::MAX, 1 << 26);
    for &cap in caps {
        for s in starts(2..=4, 6) {
            let v = solver.value(&heaps(&s), cap).expect("no node bound");
            let list: Vec<String> = s.iter().map(u32::to_string).collect();
            out += &format!("cap {cap}: {} {v}\n", list.join(","));
        }
    }
    out
}

#[test]
fn the_values_of_the_small_starts_are_the_snapshot() {
    // tests/data/values.txt, written by this function with
    // SUPERNIM_SNAPSHOT=write.
    let got = snapshot(&[16, 20, 24]);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values.txt");
    if std::env::var("SUPERNIM_SNAPSHOT").as_deref() == Ok("write") {
        std::fs::write(path, &got).unwrap();
    }
    let want = std::fs::read_to_string(path).unwrap();
    assert_eq!(got.lines().count(), 3 * 203);
    for (g, w) in got.lines().zip(want.lines()) {
        assert_eq!(g, w);
    }
    assert_eq!(got, want);
    // The parity result, at caps 20 and 24: +2 for the mover with an odd number of
    // 2s, else 0.
    for line in got.lines().filter(|l| !l.starts_with("cap 16")) {
        let (start, v) = line.rsplit_once(' ').unwrap();
        let twos = start.split([':', ',', ' ']).filter(|w| *w == "2").count();
        let want = if twos % 2 == 1 { "2" } else { "0" };
        assert_eq!(v, want, "{line}");
    }
}

#[test]
fn the_small_starts_are_every_start_of_two_to_four_heaps_of_one_to_six() {
    let library: Vec<Vec<u32>> = Heaps::small_starts()
        .map(|h| h.sizes().iter().map(|&n| u32::from(n)).collect())
        .collect();
    let mut plain = starts(2..=4, 6);
    plain.sort();
    let mut sorted = library.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), library.len(), "no start twice");
    assert_eq!(sorted, plain);
    assert_eq!(library.len(), 203);
}

#[test]
fn the_horizon_agrees_with_a_plain_search_scored_by_the_parity_of_the_2s() {
    // Starts with none, one, two and three 2s, every depth below the plies left:
    // each move's estimate is the plain search's.
    let mut solver = Solver::new(u64::MAX, 1 << 16);
    let starts: [&[u32]; 6] = [
        &[1, 3],
        &[2, 3],
        &[2, 2, 5],
        &[2, 2, 2],
        &[1, 2, 4],
        &[4, 6],
    ];
    for h in starts {
        for plies in 2..=5 {
            for depth in 1..plies {
                let got = solver.horizon(&heaps(h), plies, depth).unwrap();
                let mut mine: Vec<(Vec<u32>, i32)> =
                    got.iter().map(|m| (after(h, m.mv), m.value)).collect();
                let mut want: Vec<(Vec<u32>, i32)> = successors(h)
                    .into_iter()
                    .map(|(next, points)| {
                        let v = points - horizon(&next, depth - 1, plies - 1);
                        (next, v)
                    })
                    .collect();
                mine.sort();
                want.sort();
                want.dedup();
                assert_eq!(mine, want, "{h:?} plies {plies} depth {depth}");
            }
        }
    }
    // No ply searched: no estimates.
    assert_eq!(solver.horizon(&heaps(&[2]), 5, 0), None);
}

#[test]
fn the_node_bound_is_the_one_last_set() {
    // A bound of K nodes gives up at node K + 1 (the count says so), whatever
    // the bound it was made with.
    let mut solver = Solver::new(100_000, 1 << 16);
    for bound in [1, 10, 200, 0] {
        solver.set_node_bound(bound);
        assert_eq!(solver.value(&heaps(&[3, 5, 6, 9]), 20), None, "{bound}");
        assert_eq!(solver.nodes(), bound + 1);
    }
}

#[test]
fn the_table_keeps_what_it_solved_up_to_its_bound() {
    let mut solver = Solver::new(u64::MAX, 1 << 16);
    assert_eq!(solver.entries(), 0);
    let mut memo = HashMap::new();
    // Two heaps and one: positions of every length are stored, and a position
    // solved once is known at its first node the next time.
    for h in [&[1, 2][..], &[3, 4], &[6]] {
        let want = minimax(h, 7, &mut memo);
        let before = solver.entries();
        assert_eq!(solver.value(&heaps(h), 7), Some(want), "{h:?}");
        assert!(solver.entries() > before, "{h:?}");
        assert_eq!(solver.value(&heaps(h), 7), Some(want), "{h:?}");
        assert_eq!(solver.nodes(), 1, "{h:?}");
    }
    solver.clear();
    assert_eq!(solver.entries(), 0);
    // At most the bound: a search of many positions keeps exactly that many.
    let mut small = Solver::new(u64::MAX, 3);
    assert_eq!(
        small.value(&heaps(&[1, 2, 3]), 8),
        Some(minimax(&[1, 2, 3], 8, &mut memo))
    );
    assert_eq!(small.entries(), 3);
}

#[test]
fn a_cap_past_every_game_gives_the_value() {
    // Games that end within a few plies, with every cap up to the largest: the
    // value is the plain minimax's, the first time and from the table.
    let mut memo = HashMap::new();
    let mut solver = Solver::new(100_000, 1 << 16);
    for h in [&[1][..], &[2], &[4], &[2, 2, 2]] {
        for plies in [4, u32::MAX - 2, u32::MAX - 1, u32::MAX] {
            let want = minimax(h, plies, &mut memo);
            for _ in 0..2 {
                assert_eq!(solver.value(&heaps(h), plies), Some(want), "{h:?} {plies}");
            }
        }
    }
}
