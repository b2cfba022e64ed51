//! Game records (`--record FILE` on `connect`, `exp-nim` and `serve`): one JSON
//! line of header, one per ply, one for the end, written with serde when the game
//! is over, and read back by `nimbot analyze`.
//!
//! ```text
//! {"kind":"header","format":1,"command":"connect","stones":20,"resets":4,"init_max":3,"names":["alice","bob"],"seat":0,"nimbot":"0.1.0","policy":"exploit","started_unix":1764000000.5}
//! {"kind":"ply","ply":1,"seat":0,"take":1,"reset":false,"value":"lose","distance":10,"blunder":false,"refused":false,"clock":0.0004}
//! {"kind":"end","winner":1,"reason":"Player bob won the game! Congrats!"}
//! ```
//!
//! A ply's `value` and `distance` are the mover's before the move (distance: plies
//! to the end when the winner hurries and the loser holds out, `null` if the game
//! is too large for distances); `blunder` is set when the mover throws a won
//! position away (the move leaves the opponent a won one) or the server refuses the
//! move; `clock` is the mover's thinking time for it as the server counted it (the
//! state messages' `time_taken`), or as nimbot measured its own (exp-nim, which
//! shows no clocks; `null` for the opponent there). The values are computed after
//! the game, so recording costs the players' clocks nothing.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use nimbot::{Engine, Game, Move, Params, Player, Policy, TableOrSolverEngine};
use serde::{Deserialize, Serialize};

use crate::json;

/// The version of the format, in every header.
pub const FORMAT: u32 = 1;

/// One line of a record.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Line {
    Header(Header),
    Ply(PlyLine),
    End(EndLine),
}

/// The game and who played it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Header {
    pub format: u32,
    /// The command that wrote it: connect, exp-nim or serve.
    pub command: String,
    pub stones: u32,
    pub resets: u8,
    pub init_max: u32,
    /// The seats' names (first seat first), as the server named them.
    pub names: [String; 2],
    /// nimbot's seat (0 first, 1 second); `null` for the referee.
    pub seat: Option<u8>,
    /// nimbot's version.
    pub nimbot: String,
    /// nimbot's lost-position policy; `null` for the referee.
    pub policy: Option<String>,
    /// When the record began, in seconds since 1970-01-01 UTC.
    pub started_unix: f64,
}

/// One ply.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct PlyLine {
    /// From 1.
    pub ply: u32,
    /// The mover: 0 first, 1 second.
    pub seat: u8,
    pub take: u32,
    pub reset: bool,
    /// "win" or "lose": the mover's position before the move.
    pub value: String,
    /// Plies to the end from that position, if known.
    pub distance: Option<u16>,
    pub blunder: bool,
    /// The server refused the move (it ended the game).
    pub refused: bool,
    /// Seconds of the mover's clock the move took, if known.
    pub clock: Option<f64>,
}

/// How the game ended.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct EndLine {
    /// The winning seat, if the game was decided.
    pub winner: Option<u8>,
    /// The server's reason line, or why there is no result.
    pub reason: String,
}

/// The parts of a platform state message a record uses (serde ignores the rest).
#[derive(Deserialize, Default)]
struct State {
    #[serde(default)]
    finished: bool,
    stones_removed: Option<u32>,
    reset_used: Option<bool>,
    reason: Option<String>,
    player_0: Option<Seat>,
    player_1: Option<Seat>,
}

#[derive(Deserialize)]
struct Seat {
    name: Option<String>,
    time_taken: Option<f64>,
}

/// A ply as seen during the game; values come after it.
struct Seen {
    seat: Player,
    mv: Move,
    refused: bool,
    clock: Option<f64>,
}

/// Collects a game while it is played and writes its record at the end.
pub struct Recorder {
    path: PathBuf,
    file: File,
    command: &'static str,
    seat: Option<Player>,
    policy: Option<Policy>,
    started: SystemTime,
    names: [String; 2],
    /// The game as last seen: a ply is the difference to the next.
    last: Option<Game>,
    plies: Vec<Seen>,
    /// The clocks (`time_taken`) of the last state message.
    clocks: [f64; 2],
    /// nimbot's own time for the move it is about to make (exp-nim).
    own_clock: Option<f64>,
    /// The server's reason line, once a state message carried one.
    reason: Option<String>,
}

impl Recorder {
    /// A recorder writing to `path`, created now so that a bad path is an error
    /// before the game rather than after it.
    pub fn create(
        path: &Path,
        command: &'static str,
        seat: Option<Player>,
        policy: Option<Policy>,
    ) -> Result<Self, String> {
        let file =
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(Recorder {
            path: path.to_owned(),
            file,
            command,
            seat,
            policy,
            started: SystemTime::now(),
            names: [String::new(), String::new()],
            last: None,
            plies: Vec::new(),
            clocks: [0.0; 2],
            own_clock: None,
            reason: None,
        })
    }

    /// The seats' names, when a command knows them otherwise than from the state
    /// messages.
    pub fn names(&mut self, names: [String; 2]) {
        self.names = names;
    }

    /// nimbot's thinking time for the move it just sent (when no server clock
    /// shows it).
    pub fn own_clock(&mut self, seconds: f64) {
        self.own_clock = Some(seconds);
    }

    /// Take in the game as it stands now: a ply if it moved on since the last
    /// look (at most one ply between two looks), with `clock` for it.
    pub fn game(&mut self, game: Option<&Game>, clock: Option<f64>) {
        let Some(now) = game.copied() else { return };
        let before = self
            .last
            .replace(now)
            .unwrap_or_else(|| Game::new(now.params()));
        if now.moves() != before.moves().wrapping_add(1) {
            return;
        }
        let seat = before.to_move();
        let take = before.stones() - now.stones();
        let reset = now.resets_left(seat) < before.resets_left(seat);
        let clock = clock.or_else(|| {
            (Some(seat) == self.seat)
                .then(|| self.own_clock.take())
                .flatten()
        });
        self.plies.push(Seen {
            seat,
            mv: Move::new(take, reset),
            refused: false,
            clock,
        });
    }

    /// Take in a platform state message and the game after it: names, the mover's
    /// clock and the ply; a move the server judged but refused (the game ended and
    /// did not move on) when `judged`.
    pub fn state(&mut self, game: Option<&Game>, msg: &[u8], judged: bool) {
        let state: State = serde_json::from_slice(msg).unwrap_or_default();
        let mut clocks = self.clocks;
        for (i, seat) in [&state.player_0, &state.player_1].into_iter().enumerate() {
            if let Some(s) = seat {
                if let Some(name) = &s.name {
                    self.names[i] = name.clone();
                }
                if let Some(t) = s.time_taken {
                    clocks[i] = t;
                }
            }
        }
        let mover = self.last.map(|g| g.to_move());
        let clock = mover.map(|m| clocks[m.index()] - self.clocks[m.index()]);
        self.clocks = clocks;
        let moves = self.last.map(|g| g.moves());
        self.game(game, clock);
        let moved = self.last.map(|g| g.moves()) != moves;
        if let (false, true, true, Some(take), Some(reset), Some(seat)) = (
            moved,
            judged,
            state.finished,
            state.stones_removed,
            state.reset_used,
            mover,
        ) {
            self.plies.push(Seen {
                seat,
                mv: Move::new(take, reset),
                refused: true,
                clock,
            });
        }
        if state.reason.is_some() {
            self.reason = state.reason;
        }
    }

    /// Write the record: values and distances from the table (or the solver), then
    /// the lines. `winner` and `reason` say how the game ended (the server's reason
    /// line, when a state message carried one, takes the place of `reason`).
    pub fn finish(mut self, winner: Option<Player>, reason: &str) -> Result<(), String> {
        let Some(last) = self.last else {
            return Err(format!("{}: no game to record", self.path.display()));
        };
        let params = last.params();
        let mut out = json::line(&Line::Header(self.header(params)));
        for line in self.plies(params) {
            out += &json::line(&Line::Ply(line));
        }
        out += &json::line(&Line::End(EndLine {
            winner: winner.map(|w| w.index() as u8),
            reason: self.reason.clone().unwrap_or_else(|| reason.to_owned()),
        }));
        self.file
            .write_all(out.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }

    fn header(&self, params: Params) -> Header {
        let started = self
            .started
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        Header {
            format: FORMAT,
            command: self.command.to_owned(),
            stones: params.stones(),
            resets: params.resets(),
            init_max: params.init_max(),
            names: self.names.clone(),
            seat: self.seat.map(|s| s.index() as u8),
            nimbot: env!("CARGO_PKG_VERSION").to_owned(),
            policy: self.policy.map(|p| p.as_str().to_owned()),
            started_unix: (started * 1000.0).round() / 1000.0,
        }
    }

    /// The plies with the mover's value and distance before each, and blunders.
    fn plies(&self, params: Params) -> Vec<PlyLine> {
        ENGINE.with_borrow_mut(|engine| self.plies_with(engine, params))
    }

    fn plies_with(
        &self,
        engine: &mut TableOrSolverEngine<'static>,
        params: Params,
    ) -> Vec<PlyLine> {
        let mut game = Game::new(params);
        let mut lines = Vec::new();
        for (i, seen) in self.plies.iter().enumerate() {
            let Some(pos) = game.position() else { break };
            let eval = engine.evaluate(&pos).ok();
            let won = eval.is_some_and(|e| e.value.is_won());
            // A legal move that leaves the opponent a won position throws the win away.
            let leaves_won = match pos.after(seen.mv) {
                Ok(Some(next)) => engine.evaluate(&next).is_ok_and(|e| e.value.is_won()),
                _ => false,
            };
            let refused = seen.refused || game.check(seen.seat, seen.mv).is_err();
            lines.push(PlyLine {
                ply: i as u32 + 1,
                seat: seen.seat.index() as u8,
                take: seen.mv.take,
                reset: seen.mv.reset,
                value: if won { "win" } else { "lose" }.to_owned(),
                distance: eval.and_then(|e| e.distance),
                blunder: refused || (won && leaves_won),
                refused,
                clock: seen.clock.map(|c| json::round(c, 6)),
            });
            if refused || game.play(seen.seat, seen.mv).is_err() {
                break;
            }
        }
        lines
    }
}

thread_local! {
    /// The engine records are weighed with, kept per thread from one record to the
    /// next: its distances (solved over the table's whole box, tens of
    /// milliseconds) then serve every later game (a tournament writes thousands).
    static ENGINE: std::cell::RefCell<TableOrSolverEngine<'static>> =
        std::cell::RefCell::new(TableOrSolverEngine::embedded());
}

/// A record read back: its header, plies and end.
pub struct Record {
    pub header: Header,
    pub plies: Vec<PlyLine>,
    pub end: Option<EndLine>,
}

/// Read a record's text (JSON lines; blank lines are skipped).
pub fn parse(text: &str) -> Result<Record, String> {
    let mut header = None;
    let mut plies = Vec::new();
    let mut end = None;
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let line: Line =
            serde_json::from_str(raw).map_err(|e| format!("record line {}: {e}", i + 1))?;
        match line {
            Line::Header(h) if header.is_none() => {
                if h.format != FORMAT {
                    return Err(format!(
                        "record format {} (this nimbot reads {FORMAT})",
                        h.format
                    ));
                }
                header = Some(h);
            }
            Line::Header(_) => return Err(format!("record line {}: a second header", i + 1)),
            Line::Ply(p) => plies.push(p),
            Line::End(e) => end = Some(e),
        }
    }
    let header = header.ok_or("the record has no header line")?;
    Ok(Record { header, plies, end })
}
