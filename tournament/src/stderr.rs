//! What a bot writes to stderr in a game: the first megabyte kept on disk (made
//! at the first byte, so a silent bot leaves no file), the tail kept in the
//! results, and the last line the ending quotes.

use std::fs::File;
use std::io::{Read, Write};
use std::path::PathBuf;

/// Whole stderr kept on disk per bot and game; the tail kept in the results.
const STDERR_CAP: u64 = 1 << 20;
const TAIL: usize = 2000;
/// Read a bot's stderr to the end: the first [`STDERR_CAP`] bytes to `path`
/// (made at the first byte: a bot that writes nothing leaves no file), the last
/// [`TAIL`] bytes and the length returned.
pub(crate) fn drain(mut from: impl Read, path: PathBuf) -> (String, u64) {
    let mut file: Option<File> = None;
    let mut tail: Vec<u8> = Vec::new();
    let mut total = 0u64;
    let mut buf = [0u8; 8192];
    while let Ok(n) = from.read(&mut buf) {
        if n == 0 {
            break;
        }
        let chunk = &buf[..n];
        if total == 0 {
            file = File::create(&path).ok();
        }
        if total < STDERR_CAP {
            if let Some(f) = file.as_mut() {
                let keep = (STDERR_CAP - total).min(n as u64) as usize;
                let _ = f.write_all(&chunk[..keep]);
            }
        }
        total += n as u64;
        tail.extend_from_slice(chunk);
        if tail.len() > 4 * TAIL {
            tail.drain(..tail.len() - TAIL);
        }
    }
    if tail.len() > TAIL {
        tail.drain(..tail.len() - TAIL);
    }
    (String::from_utf8_lossy(&tail).into_owned(), total)
}

/// The last non-empty line of a bot's stderr, for the ending's text.
pub(crate) fn last_line(tail: &str) -> Option<String> {
    tail.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| l.chars().take(160).collect())
}
