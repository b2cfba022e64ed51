//! The bridge's side of a conversation with a board, as a state machine with no I/O.
//!
//! The board speaks the line protocol (docs/protocol.md) on a serial line that can
//! garble bytes, drop them, go silent, or come back from a reset with its game
//! forgotten. The [`Link`] keeps the game's record (every ply, and who chose it) and
//! turns "the board's move, please" into command lines ([`Out::Send`]); the adapter
//! writes each line, reads the replies and hands them back ([`Link::on_line`],
//! [`Link::on_silence`] when the reply timeout passes, [`Link::on_lost`] when the
//! device closed). Nothing the board says is believed unchecked:
//!
//! - every move must be legal in the record's game (the rules' own
//!   [`Game::check`]), and `won` must be claimed exactly when it empties the pile;
//! - after a move that does not end the game the board's `state` must be the
//!   record's, so a command the line garbled into another legal one (`opp 3 0` read as
//!   `opp 2 0`) is caught before its answer goes to the server;
//! - anything else (a garbled or illegal reply, `error ...`, silence, the banner of a
//!   reset, a lost device) is a fault: the link realigns the reply stream (a blank
//!   line and `version`, skipping whatever stale replies come before its answer,
//!   and asking again at once when the board's banner says it has just booted),
//!   starts the game afresh on the board (`policy`, `new`) and replays the record
//!   (each replayed answer of the board must be the move it played then), then asks
//!   again. After `tries` faults on one question it gives up ([`Out::GiveUp`]) and
//!   the adapter plays the move some other way ([`Link::host_moved`]); the next
//!   question then gets one try until the board answers again.
//!
//! A board cannot replay a move it did not choose, so once the record holds a move
//! it cannot reproduce (the host's, or one the replay contradicts), the link asks
//! with `query` instead, which needs no game on the board: each answer twice, the
//! two must agree.

use std::fmt;
use std::ops::RangeInclusive;

use nimbot::{Game, Move, Outcome, Params, Player};
use nimbot_protocol::grammar::{Command, Opp, Response, State, Turn};
use nimbot_protocol::Reply;

/// The board's first line after a reset (the firmware's boot banner).
pub use nimbot_protocol::BANNER;
/// How many times a question's tries the meeting gets ([`Link::meeting_tries`]).
pub const MEETING_TRY_FACTOR: u32 = 2;
/// Protocol versions whose Expanding Nim commands the bridge speaks.
pub const PROTOCOLS: RangeInclusive<u32> = 1..=2;
/// Lines skipped while waiting for the answer that realigns the stream; more than
/// this is a fault (a board or a line that only babbles).
const MAX_STALE: u32 = 32;

/// Something that went wrong between the bridge and the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No reply within the timeout.
    Silence,
    /// A reply that is not the kind the command gets.
    Garbled,
    /// The board answered `error ...`.
    Refused,
    /// An illegal move, or a `won` the pile contradicts.
    Illegal,
    /// The board's game differs from the record (its `state`, a replayed move,
    /// two answers to one `query`).
    Diverged,
    /// The board's banner: it was reset.
    Reset,
    /// The device closed or failed.
    Lost,
}

impl Fault {
    /// Every fault, in the order [`Stats`] counts them.
    pub const ALL: [Fault; 7] = [
        Fault::Silence,
        Fault::Garbled,
        Fault::Refused,
        Fault::Illegal,
        Fault::Diverged,
        Fault::Reset,
        Fault::Lost,
    ];

    /// A few words for summaries.
    pub const fn as_str(self) -> &'static str {
        match self {
            Fault::Silence => "no reply",
            Fault::Garbled => "garbled reply",
            Fault::Refused => "error reply",
            Fault::Illegal => "illegal move",
            Fault::Diverged => "game out of step",
            Fault::Reset => "board reset",
            Fault::Lost => "device lost",
        }
    }

    fn slot(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a board plays, from its `limits` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardLimits {
    /// The largest N.
    pub max_stones: u32,
    /// The largest R.
    pub max_resets: u32,
    /// The only M, or `None` for any.
    pub init_max: Option<u32>,
}

impl BoardLimits {
    /// Whether the board plays games with `params`.
    pub fn covers(&self, params: &Params) -> bool {
        params.stones() <= self.max_stones
            && u32::from(params.resets()) <= self.max_resets
            && self.init_max.is_none_or(|m| m == params.init_max())
    }
}

impl fmt::Display for BoardLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "N <= {}, R <= {}, ", self.max_stones, self.max_resets)?;
        match self.init_max {
            Some(m) => write!(f, "M = {m}"),
            None => f.write_str("any M"),
        }
    }
}

/// What the board said about itself when the bridge met it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardInfo {
    /// Its software, e.g. `nimbot 0.1.0`.
    pub software: String,
    /// Its protocol version.
    pub protocol: u32,
    /// The games it plays.
    pub limits: BoardLimits,
}

/// What the adapter does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// Write this (a line end appended), then read replies under a fresh timeout.
    Send(String),
    /// Read on under the same timeout (a reply was skipped).
    Wait,
    /// The board is met: it answered `version` and `limits`.
    Met(BoardInfo),
    /// The board's move, checked; it is in the record.
    Moved(Move),
    /// Too many faults on this question: play the move another way.
    GiveUp(Fault),
}

/// Who chose a ply of the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The opponent, through the tournament.
    Opponent,
    /// The board.
    Board,
    /// The host, after the board failed.
    Host,
}

/// The game as the bridge keeps it: every ply and who chose it.
#[derive(Clone, Debug)]
pub struct Record {
    seat: Player,
    game: Game,
    plies: Vec<(Move, By)>,
}

impl Record {
    fn new(params: Params, seat: Player) -> Self {
        Record {
            seat,
            game: Game::new(params),
            plies: Vec::new(),
        }
    }

    /// The game after every ply so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn play(&mut self, mv: Move, by: By) -> Result<Outcome, nimbot::IllegalMove> {
        let player = match by {
            By::Opponent => self.seat.other(),
            By::Board | By::Host => self.seat,
        };
        let outcome = self.game.play(player, mv)?;
        self.plies.push((mv, by));
        Ok(outcome)
    }
}

/// What happened on the link over a game (or since it was made).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Moves the board chose and the bridge accepted.
    pub board_moves: u32,
    /// Of those, the ones answered to `query`.
    pub query_moves: u32,
    /// Moves the host played after the board failed.
    pub host_moves: u32,
    /// Faults by kind, in [`Fault::ALL`]'s order.
    pub faults: [u32; Fault::ALL.len()],
    /// Times the board's game was started afresh (`new`) after the first.
    pub resyncs: u32,
    /// The fault that made the host play the last time it did.
    pub last_give_up: Option<Fault>,
}

impl Stats {
    /// Faults of one kind.
    pub fn count(&self, fault: Fault) -> u32 {
        self.faults.get(fault.slot()).copied().unwrap_or(0)
    }

    /// All faults.
    pub fn total_faults(&self) -> u32 {
        self.faults.iter().sum()
    }

    /// The bridge's part of a game's summary line, e.g. `the board played all 19
    /// moves` or `the board played 17 of 19 moves, the host 2 (after: no reply);
    /// faults: 6 no reply, 1 board reset; 3 resynchronizations`.
    pub fn describe(&self) -> String {
        let ours = self.board_moves + self.host_moves;
        let mut s = if ours == 0 {
            "the board had no move to play".to_owned()
        } else if self.host_moves == 0 {
            format!("the board played all {ours} moves")
        } else {
            let mut s = format!(
                "the board played {} of {ours} moves, the host {}",
                self.board_moves, self.host_moves
            );
            if let Some(why) = self.last_give_up {
                s.push_str(&format!(" (after: {why})"));
            }
            s
        };
        if self.query_moves > 0 {
            s.push_str(&format!(", {} of them by query", self.query_moves));
        }
        if self.total_faults() > 0 {
            let kinds: Vec<String> = Fault::ALL
                .iter()
                .filter(|f| self.count(**f) > 0)
                .map(|f| format!("{} {}", self.count(*f), f.as_str()))
                .collect();
            s.push_str(&format!("; faults: {}", kinds.join(", ")));
        }
        match self.resyncs {
            0 => {}
            1 => s.push_str("; 1 resynchronization"),
            n => s.push_str(&format!("; {n} resynchronizations")),
        }
        s
    }
}

/// Which reply the link waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Not waiting for anything.
    Idle,
    /// Meeting: `version` sent.
    MeetVersion,
    /// Meeting: `limits` sent, after this `version` answer.
    MeetLimits { protocol: u32 },
    /// After a fault: `version` sent; stale lines before its answer are skipped.
    Align,
    /// `policy` sent.
    Policy,
    /// `new` sent.
    New,
    /// `go` or `opp` sent: the reply is the board's move at this ply of the record
    /// (a replayed one below the record's length, the asked-for one at it).
    Play { ply: usize },
    /// `state` sent after the board's move `mv`.
    Verify { mv: Move },
    /// `query` sent; `first` is the first answer when this is the second asking.
    Query { first: Option<Move> },
}

/// The bridge's link to one board.
#[derive(Clone, Debug)]
pub struct Link {
    max_tries: u32,
    policy: &'static str,
    record: Option<Record>,
    phase: Phase,
    /// No stale reply can be in flight (false after any fault).
    aligned: bool,
    /// The board's game is the record's first n plies (and policy and parameters).
    synced: Option<usize>,
    /// The board cannot replay the record: ask with `query`.
    query_mode: bool,
    /// Faults on the current question (or the meeting).
    tries: u32,
    /// The previous question ended in a give-up: one try only until the board
    /// answers again.
    down: bool,
    /// Lines skipped in the current [`Phase::Align`].
    stale: u32,
    stats: Stats,
    /// The last fault seen (on any question).
    last_fault: Option<Fault>,
    /// The software the board named in its `version` answer at the meeting.
    software: String,
}

impl Link {
    /// A link that gives up a question after `tries` faults (at least 1), and sets
    /// the board's lost-position `policy` (a protocol policy name).
    pub fn new(tries: u32, policy: &'static str) -> Self {
        Link {
            max_tries: tries.max(1),
            policy,
            record: None,
            phase: Phase::Idle,
            aligned: false,
            synced: None,
            query_mode: false,
            tries: 0,
            down: false,
            stale: 0,
            stats: Stats::default(),
            last_fault: None,
            software: String::new(),
        }
    }

    /// What happened so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The record of the current game.
    pub fn record(&self) -> Option<&Record> {
        self.record.as_ref()
    }

    /// Faults on the current question so far.
    pub fn tries(&self) -> u32 {
        self.tries
    }

    /// Faults the meeting survives: [`MEETING_TRY_FACTOR`] times a question's. The
    /// meeting comes before a seat is taken, so it costs no game clock, and a noisy
    /// line or a board still booting should not keep a working board out.
    pub fn meeting_tries(&self) -> u32 {
        self.max_tries.saturating_mul(MEETING_TRY_FACTOR)
    }

    /// Meet the board: `version`, then `limits`; ends in [`Out::Met`] or
    /// [`Out::GiveUp`] after [`Link::meeting_tries`] faults. A blank line goes first, to end whatever partial line the
    /// board may hold.
    pub fn meet(&mut self) -> Out {
        self.tries = 0;
        self.phase = Phase::MeetVersion;
        self.stale = 0;
        Out::Send("\nversion".into())
    }

    /// A new game on the board, the bridge in `seat`; the board's state is unknown
    /// until it is started there.
    pub fn begin(&mut self, params: Params, seat: Player) {
        self.record = Some(Record::new(params, seat));
        self.synced = None;
        self.query_mode = false;
        self.down = false;
        self.phase = Phase::Idle;
        self.stats = Stats::default();
    }

    /// The opponent played `mv`.
    ///
    /// # Errors
    /// The rules' verdict if the move is illegal in the record's game (the caller's
    /// tournament client has already judged it, so this is a bug), or no game.
    pub fn opponent(&mut self, mv: Move) -> Result<(), &'static str> {
        let record = self.record.as_mut().ok_or("no game")?;
        record
            .play(mv, By::Opponent)
            .map(|_| ())
            .map_err(|e| e.as_str())
    }

    /// The host played `mv` for the bridge after [`Out::GiveUp`] (or because the
    /// board cannot play this game). The move is counted either way.
    ///
    /// # Errors
    /// As [`Link::opponent`]: the record no longer follows the game.
    pub fn host_moved(&mut self, mv: Move) -> Result<(), &'static str> {
        self.stats.host_moves += 1;
        // The board cannot replay a move it did not choose.
        self.query_mode = true;
        self.synced = None;
        let record = self.record.as_mut().ok_or("no game")?;
        record
            .play(mv, By::Host)
            .map(|_| ())
            .map_err(|e| e.as_str())
    }

    /// Ask for the board's move: the record must be at the bridge's turn.
    pub fn ask(&mut self) -> Out {
        self.tries = 0;
        let ours = self
            .record
            .as_ref()
            .is_some_and(|r| r.game.winner().is_none() && r.game.to_move() == r.seat);
        if !ours {
            self.phase = Phase::Idle;
            return Out::GiveUp(Fault::Diverged);
        }
        self.next_command()
    }

    /// Give up the current question now (the adapter's time budget ran out), for
    /// the last fault seen.
    pub fn give_up(&mut self) -> Out {
        self.abandon(self.last_fault.unwrap_or(Fault::Silence))
    }

    fn abandon(&mut self, why: Fault) -> Out {
        self.phase = Phase::Idle;
        self.aligned = false;
        self.synced = None;
        self.down = true;
        self.stats.last_give_up = Some(why);
        Out::GiveUp(why)
    }

    /// A line arrived while no question was open (between moves): a banner means
    /// the board was reset, anything else is out of step; either way the next
    /// question starts by realigning.
    pub fn on_idle_line(&mut self, line: &str) {
        if line.trim() == BANNER {
            self.stats.faults[Fault::Reset.slot()] += 1;
        }
        if !line.trim().is_empty() {
            self.aligned = false;
            self.synced = None;
        }
    }

    /// The reply timeout passed.
    pub fn on_silence(&mut self) -> Out {
        self.fault(Fault::Silence)
    }

    /// The device closed or failed (the adapter reopens it, or tries to).
    pub fn on_lost(&mut self) -> Out {
        self.fault(Fault::Lost)
    }

    /// One line from the board, without its line end.
    pub fn on_line(&mut self, line: &str) -> Out {
        let line = line.trim();
        if line.is_empty() {
            return Out::Wait;
        }
        // Every line is read by the protocol's own grammar.
        let reply = Response::parse(line.as_bytes());
        match self.phase {
            Phase::Idle => {
                self.on_idle_line(line);
                Out::Wait
            }
            Phase::MeetVersion | Phase::Align => {
                if let Some(Response::Version { software, protocol }) = reply {
                    if self.phase == Phase::MeetVersion {
                        self.software = software.to_string();
                    }
                    return self.aligned_on(protocol);
                }
                self.stale += 1;
                if self.stale > MAX_STALE {
                    return self.fault(Fault::Garbled);
                }
                if line == BANNER {
                    // The board has just booted (or reset since the fault): a
                    // `version` that reached it before its receiver was running is
                    // lost, so ask again now rather than after the timeout; if the
                    // first one was heard after all, its answer is skipped as stale.
                    // Not a try: the board is up and answering.
                    if self.phase == Phase::Align {
                        self.stats.faults[Fault::Reset.slot()] += 1;
                    }
                    return Out::Send("\nversion".into());
                }
                Out::Wait
            }
            _ if line == BANNER => self.fault(Fault::Reset),
            // The answer to a `version` of an earlier realignment that took more than
            // one try: stale, and harmless.
            _ if matches!(reply, Some(Response::Version { .. })) => Out::Wait,
            _ if matches!(reply, Some(Response::Error(_))) => self.fault(Fault::Refused),
            Phase::MeetLimits { protocol } => match reply {
                Some(Response::Limits(limits)) => {
                    self.phase = Phase::Idle;
                    self.aligned = true;
                    Out::Met(BoardInfo {
                        software: self.software.clone(),
                        protocol,
                        limits: BoardLimits {
                            max_stones: limits.stones,
                            max_resets: u32::from(limits.resets),
                            init_max: limits.init_max,
                        },
                    })
                }
                _ => self.fault(Fault::Garbled),
            },
            Phase::Policy => match reply {
                Some(Response::Policy(p)) if p.as_str() == self.policy => {
                    self.phase = Phase::New;
                    self.new_command()
                }
                _ => self.fault(Fault::Garbled),
            },
            Phase::New => {
                if reply == Some(Response::Ok) {
                    self.synced = Some(0);
                    self.next_command()
                } else {
                    self.fault(Fault::Garbled)
                }
            }
            Phase::Play { ply } => self.on_move(ply, reply),
            Phase::Verify { mv } => self.on_state(mv, reply),
            Phase::Query { first } => self.on_query(first, reply),
        }
    }

    /// A `version` answer arrived: the stream is aligned.
    fn aligned_on(&mut self, protocol: u32) -> Out {
        self.aligned = true;
        if self.phase == Phase::MeetVersion {
            self.phase = Phase::MeetLimits { protocol };
            return Out::Send("limits".into());
        }
        self.next_command()
    }

    /// The command that brings the board one step closer to answering.
    fn next_command(&mut self) -> Out {
        let Some(record) = &self.record else {
            return self.abandon(Fault::Diverged);
        };
        if !self.aligned {
            self.phase = Phase::Align;
            self.stale = 0;
            return Out::Send("\nversion".into());
        }
        if self.query_mode {
            return self.query_command(None);
        }
        let n = self.synced;
        match n {
            Some(0) if record.seat == Player::First => {
                self.phase = Phase::Play { ply: 0 };
                Out::Send("go".into())
            }
            Some(n) => match record.plies.get(n) {
                Some(&(mv, By::Opponent)) => {
                    self.phase = Phase::Play { ply: n + 1 };
                    Out::Send(line(&Command::Opp(Opp::Take(mv))))
                }
                // Out of step with the record (cannot happen): start afresh.
                _ => {
                    self.synced = None;
                    self.phase = Phase::Policy;
                    Out::Send(format!("policy {}", self.policy))
                }
            },
            None => {
                if record.plies.iter().any(|(_, by)| *by == By::Host) {
                    self.query_mode = true;
                    return self.query_command(None);
                }
                self.phase = Phase::Policy;
                Out::Send(format!("policy {}", self.policy))
            }
        }
    }

    fn new_command(&mut self) -> Out {
        let Some(record) = &self.record else {
            return self.abandon(Fault::Diverged);
        };
        let p = record.game.params();
        if self.stats.board_moves + self.stats.host_moves > 0 || self.stats.total_faults() > 0 {
            self.stats.resyncs += 1;
        }
        Out::Send(line(&Command::New {
            stones: p.stones(),
            resets: u32::from(p.resets()),
            init_max: p.init_max(),
            seat: record.seat,
        }))
    }

    fn query_command(&mut self, first: Option<Move>) -> Out {
        let Some(pos) = self.record.as_ref().and_then(|r| r.game.position()) else {
            return self.abandon(Fault::Diverged);
        };
        self.phase = Phase::Query { first };
        Out::Send(format!("query {pos}"))
    }

    /// The board's move at `ply`, its `reply`.
    fn on_move(&mut self, ply: usize, reply: Option<Response<'_>>) -> Out {
        let Some(Response::Move { mv, won }) = reply else {
            return self.fault(Fault::Garbled);
        };
        let Some(record) = &self.record else {
            return self.abandon(Fault::Diverged);
        };
        if let Some(&(played, _)) = record.plies.get(ply) {
            // A replayed ply: the board must choose what it chose then (never a
            // win: the game went on after it).
            if played != mv || won {
                self.query_mode = true;
                return self.fault(Fault::Diverged);
            }
            self.synced = Some(ply + 1);
            return self.next_command();
        }
        let game = record.game;
        if game.check(record.seat, mv).is_err() {
            return self.fault(Fault::Illegal);
        }
        let empties = mv.take >= game.stones();
        if won != empties {
            return self.fault(Fault::Illegal);
        }
        if won {
            return self.accept(mv, false);
        }
        self.phase = Phase::Verify { mv };
        Out::Send("state".into())
    }

    /// The board's `state` after its move `mv`, its `reply`.
    fn on_state(&mut self, mv: Move, reply: Option<Response<'_>>) -> Out {
        let Some(record) = &self.record else {
            return self.abandon(Fault::Diverged);
        };
        let mut after = record.game;
        if after.play(record.seat, mv).is_err() {
            return self.fault(Fault::Illegal);
        }
        let Some(Response::State(Some(state))) = reply else {
            return self.fault(Fault::Garbled);
        };
        let seat = record.seat;
        let expected = State {
            stones: after.stones(),
            limit: after.limit(),
            cap: after.cap(),
            own_resets: after.resets_left(seat),
            opp_resets: after.resets_left(seat.other()),
            pending: after.reset_pending(),
            turn: Turn::Opponent,
        };
        if state != expected {
            return self.fault(Fault::Diverged);
        }
        self.accept(mv, false)
    }

    /// An answer to `query`, its `reply`.
    fn on_query(&mut self, first: Option<Move>, reply: Option<Response<'_>>) -> Out {
        let Some(Response::Query { mv, .. }) = reply else {
            return self.fault(Fault::Garbled);
        };
        let Some(record) = &self.record else {
            return self.abandon(Fault::Diverged);
        };
        let mut mv = mv;
        if mv.take >= record.game.stones() {
            // As `bot_move` does: a reset on the emptying move changes nothing.
            mv.reset = false;
        }
        if record.game.check(record.seat, mv).is_err() {
            return self.fault(Fault::Illegal);
        }
        match first {
            None => self.query_command(Some(mv)),
            Some(f) if f == mv => self.accept(mv, true),
            Some(_) => self.fault(Fault::Diverged),
        }
    }

    /// The board's move `mv` passed every check.
    fn accept(&mut self, mv: Move, by_query: bool) -> Out {
        let Some(record) = self.record.as_mut() else {
            return self.abandon(Fault::Diverged);
        };
        if record.play(mv, By::Board).is_err() {
            return self.fault(Fault::Illegal);
        }
        if !by_query {
            self.synced = Some(record.plies.len());
        }
        self.stats.board_moves += 1;
        if by_query {
            self.stats.query_moves += 1;
        }
        self.phase = Phase::Idle;
        self.down = false;
        Out::Moved(mv)
    }

    /// Count `fault`; ask again, or give up after too many.
    fn fault(&mut self, fault: Fault) -> Out {
        self.stats.faults[fault.slot()] += 1;
        self.last_fault = Some(fault);
        self.aligned = false;
        self.synced = None;
        self.tries += 1;
        let limit = match self.phase {
            Phase::MeetVersion | Phase::MeetLimits { .. } => self.meeting_tries(),
            _ if self.down => 1,
            _ => self.max_tries,
        };
        if self.tries >= limit {
            return self.abandon(fault);
        }
        match self.phase {
            Phase::MeetVersion | Phase::MeetLimits { .. } => self.meet_again(),
            _ => self.next_command(),
        }
    }

    fn meet_again(&mut self) -> Out {
        self.phase = Phase::MeetVersion;
        self.stale = 0;
        Out::Send("\nversion".into())
    }
}

/// The line of `command`, as the protocol's grammar writes it.
fn line(command: &Command<'_>) -> String {
    let mut out = Reply::default();
    command.write(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests;
