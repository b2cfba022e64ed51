//! Every worked example of docs/rules.md ("Worked examples (checked against the reference
//! server)") played on `Game`, plus the refusals of the server's judging order and
//! the parameter / position validation errors.

use nimbot::{
    Game, IllegalMove, Move, Outcome, ParamError, Params, Player, Position, PositionError, Value,
};

const P1: Player = Player::First;
const P2: Player = Player::Second;

fn game(n: u32, r: u8, m: u32) -> Game {
    Game::new(Params::new(n, r, m).expect("valid params"))
}

/// Check the limit in front of `player`, play the move, check it continues, and
/// check the limit for the following move and the mover's resets left.
fn step(g: &mut Game, player: Player, take: u32, reset: bool, limit_before: u32, limit_after: u32) {
    assert_eq!(
        g.to_move(),
        player,
        "to move before {player:?} takes {take}"
    );
    assert_eq!(
        g.limit(),
        limit_before,
        "limit before {player:?} takes {take}"
    );
    let stones = g.stones();
    let resets = g.resets_left(player);
    assert_eq!(
        g.play(player, Move::new(take, reset)),
        Ok(Outcome::Continue),
        "{player:?} takes {take} (reset {reset})"
    );
    assert_eq!(g.stones(), stones - take);
    assert_eq!(g.winner(), None);
    assert_eq!(g.to_move(), player.other());
    assert_eq!(g.reset_pending(), reset);
    assert_eq!(g.resets_left(player), resets - u8::from(reset));
    assert_eq!(
        g.limit(),
        limit_after,
        "limit after {player:?} takes {take}"
    );
}

/// Play a worked example's line, each ply checked by [`step`]. The plies are
/// written as the rules page reads, separated by commas: `P1 2r 4>3` is the first
/// player taking 2 with a reset (`r`), the limit 4 in front of it and 3 after.
fn play_line(g: &mut Game, line: &str) {
    for ply in line.split(',') {
        let words: Vec<&str> = ply.split_whitespace().collect();
        let [mover, take, limits] = words[..] else {
            panic!("a ply is MOVER TAKE[r] BEFORE>AFTER, not {ply:?}");
        };
        let player = match mover {
            "P1" => P1,
            "P2" => P2,
            _ => panic!("the mover is P1 or P2, not {mover:?}"),
        };
        let reset = take.ends_with('r');
        let take = take.trim_end_matches('r').parse().unwrap();
        let (before, after) = limits.split_once('>').unwrap();
        step(
            g,
            player,
            take,
            reset,
            before.parse().unwrap(),
            after.parse().unwrap(),
        );
    }
}

/// Play an illegal move and check it is refused with `err` and changes nothing, by
/// every entry point that judges a move: `Game::play`, `Game::check`, and for the
/// player to move `Position::check` and `Position::after` of the game's position.
fn refused(g: &mut Game, player: Player, mv: Move, err: IllegalMove) {
    let before = *g;
    assert_eq!(g.play(player, mv), Err(err), "{player:?} plays {mv:?}");
    assert_eq!(*g, before, "a refused move changed the game: {mv:?}");
    assert_eq!(g.check(player, mv), Err(err));
    if let (Some(pos), true) = (g.position(), g.to_move() == player) {
        assert_eq!(pos.check(mv), Err(err), "{pos:?} {mv:?}");
        assert_eq!(pos.after(mv), Err(err), "{pos:?} {mv:?}");
    }
}

/// Play a take outside `1..=limit` and check it is refused as a bad take with that
/// limit (and changes nothing).
fn bad_take(g: &mut Game, player: Player, take: u32, reset: bool, limit: u32) {
    refused(
        g,
        player,
        Move::new(take, reset),
        IllegalMove::BadTake { take, limit },
    );
}

#[test]
fn n8_no_resets_take_one_then_take_four() {
    // N = 8, no resets used. P1 takes 1; P2 may take up to max(3, 2) = 3 and takes 3;
    // 4 stones are left and P1 may take up to max(3, 4) = 4: it takes all 4 and wins.
    let mut g = game(8, 0, 3);
    assert_eq!(g.stones(), 8);
    assert_eq!(g.largest_take(), 0);
    step(&mut g, P1, 1, false, 3, 3);
    step(&mut g, P2, 3, false, 3, 4);
    assert_eq!(g.stones(), 4);
    assert_eq!(g.limit(), 4);
    assert_eq!(g.play(P1, Move::new(4, false)), Ok(Outcome::Won(P1)));
    assert_eq!(g.stones(), 0);
    assert_eq!(g.winner(), Some(P1));
    assert_eq!(g.moves(), 3);
    // Nothing more can be played, by either player; the game stays as it is.
    refused(&mut g, P2, Move::new(1, false), IllegalMove::GameOver);
    refused(&mut g, P1, Move::new(1, false), IllegalMove::GameOver);
    assert_eq!(g.position(), None);
}

#[test]
fn take_three_then_four_then_limit_five() {
    // P1 takes 3; P2 may take up to 4; if it takes 4, P1 may take up to 5.
    let mut g = game(20, 0, 3);
    step(&mut g, P1, 3, false, 3, 4);
    step(&mut g, P2, 4, false, 4, 5);
    assert_eq!(g.largest_take(), 4);
    assert_eq!(g.stones(), 13);
    // Taking 6 is refused; 5 is accepted.
    bad_take(&mut g, P1, 6, false, 5);
    step(&mut g, P1, 5, false, 5, 6);
}

#[test]
fn n16_r2_m3_resets_then_p1_wins() {
    let mut g = game(16, 2, 3);
    play_line(
        &mut g,
        "P1 2 3>3, P2 3 3>4, P1 2r 4>3, P2 3r 3>3, P1 3r 3>3",
    );
    // The resets did not lower h: each only held one move to M.
    assert_eq!(g.largest_take(), 3);
    play_line(&mut g, "P2 2 3>4");
    assert_eq!((g.stones(), g.limit()), (1, 4));
    assert_eq!(g.play(P1, Move::new(1, false)), Ok(Outcome::Won(P1)));
    assert_eq!(g.stones(), 0);
    assert_eq!(g.winner(), Some(P1));
    assert_eq!((g.resets_left(P1), g.resets_left(P2)), (0, 1));
    assert_eq!(g.moves(), 7);
}

#[test]
fn n32_r1_m3_limit_returns_after_reset() {
    let mut g = game(32, 1, 3);
    play_line(&mut g, "P1 3 3>4, P2 4 4>5, P1 2 5>5, P2 5r 5>3");
    // After the reset the limit is M, and a take above M is refused.
    bad_take(&mut g, P1, 4, false, 3);
    // h is 5, so after P1's move the limit is back to 6.
    play_line(&mut g, "P1 3 3>6");
    assert_eq!(g.largest_take(), 5);
    play_line(&mut g, "P2 4 6>6, P1 5r 6>3");
    assert_eq!((g.resets_left(P1), g.resets_left(P2)), (0, 0));
    assert_eq!(g.stones(), 32 - 3 - 4 - 2 - 5 - 3 - 4 - 5);
    assert_eq!(g.winner(), None);
}

#[test]
fn n10_r1_used_too_many_resets() {
    let mut g = game(10, 1, 3);
    step(&mut g, P1, 3, true, 3, 3);
    assert_eq!(g.resets_left(P1), 0);
    step(&mut g, P2, 3, false, 3, 4);
    assert_eq!(g.stones(), 4);
    // P1 takes 2 and declares a reset with none left: "used too many resets".
    refused(&mut g, P1, Move::new(2, true), IllegalMove::NoResetsLeft);
}

#[test]
fn reset_with_none_left_is_refused_even_on_the_winning_move() {
    // Same line as the N = 10 example: 4 stones, limit 4, P1 has no reset left.
    let mut g = game(10, 1, 3);
    step(&mut g, P1, 3, true, 3, 3);
    step(&mut g, P2, 3, false, 3, 4);
    assert_eq!((g.stones(), g.limit(), g.resets_left(P1)), (4, 4, 0));
    // Judged before the win: emptying the pile does not save it.
    refused(&mut g, P1, Move::new(4, true), IllegalMove::NoResetsLeft);
    assert_eq!(g.stones(), 4);
    assert_eq!(g.winner(), None);
    // The same take without the reset wins.
    assert_eq!(g.play(P1, Move::new(4, false)), Ok(Outcome::Won(P1)));
    assert_eq!(g.winner(), Some(P1));
}

#[test]
fn reset_with_none_left_on_the_first_move_is_refused() {
    let mut g = game(3, 0, 3);
    refused(&mut g, P1, Move::new(3, true), IllegalMove::NoResetsLeft);
    refused(&mut g, P1, Move::new(1, true), IllegalMove::NoResetsLeft);
    assert_eq!(g.play(P1, Move::new(3, false)), Ok(Outcome::Won(P1)));
}

#[test]
fn a_reset_left_on_the_winning_move_is_accepted_and_wins() {
    // Useless, but legal: the mover has a reset, so the move is judged a win.
    let mut g = game(3, 1, 3);
    assert_eq!(g.play(P1, Move::new(3, true)), Ok(Outcome::Won(P1)));
    assert_eq!(g.winner(), Some(P1));
}

#[test]
fn n6_r1_moved_out_of_turn() {
    let mut g = game(6, 1, 3);
    step(&mut g, P1, 2, false, 3, 3);
    refused(&mut g, P1, Move::new(1, false), IllegalMove::OutOfTurn);
    // Out of turn is judged before the take and the reset.
    refused(&mut g, P1, Move::new(0, false), IllegalMove::OutOfTurn);
    refused(&mut g, P1, Move::new(99, true), IllegalMove::OutOfTurn);
    // P2 can still move normally.
    step(&mut g, P2, 1, false, 3, 3);
}

#[test]
fn second_player_cannot_open() {
    let mut g = game(6, 1, 3);
    refused(&mut g, P2, Move::new(1, false), IllegalMove::OutOfTurn);
    assert_eq!(g.moves(), 0);
}

#[test]
fn take_zero_and_take_above_limit_are_bad_takes() {
    let mut g = game(20, 1, 3);
    bad_take(&mut g, P1, 0, false, 3);
    bad_take(&mut g, P1, 4, false, 3);
    bad_take(&mut g, P1, u32::MAX, false, 3);
    // The take is judged before the reset.
    let mut g0 = game(20, 0, 3);
    bad_take(&mut g0, P1, 0, true, 3);
    bad_take(&mut g0, P1, 5, true, 3);
    // After a take of 4 the limit is 5: 0 and 6 are refused with that limit.
    step(&mut g, P1, 3, false, 3, 4);
    step(&mut g, P2, 4, false, 4, 5);
    bad_take(&mut g, P1, 0, false, 5);
    bad_take(&mut g, P1, 6, true, 5);
}

#[test]
fn take_above_the_pile_within_the_limit_empties_it() {
    let mut g = game(2, 0, 3);
    assert_eq!(g.limit(), 3);
    assert_eq!(g.play(P1, Move::new(3, false)), Ok(Outcome::Won(P1)));
    assert_eq!(g.stones(), 0);
    assert_eq!(g.winner(), Some(P1));

    // Later in a game, by the second player: 1 stone left, limit 4, take 4.
    let mut g = game(8, 0, 3);
    step(&mut g, P1, 3, false, 3, 4);
    step(&mut g, P2, 3, false, 4, 4);
    step(&mut g, P1, 1, false, 4, 4);
    assert_eq!(g.stones(), 1);
    assert_eq!(g.play(P2, Move::new(4, false)), Ok(Outcome::Won(P2)));
    assert_eq!(g.stones(), 0);
    assert_eq!(g.winner(), Some(P2));
    // But never more than the limit, even with a large pile gone.
    let mut g = game(2, 0, 3);
    bad_take(&mut g, P1, 4, false, 3);
}

#[test]
fn the_legal_moves_are_exactly_the_moves_the_server_accepts() {
    // The one enumeration of legal moves (`Position::moves`) against the server's
    // judge (`Game::check`), in every position of a few games, takes above the pile
    // included: within the limit they are legal and end the game.
    for (n, r, takes) in [
        (2u32, 0u8, [1u32, 1, 1]),
        (9, 1, [3, 1, 4]),
        (12, 2, [2, 3, 1]),
    ] {
        let mut g = game(n, r, 3);
        for take in takes {
            let Some(pos) = g.position() else { break };
            let listed: Vec<Move> = pos.moves().collect();
            let mut accepted = Vec::new();
            for reset in [false, true] {
                for t in 0..=pos.limit() + 2 {
                    if g.check(g.to_move(), Move::new(t, reset)).is_ok() {
                        accepted.push(Move::new(t, reset));
                    }
                }
            }
            assert_eq!(listed, accepted, "{pos:?}");
            assert_eq!(pos.moves().len(), listed.len());
            for mv in listed.iter().filter(|mv| mv.take >= pos.stones()) {
                assert_eq!(pos.after(*mv), Ok(None), "{mv:?} at {pos:?} ends the game");
                let mut end = g;
                assert_eq!(
                    end.play(end.to_move(), *mv),
                    Ok(Outcome::Won(end.to_move()))
                );
            }
            if g.play(g.to_move(), Move::new(take, false)) != Ok(Outcome::Continue) {
                break;
            }
        }
    }
    // The disagreement this settles: 2 stones, limit 3 (M = 3, the first move).
    let start = Params::new(2, 0, 3).unwrap().start();
    assert!(start.moves().any(|mv| mv == Move::new(3, false)));
    assert_eq!(start.after(Move::new(3, false)), Ok(None));
    assert_eq!(start.moves().count(), 3);
}

#[test]
fn refused_moves_leave_the_game_unchanged_mid_game() {
    let mut g = game(16, 2, 3);
    step(&mut g, P1, 2, false, 3, 3);
    step(&mut g, P2, 3, true, 3, 3);
    let snapshot = g;
    for (player, mv) in [
        (P2, Move::new(1, false)),
        (P1, Move::new(0, false)),
        (P1, Move::new(4, false)),
        (P1, Move::new(4, true)),
    ] {
        assert!(g.play(player, mv).is_err(), "{player:?} {mv:?}");
        assert_eq!(g, snapshot);
    }
    assert_eq!(g.position(), snapshot.position());
}

#[test]
fn params_new_errors() {
    assert_eq!(Params::new(0, 4, 3), Err(ParamError::NoStones));
    assert_eq!(Params::new(10, 33, 3), Err(ParamError::TooManyResets));
    assert_eq!(Params::new(10, u8::MAX, 3), Err(ParamError::TooManyResets));
    assert_eq!(Params::new(10, 4, 0), Err(ParamError::ZeroInitMax));
    assert_eq!(
        Params::new(1_000_000_001, 4, 3),
        Err(ParamError::TooManyStones)
    );
    assert_eq!(
        Params::new(10, 4, 1_000_000_001),
        Err(ParamError::InitMaxTooLarge)
    );
    // The limits themselves are accepted.
    let p = Params::new(1, 32, 1).unwrap();
    assert_eq!((p.stones(), p.resets(), p.init_max()), (1, 32, 1));
    assert!(Params::new(1_000_000_000, 0, 1_000_000_000).is_ok());
    // The tournament parameters.
    let p = Params::new(999, 4, 3).unwrap();
    let g = Game::new(p);
    assert_eq!(g.stones(), 999);
    assert_eq!(g.limit(), 3);
    assert_eq!(g.resets_left(P1), 4);
    assert_eq!(g.resets_left(P2), 4);
    assert_eq!(g.to_move(), P1);
    assert_eq!(g.winner(), None);
}

#[test]
fn position_new_errors() {
    use PositionError::{CapBelowInitMax, Param};
    for ((stones, cap, a, b, f, m), err) in [
        ((10, 2, 0, 0, false, 3), CapBelowInitMax),
        ((10, 0, 1, 1, true, 1), CapBelowInitMax),
        ((0, 3, 0, 0, false, 3), Param(ParamError::NoStones)),
        ((10, 3, 33, 0, false, 3), Param(ParamError::TooManyResets)),
        ((10, 3, 0, 33, false, 3), Param(ParamError::TooManyResets)),
        ((10, 3, 0, 0, false, 0), Param(ParamError::ZeroInitMax)),
    ] {
        assert_eq!(
            Position::new(stones, cap, a, b, f, m),
            Err(err),
            "Position::new({stones}, {cap}, {a}, {b}, {f}, {m})"
        );
    }
    assert!(Position::new(10, 3, 0, 0, false, 3).is_ok());
}

/// The moves the judge of `nimbot-judge` (docs/rules.md written apart from the
/// library) accepts in its current state, in the documented order of
/// `Position::moves`: every take without a reset, then every take with one.
fn judge_accepts(judge: &nimbot_judge::Judge) -> Vec<Move> {
    let mut accepted = Vec::new();
    for reset in [false, true] {
        for take in 0..=judge.limit() + 2 {
            if judge.clone().play(judge.turn(), take, reset).is_ok() {
                accepted.push(Move::new(take, reset));
            }
        }
    }
    accepted
}

#[test]
fn moves_page_and_count_as_the_judges_list() {
    // Random games (a fixed seed), each position's moves against the judge's list:
    // after any number of `next`, the count left (`size_hint`, `len`) and every
    // `nth` from there (which pages in constant time) are the list's.
    let mut seed = 0x2545_f491_u64;
    let mut dice = |n: u32| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        ((seed >> 33) % u64::from(n)) as u32
    };
    for _ in 0..60 {
        let (n, r, m) = (1 + dice(40), dice(3) as u8, 1 + dice(4));
        let mut g = game(n, r, m);
        let mut judge = nimbot_judge::Judge::new(n, u32::from(r), m);
        while let Some(pos) = g.position() {
            let list = judge_accepts(&judge);
            assert_eq!(pos.moves().collect::<Vec<_>>(), list, "{pos:?}");
            for skip in 0..=list.len() {
                let mut moves = pos.moves();
                for _ in 0..skip {
                    moves.next();
                }
                let left = list.len() - skip;
                assert_eq!(
                    moves.size_hint(),
                    (left, Some(left)),
                    "{pos:?} after {skip}"
                );
                assert_eq!(moves.len(), left);
                for k in 0..=left + 1 {
                    let mut paged = moves.clone();
                    assert_eq!(
                        paged.nth(k),
                        list.get(skip + k).copied(),
                        "{pos:?} {skip}+{k}"
                    );
                    assert_eq!(paged.next(), list.get(skip + k + 1).copied());
                }
            }
            let mv = list[dice(list.len() as u32) as usize];
            judge.play(judge.turn(), mv.take, mv.reset).unwrap();
            g.play(g.to_move(), mv).unwrap();
        }
    }
    // A pile of a billion stones: the moves are still paged, without walking them.
    let pos = Position::new(MAX, MAX, 1, 0, false, 3).unwrap();
    let mut moves = pos.moves();
    assert_eq!(moves.len(), 2 * MAX as usize);
    assert_eq!(moves.nth(MAX as usize - 1), Some(Move::new(MAX, false)));
    assert_eq!(moves.next(), Some(Move::new(1, true)));
    assert_eq!(moves.nth(MAX as usize - 2), Some(Move::new(MAX, true)));
    assert_eq!(moves.next(), None);
    assert_eq!(pos.moves().nth(usize::MAX), None);
}

const MAX: u32 = nimbot::MAX_STONES;

/// The words the line protocol uses for seats and refusals (docs/protocol.md: `error
/// illegal move: take 9 is outside 1..=3`; seats are `first` and `second`), from the
/// rules' own types.
#[test]
fn seats_and_refusals_read_as_the_protocol_documents_them() {
    assert_eq!((P1.name(), P2.name()), ("first", "second"));
    assert_eq!(
        IllegalMove::BadTake { take: 9, limit: 3 }.to_string(),
        "take 9 is outside 1..=3"
    );
    assert_eq!(IllegalMove::GameOver.to_string(), "the game is over");
    assert_eq!(IllegalMove::OutOfTurn.to_string(), "move out of turn");
    assert_eq!(IllegalMove::NoResetsLeft.to_string(), "no resets left");
}

/// The value words `query` and `moves` answer with (docs/protocol.md: `win K F D` or
/// `lose K F D`), and which is which.
#[test]
fn values_read_as_the_protocol_documents_them() {
    assert_eq!(
        (Value::Won.as_word(), Value::Lost.as_word()),
        ("win", "lose")
    );
    assert_eq!(Value::from_mover_wins(true), Value::Won);
    assert_eq!(Value::from_mover_wins(false), Value::Lost);
    assert!(Value::Won.is_won() && !Value::Lost.is_won());
}

/// `query`'s five numbers, `S C A B F` (docs/protocol.md), read back from a position.
#[test]
fn a_position_prints_as_the_query_command_reads_it() {
    let p = Position::new(17, 5, 2, 3, true, 3).unwrap();
    assert_eq!(p.to_string(), "17 5 2 3 1");
    let p = Position::new(1000, 3, 0, 4, false, 3).unwrap();
    assert_eq!(p.to_string(), "1000 3 0 4 0");
}

/// The mover may declare a reset only with one left; the pile can be any count from
/// 1 to the largest the rules take.
#[test]
fn reset_choices_and_pile_counts_follow_the_rules() {
    for own in 0..=4u8 {
        let p = Position::new(20, 3, own, 1, false, 3).unwrap();
        let want: &[bool] = if own == 0 { &[false] } else { &[false, true] };
        assert_eq!(p.reset_choices(), want, "{own} resets left");
        // The choices are exactly the reset flags of the legal moves.
        let mut flags: Vec<bool> = p.moves().map(|m| m.reset).collect();
        flags.dedup();
        flags.sort_unstable();
        flags.dedup();
        assert_eq!(flags, want, "{own} resets left");
    }
    let p = Position::new(20, 3, 1, 1, false, 3).unwrap();
    assert_eq!(p.with_stones(0), None, "an empty pile is no position");
    assert_eq!(p.with_stones(7).map(|q| q.stones()), Some(7));
    let top = nimbot::MAX_STONES;
    assert_eq!(p.with_stones(top).map(|q| q.stones()), Some(top));
    assert_eq!(p.with_stones(top + 1), None);
    assert_eq!(p.with_stones(top + 2), None);
    assert_eq!(p.with_stones(u32::MAX), None);
}

/// A run of piles that `trivial_run_end` reports starts where it was asked and has
/// one value throughout (it may end early, never late), for every pile to 300 of
/// positions with an open cap and a reset pending, M from 1 to 6, resets 0 to 3.
#[test]
fn trivial_runs_start_at_their_pile_and_keep_one_value() {
    for m in 1..=6u32 {
        for own in 0..=3u8 {
            for opp in 0..=3u8 {
                for pending in [false, true] {
                    let at = |s: u32| Position::new(s, 1000, own, opp, pending, m).unwrap();
                    for s in 1..=300u32 {
                        let end = at(s).trivial_run_end(s);
                        assert!(
                            end >= s,
                            "M {m} {own}/{opp} pending {pending}: {s} ends at {end}"
                        );
                        let v = at(s).trivial_value();
                        assert!(v.is_some(), "the cap is open");
                        for t in s..=end.min(300) {
                            assert_eq!(
                                at(t).trivial_value(),
                                v,
                                "M {m} {own}/{opp}: {s}..={end} at {t}"
                            );
                        }
                    }
                }
            }
        }
    }
}
