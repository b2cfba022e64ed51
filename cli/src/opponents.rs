//! Fallible opponents for the arena (and the demo): the kinds of players a
//! tournament bot meets. Each sees the game record and returns a legal move.

use nimbot::solver::Solution;
use nimbot::strategy::{best_move, position_value};
use nimbot::Value;
use nimbot::{Game, Move, Position};

/// The arenas' generator: the core's, so one seed means the same games everywhere.
pub use nimbot::rng::SplitMix64 as Rng;

/// Every legal move from `pos`: each take `1..=limit`, with a reset when the mover
/// has one.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    for reset in [false, true] {
        if reset && pos.own_resets() == 0 {
            continue;
        }
        for take in 1..=pos.limit() {
            out.push(Move::new(take, reset));
        }
    }
    out
}

/// The opponent families of the arena.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opponent {
    /// Uniformly random among the legal moves.
    Random,
    /// Always the largest take, never a reset.
    Greedy,
    /// Take-1-to-3 Nim thinking: leave a multiple of 4 (take all when it can).
    Mod4,
    /// Searches `n` plies: wins at once if it can, then (n >= 2) avoids moves that let
    /// the opponent win at once, then (n >= 3) plays a forced win in three plies;
    /// random among what is left.
    Depth(u8),
    /// Perfect, but with probability `p` a uniformly random legal move instead.
    Erring(f64),
    /// Depth-2 play that never spends a reset.
    Hoarder,
    /// Depth-2 play that resets on every move while it has resets.
    Spender,
}

impl Opponent {
    /// The family as the arena lists it.
    pub fn all() -> Vec<Opponent> {
        vec![
            Opponent::Random,
            Opponent::Greedy,
            Opponent::Mod4,
            Opponent::Depth(1),
            Opponent::Depth(2),
            Opponent::Depth(3),
            Opponent::Erring(0.02),
            Opponent::Erring(0.05),
            Opponent::Erring(0.1),
            Opponent::Erring(0.3),
            Opponent::Erring(0.5),
            Opponent::Hoarder,
            Opponent::Spender,
        ]
    }

    pub fn name(&self) -> String {
        match self {
            Opponent::Random => "random".into(),
            Opponent::Greedy => "greedy-max".into(),
            Opponent::Mod4 => "nim-mod-4".into(),
            Opponent::Depth(d) => format!("depth-{d}"),
            Opponent::Erring(p) => format!("perfect-err-{:.0}%", p * 100.0),
            Opponent::Hoarder => "reset-hoarder".into(),
            Opponent::Spender => "reset-spender".into(),
        }
    }

    /// The opponent's move in `game` (which is not over).
    pub fn choose(&self, game: &Game, solution: &Solution, rng: &mut Rng) -> Move {
        let Some(pos) = game.position() else {
            return Move::new(1, false);
        };
        let moves = legal_moves(&pos);
        let pick = |rng: &mut Rng, from: &[Move]| -> Move {
            from.get(rng.below(from.len() as u64) as usize)
                .copied()
                .unwrap_or(Move::new(1, false))
        };
        match *self {
            Opponent::Random => pick(rng, &moves),
            Opponent::Greedy => Move::new(pos.limit(), false),
            Opponent::Mod4 => {
                let s = pos.stones();
                let take = if pos.limit() >= s { s } else { s % 4 };
                Move::new(
                    if (1..=pos.limit()).contains(&take) {
                        take
                    } else {
                        1
                    },
                    false,
                )
            }
            Opponent::Depth(d) => {
                let candidates = shallow(&pos, &moves, d);
                pick(rng, &candidates)
            }
            Opponent::Erring(p) => {
                if rng.chance(p) {
                    return pick(rng, &moves);
                }
                match best_move(solution, &pos) {
                    Ok(d) if d.value == Value::Won => d.mv,
                    _ => pick(rng, &moves),
                }
            }
            Opponent::Hoarder => {
                let no_reset: Vec<Move> = moves.iter().copied().filter(|m| !m.reset).collect();
                pick(rng, &shallow(&pos, &no_reset, 2))
            }
            Opponent::Spender => {
                let own: Vec<Move> = if pos.own_resets() > 0 {
                    moves.iter().copied().filter(|m| m.reset).collect()
                } else {
                    moves.clone()
                };
                // Never reset on the winning move (it would only waste it).
                if pos.limit() >= pos.stones() {
                    return Move::new(pos.stones(), false);
                }
                pick(rng, &shallow(&pos, &own, 2))
            }
        }
    }
}

/// The moves of `moves` a `depth`-ply searcher keeps (never empty).
fn shallow(pos: &Position, moves: &[Move], depth: u8) -> Vec<Move> {
    // Depth 1: take everything when allowed.
    if pos.limit() >= pos.stones() {
        return vec![Move::new(pos.stones(), false)];
    }
    if depth < 2 {
        return moves.to_vec();
    }
    // Depth 2: drop moves after which the opponent can take everything.
    let safe: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| match pos.after(m) {
            Ok(Some(next)) => next.limit() < next.stones(),
            _ => false,
        })
        .collect();
    if depth >= 3 {
        // Depth 3: a move after which every reply lets us take everything.
        let forced: Vec<Move> = safe
            .iter()
            .copied()
            .filter(|&m| {
                let Ok(Some(next)) = pos.after(m) else {
                    return false;
                };
                legal_moves(&next).iter().all(|&r| match next.after(r) {
                    Ok(Some(back)) => back.limit() >= back.stones(),
                    _ => false,
                })
            })
            .collect();
        if !forced.is_empty() {
            return forced;
        }
    }
    if safe.is_empty() {
        moves.to_vec()
    } else {
        safe
    }
}

/// Values of positions by the solver (the arena's referee of who should win).
pub fn start_is_won(solution: &Solution, pos: &Position) -> bool {
    position_value(solution, pos) == Ok(Value::Won)
}
