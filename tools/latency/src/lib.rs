//! Per-call latency over a set of inputs (positions, game snapshots), shared by
//! every benchmark of `nimbot bench` (the crate `nimbot-bench`, bench/): one way of
//! timing, so their figures compare.

use std::time::Instant;

/// The middle of sorted samples (NaN if there are none).
pub fn median(sorted: &[f64]) -> f64 {
    sorted.get(sorted.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Per-input latency of `call` over `inputs`: (median, p99, worst, raw max) in
/// microseconds. The worst is re-timed: the 64 slowest inputs, each the best of 5
/// batches of 20 calls, so one interrupt does not pass for an input's cost.
pub fn latency<T>(inputs: &[T], call: impl Fn(&T)) -> (f64, f64, f64, f64) {
    latency_of(inputs, 64, 20, call)
}

/// Per-item latency of `call` over `items`, as [`latency`], with the worst re-timed
/// over the `slowest` slowest items, each the best of 5 batches of `batch` calls.
pub fn latency_of<T>(
    items: &[T],
    slowest: usize,
    batch: u32,
    call: impl Fn(&T),
) -> (f64, f64, f64, f64) {
    let mut samples: Vec<(f64, usize)> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let t = Instant::now();
        call(item);
        samples.push((t.elapsed().as_nanos() as f64 / 1e3, i));
    }
    let mut sorted: Vec<f64> = samples.iter().map(|s| s.0).collect();
    sorted.sort_by(f64::total_cmp);
    let raw_max = sorted.last().copied().unwrap_or(0.0);
    let p99 = sorted.get(sorted.len() * 99 / 100).copied().unwrap_or(0.0);
    samples.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut worst: f64 = 0.0;
    for &(_, i) in samples.iter().take(slowest) {
        let item = &items[i];
        let best = (0..5)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..batch {
                    call(item);
                }
                t.elapsed().as_nanos() as f64 / f64::from(batch) / 1e3
            })
            .fold(f64::INFINITY, f64::min);
        worst = worst.max(best);
    }
    (median(&sorted), p99, worst, raw_max)
}
