//! The one JSON writer of the host: every JSON line a command prints (bench, arena,
//! analyze) and every line of a game record ([`crate::record`]) is a `Serialize`
//! struct written by [`line()`], so that names are escaped and numbers spelled by
//! one serializer, never by hand.

use serde::Serialize;

/// `value` as one line of JSON, with its newline.
pub fn line<T: Serialize>(value: &T) -> String {
    // Structs of numbers, strings, options and arrays always serialize.
    let mut text = serde_json::to_string(value).expect("a JSON line serializes");
    text.push('\n');
    text
}

/// Print `value` as one line of JSON on stdout.
pub fn print<T: Serialize>(value: &T) {
    print!("{}", line(value));
}

/// `x` rounded to `places` decimals: figures keep the precision they are measured
/// to (JSON prints the shortest spelling, e.g. 0.25 for 0.2500).
pub fn round(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}
