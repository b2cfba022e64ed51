//! The recorder of `--record FILE` on `connect`, `exp-nim` and `serve`: it
//! watches a game while it is played (the platform's state messages, or the
//! games nimbot sees) and writes its record at the end, in the format of
//! [`nimbot_analysis::record`]. A ply's `clock` is the mover's thinking time as the
//! server counted it (the state messages' `time_taken`), or as nimbot measured
//! its own (exp-nim, which shows no clocks; `null` for the opponent there). The
//! values are computed after the game, so recording costs the players' clocks
//! nothing.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use nimbot::{Game, Move, Player, Policy};
use nimbot_analysis::record::{self, EndLine, Header, Played};
use nimbot_platform::wire::StateFields;
use nimbot_solve::TableOrSolverEngine;

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
    plies: Vec<Played>,
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
        self.plies.push(Played {
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
        let state = StateFields::parse(msg).unwrap_or_default();
        let mut clocks = self.clocks;
        for (i, seat) in state.players.iter().enumerate() {
            if let Some(s) = seat {
                if let Some(name) = s.name {
                    self.names[i] = String::from_utf8_lossy(name).into_owned();
                }
                if let Some(t) = s.time_taken_us {
                    clocks[i] = t as f64 / 1e6;
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
            state.end.is_some(),
            state.stones_removed,
            state.reset_used,
            mover,
        ) {
            self.plies.push(Played {
                seat,
                mv: Move::new(take, reset),
                refused: true,
                clock,
            });
        }
        if let Some(reason) = state.end.and_then(|e| e.reason) {
            self.reason = Some(String::from_utf8_lossy(reason).into_owned());
        }
    }

    /// Write the record: values and distances from the table (or the solver), then
    /// the lines. `winner` and `reason` say how the game ended (the server's reason
    /// line, when a state message carried one, takes the place of `reason`).
    pub fn finish(self, winner: Option<Player>, reason: &str) -> Result<(), String> {
        let reason = self.reason.clone().unwrap_or_else(|| reason.to_owned());
        self.finish_as(winner, &reason)
    }

    /// [`Recorder::finish`] with `reason` as the end line's reason, whatever the
    /// server said (a referee that knows more, such as the tournament's).
    pub fn finish_as(mut self, winner: Option<Player>, reason: &str) -> Result<(), String> {
        let Some(last) = self.last else {
            return Err(format!("{}: no game to record", self.path.display()));
        };
        let params = last.params();
        let started = self
            .started
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        let header = Header::new(
            self.command,
            params,
            self.names.clone(),
            self.seat,
            self.policy,
            started,
        );
        let plies = {
            // A panic elsewhere while weighing leaves the engine as usable as before.
            let mut engine = ENGINE
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            record::weigh(&mut *engine, params, &self.plies)
        };
        let end = EndLine {
            winner: winner.map(|w| w.index() as u8),
            reason: reason.to_owned(),
        };
        self.file
            .write_all(record::write(&header, &plies, &end).as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

/// The engine records are weighed with, one for the whole process and kept from one
/// record to the next: its distances (solved over the table's whole box, tens of
/// milliseconds) are solved once and then serve every later game of every thread (a
/// tournament writes thousands, eight at a time; an engine per thread solved them
/// eight times). Weighing a record holds it for microseconds.
static ENGINE: std::sync::LazyLock<std::sync::Mutex<TableOrSolverEngine<'static>>> =
    std::sync::LazyLock::new(|| std::sync::Mutex::new(TableOrSolverEngine::embedded()));
