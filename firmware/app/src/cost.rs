//! What each command costs the processor: the `cost` build (feature `cost`), for
//! the QEMU benchmark (`tools/firmware.sh bench`), never flashed.
//!
//! The board supplies a free-running counter ([`Ticker`]) and a loop of a known
//! number of instructions ([`Ticker::spin`]); the read loop counts the ticks of each
//! command line's handling and, through [`Timed`], of each engine decision inside
//! it. Two diagnostics report them, answered before a line reaches the session:
//!
//! - `cost` → `cost line L decide D decisions K`: the ticks the previous command
//!   took (parsing, the opponent's move, the decision, the reply), the ticks of the
//!   `K` engine decisions in it (reading the position from the table and choosing
//!   the move; `K` is 1 after a `go` or an `opp` the bot answers, else 0);
//! - `cost spin N` → `cost spin T`: the ticks of a loop of exactly `2 N`
//!   instructions, so that the benchmark finds the ticks-to-instructions ratio
//!   itself instead of trusting a clock figure.
//!
//! Ticks are whatever the board's counter counts: in QEMU with `-icount shift=0`
//! (one nanosecond of virtual time per instruction), a counter on the core clock
//! counts instructions in steps of its clock period.

use core::cell::Cell;

use nimbot::{
    text::{parse_u32, Decimal},
    Evaluation, Limits,
};

use crate::line::{send, Part};
use crate::meter;
use nimbot::{DecideError, Decision, Engine, Params, Policy, Position};
use nimbot_protocol::Line;

/// A board's free-running counter and a loop of known length.
pub trait Ticker {
    /// The counter's width in bits (at most 32): an interval is measured exactly
    /// as long as it lasts fewer than `2^BITS` ticks.
    const BITS: u32;

    /// The counter now, counting up (a board whose counter counts down negates it).
    fn now(&self) -> u32;

    /// Execute a loop of exactly `2 * iterations` instructions (`iterations` at
    /// least 1) plus a fixed few around it.
    fn spin(&self, iterations: u32);
}

/// Ticks from `since` to now, modulo `2^T::BITS`.
fn elapsed<T: Ticker>(ticker: &T, since: u32) -> u32 {
    let mask = u32::MAX >> 32u32.saturating_sub(T::BITS);
    ticker.now().wrapping_sub(since) & mask
}

/// The figures of the last command, shared by the read loop and [`Timed`].
#[derive(Default)]
pub struct Costs {
    line: Cell<u32>,
    decide: Cell<u32>,
    decisions: Cell<u32>,
}

/// An engine whose decisions are timed: their ticks add up in [`Costs`].
pub struct Timed<'a, E, T> {
    engine: E,
    ticker: &'a T,
    costs: &'a Costs,
}

impl<'a, E: Engine, T: Ticker> Timed<'a, E, T> {
    /// `engine`, timed by `ticker` into `costs`.
    pub fn new(engine: E, ticker: &'a T, costs: &'a Costs) -> Self {
        Timed {
            engine,
            ticker,
            costs,
        }
    }
}

impl<E: Engine, T: Ticker> Engine for Timed<'_, E, T> {
    fn limits(&self) -> Limits {
        self.engine.limits()
    }

    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        self.engine.prepare(params)
    }

    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError> {
        let start = self.ticker.now();
        let decision = measured_decision(&mut self.engine, pos, policy);
        let ticks = elapsed(self.ticker, start);
        let costs = self.costs;
        costs.decide.set(costs.decide.get().saturating_add(ticks));
        costs.decisions.set(costs.decisions.get().saturating_add(1));
        decision
    }

    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        self.engine.evaluate(pos)
    }
}

/// The decision [`Timed`] times, kept out of line: the benchmark's trace check
/// (`qemu_bench.py --trace-check`) finds it in QEMU's instruction trace by this
/// name and counts its instructions a second way.
#[inline(never)]
fn measured_decision<E: Engine>(
    engine: &mut E,
    pos: &Position,
    policy: Policy,
) -> Result<Decision, DecideError> {
    engine.decide(pos, policy)
}

/// The read loop's side of the measurement: times each command line and answers
/// the `cost` diagnostics.
pub struct Meter<'a, T> {
    ticker: &'a T,
    costs: &'a Costs,
    start: u32,
}

impl<'a, T: Ticker> Meter<'a, T> {
    /// A meter reading `ticker`, reporting `costs`.
    pub fn new(ticker: &'a T, costs: &'a Costs) -> Self {
        Meter {
            ticker,
            costs,
            start: 0,
        }
    }
}

impl<T: Ticker> meter::Meter for Meter<'_, T> {
    fn diagnostic<W: embedded_io::Write>(&mut self, line: &Line<'_>, uart: &mut W) -> bool {
        let Line::Text(text) = line else {
            return false;
        };
        let mut words = text
            .split(|b| *b == b' ' || *b == b'\t')
            .filter(|w| !w.is_empty());
        if words.next() != Some(b"cost") {
            return false;
        }
        match (words.next(), words.next(), words.next()) {
            (None, _, _) => {
                let c = self.costs;
                send(
                    uart,
                    &[
                        Part::Bytes(b"cost line "),
                        Part::Bytes(&Decimal::new(c.line.get())),
                        Part::Bytes(b" decide "),
                        Part::Bytes(&Decimal::new(c.decide.get())),
                        Part::Bytes(b" decisions "),
                        Part::Bytes(&Decimal::new(c.decisions.get())),
                    ],
                );
            }
            (Some(b"spin"), Some(n), None) => match parse_u32(n).filter(|n| *n > 0) {
                Some(n) => {
                    let start = self.ticker.now();
                    self.ticker.spin(n);
                    let ticks = elapsed(self.ticker, start);
                    send(
                        uart,
                        &[
                            Part::Bytes(b"cost spin "),
                            Part::Bytes(&Decimal::new(ticks)),
                        ],
                    );
                }
                None => send(
                    uart,
                    &[Part::Bytes(b"error cost spin: N from 1 to 4294967295")],
                ),
            },
            _ => send(uart, &[Part::Bytes(b"error usage: cost | cost spin N")]),
        }
        true
    }

    fn begin(&mut self) {
        self.costs.decide.set(0);
        self.costs.decisions.set(0);
        self.start = self.ticker.now();
    }

    fn end(&mut self) {
        self.costs.line.set(elapsed(self.ticker, self.start));
    }
}
