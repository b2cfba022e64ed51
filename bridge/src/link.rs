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
mod tests {
    use std::collections::VecDeque;

    use nimbot::{Engine, Policy, SplitMix64, TableEngine};

    use super::*;
    use crate::fake::{FakeBoard, Trick};

    /// A link and a fake board, wired by a queue of lines in flight.
    struct Bench {
        link: Link,
        board: FakeBoard,
        inbox: VecDeque<String>,
        give_ups: Vec<Fault>,
    }

    impl Bench {
        fn new(board: FakeBoard) -> Self {
            Bench {
                link: Link::new(3, "trap"),
                board,
                inbox: VecDeque::new(),
                give_ups: Vec::new(),
            }
        }

        /// Run the link until it settles: what the adapter does, with the queue
        /// running dry standing for the reply timeout.
        fn drive(&mut self, mut out: Out) -> Out {
            for _ in 0..10_000 {
                out = match out {
                    Out::Send(text) => {
                        let replies = self.board.exchange(&text);
                        self.inbox.extend(replies);
                        self.read()
                    }
                    Out::Wait => self.read(),
                    settled => return settled,
                };
            }
            panic!("the link never settles")
        }

        fn read(&mut self) -> Out {
            match self.inbox.pop_front() {
                Some(line) => self.link.on_line(&line),
                None => self.link.on_silence(),
            }
        }

        fn meet(&mut self) -> BoardInfo {
            let out = self.link.meet();
            match self.drive(out) {
                Out::Met(info) => info,
                other => panic!("meeting ended in {other:?}"),
            }
        }

        /// Lines that arrived between two questions.
        fn idle(&mut self) {
            while let Some(line) = self.inbox.pop_front() {
                self.link.on_idle_line(&line);
            }
        }

        /// The bridge's move: the board's, or the host's (`expected`) after a give-up.
        fn our_move(&mut self, expected: Move) -> Move {
            self.idle();
            let out = self.link.ask();
            match self.drive(out) {
                Out::Moved(mv) => mv,
                Out::GiveUp(why) => {
                    self.give_ups.push(why);
                    self.link.host_moved(expected).unwrap();
                    expected
                }
                other => panic!("a question ended in {other:?}"),
            }
        }

        /// One game against a random opponent (seeded); every move of the bridge
        /// must be the one the board's engine chooses (the host's fallback plays the
        /// same engine here). Returns the winner.
        fn play(&mut self, n: u32, r: u8, seat: Player, seed: u64) -> Player {
            self.play_with(n, r, seat, seed, |_, _| {})
        }

        fn play_with(
            &mut self,
            n: u32,
            r: u8,
            seat: Player,
            seed: u64,
            mut between: impl FnMut(&mut Bench, u32),
        ) -> Player {
            let params = Params::new(n, r, 3).unwrap();
            self.link.begin(params, seat);
            let mut game = Game::new(params);
            let mut rng = SplitMix64::new(seed);
            let mut table = TableEngine::embedded();
            while game.winner().is_none() {
                between(self, game.moves());
                if game.to_move() == seat {
                    let pos = game.position().unwrap();
                    let mut expected = table.decide(&pos, Policy::Trap).unwrap().mv;
                    expected.reset &= expected.take < game.stones();
                    let mv = self.our_move(expected);
                    assert_eq!(mv, expected, "move {} of N = {n}", game.moves());
                    game.play(seat, mv).unwrap();
                } else {
                    let take = 1 + rng.below(u64::from(game.limit())) as u32;
                    let reset = game.resets_left(seat.other()) > 0 && rng.chance(0.25);
                    let mv = Move::new(take, reset);
                    game.play(seat.other(), mv).unwrap();
                    self.link.opponent(mv).unwrap();
                }
            }
            let record = self.link.record().unwrap();
            assert_eq!(record.game(), &game, "the record is the game");
            game.winner().unwrap()
        }

        fn ours(&self) -> u32 {
            let stats = self.link.stats();
            stats.board_moves + stats.host_moves
        }
    }

    const SEATS: [Player; 2] = [Player::First, Player::Second];

    #[test]
    fn meets_the_board_and_reads_its_limits() {
        let mut bench = Bench::new(FakeBoard::new().on(0, Trick::Say("garbage".into())));
        // Junk before the first answer is skipped.
        let info = bench.meet();
        assert_eq!(info.protocol, 2);
        assert!(info.software.starts_with("nimbot "), "{}", info.software);
        assert_eq!(
            info.limits,
            BoardLimits {
                max_stones: 999,
                max_resets: 4,
                init_max: Some(3)
            }
        );
        let covers = |n, r, m| info.limits.covers(&Params::new(n, r, m).unwrap());
        assert!(covers(999, 4, 3) && covers(1, 0, 3));
        assert!(!covers(1000, 4, 3) && !covers(10, 5, 3) && !covers(10, 4, 4));
        // A board that never answers: the meeting gives up after the tries.
        let mut silent = Bench::new(FakeBoard::new().on(0, Trick::Die));
        let out = silent.link.meet();
        assert_eq!(silent.drive(out), Out::GiveUp(Fault::Silence));
        assert_eq!(silent.board.commands(), 3 * MEETING_TRY_FACTOR as usize);
    }

    #[test]
    fn a_board_that_boots_during_the_meeting_is_asked_again_at_once() {
        // The first `version` reaches the board before its receiver runs: lost,
        // then the banner. The link asks again without waiting for the timeout.
        let mut bench = Bench::new(FakeBoard::new().on(0, Trick::Reset));
        let info = bench.meet();
        assert_eq!(info.protocol, 2);
        assert_eq!(bench.link.stats().total_faults(), 0);
        assert_eq!(bench.board.commands(), 3, "version, version, limits");
        // A board that only ever says its banner (a reset loop) is given up.
        let mut looping = Bench::new(FakeBoard::new());
        let mut out = looping.link.meet();
        let mut banners = 0;
        while let Out::Send(_) = out {
            banners += 1;
            assert!(
                banners <= 3 * MEETING_TRY_FACTOR * (MAX_STALE + 1),
                "never gives up"
            );
            out = looping.link.on_line(BANNER);
        }
        assert_eq!(out, Out::GiveUp(Fault::Garbled));
    }

    #[test]
    fn plays_whole_games_without_a_fault() {
        let mut bench = Bench::new(FakeBoard::new());
        bench.meet();
        for seat in SEATS {
            for (n, r) in [(1, 0), (2, 4), (20, 1), (100, 4), (999, 4), (998, 0)] {
                let before = bench.board.commands();
                bench.play(n, r, seat, u64::from(n));
                let stats = bench.link.stats().clone();
                assert_eq!(stats.total_faults(), 0);
                assert_eq!(stats.host_moves + stats.resyncs + stats.query_moves, 0);
                // `policy` and `new`, then `go`/`opp` and `state` per move (none
                // after the winning one, so at most two per move).
                let used = bench.board.commands() - before;
                assert!(used <= 2 + 2 * stats.board_moves as usize, "{used}");
            }
        }
    }

    /// A clean game's command log, to aim tricks at particular commands.
    fn clean_log(n: u32, seat: Player, seed: u64) -> Vec<String> {
        let mut bench = Bench::new(FakeBoard::new());
        bench.meet();
        bench.play(n, 4, seat, seed);
        bench.board.log.clone()
    }

    #[test]
    fn every_fault_is_survived_by_a_resynchronization() {
        for seat in SEATS {
            let log = clean_log(200, seat, 7);
            // The meeting's two commands come first; aim at the game's middle.
            let opp = (10..log.len())
                .find(|&i| log[i].starts_with("opp ") && !log[i].starts_with("opp 1 "))
                .unwrap();
            let state = (10..log.len()).find(|&i| log[i] == "state").unwrap();
            let take: u32 = log[opp].split(' ').nth(1).unwrap().parse().unwrap();
            let flag = log[opp].split(' ').nth(2).unwrap();
            let tricks = [
                (opp, Trick::Drop, &[Fault::Silence][..]),
                (opp, Trick::Reset, &[Fault::Reset]),
                (opp, Trick::Late, &[Fault::Silence]),
                // "move K F": the take's last digit changes by one bit, into
                // another legal take or an illegal one.
                (
                    opp,
                    Trick::Garble(vec![0, 0, 0, 0, 0, 1]),
                    &[Fault::Diverged, Fault::Illegal],
                ),
                (opp, Trick::Garble(vec![0, 0, 0x20]), &[Fault::Garbled]),
                (
                    state,
                    Trick::Garble([0; 13].into_iter().chain([4]).collect()),
                    &[Fault::Diverged],
                ),
                (
                    state,
                    Trick::Say("error line too long".into()),
                    &[Fault::Refused],
                ),
                (opp, Trick::Say("move 99 0".into()), &[Fault::Illegal]),
                (opp, Trick::Say(BANNER.into()), &[Fault::Reset]),
                // The line turned `opp K F` into another legal command.
                (
                    opp,
                    Trick::Rewrite(format!("opp {} {flag}", take - 1)),
                    &[Fault::Diverged],
                ),
            ];
            for (at, trick, faults) in tricks {
                let ctx = format!("{seat:?}: {trick:?} at {at} ({})", log[at]);
                let mut bench = Bench::new(FakeBoard::new().on(at, trick));
                bench.meet();
                bench.play(200, 4, seat, 7);
                let stats = bench.link.stats();
                let seen: u32 = faults.iter().map(|f| stats.count(*f)).sum();
                assert!(seen >= 1, "{ctx}: {stats:?}");
                assert_eq!(stats.host_moves, 0, "{ctx}");
                assert_eq!(stats.board_moves, bench.ours(), "{ctx}");
                assert!(stats.resyncs >= 1, "{ctx}: {stats:?}");
                assert!(bench.give_ups.is_empty(), "{ctx}");
            }
        }
    }

    #[test]
    fn a_late_answer_to_a_realignment_is_not_a_fault() {
        let log = clean_log(200, Player::Second, 9);
        let opp = (10..log.len())
            .find(|&i| log[i].starts_with("opp "))
            .unwrap();
        // The `opp` is lost; the first `version` after it is answered only after
        // the second: two `version` answers come in a row.
        let board = FakeBoard::new()
            .on(opp, Trick::Drop)
            .on(opp + 1, Trick::Late);
        let mut bench = Bench::new(board);
        bench.meet();
        bench.play(200, 4, Player::Second, 9);
        let stats = bench.link.stats();
        assert_eq!(stats.count(Fault::Silence), 2, "{stats:?}");
        assert_eq!(stats.total_faults(), 2, "{stats:?}");
        assert!(bench.give_ups.is_empty());
        assert_eq!(stats.board_moves, bench.ours());
    }

    #[test]
    fn a_won_claim_must_match_the_pile() {
        let log = clean_log(50, Player::First, 3);
        let go = log.iter().position(|l| l == "go").unwrap();
        let mut bench = Bench::new(FakeBoard::new().on(go, Trick::Say("move 1 0 won".into())));
        bench.meet();
        bench.play(50, 4, Player::First, 3);
        assert_eq!(bench.link.stats().count(Fault::Illegal), 1);
    }

    #[test]
    fn a_dead_board_leaves_moves_to_the_host_until_it_comes_back() {
        for seat in SEATS {
            let log = clean_log(300, seat, 11);
            let at = (10..log.len())
                .find(|&i| log[i].starts_with("opp "))
                .unwrap();
            let mut bench = Bench::new(FakeBoard::new().on(at, Trick::Die));
            bench.meet();
            let mut revived_at = None;
            bench.play_with(300, 4, seat, 11, |b, moves| {
                // Four of the bridge's moves by the host, then the board is back.
                if b.link.stats().host_moves == 4 && revived_at.is_none() {
                    revived_at = Some(moves);
                    let banner = b.board.revive();
                    b.inbox.extend(banner);
                }
            });
            let stats = bench.link.stats();
            assert!(revived_at.is_some(), "{seat:?}: {stats:?}");
            assert_eq!(stats.host_moves, 4, "{seat:?}: {stats:?}");
            // Three tries on the first failing question, one on each after it.
            assert_eq!(stats.count(Fault::Silence), 3 + 3, "{seat:?}: {stats:?}");
            assert_eq!(bench.give_ups, vec![Fault::Silence; 4]);
            // The host's moves cannot be replayed: the board answers `query`.
            assert!(stats.query_moves > 0, "{seat:?}: {stats:?}");
            assert_eq!(stats.board_moves + stats.host_moves, bench.ours());
            assert!(stats.describe().contains("the host 4 (after: no reply)"));
        }
    }

    #[test]
    fn a_board_that_only_says_wrong_things_is_given_up() {
        let mut board = FakeBoard::new();
        for at in 2..200 {
            board = board.on(at, Trick::Say("move 77 1".into()));
        }
        let mut bench = Bench::new(board);
        bench.meet();
        bench.play(100, 4, Player::Second, 5);
        assert!(!bench.give_ups.is_empty());
        // Its answers to `version` are wrong too, which leaves the realignment
        // waiting for one: silence.
        let wrong = [Fault::Illegal, Fault::Garbled, Fault::Silence];
        assert!(
            bench.give_ups.iter().all(|f| wrong.contains(f)),
            "{:?}",
            bench.give_ups
        );
        assert_eq!(bench.link.stats().board_moves, 0);
    }

    #[test]
    fn random_line_noise_never_gets_a_wrong_move_through() {
        let (mut faults, mut by_board, mut by_host) = (0, 0, 0);
        for seed in 0..24u64 {
            let mut rng = SplitMix64::new(seed);
            let mut board = FakeBoard::new();
            for at in 2..400 {
                if !rng.chance(0.06) {
                    continue;
                }
                let trick = match rng.below(6) {
                    0 => Trick::Drop,
                    1 => Trick::Late,
                    2 => Trick::Reset,
                    3 => {
                        let mut mask = vec![0u8; rng.below(12) as usize];
                        mask.push(1 << rng.below(8));
                        Trick::Garble(mask)
                    }
                    4 => Trick::Say(format!("move {} {}", rng.below(9), rng.below(2))),
                    _ => Trick::Say(
                        "state stones 1 limit 3 cap 3 resets 0 0 pending 0 turn opponent".into(),
                    ),
                };
                board = board.on(at, trick);
            }
            let mut bench = Bench::new(board);
            bench.meet();
            let seat = SEATS[seed as usize % 2];
            let n = 20 + 97 * seed as u32 % 980;
            // `play` checks every move against the board's engine.
            bench.play(n, 4, seat, seed);
            let stats = bench.link.stats();
            assert_eq!(stats.board_moves + stats.host_moves, bench.ours());
            faults += stats.total_faults();
            by_board += stats.board_moves;
            by_host += stats.host_moves;
        }
        // The noise was felt, and the board still played nearly everything.
        assert!(faults > 50, "{faults} faults");
        assert!(by_board > 20 * by_host, "board {by_board}, host {by_host}");
    }
}
