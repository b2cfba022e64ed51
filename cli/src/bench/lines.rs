//! The JSON lines `nimbot bench` prints, shared by the solver's and the exploit
//! policy's benchmarks: the game box, repeated timings and per-call latency.

use nimbot_latency::median;
use serde::Serialize;

use crate::json;

/// The game box a benchmark line is about.
#[derive(Clone, Copy, Serialize)]
pub struct Size {
    pub stones: u32,
    pub resets: u8,
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
        let ms = |x: Option<&f64>| json::round(x.copied().unwrap_or(f64::NAN), 3);
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
        let us = |x: f64| json::round(x, 3);
        Latency {
            median_us: us(median),
            p99_us: us(p99),
            worst_us: us(worst),
            raw_max_us: us(raw_max),
        }
    }
}

/// A line of repeated timings.
#[derive(Serialize)]
pub struct RunsLine {
    pub bench: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<&'static str>,
    #[serde(flatten)]
    pub size: Size,
    #[serde(flatten)]
    pub runs: Runs,
}

/// A decision-latency line over `positions` positions.
#[derive(Serialize)]
pub struct DecideLine {
    pub bench: &'static str,
    #[serde(flatten)]
    pub size: Size,
    pub positions: usize,
    #[serde(flatten)]
    pub timing: Latency,
}
