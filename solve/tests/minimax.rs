//! An independent check of the solver: a plain memoized minimax over RAW game
//! histories, written directly from docs/rules.md. None of the crate's move logic
//! (`Position::after`, `Game`, ...) is used by the minimax; the crate is only asked
//! for its answers, which are compared state by state.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use nimbot::{best_move, evaluate_move, root_moves, Engine, Params, Position};
use nimbot_solve::{Solution, SolveBox, TableOrSolverEngine};

/// A raw state in front of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Raw {
    /// Stones left (>= 1).
    s: u32,
    /// Largest take so far (0 at the start).
    h: u32,
    /// Resets left of the player to move.
    own: u8,
    /// Resets left of the other player.
    opp: u8,
    /// Whether the previous move declared a reset.
    reset: bool,
}

impl Raw {
    fn start(n: u32, r: u8) -> Raw {
        Raw {
            s: n,
            h: 0,
            own: r,
            opp: r,
            reset: false,
        }
    }

    /// L = M after a reset, else max(M, h + 1).
    fn limit(&self, m: u32) -> u32 {
        if self.reset {
            m
        } else {
            m.max(self.h + 1)
        }
    }

    /// Every legal raw move: (take, reset, state after, or None if the pile empties).
    fn moves(&self, m: u32) -> Vec<(u32, bool, Option<Raw>)> {
        let mut out = Vec::new();
        for k in 1..=self.limit(m) {
            for reset in [false, true] {
                if reset && self.own == 0 {
                    continue;
                }
                let next = if k >= self.s {
                    None
                } else {
                    Some(Raw {
                        s: self.s - k,
                        h: self.h.max(k),
                        own: self.opp,
                        opp: self.own - u8::from(reset),
                        reset,
                    })
                };
                out.push((k, reset, next));
            }
        }
        out
    }
}

/// Memoized minimax for one value of M (the value of a raw state does not depend on
/// N or R, so one memo serves every game with this M), and the distances to the end
/// from the raw rules alone: plies until the pile is empty when the winner finishes
/// as fast as it can and the loser holds out as long as it can (a move that empties
/// the pile counts 1).
struct Minimax {
    m: u32,
    memo: HashMap<Raw, bool>,
    distances: HashMap<Raw, u32>,
}

impl Minimax {
    fn new(m: u32) -> Self {
        Minimax {
            m,
            memo: HashMap::new(),
            distances: HashMap::new(),
        }
    }

    /// True if the player to move wins `st` with perfect play.
    fn wins(&mut self, st: Raw) -> bool {
        if let Some(&v) = self.memo.get(&st) {
            return v;
        }
        let mut v = false;
        for (_, _, next) in st.moves(self.m) {
            match next {
                // Taking the last stone wins.
                None => {
                    v = true;
                    break;
                }
                Some(n) => {
                    if !self.wins(n) {
                        v = true;
                        break;
                    }
                }
            }
        }
        self.memo.insert(st, v);
        v
    }

    /// Every raw move with whether it wins for its mover and its distance
    /// (counting the move).
    fn scored_moves(&mut self, st: Raw) -> Vec<(u32, bool, bool, u32)> {
        let mut out = Vec::new();
        for (k, reset, next) in st.moves(self.m) {
            let (wins, d) = match next {
                None => (true, 1),
                Some(n) => (!self.wins(n), 1 + self.distance(n)),
            };
            out.push((k, reset, wins, d));
        }
        out
    }

    fn distance(&mut self, st: Raw) -> u32 {
        if let Some(&d) = self.distances.get(&st) {
            return d;
        }
        let moves = self.scored_moves(st);
        let fastest_win = moves.iter().filter(|mv| mv.2).map(|mv| mv.3).min();
        let longest = moves.iter().map(|mv| mv.3).max().expect("a legal move");
        let d = fastest_win.unwrap_or(longest);
        self.distances.insert(st, d);
        d
    }
}

/// Every raw state (with stones left) reachable from the start of (N, R).
fn reachable(n: u32, r: u8, m: u32) -> Vec<Raw> {
    let start = Raw::start(n, r);
    let mut seen = HashSet::new();
    let mut stack = vec![start];
    seen.insert(start);
    while let Some(st) = stack.pop() {
        for (_, _, next) in st.moves(m) {
            if let Some(nx) = next {
                if seen.insert(nx) {
                    stack.push(nx);
                }
            }
        }
    }
    let mut out: Vec<Raw> = seen.into_iter().collect();
    out.sort_by_key(|r| (r.s, r.h, r.own, r.opp, r.reset));
    out
}

fn normalized(st: Raw, m: u32) -> Position {
    Position::new(st.s, m.max(st.h + 1), st.own, st.opp, st.reset, m)
        .unwrap_or_else(|e| panic!("Position::new refused {st:?} (M={m}): {e}"))
}

/// Check `solution` (named `label` in messages) at the raw state `st` against the
/// minimax's `value` there, and `best_move(solution, pos)` against the raw rules and
/// the minimax.
fn check_solution(
    label: &str,
    solution: &Solution,
    mm: &mut Minimax,
    st: Raw,
    value: bool,
    ctx: &str,
) {
    let m = mm.m;
    let pos = normalized(st, m);
    assert_eq!(
        solution.value(&pos).map(nimbot::Value::is_won),
        Some(value),
        "{label} solution at {st:?} = {pos:?} ({ctx})"
    );
    let d = best_move(solution, &pos)
        .unwrap_or_else(|e| panic!("{label}: best_move failed at {st:?} ({ctx}): {e}"));
    let limit = st.limit(m);
    assert!(
        d.mv.take >= 1 && d.mv.take <= limit,
        "{label}: best_move take {} outside 1..={limit} at {st:?} ({ctx})",
        d.mv.take
    );
    assert!(
        !d.mv.reset || st.own > 0,
        "{label}: best_move declares a reset with none left at {st:?} ({ctx})"
    );
    assert!(
        !(d.mv.reset && d.mv.take >= st.s),
        "{label}: best_move resets on the winning move at {st:?} ({ctx})"
    );
    assert_eq!(
        d.value.is_won(),
        value,
        "{label}: best_move.wins at {st:?} ({ctx}), move {:?}",
        d.mv
    );
    // The move must be one of the raw rules' moves; find where it leads.
    let next = st
        .moves(m)
        .into_iter()
        .find(|&(k, r, _)| k == d.mv.take && r == d.mv.reset)
        .unwrap_or_else(|| panic!("{label}: {:?} is not a raw move at {st:?} ({ctx})", d.mv))
        .2;
    if let (true, Some(next)) = (value, next) {
        assert!(
            !mm.wins(next),
            "{label}: best_move {:?} at {st:?} ({ctx}) leads to {next:?}, won for the opponent",
            d.mv
        );
    }
}

#[test]
fn solver_and_best_move_agree_with_raw_minimax() {
    let t0 = Instant::now();
    let mut compared = 0u64;
    let mut won = 0u64;
    let mut distinct = HashSet::new();
    for m in 1..=4u32 {
        let mut mm = Minimax::new(m);
        let big = Solution::solve(SolveBox::games(40, 2, m)).expect("solve the (40, 2, M) box");
        for r in 0..=2u8 {
            for n in 1..=40u32 {
                let exact = Solution::solve(SolveBox::games(n, r, m)).expect("solve (N, R, M)");
                let states = reachable(n, r, m);
                assert!(states.contains(&Raw::start(n, r)));
                for st in states {
                    let ctx = format!("N={n} R={r} M={m}");
                    let value = mm.wins(st);
                    check_solution("(40,2,M)", &big, &mut mm, st, value, &ctx);
                    check_solution("(N,R,M)", &exact, &mut mm, st, value, &ctx);
                    compared += 1;
                    distinct.insert((m, st));
                    won += u64::from(value);
                }
            }
        }
    }
    println!(
        "raw states compared: {compared} ({won} won, {} lost; {} distinct (M, state)) in {:?}",
        compared - won,
        distinct.len(),
        t0.elapsed()
    );
    assert!(compared > 100_000, "only {compared} states compared");
}

#[test]
fn tournament_resets_and_m3_on_a_larger_box() {
    // Beyond the main grid: the tournament's R = 4 (and R = 3) with M = 3, N <= 60,
    // every reachable raw state against one (60, 4, 3) solution.
    let t0 = Instant::now();
    let m = 3;
    let mut mm = Minimax::new(m);
    let big = Solution::solve(SolveBox::games(60, 4, m)).expect("solve the (60, 4, 3) box");
    let mut distinct = HashSet::new();
    for r in 3..=4u8 {
        for n in 1..=60u32 {
            for st in reachable(n, r, m) {
                distinct.insert(st);
            }
        }
    }
    let mut states: Vec<Raw> = distinct.into_iter().collect();
    states.sort_by_key(|r| (r.s, r.h, r.own, r.opp, r.reset));
    for &st in &states {
        let value = mm.wins(st);
        check_solution("(60,4,3)", &big, &mut mm, st, value, "R in 3..=4, N <= 60");
    }
    println!(
        "R = 3..=4, M = 3, N <= 60: {} distinct raw states compared in {:?}",
        states.len(),
        t0.elapsed()
    );
    assert!(states.len() > 10_000, "only {} states", states.len());
}

#[test]
fn minimax_itself_follows_the_worked_example() {
    // docs/rules.md: with N = 8, M = 3 and no resets, taking 1 wins (unlike take-1-to-3 Nim):
    // 7 stones with limit max(3, 2) = 3 is lost for the opponent.
    let mut mm = Minimax::new(3);
    assert!(mm.wins(Raw::start(8, 0)));
    let after_one = Raw {
        s: 7,
        h: 1,
        own: 0,
        opp: 0,
        reset: false,
    };
    assert!(!mm.wins(after_one));
    // 4 stones with h = 3: limit 4, the mover takes all.
    let four = Raw {
        s: 4,
        h: 3,
        own: 0,
        opp: 0,
        reset: false,
    };
    assert_eq!(four.limit(3), 4);
    assert!(mm.wins(four));
    // Same 4 stones right after a reset: limit 3, and with no reset of its own the
    // mover cannot stop the opponent from finishing.
    let held = Raw {
        reset: true,
        ..four
    };
    assert_eq!(held.limit(3), 3);
    assert!(!mm.wins(held));
}

#[test]
fn start_positions_match_minimax() {
    // A compact summary over whole games, easy to eyeball when it fails.
    for m in 1..=4u32 {
        let mut mm = Minimax::new(m);
        for r in 0..=2u8 {
            let sol = Solution::solve(SolveBox::games(40, r, m)).unwrap();
            for n in 1..=40u32 {
                let pos = Position::new(n, m, r, r, false, m).unwrap();
                assert_eq!(
                    sol.value(&pos).map(nimbot::Value::is_won),
                    Some(mm.wins(Raw::start(n, r))),
                    "start N={n} R={r} M={m}"
                );
            }
        }
    }
}

/// The capless game of `Position::capless_wins`, by brute force: every move takes
/// 1..=m, and a move that leaves stones must declare a reset (costing the mover one).
fn capless_brute(s: u32, x: u8, y: u8, m: u32, memo: &mut HashMap<(u32, u8, u8), bool>) -> bool {
    if s <= m {
        return true;
    }
    if x == 0 {
        return false;
    }
    if let Some(&v) = memo.get(&(s, x, y)) {
        return v;
    }
    let v = (1..=m).any(|k| !capless_brute(s - k, y, x - 1, m, memo));
    memo.insert((s, x, y), v);
    v
}

#[test]
fn capless_wins_matches_brute_force() {
    let mut checked = 0u32;
    for m in 1..=5u32 {
        let mut memo = HashMap::new();
        for x in 0..=4u8 {
            for y in 0..=4u8 {
                for s in 1..=60u32 {
                    assert_eq!(
                        Position::capless_wins(s, x, y, m),
                        capless_brute(s, x, y, m, &mut memo),
                        "capless_wins(s={s}, x={x}, y={y}, m={m})"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 5 * 25 * 60);
}

#[test]
fn capless_wins_matches_raw_minimax_with_open_cap() {
    // The capless game is what the raw rules give once the cap can no longer bind
    // (h + 1 >= s) and the previous move declared a reset.
    for m in 1..=5u32 {
        let mut mm = Minimax::new(m);
        for x in 0..=4u8 {
            for y in 0..=4u8 {
                for s in 1..=60u32 {
                    let st = Raw {
                        s,
                        h: 60,
                        own: x,
                        opp: y,
                        reset: true,
                    };
                    assert_eq!(
                        Position::capless_wins(s, x, y, m),
                        mm.wins(st),
                        "capless_wins(s={s}, x={x}, y={y}, m={m}) vs raw {st:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn moves_and_distances_agree_with_raw_minimax() {
    // Every raw state reachable from every start with N <= 60, R <= 2, M in 1..=4:
    // the root probe and the position's evaluation (the host's table-then-solver
    // engine: what `moves` and `query` answer on the line protocol) against the raw
    // minimax with distances, move by move.
    let t0 = Instant::now();
    let mut states_checked = 0u64;
    let mut moves_checked = 0u64;
    for m in 1..=4u32 {
        let mut rm = Minimax::new(m);
        let mut engine = TableOrSolverEngine::embedded();
        engine.prepare(&Params::new(60, 2, m).unwrap()).unwrap();
        let mut distinct = HashSet::new();
        for r in 0..=2u8 {
            for n in 1..=60u32 {
                distinct.extend(reachable(n, r, m));
            }
        }
        let mut states: Vec<Raw> = distinct.into_iter().collect();
        states.sort_by_key(|r| (r.s, r.h, r.own, r.opp, r.reset));
        for st in states {
            let pos = normalized(st, m);
            let won = rm.wins(st);
            let d = rm.distance(st);
            assert_eq!(d % 2 == 1, won, "parity at {st:?}");
            let eval = engine.evaluate(&pos).unwrap();
            assert_eq!(
                (eval.value.is_won(), eval.distance),
                (won, u16::try_from(d).ok()),
                "{pos} (M = {m}, {st:?})"
            );
            // The raw moves the probe lists: takes up to the pile, no reset on the
            // emptying take (the rest repeat it), every take without a reset first.
            let mut raw = rm.scored_moves(st);
            raw.sort_by_key(|&(k, reset, _, _)| (reset, k));
            let want: Vec<(u32, bool, bool, u32)> = raw
                .into_iter()
                .filter(|&(k, reset, _, _)| k < st.s || (k == st.s && !reset))
                .collect();
            let got: Vec<(u32, bool, bool, u32)> = root_moves(&pos)
                .map(|mv| {
                    let e = evaluate_move(&mut engine, &pos, mv).unwrap();
                    let dist = e.distance.expect("the solver's engine knows distances");
                    (mv.take, mv.reset, e.value.is_won(), u32::from(dist))
                })
                .collect();
            assert_eq!(got, want, "moves of {pos} (M = {m}, {st:?})");
            states_checked += 1;
            moves_checked += want.len() as u64;
        }
    }
    println!(
        "moves: {states_checked} raw states, {moves_checked} moves equal to the raw minimax in {:?}",
        t0.elapsed()
    );
    assert!(states_checked > 20_000, "only {states_checked} states");
}
