//! The runner of two-player games: Expanding Nim games judged as the rules judge
//! them (a refused move and a player without a move stop the game where it was),
//! Super-Nim self-play judged on points, and Super-Nim matches of the search
//! player against a random and a greedy opponent.

use nimbot::{DecideError, Game, IllegalMove, Move, Params, Player, SplitMix64};
use nimbot_engine::runner::{run, Finish, Seat, Stop};
use nimbot_engine::supernim::{play_match, MatchConfig, Opponent};
use nimbot_supernim::{self as sn, random_start, SearchPlayer};

/// Plays the takes of its script in order, then has no move.
struct Script(Vec<Move>);

impl Seat<Game, DecideError> for Script {
    fn choose(&mut self, _: &Game) -> Result<Move, DecideError> {
        if self.0.is_empty() {
            return Err(DecideError::OutOfRange);
        }
        Ok(self.0.remove(0))
    }
}

fn takes(t: &[u32]) -> Script {
    Script(t.iter().map(|&t| Move::new(t, false)).collect())
}

#[test]
fn an_expanding_nim_game_ends_with_its_winner_and_every_position_watched() {
    // 10 stones, M = 3: 3 (cap 4), 4 (cap 5), then 3 leaves nothing for the
    // second player to take.
    let mut game = Game::new(Params::new(10, 0, 3).unwrap());
    let mut seen = Vec::new();
    let finish = run(
        &mut game,
        &mut takes(&[3, 3]),
        &mut takes(&[4]),
        &mut |g: &Game| seen.push(g.position().map(|p| p.stones())),
    );
    assert_eq!(
        finish.ok(),
        Some(Finish {
            winner: Some(Player::First),
            plies: 3
        })
    );
    assert_eq!(seen, [Some(10), Some(7), Some(3), None]);
}

#[test]
fn a_refused_move_stops_the_game_where_it_was() {
    // The second player takes 5 where the cap is 4.
    let mut game = Game::new(Params::new(20, 0, 3).unwrap());
    let stop = run(&mut game, &mut takes(&[3]), &mut takes(&[5]), &mut |_| {});
    assert_eq!(
        stop,
        Err(Stop::Refused {
            by: Player::Second,
            mv: Move::new(5, false),
            error: IllegalMove::BadTake { take: 5, limit: 4 }
        })
    );
    assert_eq!((game.moves(), game.position().unwrap().stones()), (1, 17));
}

#[test]
fn a_player_without_a_move_stops_the_game() {
    let mut game = Game::new(Params::new(20, 0, 3).unwrap());
    let stop = run(&mut game, &mut takes(&[1]), &mut takes(&[]), &mut |_| {});
    assert_eq!(
        stop,
        Err(Stop::NoMove {
            by: Player::Second,
            error: DecideError::OutOfRange
        })
    );
    assert_eq!(game.moves(), 1);
}

#[test]
fn super_nim_self_play_ends_within_the_move_limit_judged_on_points() {
    let mut rng = SplitMix64::new(11);
    for _ in 0..10 {
        let start = random_start(&mut rng);
        let mut game = sn::Game::new(start, 120).unwrap();
        let mut a = SearchPlayer { budget: 1_000 };
        let mut b = SearchPlayer { budget: 1_000 };
        let finish =
            run::<_, sn::Error>(&mut game, &mut a, &mut b, &mut |_| {}).expect("only legal moves");
        assert!(game.end().is_some() && game.plies() <= 120);
        assert_eq!(finish.plies, game.plies());
        let (p, q) = (game.score(Player::First), game.score(Player::Second));
        let expected = match p.cmp(&q) {
            std::cmp::Ordering::Greater => Some(Player::First),
            std::cmp::Ordering::Less => Some(Player::Second),
            std::cmp::Ordering::Equal => None,
        };
        assert_eq!(finish.winner, expected);
    }
}

const BUDGET: u32 = 2_000;
const MOVE_LIMIT: u32 = 200;

#[test]
fn the_search_player_beats_a_random_opponent() {
    // Measured: 98 wins, 2 draws, no loss in 100 games (seed 1, these settings).
    let config = MatchConfig {
        games: 60,
        seed: 1,
        move_limit: MOVE_LIMIT,
    };
    let mut bot = SearchPlayer { budget: BUDGET };
    let r = play_match(&mut bot, Opponent::Random, &config).unwrap();
    assert_eq!(r.total.games(), 60);
    let by_seat: u32 = r.by_seat.iter().flatten().map(|t| t.games()).sum();
    assert_eq!(by_seat, 60);
    assert!(r.total.wins >= 54 && r.total.losses <= 1, "{r:?}");
}

#[test]
fn the_search_player_does_at_least_as_well_as_greedy_on_every_start() {
    // Against greedy most starts are draws: 2s only appear in pairs (a 4 split in
    // two), and both players take one each, so a lone starting 2 goes to whoever
    // moves first. On every start, over both seats, nimbot must win at least as
    // many games as it loses, and over all starts clearly more.
    let (mut wins, mut losses) = (0, 0);
    for seed in 0..40 {
        let config = MatchConfig {
            games: 2,
            seed: 1000 + seed,
            move_limit: MOVE_LIMIT,
        };
        let mut bot = SearchPlayer { budget: BUDGET };
        let r = play_match(&mut bot, Opponent::Greedy, &config).unwrap();
        assert!(r.total.wins >= r.total.losses, "seed {seed}: {r:?}");
        wins += r.total.wins;
        losses += r.total.losses;
    }
    assert!(wins > losses, "{wins} wins, {losses} losses");
}
