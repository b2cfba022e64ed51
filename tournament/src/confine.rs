//! A game's confined bots ([`crate::sandbox`]) as [`crate::game`] plays them:
//! their jails, what each sees, the watch for a broken limit, and bubblewrap's
//! exit statuses read back.

use std::cell::Cell;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crate::engine::{self, Bot};
use crate::played::{EndKind, Pairing, Rules};
use crate::sandbox::{self, Breach, Broke, Jail, View};

/// Whether the calling thread must enter a new network namespace for this game:
/// a fixed port's (`isolated`) or a confined one's. A worker's confined games on
/// free ports share its namespace one after the other (nothing of a game's bots
/// outlives it); a fixed port takes a fresh one, free of the last game's sockets.
pub fn needs_net(isolated: bool, rules: &Rules) -> bool {
    let reuse = rules.sandbox.is_some() && rules.port.is_none();
    let fresh = (isolated || rules.sandbox.is_some()) && !(reuse && OWN_NET.with(Cell::get));
    if fresh {
        OWN_NET.with(|c| c.set(reuse));
    }
    fresh
}

/// The game is over: the first limit broken (the watch's, or seen now), then
/// every process of the jails ended and the jails kept for the next games.
pub fn finish(watch: Watch, jails: [Option<Arc<Jail>>; 2]) -> Option<(usize, Breach)> {
    let broken = watch.stop(&jails);
    for j in jails.into_iter().flatten() {
        if let Ok(j) = Arc::try_unwrap(j) {
            sandbox::give_back(j);
        }
    }
    broken
}

/// The ending of a broken limit.
pub fn kind(breach: &Breach) -> EndKind {
    match breach.what {
        Broke::Memory => EndKind::Memory,
        Broke::Processes => EndKind::Processes,
        Broke::Disk => EndKind::Disk,
    }
}

/// A jail for each seat whose bot is confined; a seat whose jail cannot be made
/// gets its start error (and `true`: a sandbox failure).
pub fn jails(
    bots: &[Bot],
    pairing: &Pairing,
    rules: &Rules,
    start_errors: &mut [Option<String>; 2],
) -> ([Option<Arc<Jail>>; 2], [bool; 2]) {
    let mut sandbox_errors = [false, false];
    let jails: [Option<Arc<Jail>>; 2] = [0, 1].map(|order| {
        let limits = rules.sandbox?;
        let bot = &bots[pairing.bots[order]];
        if !bot.kind().is_ok_and(|k| engine::confinable(&k)) {
            return None;
        }
        match sandbox::take(limits) {
            Ok(j) => Some(Arc::new(j)),
            Err(e) => {
                start_errors[order] = Some(format!("cannot be confined: {e}"));
                sandbox_errors[order] = true;
                None
            }
        }
    });
    (jails, sandbox_errors)
}

/// What a confined bot sees: its own directory (its `dir=`, else the runner's),
/// this binary; hidden, the other bots' directories and the tournament's files.
pub fn view(bots: &[Bot], me: usize, out: &Path) -> View {
    let own = bots[me]
        .dir
        .clone()
        .or_else(|| std::env::current_dir().ok());
    let mut hide: Vec<PathBuf> = bots
        .iter()
        .enumerate()
        .filter(|&(i, b)| i != me && b.dir != bots[me].dir)
        .filter_map(|(_, b)| b.dir.clone())
        .collect();
    hide.push(std::fs::canonicalize(out).unwrap_or_else(|_| out.to_owned()));
    View {
        own,
        hide,
        tools: std::env::current_exe().into_iter().collect(),
    }
}

/// bwrap reports its bot's death by signal N as status 128 + N: told as the
/// signal, as for a bot run as it is.
pub fn bwrap_status(st: ExitStatus, jailed: bool) -> ExitStatus {
    match st.code() {
        Some(c) if jailed && (129..=128 + 64).contains(&c) => ExitStatus::from_raw(c - 128),
        _ => st,
    }
}

thread_local! {
    /// Whether this thread is in a network namespace of its own, made for
    /// confined games.
    pub static OWN_NET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The watch on a game's confined bots: every 20 ms, whether one broke a
/// limit; the first to do so is ended at once (its game ends with it).
pub struct Watch {
    stop: Arc<AtomicBool>,
    first: Arc<Mutex<Option<(usize, sandbox::Breach)>>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Watch {
    pub fn start(jails: &[Option<Arc<Jail>>; 2]) -> Watch {
        let stop = Arc::new(AtomicBool::new(false));
        let first = Arc::new(Mutex::new(None));
        let thread = jails.iter().any(Option::is_some).then(|| {
            let (stop, first, jails) = (stop.clone(), first.clone(), jails.clone());
            thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    for (seat, j) in jails.iter().enumerate() {
                        let Some(j) = j else { continue };
                        if let Some(b) = j.breach() {
                            if let Ok(mut f) = first.lock() {
                                f.get_or_insert((seat, b));
                            }
                            j.kill();
                        }
                    }
                    thread::park_timeout(Duration::from_millis(20));
                }
            })
        });
        Watch {
            stop,
            first,
            thread,
        }
    }

    /// The first limit broken, seen by the watch or now.
    fn stop(mut self, jails: &[Option<Arc<Jail>>; 2]) -> Option<(usize, sandbox::Breach)> {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
        let seen = self.first.lock().ok().and_then(|mut f| f.take());
        seen.or_else(|| {
            jails
                .iter()
                .enumerate()
                .find_map(|(seat, j)| Some((seat, j.as_ref()?.breach()?)))
        })
    }
}
