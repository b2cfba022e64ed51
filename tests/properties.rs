//! Property tests (proptest):
//! - random games, illegal moves included, through `Game` match a simple model of
//!   docs/rules.md written here from the text alone, move by move, and every move
//!   is judged as the model judges it by each public entry point (`Game::check`,
//!   `Game::play`, `Position::check`, `Position::after`);
//! - `best_move` from a won position leaves the opponent a lost one (by the solver,
//!   and by a plain memoized search over the model for small piles);

use std::collections::HashMap;
use std::sync::OnceLock;

use nimbot::{
    best_move, Game, IllegalMove, Move, Outcome, Params, Player, Position, Solution, SolveBox,
    Table,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// A simple model of docs/rules.md: raw state, judged in the listed order.

#[derive(Clone, Debug, PartialEq, Eq)]
struct Model {
    m: u32,
    stones: u32,
    /// h: the largest take so far.
    largest: u32,
    resets: [u32; 2],
    /// The previous move declared a reset.
    pending: bool,
    turn: usize,
    winner: Option<usize>,
}

/// Why the model refuses a move (docs/rules.md's reasons; "game over" is ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    GameOver,
    OutOfTurn,
    Illegal,
    TooManyResets,
}

impl Model {
    fn new(n: u32, r: u32, m: u32) -> Self {
        Model {
            m,
            stones: n,
            largest: 0,
            resets: [r, r],
            pending: false,
            turn: 0,
            winner: None,
        }
    }

    /// L = M after the opponent's reset, else max(M, h + 1).
    fn limit(&self) -> u32 {
        if self.pending {
            self.m
        } else {
            self.m.max(self.largest + 1)
        }
    }

    /// Judge and apply: (1. time is not modelled) 2. out of turn, 3. the take,
    /// 4. the reset, 5. the empty pile wins. A refused move changes nothing.
    fn play(&mut self, player: usize, k: u32, reset: bool) -> Result<bool, Refusal> {
        if self.winner.is_some() {
            return Err(Refusal::GameOver);
        }
        if player != self.turn {
            return Err(Refusal::OutOfTurn);
        }
        if k < 1 || k > self.limit() {
            return Err(Refusal::Illegal);
        }
        if reset && self.resets[player] == 0 {
            return Err(Refusal::TooManyResets);
        }
        self.stones -= k.min(self.stones);
        self.largest = self.largest.max(k);
        if reset {
            self.resets[player] -= 1;
        }
        self.pending = reset;
        if self.stones == 0 {
            self.winner = Some(player);
            return Ok(true);
        }
        self.turn = 1 - player;
        Ok(false)
    }
}

fn seat(i: usize) -> Player {
    if i == 0 {
        Player::First
    } else {
        Player::Second
    }
}

fn refusal(e: IllegalMove) -> Refusal {
    match e {
        IllegalMove::GameOver => Refusal::GameOver,
        IllegalMove::OutOfTurn => Refusal::OutOfTurn,
        IllegalMove::BadTake { .. } => Refusal::Illegal,
        IllegalMove::NoResetsLeft => Refusal::TooManyResets,
        other => panic!("unexpected refusal {other:?}"),
    }
}

fn assert_same(game: &Game, model: &Model) {
    assert_eq!(game.stones(), model.stones);
    assert_eq!(game.largest_take(), model.largest);
    assert_eq!(u32::from(game.resets_left(Player::First)), model.resets[0]);
    assert_eq!(u32::from(game.resets_left(Player::Second)), model.resets[1]);
    assert_eq!(game.reset_pending(), model.pending);
    assert_eq!(game.winner(), model.winner.map(seat));
    if model.winner.is_none() {
        assert_eq!(game.to_move(), seat(model.turn));
        assert_eq!(game.limit(), model.limit());
        // The normalized state (s, c, a, b, f) of docs/rules.md.
        let pos = game.position().expect("game in progress");
        let me = model.turn;
        assert_eq!(pos.stones(), model.stones);
        assert_eq!(pos.cap(), model.m.max(model.largest + 1));
        assert_eq!(u32::from(pos.own_resets()), model.resets[me]);
        assert_eq!(u32::from(pos.opp_resets()), model.resets[1 - me]);
        assert_eq!(pos.reset_pending(), model.pending);
    } else {
        assert!(game.position().is_none());
    }
}

/// One attempted move, read against the state when it is played: mostly legal
/// takes by the player to move, sometimes too many stones, zero, a reset with none
/// left or the wrong player.
#[derive(Clone, Debug)]
struct Attempt {
    kind: u8,
    take: u32,
    reset: bool,
}

fn attempt() -> impl Strategy<Value = Attempt> {
    (0u8..20, 0u32..1000, any::<bool>()).prop_map(|(kind, take, reset)| Attempt {
        kind,
        take,
        reset,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn games_follow_the_rules_model(
        n in 1u32..400,
        r in 0u8..5,
        m in 1u32..7,
        moves in prop::collection::vec(attempt(), 1..120),
    ) {
        let mut game = Game::new(Params::new(n, r, m).unwrap());
        let mut model = Model::new(n, u32::from(r), m);
        assert_same(&game, &model);
        for a in moves {
            let limit = model.limit();
            let (player, take) = match a.kind {
                0 => (1 - model.turn, 1 + a.take % limit),     // out of turn
                1 => (model.turn, 0),                           // nothing taken
                2 => (model.turn, limit + 1 + a.take % 3),      // over the limit
                3 => (model.turn, a.take),                      // anything
                _ => (model.turn, 1 + a.take % limit),          // legal take
            };
            let mv = Move::new(take, a.reset);
            let before = model.clone();
            let want = model.play(player, take, a.reset);
            // Every public entry point judges the move as the model does, without
            // playing it: `Game::check`, and for the mover `Position::check` and
            // `Position::after`, whose position is the model's after the move.
            let verdict = |r: Result<(), IllegalMove>| r.map_err(refusal);
            prop_assert_eq!(verdict(game.check(seat(player), mv)), want.map(|_| ()));
            if let (Some(pos), true) = (game.position(), player == before.turn) {
                prop_assert_eq!(verdict(pos.check(mv)), want.map(|_| ()));
                match (pos.after(mv), want) {
                    (Ok(None), Ok(true)) => {}
                    (Ok(Some(next)), Ok(false)) => {
                        let me = model.turn;
                        prop_assert_eq!(
                            (next.stones(), next.cap(), next.reset_pending()),
                            (model.stones, model.m.max(model.largest + 1), model.pending)
                        );
                        prop_assert_eq!(
                            (u32::from(next.own_resets()), u32::from(next.opp_resets())),
                            (model.resets[me], model.resets[1 - me])
                        );
                    }
                    (Err(e), Err(w)) => prop_assert_eq!(refusal(e), w),
                    (got, w) => prop_assert!(false, "after {:?}: {:?}, the model {:?}", mv, got, w),
                }
            }
            let got = game.play(seat(player), mv);
            match (want, got) {
                (Ok(won), Ok(outcome)) => {
                    prop_assert_eq!(won, outcome == Outcome::Won(seat(player)));
                }
                (Err(w), Err(g)) => prop_assert_eq!(w, refusal(g)),
                (w, g) => prop_assert!(false, "model {:?}, game {:?}", w, g),
            }
            assert_same(&game, &model);
        }
    }
}

#[test]
fn bad_parameters_are_refused() {
    assert!(Params::new(0, 1, 3).is_err());
    assert!(Params::new(10, 1, 0).is_err());
    assert!(Params::new(1, 0, 1).is_ok());
}

// ---------------------------------------------------------------------------
// best_move from won positions.

const N: u32 = 999;
const R: u8 = 4;
const M: u32 = 3;

fn solution() -> &'static Solution {
    static S: OnceLock<Solution> = OnceLock::new();
    S.get_or_init(|| Solution::solve(SolveBox::games(N, R, M)).unwrap())
}

/// Piles that can still be in play with cap c in games of at most N stones.
fn highest_pile(c: u32) -> u32 {
    let gone: u32 = (M..c).sum();
    N.saturating_sub(gone)
}

/// Positions of the box: cap 3..=45, a pile that fits it, any resets and flag.
fn position() -> impl Strategy<Value = Position> {
    (M..46u32, any::<u32>(), 0..=R, 0..=R, any::<bool>()).prop_filter_map(
        "pile above the box",
        |(c, s, a, b, f)| {
            let hi = highest_pile(c);
            (hi >= 1).then(|| Position::new(1 + s % hi, c, a, b, f, M).unwrap())
        },
    )
}

/// Independent value for small piles: memoized search over the rules model's
/// moves from (s, c, a, b, f).
fn minimax(
    memo: &mut HashMap<(u32, u32, u8, u8, bool), bool>,
    p: (u32, u32, u8, u8, bool),
) -> bool {
    if let Some(&v) = memo.get(&p) {
        return v;
    }
    let (s, c, a, b, f) = p;
    let limit = if f { M } else { c };
    let mut win = false;
    'moves: for k in 1..=limit {
        for reset in [false, true] {
            if reset && a == 0 {
                continue;
            }
            if k >= s {
                if !reset {
                    win = true;
                    break 'moves;
                }
                continue;
            }
            let next = (s - k, c.max(k + 1), b, a - u8::from(reset), reset);
            if !minimax(memo, next) {
                win = true;
                break 'moves;
            }
        }
    }
    memo.insert(p, win);
    win
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn best_move_from_a_won_position_leaves_a_lost_one(pos in position()) {
        let sol = solution();
        let won = sol.value(&pos).expect("in the box").is_won();
        let d = best_move(sol, &pos).unwrap();
        prop_assert_eq!(d.value.is_won(), won);
        prop_assert!(pos.check(d.mv).is_ok(), "illegal {:?}", d.mv);
        let next = pos.after(d.mv).unwrap();
        if won {
            // Either the pile is empty (a win) or the opponent is lost.
            if let Some(next) = next {
                prop_assert_eq!(sol.value(&next), Some(nimbot::Value::Lost));
            }
            prop_assert!(!(next.is_none() && d.mv.reset), "a reset on the winning move");
        }
        // The embedded table agrees with the solver, move and value.
        let table = Table::embedded();
        prop_assert_eq!(table.probe(&pos).unwrap().is_won(), won);
        prop_assert_eq!(table.best_move(&pos).unwrap().value.is_won(), won);
    }

    #[test]
    fn solver_matches_a_plain_search_of_the_rules(
        s in any::<u32>(), c in M..12, a in 0..=R, b in 0..=R, f in any::<bool>(),
    ) {
        // Games of at most 80 stones: piles up to 80 - (M + ... + (c - 1)).
        static SMALL: OnceLock<Solution> = OnceLock::new();
        let sol = SMALL.get_or_init(|| Solution::solve(SolveBox::games(80, R, M)).unwrap());
        let s = 1 + s % (80 - (M..c).sum::<u32>());
        let pos = Position::new(s, c, a, b, f, M).unwrap();
        let mut memo = HashMap::new();
        prop_assert_eq!(
            sol.value(&pos).map(nimbot::Value::is_won),
            Some(minimax(&mut memo, (s, c, a, b, f)))
        );
    }
}
