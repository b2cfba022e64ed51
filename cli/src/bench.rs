//! `nimbot bench` (and `nimbot tournament --bench`): the command, its flags and
//! its printing are the crate `nimbot-bench`'s, with every benchmark.

pub use nimbot_bench::command::{load_bench, run, BenchArgs};
