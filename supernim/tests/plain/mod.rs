//! The seed's rules of Super-Nim written plainly, apart from the library, for the
//! tests to check the library against.

use std::collections::HashMap;

/// Every (heaps, points) a move of the seed's rules makes from `h`: put a heap on
/// another of a different size (at most 10 sticks), grow an odd `n` to `3n + 1`,
/// split an even one in halves, a 2 into two 1s that leave and score 2.
pub fn successors(h: &[u32]) -> Vec<(Vec<u32>, i32)> {
    let mut out = Vec::new();
    for i in 0..h.len() {
        let rest = |skip: &[usize]| -> Vec<u32> {
            (0..h.len())
                .filter(|k| !skip.contains(k))
                .map(|k| h[k])
                .collect()
        };
        for j in 0..h.len() {
            if i != j && h[i] != h[j] {
                let mut next = rest(&[i, j]);
                next.push((h[i] + h[j]).min(10));
                out.push((next, 0));
            }
        }
        let mut next = rest(&[i]);
        let n = h[i];
        if n % 2 == 1 {
            next.push(3 * n + 1);
            out.push((next, 0));
        } else if n == 2 {
            out.push((next, 2));
        } else {
            next.push(n / 2);
            next.push(n / 2);
            out.push((next, 0));
        }
    }
    for (next, _) in &mut out {
        next.sort_unstable();
    }
    out
}

/// The mover's margin over the `plies` plies left: plain minimax, memoized.
pub fn minimax(h: &[u32], plies: u32, memo: &mut HashMap<(Vec<u32>, u32), i32>) -> i32 {
    if plies == 0 || h.is_empty() {
        return 0;
    }
    if let Some(&v) = memo.get(&(h.to_vec(), plies)) {
        return v;
    }
    let v = successors(h)
        .into_iter()
        .map(|(next, points)| points - minimax(&next, plies - 1, memo))
        .max()
        .expect("a heap always has a move");
    memo.insert((h.to_vec(), plies), v);
    v
}

/// The horizon's margin as the solver's module documents it, written plainly: the
/// mover's margin over `depth` plies (of `plies` left), a position at the horizon
/// that is not the end of the game worth 2 to its mover with an odd number of 2s.
pub fn horizon(h: &[u32], depth: u32, plies: u32) -> i32 {
    if plies == 0 || h.is_empty() {
        return 0;
    }
    if depth == 0 {
        let twos = h.iter().filter(|&&n| n == 2).count();
        return if twos % 2 == 1 { 2 } else { 0 };
    }
    successors(h)
        .into_iter()
        .map(|(next, points)| points - horizon(&next, depth - 1, plies - 1))
        .max()
        .expect("a heap always has a move")
}

/// Every start of `counts` heaps of 1..=`top` sticks, as sorted lists.
pub fn starts(counts: std::ops::RangeInclusive<usize>, top: u32) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    fn rec(prefix: &mut Vec<u32>, left: usize, top: u32, out: &mut Vec<Vec<u32>>) {
        if left == 0 {
            out.push(prefix.clone());
            return;
        }
        let from = prefix.last().copied().unwrap_or(1);
        for n in from..=top {
            prefix.push(n);
            rec(prefix, left - 1, top, out);
            prefix.pop();
        }
    }
    for k in counts {
        rec(&mut Vec::new(), k, top, &mut out);
    }
    out
}
