//! [`BoardEngine`]: the board as the tournament clients' engine. The clients
//! (`nimbot_platform`'s TCP and text clients) ask an [`Engine`] for the move in a
//! position; this one recovers the opponent's move since its last answer (the only
//! move from the position it left that leads to the one asked about), hands the
//! game to the [`Link`] and moves bytes between the link and the [`Port`]: the thin
//! std adapter around the link's state machine. It owns the clocks: the reply
//! timeout, and a budget of time a failing board may cost over a game.
//!
//! It lives in the library, not the CLI, so that tests and other front ends can
//! put a board in a game with [`BoardOptions`]; what goes wrong comes back as a
//! one-line message, and the caller decides how to say it and with what status.

use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use nimbot::{
    DecideError, Decision, Engine, Evaluation, Limits, Move, Params, Player, Policy, Position,
};
use nimbot_solve::TableOrSolverEngine;

use crate::device::{Device, Port};
use crate::link::{BoardInfo, Fault, Link, Out, PROTOCOLS};
/// Pause between attempts to reopen a lost device.
const REOPEN_PAUSE: Duration = Duration::from_millis(50);

/// What the bridge does with a move the board fails to give: the counted moves are
/// in [`BoardEngine::describe`], a forfeit's reason in [`BoardEngine::forfeited`].
/// With the feature `clap` it is also the value of the CLI's `--board-fallback`,
/// and the variants' docs are its help text (hence the exit status named there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Fallback {
    /// The host plays it from its own engine; the summary line counts such moves.
    Host,
    /// Give up the game (exit status 3) rather than send a move the board did not
    /// choose.
    Forfeit,
}

/// How to reach a board and how patient to be with it: plain values, so that a
/// caller other than the command line (a test, another front end) can drive a
/// board without clap; the CLI checks its flags and fills this in.
#[derive(Clone, Debug)]
pub struct BoardOptions {
    /// Where the board is.
    pub device: Device,
    /// Faults allowed on one move before the fallback plays it (at least 1; the
    /// meeting gets twice as many).
    pub tries: u32,
    /// How long to wait for each reply.
    pub timeout: Duration,
    /// The time of the game's clock a failing board may cost in all; zero: no limit.
    pub budget: Duration,
    /// Write the conversation to this file ([`Port::log_to`]).
    pub log: Option<PathBuf>,
    /// What to do with a move the board fails to give.
    pub fallback: Fallback,
}

/// A board on a serial line or socket, as an [`Engine`].
pub struct BoardEngine {
    port: Port,
    link: Link,
    info: BoardInfo,
    seat: Player,
    /// Values, and the moves the board fails to give.
    host: TableOrSolverEngine<'static>,
    fallback: Fallback,
    timeout: Duration,
    budget: Duration,
    /// Time spent on questions that met a fault, this game.
    spent: Duration,
    /// The board's table covers the current game.
    covered: bool,
    /// Why the bridge gave up the game ([`Fallback::Forfeit`]).
    forfeit: Option<String>,
}

impl BoardEngine {
    /// Open the board's device and meet it: it must answer `version` and
    /// `limits` and speak a protocol the bridge knows.
    ///
    /// # Errors
    /// Why the board cannot play, one line naming the device, before the caller
    /// takes a seat anywhere.
    pub fn meet(
        options: &BoardOptions,
        policy: Policy,
        seat: Player,
    ) -> Result<BoardEngine, String> {
        let device = &options.device;
        let mut port = Port::open(device.clone())
            .map_err(|e| format!("cannot open the board at {device}: {e}"))?;
        if let Some(path) = &options.log {
            let file = std::fs::File::create(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            port.log_to(file);
        }
        let mut link = Link::new(options.tries, policy.as_str());
        let first = link.meet();
        let info = match drive(&mut port, &mut link, options.timeout, None, first) {
            Out::Met(info) => info,
            Out::GiveUp(why) => {
                return Err(format!(
                    "the board at {device} does not answer the line protocol ({why} to `version`/`limits`, {} tries of {} s)",
                    link.meeting_tries(), options.timeout.as_secs_f64()
                ))
            }
            other => return Err(format!("the board at {device}: unexpected {other:?}")),
        };
        if !PROTOCOLS.contains(&info.protocol) {
            return Err(format!(
                "the board at {device} ({}) speaks protocol {}; this bridge speaks {} to {}",
                info.software,
                info.protocol,
                PROTOCOLS.start(),
                PROTOCOLS.end()
            ));
        }
        Ok(BoardEngine {
            port,
            link,
            info,
            seat,
            host: TableOrSolverEngine::embedded(),
            fallback: options.fallback,
            timeout: options.timeout,
            budget: options.budget,
            spent: Duration::ZERO,
            covered: true,
            forfeit: None,
        })
    }

    /// Check what is known of the game before joining: M always, N and R when the
    /// caller knows them.
    ///
    /// # Errors
    /// A game the board's table does not cover: one line naming the game, the
    /// device and what its table covers.
    pub fn check(
        &self,
        stones: Option<u32>,
        resets: Option<u8>,
        init_max: u32,
    ) -> Result<(), String> {
        let limits = self.info.limits;
        let fits = stones.is_none_or(|n| n <= limits.max_stones)
            && resets.is_none_or(|r| u32::from(r) <= limits.max_resets)
            && limits.init_max.is_none_or(|m| m == init_max);
        if fits {
            return Ok(());
        }
        let mut game = String::new();
        if let Some(n) = stones {
            game.push_str(&format!("N = {n}, "));
        }
        if let Some(r) = resets {
            game.push_str(&format!("R = {r}, "));
        }
        game.push_str(&format!("M = {init_max}"));
        Err(format!(
            "the board at {} cannot play this game ({game}): its table covers {limits}",
            self.port.device()
        ))
    }

    /// The bridge's part of the game's summary line.
    pub fn describe(&self) -> String {
        let mut s = self.link.stats().describe();
        if !self.covered {
            s.push_str(" (the board's table does not cover this game)");
        }
        if self.remaining() == Some(Duration::ZERO) {
            s.push_str(&format!(
                " (the board's {} s budget for faults ran out)",
                self.budget.as_secs_f64()
            ));
        }
        s
    }

    /// Why the bridge gave up the game ([`Fallback::Forfeit`]).
    pub fn forfeited(&self) -> Option<&str> {
        self.forfeit.as_deref()
    }

    /// Bring the record up to `pos`: the opponent's move since the bridge's last
    /// one. `false` if `pos` does not follow from the record.
    fn follow(&mut self, pos: &Position) -> bool {
        let Some(record) = self.link.record() else {
            return false;
        };
        let game = *record.game();
        if game.to_move() == self.seat {
            return game.position().as_ref() == Some(pos);
        }
        let Some(take) = game.stones().checked_sub(pos.stones()) else {
            return false;
        };
        let mv = Move::new(take, pos.reset_pending());
        let mut next = game;
        if next.play(self.seat.other(), mv).is_err() || next.position().as_ref() != Some(pos) {
            return false;
        }
        self.link.opponent(mv).is_ok()
    }

    /// The board's move for the record's position, or the fallback's.
    fn board_move(&mut self, pos: &Position, policy: Policy) -> Result<Move, DecideError> {
        self.take_idle_lines();
        let remaining = self.remaining();
        let mut out = if remaining == Some(Duration::ZERO) {
            self.link.give_up()
        } else {
            self.link.ask()
        };
        let started = Instant::now();
        out = drive(&mut self.port, &mut self.link, self.timeout, remaining, out);
        if self.link.tries() > 0 || matches!(out, Out::GiveUp(_)) {
            self.spent += started.elapsed();
        }
        match out {
            Out::Moved(mv) => Ok(mv),
            Out::GiveUp(why) => self.fall_back(pos, policy, why),
            _ => self.fall_back(pos, policy, Fault::Diverged),
        }
    }

    /// What is left of the time a failing board may cost this game (`None`: no
    /// limit: a zero budget).
    fn remaining(&self) -> Option<Duration> {
        (!self.budget.is_zero()).then(|| self.budget.saturating_sub(self.spent))
    }

    /// The board failed this move: the host plays it, or the game is given up.
    fn fall_back(
        &mut self,
        pos: &Position,
        policy: Policy,
        why: Fault,
    ) -> Result<Move, DecideError> {
        if self.fallback == Fallback::Forfeit {
            self.forfeit = Some(format!("the board failed: {why}"));
            return Err(DecideError::OutOfRange);
        }
        self.host_move(pos, policy)
    }

    /// The host's own move, in the record as the host's.
    fn host_move(&mut self, pos: &Position, policy: Policy) -> Result<Move, DecideError> {
        let mut mv = self.host.decide(pos, policy)?.mv;
        if mv.take >= pos.stones() {
            mv.reset = false;
        }
        // A record that no longer follows the game (the client asked about a
        // position it does not lead to) leaves every later move to the host too.
        let _ = self.link.host_moved(mv);
        Ok(mv)
    }

    /// Lines that arrived while the opponent was thinking (a reset's banner, a
    /// reply to nothing) tell the link the board is out of step.
    fn take_idle_lines(&mut self) {
        match self.port.ready_lines() {
            Ok(lines) => {
                for line in lines {
                    self.link.on_idle_line(&line);
                }
            }
            Err(_) => {
                let _ = self.port.reopen();
                self.link.on_idle_line("(device lost)");
            }
        }
    }
}

impl Engine for BoardEngine {
    fn limits(&self) -> Limits {
        let l = self.info.limits;
        Limits {
            max_stones: l.max_stones,
            max_resets: u8::try_from(l.max_resets).unwrap_or(u8::MAX),
            init_max: l.init_max,
        }
    }

    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        self.host.prepare(params)?;
        self.link.begin(*params, self.seat);
        self.spent = Duration::ZERO;
        self.covered = self.info.limits.covers(params);
        if !self.covered && self.fallback == Fallback::Forfeit {
            self.forfeit = Some(format!(
                "the board's table covers {}, not N = {}, R = {}, M = {}",
                self.info.limits,
                params.stones(),
                params.resets(),
                params.init_max()
            ));
            return Err(DecideError::OutOfRange);
        }
        Ok(())
    }

    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError> {
        let value = self.host.decide(pos, Policy::First)?.value;
        let mv = if !self.covered {
            self.follow(pos);
            self.host_move(pos, policy)?
        } else if self.follow(pos) {
            self.board_move(pos, policy)?
        } else {
            // The client asked about a position the record does not lead to (it
            // never does): nothing to replay, the host answers.
            self.fall_back(pos, policy, Fault::Diverged)?
        };
        Ok(Decision { mv, value })
    }

    /// Values and distances are the host's (the board has no distances).
    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        self.host.evaluate(pos)
    }
}

/// Run the link over the port until it settles (met, moved or given up): every
/// command gets `timeout` for its reply; a lost device is reopened until then.
/// With a `budget`, no new command is sent after a fault once the question has
/// taken that long.
fn drive(
    port: &mut Port,
    link: &mut Link,
    timeout: Duration,
    budget: Option<Duration>,
    mut out: Out,
) -> Out {
    let started = Instant::now();
    let mut deadline = started + timeout;
    loop {
        out = match out {
            Out::Send(text) => {
                if link.tries() > 0 && budget.is_some_and(|b| started.elapsed() >= b) {
                    return link.give_up();
                }
                deadline = Instant::now() + timeout;
                match port.send_line(&text) {
                    Ok(()) => read(port, link, deadline),
                    Err(_) => lost(port, link, deadline),
                }
            }
            Out::Wait => read(port, link, deadline),
            settled => return settled,
        };
    }
}

fn read(port: &mut Port, link: &mut Link, deadline: Instant) -> Out {
    match port.read_line(deadline) {
        Ok(Some(line)) => link.on_line(&line),
        Ok(None) => link.on_silence(),
        Err(_) => lost(port, link, deadline),
    }
}

/// The device failed: reopen it (an unplugged board, a restarted emulator), trying
/// until `deadline`.
fn lost(port: &mut Port, link: &mut Link, deadline: Instant) -> Out {
    while port.reopen().is_err() && Instant::now() < deadline {
        thread::sleep(REOPEN_PAUSE);
    }
    link.on_lost()
}
