//! Progress bars on stderr for long runs; hidden when stderr is not a terminal or
//! the user asked for quiet.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar counting `total` items of work, labelled `what`.
pub fn bar(total: u64, what: &str, quiet: bool) -> ProgressBar {
    let pb = ProgressBar::with_draw_target(Some(total), target(quiet));
    pb.set_style(
        ProgressStyle::with_template(
            "{msg:>10} [{bar:40}] {percent:>3}% {human_pos}/{human_len} eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    pb.set_message(what.to_owned());
    pb
}

fn target(quiet: bool) -> ProgressDrawTarget {
    if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    }
}

/// Peak resident memory of this process in bytes (Linux), for reports.
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
