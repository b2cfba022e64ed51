//! Players and a referee for Super-Nim: the search player, a random and a greedy
//! opponent with a hand-written seeded generator, so every game is reproducible.

use super::rules::{End, Error, Game, Heaps, Move, Verdict};
use super::search::decide;
use nimbot::{Player, SplitMix64};

/// Something that picks Super-Nim moves.
pub trait Chooser {
    /// The move for the player to move in `game`; `None` if it has none.
    fn choose(&mut self, game: &Game) -> Option<Move>;
}

/// The search player ([`decide`]) with a node budget per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchPlayer {
    /// Nodes per move.
    pub budget: u32,
}

impl Chooser for SearchPlayer {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        decide(game, self.budget).mv
    }
}

/// Plays a uniformly random distinct legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomPlayer(pub SplitMix64);

impl Chooser for RandomPlayer {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let moves = game.heaps().moves();
        let at = self.0.below(moves.len() as u64) as usize;
        moves.get(at).copied()
    }
}

/// Scores whenever it can (splits a 2), otherwise plays a random move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GreedyPlayer(pub SplitMix64);

impl Chooser for GreedyPlayer {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let moves = game.heaps().moves();
        if moves.contains(&Move::Split(2)) {
            return Some(Move::Split(2));
        }
        let at = self.0.below(moves.len() as u64) as usize;
        moves.get(at).copied()
    }
}

/// A random start: 2 to 6 heaps of 1 to 10 sticks each.
pub fn random_start(rng: &mut SplitMix64) -> Heaps {
    let mut sizes = [0u32; 6];
    let count = 2 + rng.below(5) as usize;
    for s in sizes.iter_mut().take(count) {
        *s = 1 + rng.below(10) as u32;
    }
    // 2..=6 heaps of 1..=10 are always within the bounds.
    Heaps::new(sizes.get(..count).unwrap_or(&[1])).unwrap_or_default()
}

/// Plays `game` to its end, `first` and `second` in their seats. Every move goes
/// through [`Game::play`]; a player that proposes an illegal move, or none while
/// the game goes on, makes the referee stop with that error (the game as it was).
pub fn referee(
    game: &mut Game,
    first: &mut dyn Chooser,
    second: &mut dyn Chooser,
) -> Result<Verdict, Error> {
    referee_watched(game, first, second, &mut |_| {})
}

/// [`referee`], showing `watch` every position of the game.
pub fn referee_watched(
    game: &mut Game,
    first: &mut dyn Chooser,
    second: &mut dyn Chooser,
    watch: &mut dyn FnMut(&Game),
) -> Result<Verdict, Error> {
    watch(game);
    while game.end().is_none() {
        let mover = game.to_move();
        let player: &mut dyn Chooser = match mover {
            Player::First => &mut *first,
            Player::Second => &mut *second,
        };
        let mv = player.choose(game).ok_or(Error::NoSuchHeap)?;
        game.play(mover, mv)?;
        watch(game);
    }
    game.verdict().ok_or(Error::GameOver)
}

/// The opponents of [`play_match`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// [`RandomPlayer`].
    Random,
    /// [`GreedyPlayer`].
    Greedy,
}

/// Wins, losses and draws, from the search player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the search player won on points.
    pub wins: u32,
    /// Games it lost.
    pub losses: u32,
    /// Games with equal points.
    pub draws: u32,
}

impl Tally {
    fn add(&mut self, won: Option<bool>) {
        match won {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None => self.draws += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }
}

/// Results of a match, from the search player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Games the search player won on points.
    pub wins: u32,
    /// Games it lost.
    pub losses: u32,
    /// Games with equal points.
    pub draws: u32,
    /// The same games by the search player's seat (first, second) and the parity
    /// of the number of 2s in the start (even, odd): `by_seat[seat][parity]`.
    pub by_seat: [[Tally; 2]; 2],
    /// Games that ended because the player to move had no move within the heap
    /// limit ([`End::Stalled`]).
    pub stalled: u32,
    /// Most heaps seen in one position.
    pub most_heaps: usize,
    /// Largest heap seen.
    pub largest_heap: u16,
}

/// How a match is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// Games to play; the search player moves first in the even-numbered ones.
    pub games: u32,
    /// Seed of the starts and of the opponent's choices.
    pub seed: u64,
    /// The search player's node budget per move.
    pub budget: u32,
    /// Move limit of each game.
    pub move_limit: u32,
}

/// Plays `config.games` games of [`SearchPlayer`] against `opponent`. Games `2k`
/// and `2k + 1` share a start from [`random_start`] with the seats swapped, so the
/// search player sits in each seat half the time. Fully determined by the config.
pub fn play_match(opponent: Opponent, config: &MatchConfig) -> Result<MatchResult, Error> {
    let mut bot = SearchPlayer {
        budget: config.budget,
    };
    play_match_with(&mut bot, opponent, config)
}

/// [`play_match`] with another player in the search player's place
/// (`config.budget` is then unused).
pub fn play_match_with(
    bot: &mut dyn Chooser,
    opponent: Opponent,
    config: &MatchConfig,
) -> Result<MatchResult, Error> {
    let mut result = MatchResult::default();
    for i in 0..config.games {
        let pair = u64::from(i / 2);
        let mut starts = SplitMix64::new(config.seed ^ pair.wrapping_mul(0xA24B_AED4_963E_E407));
        let start = random_start(&mut starts);
        let rng = SplitMix64::new(
            config
                .seed
                .wrapping_add(u64::from(i).wrapping_mul(0x9FB2_1C65_1E98_DF25))
                .rotate_left(17),
        );
        let mut random = RandomPlayer(rng);
        let mut greedy = GreedyPlayer(rng);
        let other: &mut dyn Chooser = match opponent {
            Opponent::Random => &mut random,
            Opponent::Greedy => &mut greedy,
        };
        let seat = if i % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let twos = start.sizes().iter().filter(|&&h| h == 2).count() % 2;
        let mut game = Game::new(start, config.move_limit)?;
        let mut watch = |g: &Game| {
            result.most_heaps = result.most_heaps.max(g.heaps().len());
            let top = g.heaps().sizes().last().copied().unwrap_or(0);
            result.largest_heap = result.largest_heap.max(top);
        };
        let verdict = match seat {
            Player::First => referee_watched(&mut game, bot, other, &mut watch)?,
            Player::Second => referee_watched(&mut game, other, bot, &mut watch)?,
        };
        let won = match verdict {
            Verdict::Winner(p) => Some(p == seat),
            Verdict::Draw => None,
        };
        let mut total = Tally {
            wins: result.wins,
            losses: result.losses,
            draws: result.draws,
        };
        total.add(won);
        (result.wins, result.losses, result.draws) = (total.wins, total.losses, total.draws);
        if let Some(cell) = result
            .by_seat
            .get_mut(seat.index())
            .and_then(|row| row.get_mut(twos))
        {
            cell.add(won);
        }
        if game.end() == Some(End::Stalled) {
            result.stalled += 1;
        }
    }
    Ok(result)
}
