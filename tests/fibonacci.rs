//! Fibonacci Nim: the Zeckendorf strategy against an exhaustive search of every
//! state with at most 2000 stones, and whole games (the `query --game fibonacci`
//! command is tested with the binary, in cli/tests/cli.rs).

use nimbot::{
    fibonacci::{self as fib, is_fibonacci},
    Player,
};

const MAX_N: usize = 2000;

/// `win[s][l]`: the mover wins with `s` stones left and at most `l` allowed
/// (`l` capped at `s`: a larger limit allows nothing more). Built from the rules
/// alone: taking k leaves `s - k` stones with limit `min(2k, s - k)`, and taking the
/// whole pile wins. `win[s][l] = win[s][l-1] or (take l wins)`.
fn exhaustive() -> Vec<Vec<bool>> {
    let mut win: Vec<Vec<bool>> = Vec::with_capacity(MAX_N + 1);
    win.push(Vec::new());
    for s in 1..=MAX_N {
        let mut row = vec![false; s + 1];
        for l in 1..=s {
            let take_l_wins = l == s || !win[s - l][(2 * l).min(s - l)];
            row[l] = row[l - 1] || take_l_wins;
        }
        win.push(row);
    }
    win
}

#[test]
fn zeckendorf_strategy_matches_exhaustive_search_for_every_state_up_to_2000() {
    let win = exhaustive();
    let mut won_states = 0u32;
    for s in 1..=MAX_N {
        for l in 1..=s {
            let d = fib::decide(s as u64, l as u64).unwrap();
            let take = d.take as usize;
            assert_eq!(d.value.is_won(), win[s][l], "value of (s {s}, limit {l})");
            assert!((1..=l).contains(&take), "(s {s}, limit {l}) takes {take}");
            if d.value.is_won() {
                won_states += 1;
                // The move keeps the win: the pile is emptied or the opponent is
                // left in a lost state.
                let rest = s - take;
                assert!(
                    rest == 0 || !win[rest][(2 * take).min(rest)],
                    "(s {s}, limit {l}): take {take} gives away the win"
                );
            } else {
                assert_eq!(take, 1, "(s {s}, limit {l}) is lost: it takes 1");
            }
        }
        // Limits above the pile behave like the pile itself.
        let capped = fib::decide(s as u64, s as u64).unwrap();
        assert_eq!(fib::decide(s as u64, 10 * s as u64).unwrap(), capped);
    }
    // Sanity of the table itself: the starts lost for the first player are exactly
    // the Fibonacci numbers.
    for n in 2..=MAX_N {
        assert_eq!(!win[n][n - 1], is_fibonacci(n as u64), "start {n}");
    }
    assert!(won_states > 1_000_000, "{won_states}");
}

#[test]
fn bad_positions_are_typed_errors() {
    assert_eq!(fib::decide(0, 5), Err(fib::Error::NoStones));
    assert_eq!(fib::decide(5, 0), Err(fib::Error::ZeroLimit));
    assert_eq!(fib::Game::new(1), Err(fib::Error::TooFewStones));
    // Huge piles are fine: O(log n), no overflow.
    let d = fib::decide(u64::MAX, u64::MAX).unwrap();
    assert!(d.value.is_won() && d.take == 2);
    let d = fib::decide(u64::MAX, 1).unwrap();
    assert!(!d.value.is_won() && d.take == 1);
}

#[test]
fn the_bot_wins_every_won_start_against_any_replies() {
    // Both seats: the bot against a "random" opponent (a fixed LCG), for every start
    // up to 300; the bot wins exactly the starts that are won for its seat.
    let mut rng = 12345u64;
    for n in 2..=300u64 {
        for bot in [Player::First, Player::Second] {
            let mut g = fib::Game::new(n).unwrap();
            let winner = loop {
                let mover = g.to_move();
                let take = if mover == bot {
                    g.decide().unwrap().take
                } else {
                    rng = rng
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    1 + (rng >> 33) % g.limit().min(g.stones())
                };
                match g.play(mover, take).unwrap() {
                    fib::Outcome::Won(p) => break p,
                    fib::Outcome::Continue => {}
                }
            };
            let first_wins = !is_fibonacci(n);
            if (bot == Player::First) == first_wins {
                assert_eq!(winner, bot, "start {n}, bot {bot:?}");
            }
        }
    }
}

#[test]
fn a_game_refuses_bad_moves_and_changes_nothing() {
    let mut g = fib::Game::new(20).unwrap();
    assert_eq!(g.limit(), 19);
    let before = g;
    assert_eq!(
        g.play(Player::First, 20),
        Err(fib::Error::BadTake {
            take: 20,
            limit: 19
        })
    );
    assert_eq!(
        g.play(Player::First, 0),
        Err(fib::Error::BadTake { take: 0, limit: 19 })
    );
    assert_eq!(g.play(Player::Second, 1), Err(fib::Error::OutOfTurn));
    assert_eq!(g, before);
    assert_eq!(g.play(Player::First, 2), Ok(fib::Outcome::Continue));
    assert_eq!(
        (g.stones(), g.limit(), g.to_move()),
        (18, 4, Player::Second)
    );
    assert_eq!(
        g.play(Player::Second, 5),
        Err(fib::Error::BadTake { take: 5, limit: 4 })
    );
}

/// The Fibonacci numbers (1, 2, 3, 5, ...) up to `max`, from their definition.
fn fibonacci_numbers(max: u64) -> Vec<u64> {
    let (mut a, mut b) = (1u64, 2u64);
    let mut out = vec![1];
    while b <= max {
        out.push(b);
        (a, b) = (b, a + b);
    }
    out
}

#[test]
fn is_fibonacci_holds_for_the_fibonacci_numbers_only_and_not_for_zero() {
    let fibs = fibonacci_numbers(5000);
    for n in 0..=5000u64 {
        assert_eq!(is_fibonacci(n), fibs.contains(&n), "n = {n}");
    }
    assert!(!is_fibonacci(0), "an empty pile is no start at all");
}

#[test]
fn the_player_who_takes_the_last_stone_is_the_winner() {
    // 3 stones: First takes 1 (limit 2), Second takes 2: the pile is empty.
    let mut g = fib::Game::new(3).unwrap();
    assert_eq!(g.winner(), None);
    assert_eq!(g.play(Player::First, 1), Ok(fib::Outcome::Continue));
    assert_eq!(g.winner(), None, "stones are left");
    assert_eq!(
        g.play(Player::Second, 2),
        Ok(fib::Outcome::Won(Player::Second))
    );
    assert_eq!(g.winner(), Some(Player::Second));
    assert_eq!(g.decide(), None, "nothing to decide once the game is won");
    assert_eq!(g.play(Player::First, 1), Err(fib::Error::GameOver));
    // 2 stones: the first move may take all but one, so Second takes the last.
    let mut g = fib::Game::new(2).unwrap();
    assert_eq!(g.play(Player::First, 1), Ok(fib::Outcome::Continue));
    assert_eq!(
        g.play(Player::Second, 1),
        Ok(fib::Outcome::Won(Player::Second))
    );
    assert_eq!(g.winner(), Some(Player::Second));
}
