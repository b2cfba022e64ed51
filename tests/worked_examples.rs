//! Every worked example of RULES.md, played on the game record.

use nimbot::{
    Game, IllegalMove, Move, Outcome, ParamError, Params, Player, Position, PositionError,
};

use Player::{First as P1, Second as P2};

/// Play `(player, take, reset, limit before the move)` steps and check each limit.
fn play(game: &mut Game, steps: &[(Player, u32, bool, u32)]) -> Outcome {
    let mut last = Outcome::Continue;
    for &(p, take, reset, limit) in steps {
        assert_eq!(game.limit(), limit, "limit before {p:?} takes {take}");
        last = game.play(p, Move::new(take, reset)).expect("legal");
    }
    last
}

#[test]
fn eight_stones_no_resets() {
    let mut g = Game::new(Params::new(8, 0, 3).unwrap());
    let out = play(
        &mut g,
        &[(P1, 1, false, 3), (P2, 3, false, 3), (P1, 4, false, 4)],
    );
    assert_eq!(out, Outcome::Won(P1));
    assert_eq!(g.winner(), Some(P1));
}

#[test]
fn the_limit_grows_with_the_largest_take() {
    let mut g = Game::new(Params::new(100, 0, 3).unwrap());
    play(&mut g, &[(P1, 3, false, 3), (P2, 4, false, 4)]);
    assert_eq!(g.limit(), 5);
}

#[test]
fn sixteen_stones_two_resets() {
    let mut g = Game::new(Params::new(16, 2, 3).unwrap());
    let out = play(
        &mut g,
        &[
            (P1, 2, false, 3),
            (P2, 3, false, 3),
            (P1, 2, true, 4),
            (P2, 3, true, 3),
            (P1, 3, true, 3),
            (P2, 2, false, 3),
            (P1, 1, false, 4),
        ],
    );
    assert_eq!(out, Outcome::Won(P1));
    assert_eq!(g.resets_left(P1), 0);
    assert_eq!(g.resets_left(P2), 1);
}

#[test]
fn thirty_two_stones_one_reset_keeps_the_largest_take() {
    let mut g = Game::new(Params::new(32, 1, 3).unwrap());
    play(
        &mut g,
        &[
            (P1, 3, false, 3),
            (P2, 4, false, 4),
            (P1, 2, false, 5),
            (P2, 5, true, 5),
            (P1, 3, false, 3),
            (P2, 4, false, 6),
            (P1, 5, true, 6),
        ],
    );
    assert_eq!(g.limit(), 3);
    assert_eq!(g.largest_take(), 5);
    assert_eq!(g.stones(), 32 - 3 - 4 - 2 - 5 - 3 - 4 - 5);
}

#[test]
fn a_reset_with_none_left_loses_and_changes_nothing() {
    let mut g = Game::new(Params::new(10, 1, 3).unwrap());
    play(&mut g, &[(P1, 3, true, 3), (P2, 3, false, 3)]);
    let before = g;
    assert_eq!(
        g.play(P1, Move::new(2, true)),
        Err(IllegalMove::NoResetsLeft)
    );
    assert_eq!(g, before);
    // Even on the move that would empty the pile.
    let mut g = Game::new(Params::new(3, 0, 3).unwrap());
    assert_eq!(
        g.play(P1, Move::new(3, true)),
        Err(IllegalMove::NoResetsLeft)
    );
    assert_eq!(g.stones(), 3);
}

#[test]
fn moving_out_of_turn_is_refused() {
    let mut g = Game::new(Params::new(6, 1, 3).unwrap());
    g.play(P1, Move::new(2, false)).unwrap();
    let before = g;
    assert_eq!(g.play(P1, Move::new(1, false)), Err(IllegalMove::OutOfTurn));
    assert_eq!(g, before);
}

#[test]
fn takes_outside_the_limit_are_refused_and_a_big_take_empties_the_pile() {
    let mut g = Game::new(Params::new(2, 0, 3).unwrap());
    assert_eq!(
        g.play(P1, Move::new(0, false)),
        Err(IllegalMove::BadTake { take: 0, limit: 3 })
    );
    assert_eq!(
        g.play(P1, Move::new(4, false)),
        Err(IllegalMove::BadTake { take: 4, limit: 3 })
    );
    assert_eq!(g.play(P1, Move::new(3, false)), Ok(Outcome::Won(P1)));
    assert_eq!(g.stones(), 0);
    assert_eq!(g.play(P2, Move::new(1, false)), Err(IllegalMove::GameOver));
}

#[test]
fn parameters_and_positions_are_validated() {
    assert_eq!(Params::new(0, 4, 3), Err(ParamError::NoStones));
    assert_eq!(Params::new(10, 33, 3), Err(ParamError::TooManyResets));
    assert_eq!(Params::new(10, 4, 0), Err(ParamError::ZeroInitMax));
    assert_eq!(
        Position::new(10, 2, 0, 0, false, 3),
        Err(PositionError::CapBelowInitMax)
    );
}
