//! The JSON lines of the benchmarks, shared by the solver's and the exploit
//! policy's benchmarks: the game box, repeated timings and per-call latency.

use nimbot::Policy;
use nimbot_engine::matrix::round;
use nimbot_latency::median;
use serde::Serialize;

/// The game box a benchmark line is about.
#[derive(Clone, Copy, Serialize)]
pub struct Size {
    /// The largest pile.
    pub stones: u32,
    /// Resets per player.
    pub resets: u8,
    /// The initial maximum M.
    pub init_max: u32,
}

/// Repeated timings in milliseconds: their count, median, fastest and slowest.
#[derive(Serialize)]
pub struct Runs {
    runs: usize,
    ms: f64,
    ms_min: f64,
    ms_max: f64,
}

impl Runs {
    /// The summary of `times` (at least one), which it sorts.
    pub fn of(times: &mut [f64]) -> Runs {
        times.sort_by(f64::total_cmp);
        let ms = |x: Option<&f64>| round(x.copied().unwrap_or(f64::NAN), 3);
        Runs {
            runs: times.len(),
            ms: ms(Some(&median(times))),
            ms_min: ms(times.first()),
            ms_max: ms(times.last()),
        }
    }
}

/// Per-call latency in microseconds (see `nimbot_latency::latency`).
#[derive(Serialize)]
pub struct Latency {
    median_us: f64,
    p99_us: f64,
    worst_us: f64,
    raw_max_us: f64,
}

impl Latency {
    /// From `(median, p99, worst, raw max)`.
    pub fn of((median, p99, worst, raw_max): (f64, f64, f64, f64)) -> Latency {
        let us = |x: f64| round(x, 3);
        Latency {
            median_us: us(median),
            p99_us: us(p99),
            worst_us: us(worst),
            raw_max_us: us(raw_max),
        }
    }
}

/// A line about one game box: the benchmark, the policy when it measures one, the
/// box, and what it measured (`T`: [`Runs`], [`Decided`] or [`Solved`]), in that
/// order of keys.
#[derive(Serialize)]
pub struct BoxLine<T> {
    bench: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    policy: Option<&'static str>,
    #[serde(flatten)]
    size: Size,
    #[serde(flatten)]
    measured: T,
}

impl<T> BoxLine<T> {
    /// The line of `bench` on the box `size`, about no policy.
    pub fn new(bench: &'static str, size: Size, measured: T) -> Self {
        BoxLine {
            bench,
            policy: None,
            size,
            measured,
        }
    }

    /// The same line, about `policy`.
    pub fn policy(self, policy: Policy) -> Self {
        BoxLine {
            policy: Some(policy.as_str()),
            ..self
        }
    }
}

/// Decision latency over `positions` positions.
#[derive(Serialize)]
pub struct Decided {
    pub(crate) positions: usize,
    #[serde(flatten)]
    pub(crate) timing: Latency,
}

/// The solver's speed: the positions it stores, its timings, and the median's
/// nanoseconds a position.
#[derive(Serialize)]
pub struct Solved {
    pub(crate) states: u64,
    #[serde(flatten)]
    pub(crate) runs: Runs,
    pub(crate) ns_per_state: f64,
}

/// A line a benchmark hands its caller, which prints it as one JSON line.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Line {
    /// Repeated timings.
    Runs(BoxLine<Runs>),
    /// Decision latency.
    Decide(BoxLine<Decided>),
    /// The solver's speed.
    Solve(BoxLine<Solved>),
    /// Super-Nim's solver's speed.
    SuperNim(SuperNimLine),
}

/// Super-Nim's solver's speed.
#[derive(Serialize)]
pub struct SuperNimLine {
    bench: &'static str,
    cap: u32,
    starts: usize,
    nodes: u64,
    entries: usize,
    seconds_median: f64,
    nodes_per_second: f64,
}

impl SuperNimLine {
    /// The line of `starts` solved to `cap`, `nodes` searched and `entries` kept a
    /// run, from the runs' `times` in seconds (at least one), which it sorts.
    pub fn of(cap: u32, starts: usize, nodes: u64, entries: usize, times: &mut [f64]) -> Self {
        times.sort_by(f64::total_cmp);
        let seconds = median(times);
        SuperNimLine {
            bench: "supernim-solver",
            cap,
            starts,
            nodes,
            entries,
            seconds_median: round(seconds, 3),
            nodes_per_second: (nodes as f64 / seconds).round(),
        }
    }
}
