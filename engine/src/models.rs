//! Plausible wrong models of the game, and one exact solver for all of them.
//!
//! Real tournament bots are mostly exact solvers of a slightly wrong model: the limit
//! off by one, a reset that lasts two moves or lowers the largest take for good, the
//! wrong M. Such a bot errs in the same positions every time. [`Rules`] describes a
//! model by how it differs from the real rules, [`ModelSolution::solve`] solves any of
//! them (the real rules included) by one retrograde pass, and [`Model`] adds what the
//! bot believes beyond the rules (it forgets the opponent's resets, it declares a reset
//! with its winning take, its table stops at some pile) and what it does when the move
//! it believes in is illegal on the real server.
//!
//! A model follows the real game through [`Belief`]: the state it believes in,
//! updated by every real move under its own rules.

use nimbot::{Move, Moves, Position};

/// The rules as a model believes them. [`Rules::real`] is the truth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// M: the limit of the first move and of a move held by a reset.
    pub init_max: u32,
    /// The cap is `max(M, h + 1 + cap_offset)` (h the largest take so far): -1 is the
    /// bot that reads the limit as `max(M, largest take)`, +1 one that adds one too many.
    pub cap_offset: i8,
    /// How many moves a reset holds to M (the real rules: 1, the next move only).
    pub reset_span: u8,
    /// A reset also sets the largest take back to 0 for good.
    pub reset_clears_max: bool,
}

impl Rules {
    /// The real rules with initial maximum `m`.
    pub const fn real(m: u32) -> Self {
        Rules {
            init_max: m,
            cap_offset: 0,
            reset_span: 1,
            reset_clears_max: false,
        }
    }

    /// The most the mover may take in `st`.
    pub fn limit(&self, st: &State) -> u32 {
        if st.hold > 0 {
            return self.init_max;
        }
        let cap = i64::from(st.largest) + 1 + i64::from(self.cap_offset);
        (cap.max(i64::from(self.init_max)).max(1)) as u32
    }

    /// The moves the mover believes legal in `st` (every take up to [`Rules::limit`],
    /// then with a reset if it has one), in the order of [`Moves`].
    pub fn moves(&self, st: &State) -> Moves {
        Moves::new(self.limit(st), st.own > 0)
    }

    /// The state after `mv` (the pile may empty: then `stones` is 0).
    pub fn after(&self, st: &State, mv: Move) -> State {
        let largest = if mv.reset && self.reset_clears_max {
            0
        } else {
            st.largest.max(mv.take)
        };
        State {
            stones: st.stones.saturating_sub(mv.take),
            largest,
            own: st.opp,
            opp: st.own.saturating_sub(u8::from(mv.reset)),
            hold: if mv.reset {
                self.reset_span
            } else {
                st.hold.saturating_sub(1)
            },
        }
    }
}

/// A game state as a model sees it, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Stones left.
    pub stones: u32,
    /// The largest take so far (0 before the first move, or after a clearing reset).
    pub largest: u32,
    /// The mover's resets left.
    pub own: u8,
    /// The opponent's resets left.
    pub opp: u8,
    /// Moves still held to M by a reset.
    pub hold: u8,
}

impl State {
    /// The start of a game with `stones` stones and `resets` each.
    pub const fn start(stones: u32, resets: u8) -> Self {
        State {
            stones,
            largest: 0,
            own: resets,
            opp: resets,
            hold: 0,
        }
    }

    /// The state a real position shows (its largest take is one below its cap, or 0
    /// when the cap is still M).
    pub fn of(pos: &Position) -> Self {
        State {
            stones: pos.stones(),
            largest: if pos.cap() > pos.init_max() {
                pos.cap() - 1
            } else {
                0
            },
            own: pos.own_resets(),
            opp: pos.opp_resets(),
            hold: u8::from(pos.reset_pending()),
        }
    }
}

/// Every position of one model for piles up to `max_stones`: won or lost, stored as
/// "the largest lost pile at or below this one" per layer, so that a window of piles
/// is asked in one look-up.
#[derive(Clone, Debug)]
pub struct ModelSolution {
    rules: Rules,
    max_stones: u32,
    resets: u8,
    /// Largest `largest` stored; larger ones (unreachable in games of `max_stones`)
    /// are clamped to it.
    top: u32,
    /// Words per layer: one bit per pile 0..=max_stones.
    words: usize,
    /// `lost[key * words + s / 64]` bit `s % 64`: pile `s` of that layer is lost for
    /// its mover. Layer-major, so a window of piles is a word or two (and the whole
    /// store, about 40 KB per 100 stones, stays in cache while it is solved).
    lost: Vec<u64>,
}

/// The largest "largest take" a game of `stones` can reach when the limit grows by
/// at most `step` a move: the records sum to at most `stones`, and records that grow
/// by at most `step` sum to about h^2 / (2 step).
fn largest_reachable(stones: u32, init_max: u32, step: u32) -> u32 {
    let mut r = 0u32;
    while r * r <= 2 * stones * step {
        r += 1;
    }
    (r + init_max + 2).min(stones.max(init_max))
}

impl ModelSolution {
    /// Largest pile a model is solved for (the u16 store).
    pub const MAX_STONES: u32 = 60_000;

    /// Solve `rules` for every pile up to `max_stones` and every reset count up to
    /// `resets`; `None` beyond [`ModelSolution::MAX_STONES`].
    pub fn solve(rules: Rules, max_stones: u32, resets: u8) -> Option<Self> {
        if max_stones > Self::MAX_STONES || rules.init_max == 0 || rules.reset_span == 0 {
            return None;
        }
        let step = 1 + rules.cap_offset.max(0) as u32;
        let top = largest_reachable(max_stones, rules.init_max, step);
        let r = usize::from(resets) + 1;
        let holds = usize::from(rules.reset_span) + 1;
        let keys = (top as usize + 1) * r * r * holds;
        let mut sol = ModelSolution {
            rules,
            max_stones,
            resets,
            top,
            words: max_stones as usize / 64 + 1,
            lost: Vec::new(),
        };
        sol.lost = vec![0; keys * sol.words];
        // The moves of a layer do not depend on the pile: for each layer, its limit
        // and the ranges of takes that land in one layer (a window of piles there).
        let mut limits = Vec::with_capacity(keys);
        let mut plan_at = Vec::with_capacity(keys + 1);
        let mut plans: Vec<(u32, u32, usize)> = Vec::new();
        for key in 0..keys {
            let st = sol.state_of(1, key);
            let limit = rules.limit(&st);
            limits.push(limit);
            plan_at.push(plans.len());
            for &reset in Moves::reset_choices(st.own > 0) {
                // Takes that keep the largest take (or all takes, if a reset clears
                // it) land in one layer; each larger take sets a new largest take.
                let keep = if reset && rules.reset_clears_max {
                    limit
                } else {
                    limit.min(st.largest)
                };
                let layer = |take: u32| sol.key(&rules.after(&st, Move::new(take, reset)));
                if keep >= 1 {
                    if let Some(k) = layer(1) {
                        plans.push((1, keep, k));
                    }
                }
                for take in (keep + 1)..=limit {
                    if let Some(k) = layer(take) {
                        plans.push((take, take, k));
                    }
                }
            }
        }
        plan_at.push(plans.len());
        // Layers are ordered by largest take. A game of at most `max_stones` that has
        // `s` left has taken records summing to at most `max_stones - s`, and records
        // grow by at most `step`: larger takes than `reach(s)` are never met, in the
        // real game or in a model's own lines from a real position, so those states
        // are skipped (left "won"; nothing reachable asks for them).
        for s in 1..=max_stones {
            for key in 0..sol.reach(s) {
                // A take of the whole pile wins; otherwise look for a lost successor.
                let win = limits[key] >= s
                    || plans[plan_at[key]..plan_at[key + 1]]
                        .iter()
                        .any(|&(lo, hi, next)| {
                            // Piles s - hi ..= s - lo (at least 1) of layer `next`.
                            if lo >= s {
                                return false;
                            }
                            sol.any_lost(next, s.saturating_sub(hi).max(1), s - lo)
                        });
                if !win {
                    let w = key * sol.words + s as usize / 64;
                    sol.lost[w] |= 1 << (s % 64);
                }
            }
        }
        Some(sol)
    }

    /// The layers solved for pile `s`: those whose largest take a game of at most
    /// `max_stones` can have met with `s` left (see [`ModelSolution::solve`]).
    fn reach(&self, s: u32) -> usize {
        let r = usize::from(self.resets) + 1;
        let per_h = r * r * (usize::from(self.rules.reset_span) + 1);
        let step = 1 + u64::from(self.rules.cap_offset.max(0).unsigned_abs());
        let c = u64::from(self.rules.init_max) + 3;
        let bound = 2 * step * u64::from(self.max_stones.saturating_sub(s)) + c * c;
        let mut h = bound.isqrt();
        if h * h > bound {
            h -= 1;
        }
        ((h as usize + 2) * per_h).min((self.top as usize + 1) * per_h)
    }

    /// Whether some pile in `lo..=hi` of layer `key` is lost (all below the pile
    /// being solved, so already known).
    fn any_lost(&self, key: usize, lo: u32, hi: u32) -> bool {
        let base = key * self.words;
        let (first, last) = (lo as usize / 64, hi as usize / 64);
        (first..=last).any(|w| {
            let mut word = self.lost[base + w];
            if w == first {
                word &= u64::MAX << (lo % 64);
            }
            if w == last && hi % 64 != 63 {
                word &= (1u64 << (hi % 64 + 1)) - 1;
            }
            word != 0
        })
    }

    /// The rules solved.
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    fn key(&self, st: &State) -> Option<usize> {
        let r = usize::from(self.resets) + 1;
        if st.own > self.resets || st.opp > self.resets || st.hold > self.rules.reset_span {
            return None;
        }
        let h = st.largest.min(self.top) as usize;
        let holds = usize::from(self.rules.reset_span) + 1;
        Some(
            ((h * r + usize::from(st.own)) * r + usize::from(st.opp)) * holds
                + usize::from(st.hold),
        )
    }

    fn state_of(&self, stones: u32, key: usize) -> State {
        let r = usize::from(self.resets) + 1;
        let holds = usize::from(self.rules.reset_span) + 1;
        let hold = key % holds;
        let rest = key / holds;
        State {
            stones,
            largest: (rest / (r * r)) as u32,
            own: ((rest / r) % r) as u8,
            opp: (rest % r) as u8,
            hold: hold as u8,
        }
    }

    /// Whether the mover wins `st` under these rules, `None` outside the solved box.
    pub fn is_win(&self, st: &State) -> Option<bool> {
        if st.stones == 0 || st.stones > self.max_stones {
            return None;
        }
        if self.rules.limit(st) >= st.stones {
            return Some(true);
        }
        let key = self.key(st)?;
        if key >= self.reach(st.stones) {
            return None;
        }
        let w = self.lost.get(key * self.words + st.stones as usize / 64)?;
        Some(w >> (st.stones % 64) & 1 == 0)
    }

    /// Every move that wins `st` under these rules, smallest take first, moves
    /// without a reset first; a position where the whole pile may be taken gives
    /// that one move.
    pub fn winning_moves(&self, st: &State) -> Vec<Move> {
        let limit = self.rules.limit(st);
        if limit >= st.stones {
            return vec![Move::new(st.stones, false)];
        }
        self.rules
            .moves(st)
            .filter(|&mv| self.wins_with(st, mv))
            .collect()
    }

    /// Whether `mv` from `st` wins under these rules: it empties the pile, or leaves
    /// the opponent a lost state. Moves beyond the model's own limit never do.
    pub fn wins_with(&self, st: &State, mv: Move) -> bool {
        if mv.take == 0 || mv.take > self.rules.limit(st) || (mv.reset && st.own == 0) {
            return false;
        }
        if mv.take >= st.stones {
            return true;
        }
        self.is_win(&self.rules.after(st, mv)) == Some(false)
    }
}

/// What a bot does when the move it believes in is illegal on the real server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnIllegal {
    /// It (or its client) fixes the move: the take is cut to the real limit and a
    /// reset it does not have is dropped.
    Nearest,
    /// It sends the move and loses by the server's rules.
    Forfeit,
}

/// A bot's whole mistake: the rules it believes and how it uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Model {
    /// The rules it solves.
    pub rules: Rules,
    /// It believes the opponent has no resets.
    pub forgets_opp_resets: bool,
    /// It declares a reset with its winning take, believing the win is judged first.
    pub resets_on_win: bool,
    /// Its table stops at this pile: above it, it takes 1 without a reset.
    pub horizon: Option<u32>,
    /// What happens to a move it believes in that the server refuses.
    pub on_illegal: OnIllegal,
}

impl Model {
    /// The perfect player of the real rules with initial maximum `m`.
    pub const fn exact(m: u32) -> Self {
        Model {
            rules: Rules::real(m),
            forgets_opp_resets: false,
            resets_on_win: false,
            horizon: None,
            on_illegal: OnIllegal::Nearest,
        }
    }

    /// A short name, e.g. `limit-1` or `M=4/forfeit`.
    pub fn name(&self, real_m: u32) -> String {
        let mut parts: Vec<String> = Vec::new();
        let r = self.rules;
        if r.init_max != real_m {
            parts.push(format!("M={}", r.init_max));
        }
        if r.cap_offset != 0 {
            parts.push(format!("limit{:+}", r.cap_offset));
        }
        if r.reset_span != 1 {
            parts.push(format!("reset-holds-{}", r.reset_span));
        }
        if r.reset_clears_max {
            parts.push("reset-clears-max".into());
        }
        if self.forgets_opp_resets {
            parts.push("forgets-opp-resets".into());
        }
        if self.resets_on_win {
            parts.push("reset-on-win".into());
        }
        if let Some(h) = self.horizon {
            parts.push(format!("table-to-{h}"));
        }
        if parts.is_empty() {
            parts.push("exact".into());
        }
        let mut name = parts.join("+");
        if self.can_be_illegal(real_m) {
            name.push_str(match self.on_illegal {
                OnIllegal::Nearest => "/nearest",
                OnIllegal::Forfeit => "/forfeit",
            });
        }
        name
    }

    /// Whether the moves it believes in can be illegal on the real server (a limit
    /// above the real one, or a reset it does not have).
    pub fn can_be_illegal(&self, real_m: u32) -> bool {
        self.rules.init_max > real_m || self.rules.cap_offset > 0 || self.resets_on_win
    }

    /// The systematic families of the arena for a game with initial maximum `m`.
    pub fn families(m: u32) -> Vec<Model> {
        let e = Model::exact(m);
        let rules = |f: &dyn Fn(&mut Rules)| {
            let mut r = Rules::real(m);
            f(&mut r);
            Model { rules: r, ..e }
        };
        let forfeit = |x: Model| Model {
            on_illegal: OnIllegal::Forfeit,
            ..x
        };
        let mut v = vec![
            rules(&|r| r.cap_offset = -1),
            rules(&|r| r.cap_offset = 1),
            forfeit(rules(&|r| r.cap_offset = 1)),
            rules(&|r| r.reset_span = 2),
            rules(&|r| r.reset_clears_max = true),
            Model {
                forgets_opp_resets: true,
                ..e
            },
            forfeit(Model {
                resets_on_win: true,
                ..e
            }),
        ];
        if m > 1 {
            v.push(rules(&|r| r.init_max = m - 1));
        }
        v.push(rules(&|r| r.init_max = m + 1));
        v.push(forfeit(rules(&|r| r.init_max = m + 1)));
        v.push(Model {
            horizon: Some(60),
            ..e
        });
        v.push(Model {
            horizon: Some(250),
            ..e
        });
        v
    }

    /// The ensemble the `exploit` policy weighs for a game with initial maximum `m`:
    /// the exact player and every family, with table horizons spread over the piles
    /// (not the arena's own horizons, so the arena also tests a model it does not hold).
    pub fn ensemble(m: u32) -> Vec<Model> {
        let mut v = vec![Model::exact(m)];
        v.extend(
            Model::families(m)
                .into_iter()
                .filter(|x| x.horizon.is_none()),
        );
        for h in [30, 80, 160, 320, 640] {
            v.push(Model {
                horizon: Some(h),
                ..Model::exact(m)
            });
        }
        v
    }
}

/// The order in which a bot tries the moves it considers equally good.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    /// Larger takes first.
    pub largest_first: bool,
    /// Moves with a reset first.
    pub reset_first: bool,
}

/// A model following one real game: the state it believes in.
#[derive(Clone, Copy, Debug)]
pub struct Belief {
    /// The state under the model's rules, from the side of the player to move.
    pub state: State,
}

impl Belief {
    /// At the start of a game.
    pub const fn start(stones: u32, resets: u8) -> Self {
        Belief {
            state: State::start(stones, resets),
        }
    }

    /// After a real move, under `rules`.
    pub fn after(&self, rules: &Rules, mv: Move) -> Belief {
        Belief {
            state: rules.after(&self.state, mv),
        }
    }
}

/// A model with its solution: what the bot would play.
#[derive(Clone, Debug)]
pub struct Solved<'a> {
    /// The model.
    pub model: Model,
    /// The solution of its rules.
    pub solution: &'a ModelSolution,
}

impl Solved<'_> {
    /// The state the bot searches from its belief (its view of the resets).
    pub fn view(&self, b: &Belief) -> State {
        let mut st = b.state;
        if self.model.forgets_opp_resets {
            st.opp = 0;
        }
        st
    }

    /// The moves the bot believes in at `b`, in the bot's own terms (possibly illegal
    /// on the real server): every winning move it sees, or, when it sees none (or its
    /// table does not reach the pile), its one fallback move in `order`.
    /// Returns (moves, whether they are winning moves).
    pub fn believed_moves(&self, b: &Belief, order: Order) -> (Vec<Move>, bool) {
        let st = self.view(b);
        let limit = self.solution.rules.limit(&st);
        let beyond = self.model.horizon.is_some_and(|h| st.stones > h);
        if !beyond {
            // A take of the whole pile ends the game at once: every bot plays it.
            if limit >= st.stones {
                let reset = self.model.resets_on_win;
                return (vec![Move::new(st.stones, reset)], true);
            }
            let mut out: Vec<Move> = self.solution.winning_moves(&st);
            // The bot's own order: resets first or last, larger or smaller takes first.
            out.sort_by_key(|m| {
                let take = if order.largest_first {
                    u32::MAX - m.take
                } else {
                    m.take
                };
                (m.reset != order.reset_first, take)
            });
            if !out.is_empty() {
                return (out, true);
            }
        }
        let fallback = if beyond || !order.largest_first {
            Move::new(1, false)
        } else {
            Move::new(limit.min(st.stones), false)
        };
        (vec![fallback], false)
    }

    /// The move the bot sends to the server at `b`, where the real position is `real`:
    /// its first believed move, fixed to the nearest legal one if it is of that type.
    pub fn choose(&self, b: &Belief, real: &Position, order: Order) -> Move {
        let (moves, _) = self.believed_moves(b, order);
        let mv = moves.first().copied().unwrap_or(Move::new(1, false));
        self.sent(mv, real)
    }

    /// The moves the bot believes in at `b`, given `wins`, the model's winning moves
    /// at its view of `b` ([`ModelSolution::winning_moves`]), as a set: its order is
    /// unknown, so a bot that sees no win may play take 1 or its largest take.
    /// Returns (moves, whether they are winning moves).
    pub fn believed_set(&self, b: &Belief, wins: &[Move]) -> (Vec<Move>, bool) {
        let st = self.view(b);
        let beyond = self.model.horizon.is_some_and(|h| st.stones > h);
        if !beyond && !wins.is_empty() {
            let moves = wins
                .iter()
                .map(|&mv| {
                    let reset = mv.reset || (self.model.resets_on_win && mv.take >= st.stones);
                    Move::new(mv.take, reset)
                })
                .collect();
            return (moves, true);
        }
        let limit = self.solution.rules.limit(&st).min(st.stones);
        let mut v = vec![Move::new(1, false)];
        if !beyond && limit > 1 {
            v.push(Move::new(limit, false));
        }
        (v, false)
    }

    /// What reaches the server when the bot believes in `mv` at `real`.
    pub fn sent(&self, mv: Move, real: &Position) -> Move {
        match self.model.on_illegal {
            OnIllegal::Forfeit => mv,
            OnIllegal::Nearest => Move::new(
                mv.take.clamp(1, real.limit()),
                mv.reset && real.own_resets() > 0,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nimbot::position_value;
    use nimbot_solve::{Solution, SolveBox};

    /// Plain memoized minimax of `rules`, the independent reference.
    fn brute(rules: &Rules, st: &State, memo: &mut std::collections::HashMap<State, bool>) -> bool {
        if let Some(&v) = memo.get(st) {
            return v;
        }
        let limit = rules.limit(st);
        let mut win = false;
        'outer: for reset in [false, true] {
            if reset && st.own == 0 {
                continue;
            }
            for take in 1..=limit {
                if take >= st.stones {
                    win = true;
                    break 'outer;
                }
                let next = rules.after(st, Move::new(take, reset));
                if !brute(rules, &next, memo) {
                    win = true;
                    break 'outer;
                }
            }
        }
        memo.insert(*st, win);
        win
    }

    fn variants() -> Vec<Rules> {
        let mut v = vec![
            Rules::real(3),
            Rules::real(2),
            Rules::real(4),
            Rules::real(1),
        ];
        for off in [-1i8, 1] {
            v.push(Rules {
                cap_offset: off,
                ..Rules::real(3)
            });
        }
        v.push(Rules {
            reset_span: 2,
            ..Rules::real(3)
        });
        v.push(Rules {
            reset_clears_max: true,
            ..Rules::real(3)
        });
        v.push(Rules {
            reset_span: 3,
            reset_clears_max: true,
            cap_offset: 1,
            ..Rules::real(2)
        });
        v
    }

    #[test]
    fn every_model_matches_plain_minimax_on_every_reachable_state() {
        let (n, r) = (70u32, 2u8);
        for rules in variants() {
            let sol = ModelSolution::solve(rules, n, r).unwrap();
            let mut memo = std::collections::HashMap::new();
            let mut checked = 0;
            // Every state reachable from every start, by walking all lines.
            for start in 1..=n {
                let mut stack = vec![State::start(start, r)];
                let mut seen = std::collections::HashSet::new();
                while let Some(st) = stack.pop() {
                    if st.stones == 0 || !seen.insert(st) {
                        continue;
                    }
                    assert_eq!(
                        sol.is_win(&st),
                        Some(brute(&rules, &st, &mut memo)),
                        "{rules:?} at {st:?}"
                    );
                    checked += 1;
                    for mv in rules.moves(&st).filter(|mv| mv.take <= st.stones) {
                        stack.push(rules.after(&st, mv));
                    }
                }
            }
            assert!(checked > 10_000, "{rules:?}: only {checked} states");
        }
    }

    #[test]
    fn the_real_model_agrees_with_the_real_solver() {
        let (n, r, m) = (400u32, 4u8, 3u32);
        let model = ModelSolution::solve(Rules::real(m), n, r).unwrap();
        let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
        let mut checked = 0u32;
        for s in 1..=n {
            for c in m..=largest_reachable(n, m, 1) {
                for a in 0..=r {
                    for b in 0..=r {
                        for f in [false, true] {
                            let pos = Position::new(s, c, a, b, f, m).unwrap();
                            let Ok(want) = position_value(&sol, &pos) else {
                                continue;
                            };
                            // Only positions some game of at most n stones reaches.
                            if (c - 1) * (c - 1) > 2 * (n - s) + 9 {
                                continue;
                            }
                            assert_eq!(
                                model.is_win(&State::of(&pos)),
                                Some(want == nimbot::Value::Won),
                                "{pos:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 300_000, "only {checked}");
    }

    #[test]
    fn off_by_one_below_is_take_one_to_m_nim_without_resets() {
        // Believing the limit is max(M, largest take), the limit never grows: with no
        // resets, multiples of M + 1 are lost.
        let rules = Rules {
            cap_offset: -1,
            ..Rules::real(3)
        };
        let sol = ModelSolution::solve(rules, 200, 0).unwrap();
        for s in 1..=200 {
            assert_eq!(sol.is_win(&State::start(s, 0)), Some(s % 4 != 0), "{s}");
        }
    }

    #[test]
    fn a_nearest_bot_never_sends_an_illegal_move_and_a_forfeit_bot_does() {
        let m4 = Rules::real(4);
        let sol = ModelSolution::solve(m4, 50, 1).unwrap();
        let model = Model {
            rules: m4,
            ..Model::exact(3)
        };
        let pos = Position::new(5, 3, 1, 1, false, 3).unwrap();
        let b = Belief {
            state: State::of(&pos),
        };
        let order = Order {
            largest_first: false,
            reset_first: false,
        };
        // Under M = 4, 5 stones at the start: take 4 leaves 1 ... no: take 5 is not
        // allowed, but the bot believes it may take 4 and win later; whatever it picks
        // the nearest bot's move is legal.
        let nearest = Solved {
            model,
            solution: &sol,
        };
        assert!(pos.check(nearest.choose(&b, &pos, order)).is_ok());
        // At 4 stones it believes it can take all 4: illegal under M = 3.
        let pos4 = Position::new(4, 3, 1, 1, false, 3).unwrap();
        let b4 = Belief {
            state: State::of(&pos4),
        };
        let forfeit = Solved {
            model: Model {
                on_illegal: OnIllegal::Forfeit,
                ..model
            },
            solution: &sol,
        };
        assert_eq!(forfeit.choose(&b4, &pos4, order), Move::new(4, false));
        assert!(pos4.check(forfeit.choose(&b4, &pos4, order)).is_err());
        assert_eq!(nearest.choose(&b4, &pos4, order), Move::new(3, false));
    }
}
