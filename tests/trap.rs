//! The lost-position policy: its reply counts against brute force, its choice
//! against every alternative, and its selection through the protocol and the CLI.

use nimbot::distance::Distances;
use nimbot::engine::TableOrSolverEngine;
use nimbot::policy::{decide, longest_move, reply_counts};
use nimbot::protocol::Session;
use nimbot::solver::{Solution, SolveBox};
use nimbot::strategy::{best_move, position_value, Oracle};
use nimbot::table::encode as encode_table;
use nimbot::{Move, Policy, Position, Table, TableEngine};

/// Every legal move, with the opponent's winning replies counted by brute force.
fn brute_counts(sol: &Solution, q: &Position) -> (u32, u32) {
    let (mut w, mut t) = (0, 0);
    for reset in [false, true] {
        if reset && q.own_resets() == 0 {
            continue;
        }
        for take in 1..=q.limit() {
            t += 1;
            match q.after(Move::new(take, reset)).expect("legal") {
                None => w += 1,
                Some(next) => w += u32::from(!position_value(sol, &next).unwrap().is_won()),
            }
        }
    }
    (w, t)
}

fn stored(sol: &Solution, r: u8, m: u32) -> impl Iterator<Item = Position> + '_ {
    sol.layers().flat_map(move |(c, hi)| {
        ((c + 1)..=hi).flat_map(move |s| {
            (0..=r).flat_map(move |a| {
                (0..=r).flat_map(move |b| {
                    [false, true]
                        .into_iter()
                        .map(move |f| Position::new(s, c, a, b, f, m).unwrap())
                })
            })
        })
    })
}

#[test]
fn reply_counts_match_brute_force_on_solver_and_table() {
    let (n, r, m) = (160, 2, 3);
    let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
    let blob = encode_table(&sol, "test").unwrap();
    let table = Table::from_bytes(&blob).unwrap();
    let mut checked = 0;
    for pos in stored(&sol, r, m) {
        // Replies are counted from positions the opponent faces: every stored one,
        // and the open-cap ones right above the cap.
        for q in [Some(pos), pos.with_stones(pos.cap()), pos.with_stones(1)]
            .into_iter()
            .flatten()
        {
            let want = brute_counts(&sol, &q);
            assert_eq!(reply_counts(&sol, &q), Ok(want), "solver at {q:?}");
            assert_eq!(reply_counts(&table, &q), Ok(want), "table at {q:?}");
            checked += 1;
        }
    }
    assert!(checked > 50_000, "{checked}");
}

#[test]
fn table_window_counts_equal_pile_by_pile_counts() {
    let sol = Solution::solve(SolveBox::games(300, 1, 2)).unwrap();
    let blob = encode_table(&sol, "test").unwrap();
    let table = Table::from_bytes(&blob).unwrap();
    for pos in stored(&sol, 1, 2).step_by(7) {
        let hi = table.highest_pile(pos.cap());
        for (lo, top) in [(0, hi), (pos.stones(), hi), (pos.cap() + 3, pos.stones())] {
            assert_eq!(
                table.count_losses_in(&pos, lo, top),
                sol.count_losses_in(&pos, lo, top),
                "{pos:?} {lo}..={top}"
            );
        }
    }
}

#[test]
fn trap_picks_the_fewest_winning_replies_and_never_spoils_a_win() {
    let (n, r, m) = (200, 2, 3);
    let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
    let (mut lost, mut differs) = (0, 0);
    for pos in stored(&sol, r, m) {
        let d = decide(&sol, &pos, Policy::Trap).unwrap();
        let base = best_move(&sol, &pos).unwrap();
        if sol.value(&pos).unwrap().is_won() {
            assert_eq!(d, base, "a won position keeps its winning move: {pos:?}");
            continue;
        }
        lost += 1;
        assert!(!d.value.is_won());
        assert_eq!(decide(&sol, &pos, Policy::First).unwrap(), base);
        assert_eq!(base.mv, Move::new(1, false));
        // The choice against every alternative: fewest winning replies, then the
        // smallest take, then no reset.
        let mut options = Vec::new();
        for take in 1..=pos.limit() {
            for reset in [false, true] {
                if reset && pos.own_resets() == 0 {
                    continue;
                }
                let mv = Move::new(take, reset);
                let next = pos
                    .after(mv)
                    .expect("legal")
                    .expect("a lost position never ends here");
                options.push((brute_counts(&sol, &next).0, take, reset, mv));
            }
        }
        let best = options.iter().min_by_key(|o| (o.0, o.1, o.2)).unwrap();
        assert_eq!(d.mv, best.3, "{pos:?}: {options:?}");
        differs += u32::from(d.mv != base.mv);
    }
    assert!(lost > 10_000, "{lost}");
    assert!(differs > 0, "trap never differs from the baseline");
}

#[test]
fn the_policy_is_chosen_over_the_protocol() {
    let mut s = Session::new(TableEngine::embedded().unwrap());
    let mut say =
        |line: &str| String::from_utf8(s.handle_line(line.as_bytes()).unwrap().to_vec()).unwrap();
    assert_eq!(say("policy"), "policy trap");
    // A lost position where the trap does not take 1.
    let sol = Solution::solve(SolveBox::games(999, 4, 3)).unwrap();
    let table = Table::embedded().unwrap();
    let pos = stored(&sol, 4, 3)
        .find(|p| {
            !sol.value(p).unwrap().is_won()
                && decide(&table, p, Policy::Trap).unwrap().mv != Move::new(1, false)
        })
        .expect("some lost position where the trap differs");
    let trap = decide(&table, &pos, Policy::Trap).unwrap().mv;
    let query = query_line(&pos);
    // The table alone has no distances: `-`.
    assert_eq!(
        say(&query),
        format!("lose {} {} -", trap.take, u8::from(trap.reset))
    );
    assert_eq!(say("policy first"), "policy first");
    assert_eq!(say(&query), "lose 1 0 -");
    assert_eq!(say("policy"), "policy first");
    assert_eq!(
        say("policy sneaky"),
        "error usage: policy [first|trap|longest|exploit]"
    );
    assert_eq!(say("policy trap extra"), "error too many arguments");
    assert_eq!(say("policy"), "policy first");
}

#[test]
fn distances_are_a_fixed_point_of_the_rules() {
    // Won: some winning move leads to distance d - 1; lost: the longest move does.
    let (n, r, m) = (300, 2, 3);
    let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
    let dist = Distances::solve(sol.solve_box()).unwrap();
    let mut checked = 0;
    for pos in stored(&sol, r, m) {
        let d = dist.get(&pos).unwrap();
        let won = sol.value(&pos).unwrap().is_won();
        let mut lengths = Vec::new();
        for take in 1..=pos.limit() {
            for reset in [false, true] {
                if reset && pos.own_resets() == 0 {
                    continue;
                }
                match pos.after(Move::new(take, reset)).unwrap() {
                    None => lengths.push((true, 1)),
                    Some(next) => {
                        let next_lost = !position_value(&sol, &next).unwrap().is_won();
                        lengths.push((next_lost, 1 + dist.get(&next).unwrap()));
                    }
                }
            }
        }
        let want = if won {
            lengths.iter().filter(|l| l.0).map(|l| l.1).min().unwrap()
        } else {
            lengths.iter().map(|l| l.1).max().unwrap()
        };
        assert_eq!(d, want, "{pos:?}");
        checked += 1;
    }
    assert!(checked > 50_000, "{checked}");
}

#[test]
fn longest_holds_out_exactly_the_distance_against_the_fastest_winner() {
    let (n, r, m) = (300, 4, 3);
    let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
    let dist = Distances::solve(sol.solve_box()).unwrap();
    for start in (20..=300).step_by(7) {
        let mut pos = Position::new(start, m, r, r, false, m).unwrap();
        let expected = dist.get(&pos).unwrap();
        let mut plies = 0;
        loop {
            plies += 1;
            let mv = if sol.value(&pos).is_none_or(nimbot::Value::is_won) {
                // The fastest winner: a winning move of least remaining distance.
                let mut best = None;
                for take in 1..=pos.limit() {
                    for reset in [false, true] {
                        if reset && pos.own_resets() == 0 {
                            continue;
                        }
                        let mv = Move::new(take, reset);
                        let left = match pos.after(mv).unwrap() {
                            None => 0,
                            Some(next) if !position_value(&sol, &next).unwrap().is_won() => {
                                dist.get(&next).unwrap()
                            }
                            Some(_) => continue,
                        };
                        if best.is_none_or(|(_, l)| left < l) {
                            best = Some((mv, left));
                        }
                    }
                }
                best.unwrap().0
            } else {
                longest_move(&sol, &dist, &pos).unwrap().mv
            };
            match pos.after(mv).unwrap() {
                None => break,
                Some(next) => pos = next,
            }
        }
        assert_eq!(plies, expected, "start {start}");
    }
}

#[test]
fn longest_is_a_protocol_policy_on_engines_with_the_solver() {
    let mut s = Session::new(TableOrSolverEngine::embedded());
    let mut say =
        |line: &str| String::from_utf8(s.handle_line(line.as_bytes()).unwrap().to_vec()).unwrap();
    assert_eq!(say("policy longest"), "policy longest");
    let sol = Solution::solve(SolveBox::games(999, 4, 3)).unwrap();
    let dist = Distances::solve(sol.solve_box()).unwrap();
    let pos = stored(&sol, 4, 3)
        .step_by(101)
        .find(|p| {
            !sol.value(p).unwrap().is_won()
                && longest_move(&sol, &dist, p).unwrap().mv
                    != decide(&sol, p, Policy::Trap).unwrap().mv
        })
        .expect("a lost position where longest and trap differ");
    let want = longest_move(&sol, &dist, &pos).unwrap().mv;
    assert_eq!(
        say(&query_line(&pos)),
        format!(
            "lose {} {} {}",
            want.take,
            u8::from(want.reset),
            dist.get(&pos).unwrap()
        )
    );
}

/// The protocol's `query` line for `pos`.
fn query_line(pos: &Position) -> String {
    format!("query {pos}")
}
