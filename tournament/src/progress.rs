//! What the runner tells the organizer as the games end: a line per game (text,
//! or JSON for `--json`) and the standings so far.

use serde::Serialize;

use crate::game::{self, Played};
use crate::stats;
use crate::store::Plan;

/// A game's JSON line (`--json`): the result without the record and the stderr.
#[derive(Serialize)]
pub struct GameLine<'a> {
    kind: &'static str,
    game: usize,
    stones: u32,
    names: &'a [String; 2],
    winner: Option<u8>,
    ending: &'a game::Ending,
    plies: u32,
    clocks: [f64; 2],
    seconds: f64,
    blunders: [u32; 2],
}

impl<'a> GameLine<'a> {
    /// The line of `g`.
    pub fn new(g: &'a Played) -> Self {
        GameLine {
            kind: "game",
            game: g.game,
            stones: g.stones,
            names: &g.names,
            winner: g.winner,
            ending: &g.ending,
            plies: g.plies,
            clocks: g.clocks,
            seconds: g.seconds,
            blunders: g.blunders,
        }
    }
}

/// Games between two lines of live standings on a terminal.
pub const LIVE_EVERY: usize = 10;

/// `standings after 20 of 126 games: flags 15, noob 12, ...`.
pub fn live_standings(plan: &Plan, games: &[Played]) -> String {
    let names: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
    let rows: Vec<String> = stats::standings(&names, games)
        .iter()
        .map(|r| format!("{} {}", r.name, r.points))
        .collect();
    format!(
        "standings after {} of {} games: {}",
        games.len(),
        plan.schedule.len(),
        rows.join(", ")
    )
}

/// `[3/12] game 3 N=20 a - b: a wins (won: ...) 0.4 s`.
pub fn game_line(g: &Played, done: usize, total: usize) -> String {
    let result = match g.winner {
        Some(w) => format!("{} wins", g.names[usize::from(w)]),
        None => "NO RESULT".into(),
    };
    format!(
        "[{done}/{total}] game {} N={} {} - {}: {result} ({}: {}) {:.1} s",
        g.game,
        g.stones,
        g.names[0],
        g.names[1],
        g.ending.kind.word(),
        g.ending.text,
        g.seconds
    )
}
