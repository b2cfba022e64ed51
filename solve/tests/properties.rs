//! Property tests (proptest):
//! - random games, illegal moves included, through `Game` match the judge of
//!   `nimbot-judge` (docs/rules.md written from the text alone, apart from the
//!   library), move by move, and every move is judged as the judge judges it by
//!   each public entry point (`Game::check`, `Game::play`, `Position::check`,
//!   `Position::after`);
//! - `best_move` from a won position leaves the opponent a lost one (by the solver,
//!   and by the judge's plain memoized search for small piles);

use std::collections::HashMap;
use std::sync::OnceLock;

use nimbot::{best_move, Game, IllegalMove, Move, Outcome, Params, Player, Position, Table};
use nimbot_judge::{Judge, Refusal};
use nimbot_solve::{Solution, SolveBox};
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// The judge: docs/rules.md written from the text apart from the library
// (`nimbot-judge`), against which every move is checked.

fn refusal(e: IllegalMove) -> Refusal {
    match e {
        IllegalMove::GameOver => Refusal::GameOver,
        IllegalMove::OutOfTurn => Refusal::OutOfTurn,
        IllegalMove::BadTake { .. } => Refusal::BadTake,
        IllegalMove::NoResetsLeft => Refusal::NoResetsLeft,
        other => panic!("unexpected refusal {other:?}"),
    }
}

fn assert_same(game: &Game, judge: &Judge) {
    assert_eq!(game.stones(), judge.stones());
    assert_eq!(game.largest_take(), judge.largest());
    assert_eq!(u32::from(game.resets_left(Player::First)), judge.resets(0));
    assert_eq!(u32::from(game.resets_left(Player::Second)), judge.resets(1));
    assert_eq!(game.reset_pending(), judge.pending());
    assert_eq!(game.winner(), judge.winner().map(Player::from_index));
    if judge.winner().is_none() {
        assert_eq!(game.to_move(), Player::from_index(judge.turn()));
        assert_eq!(game.limit(), judge.limit());
        // The normalized state (s, c, a, b, f) of docs/rules.md.
        let pos = game.position().expect("game in progress");
        let me = judge.turn();
        assert_eq!(pos.stones(), judge.stones());
        assert_eq!(pos.cap(), judge.cap());
        assert_eq!(u32::from(pos.own_resets()), judge.resets(me));
        assert_eq!(u32::from(pos.opp_resets()), judge.resets(1 - me));
        assert_eq!(pos.reset_pending(), judge.pending());
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
    fn games_follow_the_judge(
        n in 1u32..400,
        r in 0u8..5,
        m in 1u32..7,
        moves in prop::collection::vec(attempt(), 1..120),
    ) {
        let mut game = Game::new(Params::new(n, r, m).unwrap());
        let mut judge = Judge::new(n, u32::from(r), m);
        assert_same(&game, &judge);
        for a in moves {
            let (limit, turn) = (judge.limit(), judge.turn());
            let (player, take) = match a.kind {
                0 => (1 - turn, 1 + a.take % limit),     // out of turn
                1 => (turn, 0),                           // nothing taken
                2 => (turn, limit + 1 + a.take % 3),      // over the limit
                3 => (turn, a.take),                      // anything
                _ => (turn, 1 + a.take % limit),          // legal take
            };
            let mv = Move::new(take, a.reset);
            let want = judge.play(player, take, a.reset);
            let won = judge.winner().is_some();
            // Every public entry point judges the move as the judge does, without
            // playing it: `Game::check`, and for the mover `Position::check` and
            // `Position::after`, whose position is the judge's after the move.
            let verdict = |r: Result<(), IllegalMove>| r.map_err(refusal);
            prop_assert_eq!(verdict(game.check(Player::from_index(player), mv)), want);
            if let (Some(pos), true) = (game.position(), player == turn) {
                prop_assert_eq!(verdict(pos.check(mv)), want);
                match (pos.after(mv), want) {
                    (Ok(None), Ok(())) if won => {}
                    (Ok(Some(next)), Ok(())) if !won => {
                        let me = judge.turn();
                        prop_assert_eq!(
                            (next.stones(), next.cap(), next.reset_pending()),
                            (judge.stones(), judge.cap(), judge.pending())
                        );
                        prop_assert_eq!(
                            (u32::from(next.own_resets()), u32::from(next.opp_resets())),
                            (judge.resets(me), judge.resets(1 - me))
                        );
                    }
                    (Err(e), Err(w)) => prop_assert_eq!(refusal(e), w),
                    (got, w) => prop_assert!(false, "after {:?}: {:?}, the judge {:?}", mv, got, w),
                }
            }
            let got = game.play(Player::from_index(player), mv);
            match (want, got) {
                (Ok(()), Ok(outcome)) => {
                    prop_assert_eq!(won, outcome == Outcome::Won(Player::from_index(player)));
                }
                (Err(w), Err(g)) => prop_assert_eq!(w, refusal(g)),
                (w, g) => prop_assert!(false, "judge {:?}, game {:?}", w, g),
            }
            assert_same(&game, &judge);
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
        let p = (s, c, u32::from(a), u32::from(b), f);
        prop_assert_eq!(
            sol.value(&pos).map(nimbot::Value::is_won),
            Some(nimbot_judge::wins(&mut memo, p, M))
        );
    }
}
