//! The command line's JSON output: every JSON line a command prints (arena,
//! analyze, the tournament's files; `nimbot bench`'s too, from its own crate) is
//! a `Serialize` struct written by [`line()`], `nimbot_analysis::vocab`'s one
//! writer of JSON lines.

use serde::Serialize;

pub use nimbot_analysis::vocab::line;

/// Print `value` as one line of JSON on stdout.
pub fn print<T: Serialize>(value: &T) {
    print!("{}", line(value));
}
