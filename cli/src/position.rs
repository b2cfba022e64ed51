//! Positions given as the moves that led to them: `--after "3 2 2r"` with the
//! game's N, R and M, for `query`, `moves` and `line`. The moves are played from
//! the start by the rules ([`nimbot::Game`]), which refuse an illegal one with the
//! server's reason, and the position in front of the player to move is the
//! normalized one the solver reads (`S C A B F`).

use clap::Args;
use nimbot::{Params, Player, Position};
use nimbot_study::notation::{parse_moves, play};

/// The games `query`, `moves`, `line` and `arena` know.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameKind {
    /// Expanding Nim with resets.
    #[default]
    #[value(alias = "expanding-nim")]
    Expanding,
    /// Fibonacci Nim.
    Fibonacci,
    /// Super-Nim.
    #[value(alias = "supernim")]
    SuperNim,
}

/// A position on the command line (`query`, `moves`, `line`): the game, its
/// numbers, or the moves that led to it (`--after`), and the game's M.
#[derive(Args, Debug, Clone, Default)]
pub struct PositionArgs {
    /// The game: expanding (Expanding Nim with resets), fibonacci or super-nim.
    #[arg(long, value_enum, default_value_t = GameKind::Expanding)]
    pub game: GameKind,
    /// The position: S C A B F (stones left, the cap on this take, the mover's
    /// resets left, the other's, 1 if a reset is pending), or --after. Fibonacci
    /// Nim: S LIMIT (stones left, the most this move may take). Super-Nim: the
    /// heaps, e.g. 2,4,5 (with --cap and --score).
    #[arg(num_args = 1.., value_name = "NUMBERS", value_delimiter = ',')]
    pub numbers: Vec<u64>,
    #[command(flatten)]
    pub supernim: crate::supernim::SuperNimArgs,
    #[command(flatten)]
    pub after: AfterArgs,
    /// M: the game's initial maximum.
    #[arg(long, short = 'm', default_value_t = 3)]
    pub init_max: u32,
}

impl PositionArgs {
    /// The Expanding Nim position of the numbers or of `--after`, or what is wrong
    /// with them (none given, a bad number, an illegal move).
    pub fn expanding(&self) -> Result<Position, String> {
        match self.after.position(self.init_max, &self.numbers) {
            Some(p) => p,
            None if self.numbers.is_empty() => Err(
                "give the position: its numbers S C A B F, or --after MOVES (see --help)".into(),
            ),
            None => expanding_position(&self.numbers, self.init_max),
        }
    }
}

/// `S C A B F` as an Expanding Nim position.
pub fn expanding_position(numbers: &[u64], init_max: u32) -> Result<Position, String> {
    let &[stones, cap, own, opp, pending] = numbers else {
        return Err(format!(
            "expanding nim needs 5 numbers S C A B F, got {}",
            numbers.len()
        ));
    };
    let stones = u32::try_from(stones).map_err(|_| "stones out of range".to_owned())?;
    let cap = u32::try_from(cap).map_err(|_| "cap out of range".to_owned())?;
    let own = u8::try_from(own).map_err(|_| "resets out of range".to_owned())?;
    let opp = u8::try_from(opp).map_err(|_| "resets out of range".to_owned())?;
    let pending = match pending {
        0 => false,
        1 => true,
        _ => return Err("the pending flag F must be 0 or 1".to_owned()),
    };
    Position::new(stones, cap, own, opp, pending, init_max).map_err(|e| e.to_string())
}

/// The game and its moves so far, in place of the five numbers.
#[derive(Args, Debug, Clone, Default)]
pub struct AfterArgs {
    /// The moves played so far from the start, in place of S C A B F: takes
    /// separated by spaces or commas, `r` after a take that declared a reset
    /// (e.g. "3 2 2r"; "" for the start). Needs --stones (N); --resets (R) and
    /// --init-max (M) default to 4 and 3.
    #[arg(long, value_name = "MOVES")]
    pub after: Option<String>,
    /// N: the stones at the start of the game --after plays.
    #[arg(long, short = 'n', value_name = "N", requires = "after")]
    pub stones: Option<u32>,
    /// R: the resets each player had at the start (with --after).
    #[arg(long, short = 'r', value_name = "R", default_value_t = 4)]
    pub resets: u8,
}

impl AfterArgs {
    /// The position of `--after`, `None` without it; an error for bad moves, a
    /// game already over, or positional numbers given as well.
    pub fn position(&self, init_max: u32, numbers: &[u64]) -> Option<Result<Position, String>> {
        let text = self.after.as_deref()?;
        Some((|| {
            if !numbers.is_empty() {
                return Err("give the position as S C A B F or as --after, not both".into());
            }
            let stones = self
                .stones
                .ok_or("--after needs the game's N (--stones N)")?;
            let params = Params::new(stones, self.resets, init_max).map_err(|e| e.to_string())?;
            let game = play(params, &parse_moves(text)?)?;
            game.position().ok_or_else(|| {
                let winner = game.winner().unwrap_or(Player::First);
                format!(
                    "the game is over after these moves: the {} player took the last stone",
                    winner.name()
                )
            })
        })())
    }
}
