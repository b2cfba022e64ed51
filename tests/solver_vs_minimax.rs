//! The solver checked by a different algorithm: a plain memoized minimax over raw
//! game histories, written from RULES.md without any of the crate's move logic.

use std::collections::HashMap;

use nimbot::{best_move, Position, Solution, SolveBox};

/// A raw state: stones left, largest take so far, mover's resets, other's resets,
/// whether the previous move declared a reset.
type Raw = (u32, u32, u8, u8, bool);

struct Minimax {
    m: u32,
    memo: HashMap<Raw, bool>,
}

impl Minimax {
    fn limit(&self, (_, h, _, _, reset): Raw) -> u32 {
        if reset {
            self.m
        } else {
            self.m.max(h + 1)
        }
    }

    /// Raw successors of a state: (take, reset, state after or None if the pile empties).
    fn moves(&self, st: Raw) -> Vec<(u32, bool, Option<Raw>)> {
        let (s, h, a, b, _) = st;
        let mut out = Vec::new();
        for k in 1..=self.limit(st) {
            for reset in [false, true] {
                if reset && a == 0 {
                    continue;
                }
                let next = if k >= s {
                    None
                } else {
                    Some((s - k, h.max(k), b, a - u8::from(reset), reset))
                };
                out.push((k, reset, next));
            }
        }
        out
    }

    fn wins(&mut self, st: Raw) -> bool {
        if let Some(&v) = self.memo.get(&st) {
            return v;
        }
        let mut v = false;
        for (_, _, next) in self.moves(st) {
            if next.is_none_or(|n| !self.wins(n)) {
                v = true;
                break;
            }
        }
        self.memo.insert(st, v);
        v
    }
}

#[test]
fn solver_and_best_move_agree_with_plain_minimax() {
    let mut compared = 0usize;
    for m in 1..=4u32 {
        let big = Solution::solve(SolveBox::games(40, 2, m)).unwrap();
        let mut mm = Minimax {
            m,
            memo: HashMap::new(),
        };
        for r in 0..=2u8 {
            for n in 1..=40u32 {
                let exact = Solution::solve(SolveBox::games(n, r, m)).unwrap();
                // Every raw state reachable from the start.
                let mut seen = std::collections::HashSet::new();
                let mut stack = vec![(n, 0u32, r, r, false)];
                while let Some(st) = stack.pop() {
                    if !seen.insert(st) {
                        continue;
                    }
                    let want = mm.wins(st);
                    let (s, h, a, b, f) = st;
                    let pos = Position::new(s, m.max(h + 1), a, b, f, m).unwrap();
                    assert_eq!(big.is_win(&pos), Some(want), "box 40: {st:?} m={m}");
                    assert_eq!(exact.is_win(&pos), Some(want), "box {n}: {st:?} m={m}");
                    let d = best_move(&exact, &pos).unwrap();
                    assert_eq!(d.wins, want, "{st:?}");
                    // The move is legal under the raw rules...
                    let chosen = mm
                        .moves(st)
                        .into_iter()
                        .find(|&(k, reset, _)| k == d.mv.take && reset == d.mv.reset)
                        .unwrap_or_else(|| panic!("illegal move {:?} at {st:?}", d.mv));
                    // ...never resets on the move that empties the pile...
                    assert!(
                        !(d.mv.reset && chosen.2.is_none()),
                        "reset on the winning move at {st:?}"
                    );
                    // ...and in a won state leaves the opponent lost.
                    if want {
                        assert!(chosen.2.is_none_or(|next| !mm.wins(next)), "{st:?}");
                    }
                    compared += 1;
                    for (_, _, next) in mm.moves(st) {
                        stack.extend(next);
                    }
                }
            }
        }
    }
    println!("{compared} reachable states compared");
    assert!(compared > 100_000, "{compared}");
}

/// Brute force of the capless game: every move takes at most m, and a move that
/// leaves stones without a reset hands the opponent the whole pile.
fn capless(s: u32, x: u8, y: u8, m: u32) -> bool {
    if s <= m {
        return true;
    }
    x > 0 && (1..=m).any(|k| !capless(s - k, y, x - 1, m))
}

#[test]
fn capless_evaluation_matches_brute_force() {
    for m in 1..=5 {
        for x in 0..=4u8 {
            for y in 0..=4u8 {
                for s in 1..=60 {
                    assert_eq!(
                        Position::capless_wins(s, x, y, m),
                        capless(s, x, y, m),
                        "s={s} x={x} y={y} m={m}"
                    );
                }
            }
        }
    }
}
