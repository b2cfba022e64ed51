//! The lost-position policy: its reply counts against brute force, its choice
//! against every alternative (its selection through the line protocol is tested
//! by the protocol's crate, protocol/tests/engines.rs).

use nimbot::{
    best_move, position_value, reply_counts, Engine, Move, Oracle, Params, Policy, Position, Table,
};
use nimbot_solve::{
    encode as encode_table, longest_move, Distances, Solution, SolveBox, TableOrSolverEngine,
};

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

/// The games up to `n` stones solved, with their distances to the end.
fn solved_with_distances(n: u32, r: u8, m: u32) -> (Solution, Distances) {
    let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
    let dist = Distances::solve(sol.solve_box()).unwrap();
    (sol, dist)
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

/// Every stored position of the box: in won positions the trap keeps the winning
/// move; in lost ones it picks, on the solver and on the table alike, the move a
/// brute-force count of every alternative's winning replies picks. Returns (lost
/// positions, those where the trap does not take 1).
fn check_trap(n: u32, r: u8, m: u32, step: usize) -> (u32, u32) {
    let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
    let blob = encode_table(&sol, "test").unwrap();
    let table = Table::from_bytes(&blob).unwrap();
    let (mut lost, mut differs) = (0, 0);
    for pos in stored(&sol, r, m).step_by(step) {
        let d = Policy::Trap.decide(&sol, &pos).unwrap();
        assert_eq!(Policy::Trap.decide(&table, &pos), Ok(d), "table at {pos:?}");
        let base = best_move(&sol, &pos).unwrap();
        if sol.value(&pos).unwrap().is_won() {
            assert_eq!(d, base, "a won position keeps its winning move: {pos:?}");
            continue;
        }
        lost += 1;
        assert!(!d.value.is_won());
        assert_eq!(Policy::First.decide(&sol, &pos).unwrap(), base);
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
    (lost, differs)
}

#[test]
fn trap_picks_the_fewest_winning_replies_and_never_spoils_a_win() {
    let (lost, differs) = check_trap(200, 2, 3, 1);
    assert!(lost > 10_000, "{lost}");
    assert!(differs > 0, "trap never differs from the baseline");
    // More resets, the smallest M (the cap can be 1), a larger M, caps above the
    // trap's block of 32 takes, and a sample of the default table's box.
    for (n, r, m, step) in [
        (120, 4, 3, 1),
        (90, 3, 1, 1),
        (150, 2, 5, 1),
        (400, 1, 40, 1),
        (999, 4, 3, 97),
    ] {
        let (lost, differs) = check_trap(n, r, m, step);
        assert!(
            lost > 0 && differs > 0,
            "N={n} R={r} M={m}: {lost} {differs}"
        );
    }
}

/// The trap by plainer means, the oracle of the batched one: the winning move by
/// plain search, each move's replies counted on their own, pile window by pile
/// window.
mod per_move {
    use nimbot::{position_value, DecideError, Decision, Move, Oracle, Position, Value};

    /// The winning move by plain search, in the order the strategy documents: the
    /// whole pile when the limit allows; else, without a reset before with one, the
    /// takes below the cap from the smallest up, then the cap itself; the first
    /// whose position is lost for the opponent wins. Each move asks the oracle on
    /// its own.
    pub fn best_move<O: Oracle>(oracle: &O, pos: &Position) -> Result<Decision, DecideError> {
        let (s, c, limit) = (pos.stones(), pos.cap(), pos.limit());
        let won = |mv| {
            Ok(Decision {
                mv,
                value: Value::Won,
            })
        };
        if limit >= s {
            return won(Move::new(s, false));
        }
        for &reset in pos.reset_choices() {
            let below_cap = 1..=limit.min(c.saturating_sub(1));
            for take in below_cap.chain((limit >= c).then_some(c)) {
                let mv = Move::new(take, reset);
                if let Ok(Some(next)) = pos.after(mv) {
                    if position_value(oracle, &next)? == Value::Lost {
                        return won(mv);
                    }
                }
            }
        }
        Ok(Decision {
            mv: Move::new(1, false),
            value: Value::Lost,
        })
    }

    fn reply_counts<O: Oracle>(oracle: &O, q: &Position) -> Result<(u32, u32), DecideError> {
        let (s, c, limit) = (q.stones(), q.cap(), q.limit());
        let (mut winning, mut total) = (0u32, 0u32);
        for &reset in q.reset_choices() {
            total += limit;
            if limit >= s {
                winning += limit - s + 1;
            }
            let w = limit.min(c.saturating_sub(1)).min(s.saturating_sub(1));
            if w >= 1 {
                if let Ok(Some(template)) = q.after(Move::new(1, reset)) {
                    let lo = s - w;
                    winning += oracle.count_losses_in(&template, lo.max(c + 1), s - 1)?;
                    for p in lo..=c.min(s - 1) {
                        if template.with_stones(p).and_then(|t| t.trivial_value())
                            == Some(Value::Lost)
                        {
                            winning += 1;
                        }
                    }
                }
            }
            if limit >= c && c < s {
                if let Ok(Some(next)) = q.after(Move::new(c, reset)) {
                    if position_value(oracle, &next)? == Value::Lost {
                        winning += 1;
                    }
                }
            }
        }
        Ok((winning, total))
    }

    /// The trap's move (the winning one when `pos` is won), or the first error met.
    pub fn trap<O: Oracle>(oracle: &O, pos: &Position) -> Result<Move, DecideError> {
        let d = best_move(oracle, pos)?;
        if d.value.is_won() {
            return Ok(d.mv);
        }
        let mut best: Option<(Move, u32)> = None;
        for mv in pos.moves() {
            let Ok(Some(next)) = pos.after(mv) else {
                continue;
            };
            let (w, _) = reply_counts(oracle, &next)?;
            if best.is_none_or(|(b, bw)| (w, mv.take, mv.reset) < (bw, b.take, b.reset)) {
                best = Some((mv, w));
            }
        }
        Ok(best.map_or(Move::new(1, false), |(mv, _)| mv))
    }
}

#[test]
fn the_batched_trap_plays_the_per_move_trap_s_moves() {
    // The shipped table (N <= 999, R <= 4, M = 3), every stored position of a
    // sample, and piles just past the table (errors must agree too); then a solver
    // with M = 1, 5 and 60 (takes below the cap in two batches), every position,
    // piles up to the cap included.
    let table = Table::embedded();
    let sol = Solution::solve(SolveBox::games(999, 4, 3)).unwrap();
    let (mut lost, mut errors) = (0, 0);
    for pos in stored(&sol, 4, 3).step_by(5) {
        for q in [
            Some(pos),
            pos.with_stones(table.highest_pile(pos.cap()) + 1),
        ]
        .into_iter()
        .flatten()
        {
            let want = per_move::trap(&table, &q);
            let got = Policy::Trap.decide(&table, &q).map(|d| d.mv);
            assert_eq!(got, want, "table at {q:?}");
            // A table remembering layer offsets across the decision's reads (as
            // the engine decides) plays the same.
            let cached = Policy::Trap.decide(&table.cached(), &q).map(|d| d.mv);
            assert_eq!(cached, want, "cached table at {q:?}");
            lost += u32::from(got.is_ok() && table.probe(&q).is_ok_and(|v| !v.is_won()));
            errors += u32::from(got.is_err());
        }
    }
    assert!(
        lost > 40_000 && errors > 1_000,
        "{lost} lost, {errors} errors"
    );
    for m in [1, 5, 60] {
        let sol = Solution::solve(SolveBox::games(300, 3, m)).unwrap();
        let mut lost = 0;
        for pos in stored(&sol, 3, m) {
            for q in [Some(pos), pos.with_stones(pos.cap())]
                .into_iter()
                .flatten()
            {
                let want = per_move::trap(&sol, &q);
                assert_eq!(
                    Policy::Trap.decide(&sol, &q).map(|d| d.mv),
                    want,
                    "M = {m}, {q:?}"
                );
                lost += u32::from(!position_value(&sol, &q).unwrap().is_won());
            }
        }
        assert!(lost > 5_000, "M = {m}: {lost} lost");
    }
}

#[test]
fn distances_are_a_fixed_point_of_the_rules() {
    // Won: some winning move leads to distance d - 1; lost: the longest move does.
    let (r, m) = (2, 3);
    let (sol, dist) = solved_with_distances(300, r, m);
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
    let (r, m) = (4, 3);
    let (sol, dist) = solved_with_distances(300, r, m);
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

/// The host's engine (the embedded table, then the solver) under `longest`: a won
/// position gets a winning move, a lost one the move that holds out the distance
/// (distances solved apart); every other policy still wins where it is won.
#[test]
fn the_host_engine_holds_out_longest_in_lost_positions_of_the_table() {
    let (n, r, m) = (300, 4, 3);
    let (sol, dist) = solved_with_distances(n, r, m);
    let mut engine = TableOrSolverEngine::embedded();
    engine.prepare(&Params::new(n, r, m).unwrap()).unwrap();
    let left = |pos: &Position, mv: Move| match pos.after(mv).unwrap() {
        None => 0,
        Some(next) => dist.get(&next).unwrap(),
    };
    let (mut won, mut lost) = (0, 0);
    for pos in stored(&sol, r, m).step_by(53) {
        let want = dist.get(&pos).unwrap();
        let d = engine.decide(&pos, Policy::Longest).unwrap();
        if sol.value(&pos).unwrap().is_won() {
            assert_eq!(left(&pos, d.mv) % 2, 0, "{pos}: {:?} does not win", d.mv);
            let first = engine.decide(&pos, Policy::First).unwrap();
            assert_eq!(left(&pos, first.mv) % 2, 0, "{pos}: first, {:?}", first.mv);
            won += 1;
        } else {
            assert_eq!(left(&pos, d.mv) + 1, want, "{pos}: {:?}", d.mv);
            lost += 1;
        }
    }
    assert!(won > 100 && lost > 100, "{won} won, {lost} lost");
}
