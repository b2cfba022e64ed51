//! The host's Super-Nim player: the exact solver near the cap, a horizon scored by
//! the parity of the 2s before it, and, among the moves of the best value, the one
//! that gives a known opponent the best chance to go wrong before the cap.
//!
//! Between two players who never lose value a game ends at its start's value
//! (docs/other-games.md), so every win beyond it is an opponent's mistake. Against a
//! player that grabs every 2 (greedy) those mistakes come only near the cap, when its
//! random moves (it has no 2 to split) hand the last 2 to the other side. The player
//! therefore does two things besides never losing value:
//!
//! - far from the cap, when it is not already winning, it keeps enough sticks on the
//!   board for the game to reach the cap (a game whose sticks run out ends at its
//!   value);
//! - within [`TIE_BREAK_PLIES`] of the cap, once its search is exact, it weighs its
//!   moves of the best value by an expectimax over the opponent's [`Model`] down to
//!   the cap: its own moves restricted to those of the best exact value, the
//!   opponent's by the model's probabilities, a result counted 1 for a win and 1/2
//!   for a draw. An opponent's move that loses value ends the branch as a win as
//!   soon as the exact margin turns positive (exact play then keeps it).

use alloc::vec::Vec;

use super::belief::{Belief, Model};
use super::memo::Memo;
use super::players::Chooser;
use super::rules::{Game, Heaps, Move};
use super::solver::{MoveValue, Solver};

/// The default node budget of [`Perfect`] per move: some milliseconds on a PC.
pub const PERFECT_NODE_BUDGET: u64 = 200_000;
/// The default entry bound of [`Perfect`]'s table (about 70 bytes an entry).
pub const PERFECT_ENTRIES: usize = 1 << 20;
/// Plies left at or below which [`Perfect`] tries to solve the position exactly,
/// and breaks ties between moves of equal value by the opponent's chances to go
/// wrong. Farther from the cap the exact search does not finish within the default
/// budget on the arena's games, so it is not tried (a cheaper horizon is).
pub const TIE_BREAK_PLIES: u32 = 40;
/// The share of the node budget [`Perfect`] spends on a move beyond
/// [`TIE_BREAK_PLIES`] (the horizon search): one part in this many.
const FAR_SHARE: u64 = 20;
/// Most positions kept by the expectimax's memo before it is emptied.
const CHANCE_ENTRIES: usize = 1 << 20;

/// What [`Perfect::decide`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct PerfectDecision {
    /// The move; `None` only with no move or no plies left.
    pub mv: Option<Move>,
    /// Its value (the mover's margin from here on), exact when `exact`, else the
    /// estimate at the horizon `depth`.
    pub value: i32,
    /// Whether the search reached the cap (the value is exact).
    pub exact: bool,
    /// Plies searched by the last complete iteration (0: none completed).
    pub depth: u32,
    /// Nodes visited (the solver's and the expectimax's).
    pub nodes: u64,
    /// The expected result of the move against the model (a win 1, a draw 1/2), as
    /// far as the expectimax saw (`chance_depth` plies; the cap when it equals the
    /// plies left), when it ran.
    pub chance: Option<f64>,
    /// Plies the expectimax looked ahead (0: it did not run).
    pub chance_depth: u32,
}

/// The host's Super-Nim player (the module's description): exact near the cap
/// with one solver table for the whole match, the parity horizon before it, and
/// the opponent's chances to go wrong among the moves of the best value.
pub struct Perfect {
    solver: Solver,
    chances: Chances,
    /// Nodes per move.
    pub budget: u64,
    /// The opponent model of the tie-break.
    pub model: Model,
    /// Plies left at the last move (a larger number starts a new game).
    last_plies_left: u32,
    /// What it has learnt of the opponent, when it learns (`None`: `model` is
    /// fixed).
    belief: Option<Belief>,
    /// The position after its last move (heaps, plies left), from which
    /// [`Chooser::choose`] finds the opponent's move to learn from.
    after_own: Option<(Heaps, u32)>,
}

impl core::fmt::Debug for Perfect {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Perfect")
            .field("budget", &self.budget)
            .field("model", &self.model)
            .field("belief", &self.belief)
            .field("entries", &self.solver.entries())
            .finish_non_exhaustive()
    }
}

impl Perfect {
    /// A player with `budget` nodes a move and the opponent model `model`.
    pub fn new(budget: u64, model: Model) -> Perfect {
        Perfect {
            solver: Solver::new(budget, PERFECT_ENTRIES),
            chances: Chances::default(),
            budget,
            model,
            last_plies_left: 0,
            belief: None,
            after_own: None,
        }
    }

    /// A player with `budget` nodes a move that learns its opponent's model from
    /// the moves it is shown ([`Perfect::observe`]; [`Chooser::choose`] finds
    /// them itself), starting from a [`Belief`] with every model equally likely.
    pub fn learning(budget: u64) -> Perfect {
        let belief = Belief::default();
        let mut player = Perfect::new(budget, belief.model());
        player.belief = Some(belief);
        player
    }

    /// What it has learnt of the opponent (`None`: it does not learn).
    pub fn belief(&self) -> Option<&Belief> {
        self.belief.as_ref()
    }

    /// A new game against a new opponent: a learning player forgets what it
    /// learnt (the solver's table, true of every game, is kept).
    pub fn new_opponent(&mut self) {
        if let Some(belief) = self.belief.as_mut() {
            *belief = Belief::default();
            self.model = belief.model();
        }
        self.after_own = None;
        self.chances.memo.clear();
    }

    /// Notes that the game is at `plies_left` plies before the cap: more than
    /// the last time means a new game, where what the expectimax remembered is of
    /// no use any more, nor what was learnt of the last opponent.
    fn follow(&mut self, plies_left: u32) {
        if plies_left > self.last_plies_left {
            self.new_opponent();
        }
        self.last_plies_left = plies_left;
    }

    /// Shows a learning player the opponent's move `mv` in `heaps` with
    /// `plies_left` plies before the cap (nothing for a player that does not
    /// learn). Near the cap it asks its solver for the exact values of the
    /// opponent's moves on a quarter of its budget, to tell a strong opponent
    /// from the others.
    pub fn observe(&mut self, heaps: &Heaps, plies_left: u32, mv: Move) {
        if self.belief.is_none() {
            return;
        }
        self.follow(plies_left);
        let Some(mut belief) = self.belief else {
            return;
        };
        let values = if plies_left <= TIE_BREAK_PLIES {
            self.solver.set_node_bound((self.budget / 4).max(1));
            self.solver.move_values(heaps, plies_left)
        } else {
            None
        };
        belief.observe(heaps, values.as_deref(), mv);
        self.model = belief.model();
        self.belief = Some(belief);
    }

    /// The move for `heaps` with `plies_left` plies before the cap, the mover ahead
    /// by `lead` points.
    pub fn decide(&mut self, heaps: &Heaps, plies_left: u32, lead: i32) -> PerfectDecision {
        self.follow(plies_left);
        let mut decision = PerfectDecision {
            mv: if plies_left == 0 {
                None
            } else {
                heaps.move_iter().next()
            },
            value: 0,
            exact: false,
            depth: 0,
            nodes: 0,
            chance: None,
            chance_depth: 0,
        };
        let near = plies_left <= TIE_BREAK_PLIES;
        let budget = if near {
            self.budget
        } else {
            (self.budget / FAR_SHARE).max(1)
        };
        let mut values = None;
        // Near the cap the whole game first (cheap with the table of the moves
        // before), then deepening from 1 on what is left of the budget.
        if near {
            self.solver.set_node_bound(budget);
            if let Some(found) = self.solver.horizon(heaps, plies_left, plies_left) {
                decision.depth = plies_left;
                decision.exact = true;
                values = Some(found);
            }
            decision.nodes += self.solver.nodes();
        }
        let deepen = if decision.exact { 0 } else { plies_left };
        for depth in 1..=deepen {
            let left = budget.saturating_sub(decision.nodes);
            self.solver.set_node_bound(left);
            let found = self.solver.horizon(heaps, plies_left, depth);
            decision.nodes += self.solver.nodes();
            let Some(found) = found else {
                break;
            };
            decision.depth = depth;
            decision.exact = depth >= plies_left;
            values = Some(found);
            if decision.exact {
                break;
            }
        }
        let Some(values) = values else {
            return decision;
        };
        let Some(best) = values.iter().map(|m| m.value).max() else {
            return decision;
        };
        decision.value = best;
        let ties: Vec<Move> = values
            .iter()
            .filter(|m| m.value == best)
            .map(|m| m.mv)
            .collect();
        decision.mv = ties.first().copied();
        if matches!(self.model, Model::None | Model::Strong) || ties.len() < 2 {
            return decision;
        }
        let margin = lead.saturating_add(best);
        if !decision.exact {
            if margin <= 0 {
                decision.mv = keep_alive(heaps, plies_left, &ties).or(decision.mv);
            }
            return decision;
        }
        if !near || margin > 0 {
            return decision;
        }
        self.weigh(heaps, plies_left, margin, &ties, &mut decision);
        decision
    }

    /// The expectimax over the opponent's model among `ties` (the moves of the
    /// best exact value, the mover's exact margin `margin`): down to the cap on a
    /// budget of its own (a failed attempt leaves what it finished in the memo,
    /// which the next moves reuse), else over the opponent's next move only on a
    /// quarter of it. Sets the move and its chance.
    fn weigh(
        &mut self,
        heaps: &Heaps,
        plies_left: u32,
        margin: i32,
        ties: &[Move],
        decision: &mut PerfectDecision,
    ) {
        let attempts = [
            (plies_left, self.budget),
            (plies_left.min(2), self.budget / 4),
        ];
        for (depth, bound) in attempts {
            let mut search = Search {
                solver: &mut self.solver,
                chances: &mut self.chances,
                model: self.model,
                nodes: 0,
                bound,
            };
            let found = search.root(heaps, plies_left, depth, margin, ties);
            decision.nodes += search.nodes;
            if let Some((mv, c)) = found {
                decision.mv = Some(mv);
                decision.chance = Some(c);
                decision.chance_depth = depth;
                return;
            }
        }
    }
}

/// What one heap can still feed the game, capped at [`HEAP_REACH`]: the plies it
/// lasts if it is only ever grown and split (never merged), down to the splits of
/// its 2s: `1` for a 2, `1 + 2 x reach(n / 2)` for another even `n`, `1 +
/// reach(3n + 1)` for an odd `n`. Powers of 2 feed little (a 16 lasts 15 plies),
/// heaps whose path climbs (7, 9, 11...) a lot.
pub fn heap_reach(n: u16) -> u32 {
    // The path of `n` down to 2 (every path reaches it), then folded back.
    let mut path = Vec::new();
    let mut x = u32::from(n);
    while x > 2 && path.len() < 1000 {
        path.push(x);
        x = if x % 2 == 1 { 3 * x + 1 } else { x / 2 };
    }
    if x == 1 {
        // 1 grows to 4, which splits to two 2s.
        path.extend([1, 4]);
    }
    let mut reach: u32 = 1;
    for &x in path.iter().rev() {
        reach = if x % 2 == 1 { reach + 1 } else { 2 * reach + 1 }.min(HEAP_REACH);
    }
    reach
}

/// The most one heap counts toward [`heap_reach`]: greedy's random moves merge
/// heaps (a merge makes at most 10), so no heap is worth counting on for long.
pub const HEAP_REACH: u32 = 64;

/// Far from the cap with the game not yet won: among `ties`, a move whose heaps
/// reach ([`heap_reach`], summed) at least twice the plies left (a game that runs
/// out of sticks ends at its value, before the cap where the opponent can go
/// wrong), the one with the least reach among those (no growth beyond need: large
/// positions are slow to solve near the cap). `None`: no such choice to make.
fn keep_alive(heaps: &Heaps, plies_left: u32, ties: &[Move]) -> Option<Move> {
    let target = plies_left.saturating_mul(2);
    ties.iter()
        .filter_map(|&mv| {
            let (child, _) = heaps.apply(mv).ok()?;
            let reach: u32 = child.sizes().iter().map(|&n| heap_reach(n)).sum();
            Some((reach.min(target), core::cmp::Reverse(reach), mv))
        })
        .max_by_key(|&(enough, least, _)| (enough, least))
        .map(|(_, _, mv)| mv)
}

/// The expectimax's memo: the expected result (win 1, draw 1/2) of a position for
/// the player, keyed on the heaps, the plies left, the depth searched (the plies
/// left when the search reached the cap, so such entries serve every later move),
/// the player's exact margin and who moves ([`node_key`]).
struct Chances {
    memo: Memo<f64>,
}

impl Default for Chances {
    fn default() -> Self {
        Chances {
            memo: Memo::new(CHANCE_ENTRIES),
        }
    }
}

/// One expectimax call: the solver for the values, the memo, the model, nodes.
struct Search<'a> {
    solver: &'a mut Solver,
    chances: &'a mut Chances,
    model: Model,
    nodes: u64,
    bound: u64,
}

/// An expectimax node in the memo: plies left, depth searched, the player's
/// margin (two words), whether it is the player's turn, then the heaps.
type NodeKey = Vec<u16>;

/// The memo's key of a node; `None` if there is no memory for it.
fn node_key(
    heaps: &Heaps,
    plies_left: u32,
    depth: u32,
    margin: i32,
    players_turn: bool,
) -> Option<NodeKey> {
    let mut key = Vec::new();
    key.try_reserve_exact(heaps.len() + 5).ok()?;
    let word = |n: u32| u16::try_from(n).unwrap_or(u16::MAX);
    let margin = margin as u32;
    key.extend_from_slice(&[
        word(plies_left),
        word(depth),
        (margin >> 16) as u16,
        margin as u16,
        u16::from(players_turn),
    ]);
    key.extend_from_slice(heaps.sizes());
    Some(key)
}

/// The result worth `margin` points to the player: a win 1, a draw 1/2, a loss 0.
fn result(margin: i32) -> f64 {
    match margin.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

impl Search<'_> {
    /// Every move's exact value of `heaps` with `plies_left` plies, within the
    /// call's bound.
    fn values(&mut self, heaps: &Heaps, plies_left: u32) -> Option<Vec<MoveValue>> {
        self.solver
            .set_node_bound(self.bound.saturating_sub(self.nodes));
        let found = self.solver.move_values(heaps, plies_left);
        self.nodes += self.solver.nodes();
        found
    }

    /// Looks up or counts a node; `Err(None)` when out of nodes.
    fn enter(&mut self, key: &NodeKey) -> Result<(), Option<f64>> {
        if let Some(c) = self.chances.memo.get(key) {
            return Err(Some(c));
        }
        self.nodes += 1;
        if self.nodes > self.bound {
            return Err(None);
        }
        Ok(())
    }

    fn store(&mut self, key: NodeKey, c: f64) {
        if self.chances.memo.is_full() {
            self.chances.memo.clear();
        }
        self.chances.memo.update(&key, |_| c);
    }

    /// The best of `ties` (moves of `heaps` of the best exact value, which keep the
    /// player's exact margin `margin`) and its expected result, `depth` plies
    /// searched; the first of the best on equal results.
    fn root(
        &mut self,
        heaps: &Heaps,
        plies_left: u32,
        depth: u32,
        margin: i32,
        ties: &[Move],
    ) -> Option<(Move, f64)> {
        let mut found: Option<(Move, f64)> = None;
        for &mv in ties {
            let Ok((child, _)) = heaps.apply(mv) else {
                continue;
            };
            let c = self.opponent(&child, plies_left - 1, depth - 1, margin)?;
            if found.is_none_or(|(_, best)| c > best + 1e-9) {
                found = Some((mv, c));
            }
        }
        found
    }

    /// What both kinds of node start with: `Err` with the node's result when it is
    /// a leaf (no plies or heaps left, the search's depth reached, or no move),
    /// is already known, or the search ran out of budget (`Err(None)`); else its
    /// memo key, its moves' exact values and the best of them.
    fn open(
        &mut self,
        heaps: &Heaps,
        plies_left: u32,
        depth: u32,
        margin: i32,
        players_turn: bool,
    ) -> Result<(NodeKey, Vec<MoveValue>, i32), Option<f64>> {
        if plies_left == 0 || depth == 0 || heaps.is_empty() {
            return Err(Some(result(margin)));
        }
        let key = node_key(heaps, plies_left, depth, margin, players_turn).ok_or(None)?;
        self.enter(&key)?;
        let values = self.values(heaps, plies_left).ok_or(None)?;
        match values.iter().map(|m| m.value).max() {
            Some(best) => Ok((key, values, best)),
            None => Err(Some(result(margin))),
        }
    }

    /// The player to move in `heaps` (its exact margin `margin`), `depth` plies
    /// searched: the best expected result over its moves of the best exact value.
    fn player(&mut self, heaps: &Heaps, plies_left: u32, depth: u32, margin: i32) -> Option<f64> {
        if margin > 0 {
            return Some(1.0);
        }
        let (key, values, best) = match self.open(heaps, plies_left, depth, margin, true) {
            Ok(node) => node,
            Err(known) => return known,
        };
        let mut top: f64 = 0.0;
        for m in values.iter().filter(|m| m.value == best) {
            let Ok((child, _)) = heaps.apply(m.mv) else {
                continue;
            };
            let c = self.opponent(&child, plies_left - 1, depth - 1, margin)?;
            top = top.max(c);
            if top >= 1.0 {
                break;
            }
        }
        self.store(key, top);
        Some(top)
    }

    /// The opponent to move in `heaps`, the player's exact margin `margin`, `depth`
    /// plies searched: the expected result over the model's moves. A move that
    /// loses value raises the margin by what it loses.
    fn opponent(&mut self, heaps: &Heaps, plies_left: u32, depth: u32, margin: i32) -> Option<f64> {
        let (key, values, best) = match self.open(heaps, plies_left, depth, margin, false) {
            Ok(node) => node,
            Err(known) => return known,
        };
        let mut expected = 0.0;
        for (mv, p) in self.model.distribution(heaps) {
            let Some(v) = values.iter().find(|m| m.mv == mv) else {
                continue;
            };
            let after = margin.saturating_add(best - v.value);
            let c = if after > 0 {
                1.0
            } else {
                let Ok((child, _)) = heaps.apply(mv) else {
                    continue;
                };
                self.player(&child, plies_left - 1, depth - 1, after)?
            };
            expected += p * c;
        }
        self.store(key, expected);
        Some(expected)
    }
}

impl Chooser for Perfect {
    /// A learning player first finds the opponent's move since its own (the first
    /// move, in the order of [`Heaps::moves`], that leads from the position it
    /// left to this one) and learns from it.
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let plies_left = game.plies_left();
        if let Some((before, left)) = self.after_own.take() {
            let theirs = before.move_iter().find(|&mv| {
                left == plies_left.saturating_add(1)
                    && before.apply(mv).is_ok_and(|(h, _)| &h == game.heaps())
            });
            if let Some(mv) = theirs {
                self.observe(&before, left, mv);
            }
        }
        let mv = self.decide(game.heaps(), plies_left, game.lead()).mv?;
        if self.belief.is_some() {
            if let Ok((after, _)) = game.heaps().apply(mv) {
                self.after_own = Some((after, plies_left.saturating_sub(1)));
            }
        }
        Some(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_of_k_nodes_stops_the_expectimax_at_node_k_plus_one() {
        let mut solver = Solver::new(1_000, 1 << 10);
        let mut chances = Chances::default();
        let mut search = Search {
            solver: &mut solver,
            chances: &mut chances,
            model: Model::Greedy,
            nodes: 0,
            bound: 3,
        };
        for n in 0..3u16 {
            assert_eq!(search.enter(&alloc::vec![n]), Ok(()), "{n}");
        }
        assert_eq!(search.enter(&alloc::vec![3]), Err(None));
        assert_eq!(search.nodes, 4);
        // A node it knows is answered without counting.
        search.store(alloc::vec![7], 0.25);
        assert_eq!(search.enter(&alloc::vec![7]), Err(Some(0.25)));
        assert_eq!(search.nodes, 4);
    }
}
