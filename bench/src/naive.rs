//! The plainest exact solver: every position of the box tries every legal move
//! (`Position::after`) and looks its successor up. The baseline the table
//! benchmark ([`crate::table`]) measures the real solver against; the core, the
//! firmware and the tiny binary carry none of this.

use nimbot::{Move, Position};
use nimbot_solve::SolveBox;

/// Layers `(c, highest stored pile)` of the box, lowest cap first.
fn layer_bounds(bx: &SolveBox) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut c = u64::from(bx.c_min);
    let mut hi = u64::from(bx.n_max);
    while hi > c {
        out.push((c as u32, hi as u32));
        hi -= c.min(hi);
        c += 1;
    }
    out
}

/// Won/lost of every stored position of `bx` (whole games, `c_min = M`): the number
/// of won positions, so that the work cannot be optimized away.
pub fn naive_solve(bx: SolveBox) -> u64 {
    let bounds = layer_bounds(&bx);
    let r = usize::from(bx.resets) + 1;
    let keys = 2 * r * r;
    let mut offsets = Vec::with_capacity(bounds.len());
    let mut total = 0usize;
    for &(c, hi) in &bounds {
        offsets.push(total);
        total += (hi - c) as usize * keys;
    }
    let mut won = vec![false; total];
    let index = |p: &Position| -> Option<usize> {
        let i = p.cap().checked_sub(bx.c_min)? as usize;
        let &(c, hi) = bounds.get(i)?;
        if p.stones() <= c || p.stones() > hi {
            return None;
        }
        let key = (usize::from(p.own_resets()) * r + usize::from(p.opp_resets())) * 2
            + usize::from(p.reset_pending());
        Some(offsets[i] + (p.stones() - c - 1) as usize * keys + key)
    };
    let mut count = 0u64;
    for &(c, hi) in bounds.iter().rev() {
        for s in (c + 1)..=hi {
            for a in 0..=bx.resets {
                for b in 0..=bx.resets {
                    for f in [false, true] {
                        let Ok(pos) = Position::new(s, c, a, b, f, bx.init_max) else {
                            continue;
                        };
                        let mut win = false;
                        'moves: for reset in [false, true] {
                            if reset && a == 0 {
                                continue;
                            }
                            for take in 1..=pos.limit() {
                                let next = match pos.after(Move::new(take, reset)) {
                                    Ok(None) => {
                                        win = true;
                                        break 'moves;
                                    }
                                    Ok(Some(next)) => next,
                                    Err(_) => continue,
                                };
                                let next_won = match next.trivial_value() {
                                    Some(v) => v.is_won(),
                                    None => index(&next).is_some_and(|i| won[i]),
                                };
                                if !next_won {
                                    win = true;
                                    break 'moves;
                                }
                            }
                        }
                        if let Some(i) = index(&pos) {
                            won[i] = win;
                            count += u64::from(win);
                        }
                    }
                }
            }
        }
    }
    count
}
