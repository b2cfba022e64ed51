//! The unit tests of the parent module, in a file of their own: they compare it
//! with the full `Solution`, which imports the parent (a loop if they were in it).

use super::*;
use crate::solver::Solution;

/// A coded solution answers every position of its box as the full solution
/// does, for whole games and for boxes that start above cap M, and refuses
/// what lies outside.
#[test]
fn coded_solutions_answer_as_the_full_solution() {
    // The solver's sample boxes, one beyond 7 resets and one whose caps start
    // far above M.
    let mut boxes = crate::solver::tests::SAMPLE_BOXES.to_vec();
    boxes.push(SolveBox::games(120, 9, 3));
    boxes.push(SolveBox {
        n_max: 150,
        resets: 1,
        init_max: 2,
        c_min: 40,
    });
    for bx in boxes {
        let full = Solution::solve(bx).unwrap();
        let coded = CodedSolution::solve(bx).unwrap();
        assert_eq!(coded.solve_box(), bx);
        let mut checked = 0u64;
        for (c, hi) in full.layers() {
            assert_eq!(coded.highest_pile(c), Some(hi));
            for s in 1..=hi + 1 {
                for a in 0..=bx.resets {
                    for b in 0..=bx.resets {
                        for f in [false, true] {
                            let pos = Position::new(s, c, a, b, f, bx.init_max).unwrap();
                            assert_eq!(coded.value(&pos), full.value(&pos), "{bx:?} {pos:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1_000, "{bx:?}");
        assert!(coded.size() > 0);
        // Below the box's lowest cap, another M, more resets: not answered.
        if bx.c_min > bx.init_max {
            let below = Position::new(bx.n_max, bx.c_min - 1, 0, 0, false, bx.init_max).unwrap();
            assert_eq!(coded.value(&below), None);
        }
        let other_m = Position::new(bx.n_max, bx.c_min + 1, 0, 0, false, bx.init_max + 1).unwrap();
        assert_eq!(coded.value(&other_m), None);
        let more = Position::new(bx.n_max, bx.c_min, bx.resets + 1, 0, false, bx.init_max).unwrap();
        assert_eq!(coded.value(&more), None);
    }
}

/// Memory: the coded solve's estimate grows with N, and a budget below it is
/// refused before solving.
#[test]
fn the_memory_model_grows_with_n() {
    let small = SolveBox::games(100_000, 4, 3).memory_bytes();
    let large = SolveBox::games(1_000_000, 4, 3).memory_bytes();
    assert!(large < 12 * small, "{small} {large}");
    assert!(large < 32 << 20, "{large}");
    assert!(SolveBox::games(1_000_000, 4, 3).full_bytes() > 5_000_000_000);
}
