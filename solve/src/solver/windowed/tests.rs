//! The unit tests of the parent module, in a file of their own: they compare it
//! with the full `Solution`, which imports the parent (a loop if they were in it).

#[cfg(all(target_has_atomic = "64", target_has_atomic = "ptr"))]
use super::shared::SharedSolve;
use super::*;
use crate::solver::Solution;
use std::vec::Vec;

/// Keeps every pile it is handed, per cap, checking the order on the way.
#[derive(Default)]
struct Keep {
    caps: Vec<(u32, Vec<u64>)>,
    next: Option<u32>,
}

impl PileSink for Keep {
    fn piles(&mut self, cap: u32, first: u32, words: &[u64]) -> Result<(), SolveError> {
        if self.caps.last().is_none_or(|l| l.0 != cap) {
            assert!(
                self.caps.last().is_none_or(|l| l.0 == cap + 1),
                "caps from the top"
            );
            self.caps.push((cap, Vec::new()));
            self.next = Some(cap + 1);
        }
        assert_eq!(self.next, Some(first), "piles upward, none left out");
        self.next = Some(first + 1);
        let last = self.caps.last_mut().unwrap();
        last.1.extend_from_slice(words);
        Ok(())
    }

    fn cap_done(&mut self, cap: u32) -> Result<(), SolveError> {
        assert_eq!(self.caps.last().map(|l| l.0), Some(cap));
        Ok(())
    }
}

/// Boxes of every shape: no resets, M = 1, the mask path's widest (7 resets)
/// and the per-position path (8 and 9), caps starting above M.
fn sample_boxes() -> Vec<SolveBox> {
    let small = [(1, 0, 1), (5, 2, 3), (60, 0, 1), (150, 1, 2)];
    let middle = [(300, 4, 3), (999, 4, 3), (400, 2, 5), (200, 3, 12)];
    let resets = [(250, 5, 4), (160, 7, 2), (90, 8, 3), (70, 9, 1)];
    let wide = [(40, 3, 40)];
    let games = small.into_iter().chain(middle).chain(resets).chain(wide);
    let mut boxes: Vec<SolveBox> = games.map(|(n, r, m)| SolveBox::games(n, r, m)).collect();
    // Boxes whose caps start above M (no game's box).
    for (n, r, m, c) in [
        (250, 3, 3, 9),
        (300, 1, 2, 30),
        (120, 8, 2, 6),
        (50, 4, 3, 49),
    ] {
        boxes.push(SolveBox {
            n_max: n,
            resets: r,
            init_max: m,
            c_min: c,
        });
    }
    boxes
}

/// Every cap of `bx` (lowest first, with its piles' words) equals the
/// position-by-position solution's.
fn assert_full(bx: SolveBox, caps: &[(u32, Vec<u64>)]) {
    assert_caps(
        &Solution::solve_by(bx, &mut |_, _| {}, false).unwrap(),
        bx,
        caps,
    );
}

/// Every cap of `bx` (lowest first, with its piles' words) equals `sol`'s.
fn assert_caps(sol: &Solution, bx: SolveBox, caps: &[(u32, Vec<u64>)]) {
    let wpp = sol.words_per_pile;
    assert_eq!(caps.len(), sol.layers.len(), "{bx:?}");
    for (i, (c, words)) in caps.iter().enumerate() {
        let (hi, off) = sol.layers[i];
        assert_eq!(*c, bx.c_min + i as u32);
        let n = (hi - c) as usize * wpp;
        assert_eq!(&sol.bits[off..off + n], &words[..], "{bx:?} cap {c}");
    }
}

/// The windowed solver against the position-by-position one, bit for bit.
#[test]
fn windowed_equals_the_position_path_bit_for_bit() {
    for bx in sample_boxes() {
        let mut keep = Keep::default();
        let mut seen = 0;
        solve_windowed(bx, &mut keep, &mut |done, total| {
            assert!(done <= total);
            seen = done;
        })
        .unwrap();
        assert_eq!(seen, bx.stored_positions(), "{bx:?}");
        let mut caps = keep.caps;
        caps.reverse();
        assert_full(bx, &caps);
    }
}

/// Keeps the caps one thread of a shared solve is handed (whole caps, from
/// the top, not consecutive ones).
struct Caps {
    wpp: usize,
    caps: Vec<(u32, Vec<u64>)>,
    open: Option<(u32, u32)>,
}

impl PileSink for Caps {
    fn piles(&mut self, cap: u32, first: u32, words: &[u64]) -> Result<(), SolveError> {
        match self.open {
            None => {
                assert_eq!(first, cap + 1, "a cap from its first pile");
                assert!(self.caps.last().is_none_or(|l| l.0 > cap), "caps down");
                self.caps.push((cap, Vec::new()));
            }
            Some((c, next)) => assert_eq!((c, next), (cap, first), "piles upward"),
        }
        let piles = words.len() / self.wpp;
        self.open = Some((cap, first + piles as u32));
        self.caps.last_mut().unwrap().1.extend_from_slice(words);
        Ok(())
    }

    fn cap_done(&mut self, cap: u32) -> Result<(), SolveError> {
        // A cap without stored piles is handed over by its end alone.
        if self.caps.last().is_none_or(|l| l.0 != cap) {
            self.caps.push((cap, Vec::new()));
        }
        self.open = None;
        Ok(())
    }
}

/// Caps longer than a block of piles ([`BLOCK`]), with one and with two words a
/// pile: the `Solution` keeps each block where it belongs, as a sink that appends
/// what it is handed does.
#[test]
fn a_solution_keeps_every_block_of_a_long_cap_in_place() {
    for bx in [SolveBox::games(9_000, 1, 3), SolveBox::games(5_000, 5, 2)] {
        let mut caps = Caps {
            wpp: storage(bx.resets).1,
            caps: Vec::new(),
            open: None,
        };
        solve_windowed(bx, &mut caps, &mut |_, _| {}).unwrap();
        let sol = Solution::solve(bx).unwrap();
        assert!(
            sol.layers[0].0 - bx.c_min > BLOCK as u32,
            "{bx:?}: one block"
        );
        caps.caps.reverse();
        assert_caps(&sol, bx, &caps.caps);
    }
}

/// A solve shared by 1 to 4 threads gives the position-by-position values,
/// and its progress reaches every stored position.
#[test]
fn a_shared_solve_equals_the_position_path_bit_for_bit() {
    use core::sync::atomic::{AtomicU64, Ordering};
    for bx in sample_boxes() {
        for threads in 1..=4 {
            let shared = SharedSolve::new(bx).unwrap();
            let seen = AtomicU64::new(0);
            let mut sinks: Vec<Caps> = (0..threads)
                .map(|_| Caps {
                    wpp: PileBits::new(bx.resets).words(),
                    caps: Vec::new(),
                    open: None,
                })
                .collect();
            std::thread::scope(|scope| {
                for sink in sinks.iter_mut() {
                    let (shared, seen) = (&shared, &seen);
                    scope.spawn(move || {
                        shared
                            .work(sink, &mut std::thread::yield_now, &mut |done, total| {
                                assert!(done <= total);
                                seen.fetch_max(done, Ordering::Relaxed);
                            })
                            .unwrap();
                    });
                }
            });
            assert_eq!(seen.into_inner(), bx.stored_positions(), "{bx:?}");
            let mut caps: Vec<_> = sinks.into_iter().flat_map(|s| s.caps).collect();
            caps.sort_by_key(|c| c.0);
            assert_full(bx, &caps);
        }
    }
}

/// The pile layout answers as the full solution does.
#[test]
fn pile_bits_read_the_solutions_layout() {
    let bx = SolveBox::games(200, 7, 3);
    let sol = Solution::solve(bx).unwrap();
    let bits = PileBits::new(7);
    assert_eq!(bits.words(), 2);
    let mut keep = Keep::default();
    solve_windowed(bx, &mut keep, &mut |_, _| {}).unwrap();
    let (c, words) = keep.caps.last().unwrap();
    for s in (c + 1..=200).step_by(7) {
        let at = (s - c - 1) as usize * 2;
        for (a, b, f) in [(0, 0, false), (7, 3, true), (2, 7, false), (5, 5, true)] {
            let pos = nimbot::Position::new(s, *c, a, b, f, 3).unwrap();
            assert_eq!(
                bits.wins(&words[at..at + 2], a, b, f),
                sol.value(&pos).unwrap().is_won()
            );
        }
    }
    assert!(!bits.wins(&[!0, !0], 8, 0, false));
}
