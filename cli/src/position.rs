//! Positions given as the moves that led to them: `--after "3 2 2r"` with the
//! game's N, R and M, for `query`, `moves` and `line`. The moves are played from
//! the start by the rules ([`nimbot::Game`]), which refuse an illegal one with the
//! server's reason, and the position in front of the player to move is the
//! normalized one the solver reads (`S C A B F`).

use clap::Args;
use nimbot::Position;
use nimbot_analysis::notation::{position_after, position_of_numbers as expanding_position};
use nimbot_analysis::supernim::explore as supernim;

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

/// Super-Nim's part of a position on the command line.
#[derive(Args, Debug, Clone)]
pub struct SuperNimArgs {
    /// Super-Nim: plies left before the cap (the game is then judged on points).
    #[arg(long, default_value_t = supernim::Options::default().cap, value_name = "C")]
    pub cap: u32,
    /// Super-Nim: the points so far, the mover's then the other's.
    #[arg(long, value_name = "A,B", default_value_t = supernim::Options::default().score)]
    pub score: String,
    /// Super-Nim: the exact solver gives up after this many nodes (the answer is
    /// then an estimate, and says so); about a second.
    #[arg(long, default_value_t = supernim::Options::default().nodes, value_name = "K")]
    pub nodes: u64,
}

impl SuperNimArgs {
    /// The library's options of these flags.
    pub fn options(&self) -> supernim::Options {
        supernim::Options {
            cap: self.cap,
            score: self.score.clone(),
            nodes: self.nodes,
        }
    }
}

/// A position on the command line (`query`, `moves`, `line`): the game, its
/// numbers, or the moves that led to it (`--after`), and the game's M.
#[derive(Args, Debug, Clone)]
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
    pub supernim: SuperNimArgs,
    #[command(flatten)]
    pub after: AfterArgs,
    /// M: the game's initial maximum.
    #[arg(long, short = 'm', default_value_t = 3)]
    pub init_max: u32,
}

/// What `query`, `moves` and `line` answer of a position.
#[derive(Clone, Copy, Debug)]
pub enum Ask {
    Query,
    Moves,
    Line,
}

impl PositionArgs {
    /// The answer for Fibonacci Nim and Super-Nim (the library's text or JSON
    /// line, or what is wrong), `None` for Expanding Nim.
    pub fn related(&self, ask: Ask, json: bool) -> Option<Result<String, String>> {
        use nimbot_analysis::fibonacci::explore as fibonacci;
        let numbers = &self.numbers;
        Some(match self.game {
            GameKind::Expanding => return None,
            GameKind::Fibonacci => fibonacci::position(numbers).and_then(|(s, limit)| match ask {
                Ask::Query => fibonacci::query(s, limit, json),
                Ask::Moves => fibonacci::moves(s, limit, json),
                Ask::Line => fibonacci::line(s, limit, json),
            }),
            GameKind::SuperNim => {
                let options = self.supernim.options();
                supernim::position(numbers, &options).and_then(|pos| match ask {
                    Ask::Query => supernim::query(&pos, &options, json),
                    Ask::Moves => supernim::moves(&pos, &options, json),
                    Ask::Line => supernim::line(&pos, &options, json),
                })
            }
        })
    }

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

/// The game and its moves so far, in place of the five numbers.
#[derive(Args, Debug, Clone)]
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
        Some(if numbers.is_empty() {
            self.stones
                .ok_or_else(|| "--after needs the game's N (--stones N)".into())
                .and_then(|n| position_after(n, self.resets, init_max, text))
        } else {
            Err("give the position as S C A B F or as --after, not both".into())
        })
    }
}
