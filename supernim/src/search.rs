//! The Super-Nim player: iterative-deepening alpha-beta (negamax) on the score
//! difference, bounded by a node budget, a depth cap and the game's move limit.
//!
//! Values are seen from the player to move. A leaf of the search horizon is worth
//! the current lead; a finished game (no sticks, move limit, no move within bounds)
//! is worth the lead plus [`WIN_BONUS`] toward the side ahead, so the player prefers
//! a secured win to a larger but unfinished lead. The search is deterministic: moves
//! come in the fixed order of [`Heaps::moves`], with the previous iteration's best
//! move tried first at the root, and ties keep the earlier move. When the budget
//! runs out mid-iteration that iteration is discarded and the last complete one
//! decides.

use heapless::Vec;

use super::rules::{Cursor, Game, Heaps, Move, MAX_MOVES};

/// Extra value of a finished game for the side ahead.
pub const WIN_BONUS: i32 = 1000;
/// Deepest iteration tried (the stack holds one move cursor per level).
pub const MAX_DEPTH: u32 = 24;
/// Default node budget per move: a few milliseconds on a PC.
pub const DEFAULT_NODE_BUDGET: u32 = 20_000;

/// What one search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The move to play; `None` only if the game is over or has no move.
    pub mv: Option<Move>,
    /// Its value for the mover (lead, plus or minus [`WIN_BONUS`] if the game ends
    /// within the horizon).
    pub value: i32,
    /// Depth of the last complete iteration (0 if none completed: then `mv` is the
    /// first generated move).
    pub depth: u32,
    /// Nodes visited, at most the budget plus one.
    pub nodes: u32,
}

struct Search {
    nodes: u32,
    budget: u32,
    /// The heaps of the node being searched: each move is played on them and
    /// taken back before the next is generated.
    heaps: Heaps,
    /// The game's moves left minus the plies left to search, the same at every
    /// node of one iteration (both count down together): a node's moves left
    /// are its `depth` plus this, one argument fewer on every level.
    slack: u32,
}

impl Search {
    /// Value of `self.heaps` for the mover, whose lead is `lead`, searching
    /// `depth` more plies. `None`: out of budget (the heaps are then left in an
    /// unspecified valid state).
    ///
    /// A level of the recursion holds a move cursor and a few words, no copy of
    /// the heaps and no list of moves, so that a deep search fits a small stack.
    fn negamax(&mut self, lead: i32, depth: u32, mut alpha: i32, beta: i32) -> Option<i32> {
        self.nodes = self.nodes.saturating_add(1);
        if self.nodes > self.budget {
            return None;
        }
        let mut moves = Cursor::default();
        let game_over = depth == 0 && self.slack == 0;
        let first = if self.heaps.is_empty() || game_over {
            None
        } else {
            moves.next(&self.heaps)
        };
        let Some(first) = first else {
            return Some(finished(lead));
        };
        if depth == 0 {
            return Some(lead);
        }
        let mut best = i32::MIN + 1;
        let mut next = Some(first);
        while let Some(mv) = next {
            if let Ok(points) = self.heaps.play(mv) {
                let child_lead = -lead.saturating_add(points as i32);
                let v = self.negamax(child_lead, depth - 1, -beta, -alpha);
                // A move that cannot be taken back (never: it was just played)
                // ends the search as the budget does.
                self.heaps.undo(mv).ok()?;
                let v = -v?;
                best = best.max(v);
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
            next = moves.next(&self.heaps);
        }
        Some(best)
    }
}

/// A move's number in the order of [`Heaps::moves`]: below [`MAX_MOVES`], so a
/// byte on the boards (12 heaps), a word on a host.
#[cfg(not(feature = "alloc"))]
type MoveNo = u8;
/// A move's number in the order of [`Heaps::moves`]: below [`MAX_MOVES`], so a
/// byte on the boards (12 heaps), a word on a host.
#[cfg(feature = "alloc")]
type MoveNo = u32;

/// The root's best moves so far, as their numbers in the order of
/// [`Heaps::moves`], most recent first.
type Leaders = Vec<MoveNo, { MAX_DEPTH as usize }>;

const _: () = assert!(MAX_MOVES <= MoveNo::MAX as usize);

/// Puts move number `k` first in `leaders`, keeping the others' order: try this
/// iteration's best first next time. `leaders` gains at most one move per
/// iteration, so it is never full; if it were, the order would merely stay as it
/// is.
fn move_to_front(leaders: &mut Leaders, k: MoveNo) {
    let at = match leaders.iter().position(|m| *m == k) {
        Some(at) => at,
        None => {
            if leaders.push(k).is_err() {
                return;
            }
            leaders.len() - 1
        }
    };
    if let Some(front) = leaders.get_mut(..=at) {
        front.rotate_right(1);
    }
}

fn finished(lead: i32) -> i32 {
    lead.saturating_add(WIN_BONUS * lead.signum())
}

/// The move for the player to move in `game`, searching at most `budget` nodes.
pub fn decide(game: &Game, budget: u32) -> Decision {
    decide_heaps(game.heaps(), game.lead(), game.plies_left(), budget)
}

/// The move for heaps `heaps`, a mover's lead of `lead` points and `plies_left`
/// moves left in the game, searching at most `budget` nodes.
pub fn decide_heaps(heaps: &Heaps, lead: i32, plies_left: u32, budget: u32) -> Decision {
    let mut search = Search {
        nodes: 0,
        budget,
        heaps: Heaps::default(),
        slack: 0,
    };
    // The root's moves come in the order of `Heaps::moves` with the best move of
    // each complete iteration moved to the front: the order is the earlier
    // iterations' best moves, most recent first (`leaders`), then the other moves
    // as generated. Keeping only the leaders' numbers (one per iteration, at most
    // MAX_DEPTH bytes) instead of the whole list of up to MAX_MOVES moves keeps
    // the frame small on the firmware's stack.
    let mut leaders = Leaders::new();
    let mut moves = heaps.move_iter().take(if plies_left == 0 { 0 } else { 2 });
    let mut decision = Decision {
        mv: moves.next(),
        value: lead,
        depth: 0,
        nodes: 0,
    };
    if moves.next().is_none() {
        return decision;
    }
    let max_depth = MAX_DEPTH.min(plies_left);
    'deepen: for depth in 1..=max_depth {
        let mut alpha = i32::MIN + 1;
        let mut best: Option<(MoveNo, Move, i32)> = None;
        // Below the root: `depth - 1` plies to search, `plies_left - 1` to play.
        search.slack = plies_left.saturating_sub(depth);
        let numbered = || (0..).zip(heaps.move_iter());
        let firsts = leaders.iter().filter_map(|&k| numbered().nth(k as usize));
        let others = numbered().filter(|(k, _)| !leaders.contains(k));
        for (k, mv) in firsts.chain(others) {
            let Ok((child, points)) = heaps.apply(mv) else {
                continue;
            };
            search.heaps = child;
            let child_lead = -lead.saturating_add(points as i32);
            let Some(v) = search.negamax(child_lead, depth - 1, i32::MIN + 1, -alpha) else {
                break 'deepen;
            };
            let v = -v;
            if best.is_none_or(|(_, _, b)| v > b) {
                best = Some((k, mv, v));
                alpha = v;
            }
        }
        if let Some((k, mv, value)) = best {
            decision.mv = Some(mv);
            decision.value = value;
            decision.depth = depth;
            move_to_front(&mut leaders, k);
        }
    }
    decision.nodes = search.nodes;
    decision
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_best_move_goes_first_and_the_others_keep_their_order() {
        let mut leaders = Leaders::new();
        for (k, want) in [
            (3, &[3][..]),
            (5, &[5, 3]),
            (3, &[3, 5]),
            (7, &[7, 3, 5]),
            (5, &[5, 7, 3]),
            (5, &[5, 7, 3]),
        ] {
            move_to_front(&mut leaders, k);
            assert_eq!(leaders.as_slice(), want, "after {k}");
        }
    }
}
