//! The pre-flight: before a tournament (or alone, `--check`), each bot plays one
//! short game against nimbot in each seat, with the tournament's rules, so that a
//! bot that cannot start, join or move is found before it loses forty games.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread;

use crate::engine::Bot;
use crate::game::{self, EndKind, Pairing, Played, Rules};

/// The pile of a check game: long enough for a few moves from each seat.
const CHECK_STONES: u32 = 10;

/// One bot's failed check (or, not `fatal`, a finding that lets it play): its seat
/// and what happened.
pub struct Failure {
    pub bot: String,
    pub seat: usize,
    pub text: String,
    /// The bot cannot play; else a note (an illegal move that `current_max`'s other
    /// meaning would have allowed: the tournament likely speaks the wrong server).
    pub fatal: bool,
}

/// Whether `g` shows the bot in `seat` unable to start, join or move (losing by
/// the moves, even an illegal one, is a bot that works).
fn failed(g: &Played, seat: usize) -> bool {
    match g.ending.kind {
        EndKind::Won | EndKind::IllegalMove | EndKind::TooManyResets => false,
        EndKind::NoResult => true,
        _ => g.ending.seat == Some(seat as u8),
    }
}

/// Play the check games of `bots` in `dir` (`records/` and `stderr/` made there),
/// `concurrency` at once; the bots that failed, in `--bot` order.
pub fn run(
    bots: &[Bot],
    rules: &Rules,
    dir: &Path,
    concurrency: usize,
    isolated: bool,
) -> Result<Vec<Failure>, String> {
    for sub in ["records", "stderr"] {
        std::fs::create_dir_all(dir.join(sub))
            .map_err(|e| format!("cannot create {}: {e}", dir.join(sub).display()))?;
    }
    let nimbot = Bot::parse("check-nimbot=nimbot").map_err(|e| e.to_string())?;
    let mut field: Vec<Bot> = bots.to_vec();
    field.push(nimbot);
    let judge = field.len() - 1;
    let mut todo = Vec::new();
    for b in 0..bots.len() {
        for bots in [[b, judge], [judge, b]] {
            todo.push(Pairing {
                game: todo.len() + 1,
                stones: CHECK_STONES,
                bots,
            });
        }
    }
    let queue = Arc::new(Mutex::new(todo));
    let results = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..concurrency.max(1))
        .map(|_| {
            let (queue, results) = (queue.clone(), results.clone());
            let (field, rules, dir) = (field.clone(), rules.clone(), dir.to_owned());
            thread::spawn(move || loop {
                let next = queue.lock().ok().and_then(|mut q| q.pop());
                let Some(p) = next else { return };
                let g = game::play(&p, &field, &rules, &dir, isolated);
                if let Ok(mut r) = results.lock() {
                    r.push(g);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    let mut games = results.lock().map(|r| r.clone()).unwrap_or_default();
    games.sort_by_key(|g| g.game);
    let mut out = Vec::new();
    for g in &games {
        for seat in 0..2 {
            let other_meaning = g.ending.kind == EndKind::IllegalMove
                && g.ending.seat == Some(seat as u8)
                && g.ending.other_meaning;
            if g.bots[seat] != judge && !failed(g, seat) && other_meaning {
                out.push(Failure {
                    bot: field[g.bots[seat]].name.clone(),
                    seat,
                    text: g.ending.text.clone(),
                    fatal: false,
                });
            }
            if g.bots[seat] != judge && failed(g, seat) {
                let tail = g.stderr_tail[seat].trim();
                let said = tail.lines().count() == 1 && g.ending.text.contains(tail);
                let stderr = if tail.is_empty() || said {
                    String::new()
                } else {
                    let last: Vec<&str> = tail.lines().rev().take(5).collect();
                    let last: Vec<&str> = last.into_iter().rev().collect();
                    format!("\n    its stderr ends:\n      {}", last.join("\n      "))
                };
                out.push(Failure {
                    bot: field[g.bots[seat]].name.clone(),
                    seat,
                    text: format!("{}: {}{stderr}", g.ending.kind.word(), g.ending.text),
                    fatal: true,
                });
            }
        }
    }
    out.sort_by_key(|f| bots.iter().position(|b| b.name == f.bot));
    Ok(out)
}

/// The pre-flight's findings as the organizer reads them: a line a bot (`ok in
/// both seats`, unless `quiet`) or a failed seat with what happened, a hint for
/// a merged read without `--pace`, and the verdict; whether every bot passed.
pub fn findings(bots: &[Bot], failures: &[Failure], pace_ms: u64, quiet: bool) -> (String, bool) {
    use std::fmt::Write as _;
    let mut out = String::new();
    let seat_word = |f: &Failure| if f.seat == 0 { "first" } else { "second" };
    for b in bots {
        let fatal: Vec<&Failure> = failures
            .iter()
            .filter(|f| f.bot == b.name && f.fatal)
            .collect();
        if fatal.is_empty() && !quiet {
            let _ = writeln!(out, "  {}: ok in both seats", b.name);
        }
        for f in fatal {
            let _ = writeln!(
                out,
                "  {} FAILED in the {} seat: {}",
                b.name,
                seat_word(f),
                f.text
            );
        }
        for f in failures.iter().filter(|f| f.bot == b.name && !f.fatal) {
            let _ = writeln!(
                out,
                "  {} lost in the {} seat by a move the other current_max would allow: {}",
                b.name,
                seat_word(f),
                f.text
            );
        }
    }
    if failures.iter().any(|f| f.text.contains("Extra data")) && pace_ms == 0 {
        out.push_str("  (\"Extra data\": a client that reads each message with one recv got two at once; --pace 30 keeps them apart)\n");
    }
    let failed: Vec<&str> = bots
        .iter()
        .filter(|b| failures.iter().any(|f| f.bot == b.name && f.fatal))
        .map(|b| b.name.as_str())
        .collect();
    if failed.is_empty() {
        return (out, true);
    }
    let _ = writeln!(
        out,
        "nimbot tournament: {} of {} bots failed the check; nothing was played (fix their commands, or admit them unchecked with --no-check={})",
        failed.len(),
        bots.len(),
        failed.join(",")
    );
    (out, false)
}

/// The pre-flight of `plan` in a scratch directory (removed after): [`run`],
/// then its [`findings`] and whether every bot passed.
///
/// # Errors
/// The scratch directory cannot hold the check games.
pub fn preflight(
    plan: &crate::store::Plan,
    concurrency: usize,
    isolated: bool,
    quiet: bool,
) -> Result<(String, bool), String> {
    let bots = checked(plan);
    if bots.is_empty() {
        return Ok((String::new(), true));
    }
    let dir = std::env::temp_dir().join(format!("nimbot-check-{}", std::process::id()));
    let failures = run(&bots, &plan.rules, &dir, concurrency, isolated);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(findings(&bots, &failures?, plan.rules.pace_ms, quiet))
}

/// The bots of `plan` the pre-flight plays (all but its `unchecked`).
pub fn checked(plan: &crate::store::Plan) -> Vec<Bot> {
    plan.bots
        .iter()
        .filter(|b| !plan.unchecked.contains(&b.name))
        .cloned()
        .collect()
}
