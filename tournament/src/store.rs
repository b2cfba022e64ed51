//! A tournament on disk: `tournament.json` (the bots, rules and schedule: what
//! `--resume` continues), `results.jsonl` (one line per finished game, appended
//! and fsynced as each game ends), `records/` (each game's record, for `nimbot
//! analyze`), `stderr/` (each bot's stderr per game) and `report.html`.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::Bot;
use crate::game::{Pairing, Played, Rules};

/// The format of `tournament.json` and `results.jsonl`.
pub const FORMAT: u32 = 1;

/// What a tournament is: enough to play it again from scratch, or to resume it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Plan {
    pub format: u32,
    pub bots: Vec<Bot>,
    pub rules: Rules,
    /// `round-robin` or `gauntlet` (the first bot against each other).
    pub mode: String,
    /// The seed the N values were drawn with (`null`: a list was given).
    pub seed: Option<u64>,
    /// `[elo0, elo1, alpha, beta]`.
    pub sprt: Option<[f64; 4]>,
    /// The event's name, for the report and the summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    pub schedule: Vec<Pairing>,
    /// The bots the pre-flight skips (`--no-check`, `--no-check=NAME`), also when
    /// the tournament is resumed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unchecked: Vec<String>,
}

/// The tournament's directory.
pub struct Store {
    pub dir: PathBuf,
    results: File,
    /// `DIR/lock`, locked while this run holds the directory.
    _lock: File,
}

/// Take `DIR/lock` (created with the directory), so that no two runs play into one
/// directory; released when the run ends, however it ends.
fn lock(dir: &Path) -> Result<File, String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join("lock");
    let mut f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    match try_lock(&f) {
        Ok(true) => {
            let _ = f.set_len(0);
            let _ = f.write_all(format!("{}\n", std::process::id()).as_bytes());
            Ok(f)
        }
        Ok(false) => {
            let mut pid = String::new();
            let _ = f.read_to_string(&mut pid);
            Err(format!(
                "{} is in use by another nimbot tournament (process {}); wait for it to end, or choose another --out",
                dir.display(),
                pid.trim()
            ))
        }
        Err(e) => Err(format!("cannot lock {}: {e}", path.display())),
    }
}

/// An exclusive `flock` on `f` without waiting: `false` if another holds it. One of
/// the tournament's system-call boundaries (the workspace denies `unsafe`
/// elsewhere; `File::try_lock` is newer than the workspace's Rust).
#[allow(unsafe_code)]
fn try_lock(f: &File) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock(2) on a descriptor this File owns for the call's length; it
    // touches no memory of ours. The lock goes with the descriptor.
    if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.kind() == std::io::ErrorKind::WouldBlock {
        Ok(false)
    } else {
        Err(e)
    }
}

fn results_path(dir: &Path) -> PathBuf {
    dir.join("results.jsonl")
}

fn holds_one(dir: &Path) -> Result<(), String> {
    if dir.join("tournament.json").exists() {
        return Err(format!(
            "{} already holds a tournament: --resume continues it, or choose another --out",
            dir.display()
        ));
    }
    Ok(())
}

impl Store {
    /// Whether a new tournament can go to `dir` ([`Store::create`]'s refusals,
    /// told before the pre-flight): no tournament there, none playing into it.
    ///
    /// # Errors
    /// What is in the way, in the command line's words.
    pub fn available(dir: &Path) -> Result<(), String> {
        if let Ok(f) = OpenOptions::new().read(true).open(dir.join("lock")) {
            let mut f = f;
            if let Ok(false) = try_lock(&f) {
                let mut pid = String::new();
                let _ = f.read_to_string(&mut pid);
                return Err(format!(
                    "{} is in use by another nimbot tournament (process {}); wait for it to end, or choose another --out",
                    dir.display(),
                    pid.trim()
                ));
            }
        }
        holds_one(dir)
    }

    /// A new tournament in `dir` (created; it must not hold one already).
    pub fn create(dir: &Path, plan: &Plan) -> Result<Store, String> {
        let lock = lock(dir)?;
        holds_one(dir)?;
        for sub in ["records", "stderr"] {
            fs::create_dir_all(dir.join(sub))
                .map_err(|e| format!("cannot create {}: {e}", dir.join(sub).display()))?;
        }
        let text = serde_json::to_string_pretty(plan).map_err(|e| e.to_string())?;
        write_synced(&dir.join("tournament.json"), text.as_bytes())?;
        let results = File::create(results_path(dir))
            .map_err(|e| format!("cannot create {}: {e}", results_path(dir).display()))?;
        sync_dir(dir);
        Ok(Store {
            dir: dir.to_owned(),
            results,
            _lock: lock,
        })
    }

    /// The tournament in `dir` and the games already finished. A last line cut
    /// short by a kill is dropped (that game is played again).
    pub fn resume(dir: &Path) -> Result<(Store, Plan, Vec<Played>), String> {
        if !dir.join("tournament.json").exists() {
            return Err(format!("{} holds no tournament to resume", dir.display()));
        }
        let lock = lock(dir)?;
        let plan_path = dir.join("tournament.json");
        let text = fs::read_to_string(&plan_path)
            .map_err(|e| format!("cannot read {}: {e}", plan_path.display()))?;
        let plan: Plan =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", plan_path.display()))?;
        if plan.format != FORMAT {
            return Err(format!(
                "{}: format {} (this nimbot reads {FORMAT})",
                plan_path.display(),
                plan.format
            ));
        }
        for sub in ["records", "stderr"] {
            let _ = fs::create_dir_all(dir.join(sub));
        }
        let path = results_path(dir);
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let mut raw = String::new();
        file.read_to_string(&mut raw)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut done: Vec<Played> = Vec::new();
        let mut good = 0usize;
        for line in raw.split_inclusive('\n') {
            if !line.ends_with('\n') {
                break;
            }
            match serde_json::from_str::<Played>(line) {
                Ok(p) => {
                    if !done.iter().any(|d| d.game == p.game) {
                        done.push(p);
                    }
                    good += line.len();
                }
                Err(_) => break,
            }
        }
        if good < raw.len() {
            // Cut the unfinished tail, so that the file stays one game a line.
            file.set_len(good as u64)
                .map_err(|e| format!("cannot truncate {}: {e}", path.display()))?;
            let _ = file.seek(SeekFrom::End(0));
            let _ = file.sync_all();
        }
        Ok((
            Store {
                dir: dir.to_owned(),
                results: file,
                _lock: lock,
            },
            plan,
            done,
        ))
    }

    /// Append a finished game and make it durable before going on.
    pub fn append(&mut self, game: &Played) -> Result<(), String> {
        let line = nimbot_analysis::vocab::line(game);
        self.results
            .write_all(line.as_bytes())
            .and_then(|()| self.results.sync_data())
            .map_err(|e| format!("cannot write {}: {e}", results_path(&self.dir).display()))
    }

    /// Read the results back: the games on disk and how many lines named a game
    /// already seen (the benchmark's check).
    pub fn reread(&self) -> Result<(usize, usize), String> {
        let path = results_path(&self.dir);
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut seen = std::collections::HashSet::new();
        let mut twice = 0;
        for line in text.lines() {
            let p: Played =
                serde_json::from_str(line).map_err(|e| format!("{}: {e}", path.display()))?;
            if !seen.insert(p.game) {
                twice += 1;
            }
        }
        Ok((seen.len(), twice))
    }
}

fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut f = File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}
