//! The organizer's tournament: many bots, both seats, games in parallel, every
//! ending named, nothing lost, nothing played twice.
//!
//! The schedule ([`schedule`]: every pairing of a round-robin or a gauntlet plays
//! every N of a list, or N drawn with a seed, once in each seat) is fixed and
//! written to `DIR/tournament.json` ([`store`]) before the first game. Each game
//! runs on a worker thread of its own ([`game::play`]: its own referee on its own
//! loopback port, or a fixed port in a network namespace of its own ([`netns`]),
//! the bots as process groups ([`engine`]), each seated by the schedule
//! ([`owner`])); as each ends, [`play_all`] appends it to `DIR/results.jsonl`,
//! fsyncs and tells the caller. A resumed tournament plays only the games not on
//! disk. Before it, [`check`] plays each bot once against nimbot in each seat. At
//! the end: the standings, the crosstable, Elo, the SPRT ([`stats`]) and the
//! report ([`report`]). The command line (`nimbot tournament`) reads the flags and
//! prints.

pub mod check;
mod confine;
pub mod cores;
mod cpu;
pub mod engine;
pub mod game;
pub mod netns;
pub mod owner;
pub mod plan;
pub mod played;
pub mod progress;
pub mod report;
pub mod sandbox;
pub mod stats;
mod stderr;
pub mod store;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::thread;

pub use cpu::{rusage, thread_cpu_ns};

use game::{EndKind, Pairing, Played};
use store::{Plan, Store};

/// N values drawn with `seed` from `lo..=hi` (splitmix64).
pub fn draw(k: usize, lo: u32, hi: u32, seed: u64) -> Vec<u32> {
    let mut x = seed;
    let span = u64::from(hi - lo) + 1;
    (0..k)
        .map(|_| {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            lo + (z % span) as u32
        })
        .collect()
}

/// Every pairing plays every N in both seats, round after round.
pub fn schedule(bots: usize, gauntlet: bool, stones: &[u32], rounds: usize) -> Vec<Pairing> {
    let pairs: Vec<(usize, usize)> = if gauntlet {
        (1..bots).map(|b| (0, b)).collect()
    } else {
        (0..bots)
            .flat_map(|a| (a + 1..bots).map(move |b| (a, b)))
            .collect()
    };
    let mut games = Vec::new();
    for _ in 0..rounds {
        for &n in stones {
            for &(a, b) in &pairs {
                for bots in [[a, b], [b, a]] {
                    games.push(Pairing {
                        game: games.len() + 1,
                        stones: n,
                        bots,
                    });
                }
            }
        }
    }
    games
}

/// `LO..HI` with 1 <= LO <= HI.
pub fn parse_range(text: &str) -> Option<(u32, u32)> {
    let (lo, hi) = text.split_once("..")?;
    let (lo, hi) = (lo.trim().parse().ok()?, hi.trim().parse().ok()?);
    (1 <= lo && lo <= hi).then_some((lo, hi))
}

/// What [`play_all`] tells its caller as it goes.
pub enum Progress<'a> {
    /// A game ended and is on disk: `done` (it last) of `total`.
    Game {
        game: &'a Played,
        done: &'a [Played],
        total: usize,
    },
    /// The SPRT has decided: no game starts any more, those under way finish.
    SprtDecided,
    /// Ctrl-C: the games under way are ending, their results dropped.
    Interrupted,
}

/// Games at once (`concurrency`, else the machine's cores) and whether each gets
/// a network namespace of its own: a fixed port without namespaces plays one at
/// a time, and the note says why.
pub fn seating(concurrency: Option<usize>, plan: &Plan) -> (usize, bool, Option<String>) {
    let cores = thread::available_parallelism().map_or(2, |n| n.get());
    // Confined bots have a CPU quota each: a game whose two bots both use theirs
    // (one thinking, the other busy in its turn) takes 2 x cpu cores, and clocks
    // stay fair while the games at once fit the cores.
    let fair = plan
        .rules
        .sandbox
        .map(|l| ((cores as f64 / (2.0 * l.cpu)).floor() as usize).max(1));
    let mut concurrency = concurrency.or(fair).unwrap_or(cores).max(1);
    let mut notes = Vec::new();
    if let (Some(fair), Some(l)) = (fair, plan.rules.sandbox) {
        if concurrency > fair {
            notes.push(format!("-c {concurrency}: {cores} cores give {fair} games at once each bot its {} core(s); beyond that, clocks are shared (a busy opponent slows a bot's clock)", l.cpu));
        }
    }
    let isolated = plan.rules.port.is_some() && netns::available();
    if let (Some(port), false) = (plan.rules.port, isolated) {
        if concurrency > 1 {
            notes.push(format!("--port {port}: this machine gives no game a network namespace of its own (that needs Linux and root), so games run one at a time"));
        }
        concurrency = 1;
    }
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    (concurrency, isolated, note)
}

/// The games of `plan` still to play: none once the SPRT has decided.
pub fn todo(plan: &Plan, done: &[Played]) -> usize {
    if plan
        .sprt
        .is_some_and(|p| stats::sprt(p, done).decision.is_some())
    {
        return 0;
    }
    plan.schedule
        .iter()
        .filter(|p| !done.iter().any(|d| d.game == p.game))
        .count()
}

/// Play the games of `plan` not in `done`, `concurrency` at once; all games, in
/// the order they finished (those of `done` first).
pub fn play_all(
    store: &mut Store,
    plan: &Plan,
    mut done: Vec<Played>,
    concurrency: usize,
    isolated: bool,
    on: &mut dyn FnMut(Progress<'_>),
) -> Result<(Vec<Played>, bool), String> {
    let total = plan.schedule.len();
    let sprt_decided = |games: &[Played]| {
        plan.sprt
            .is_some_and(|p| stats::sprt(p, games).decision.is_some())
    };
    let todo: VecDeque<Pairing> = if sprt_decided(&done) {
        VecDeque::new()
    } else {
        plan.schedule
            .iter()
            .filter(|p| !done.iter().any(|d| d.game == p.game))
            .cloned()
            .collect()
    };
    let queue = Arc::new(Mutex::new(todo));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel::<Played>();
    let mut workers = Vec::new();
    for _ in 0..concurrency {
        let (queue, stop, tx) = (queue.clone(), stop.clone(), tx.clone());
        let (bots, rules, dir) = (plan.bots.clone(), plan.rules.clone(), store.dir.clone());
        workers.push(thread::spawn(move || loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let next = queue.lock().map(|mut q| q.pop_front()).unwrap_or(None);
            let Some(p) = next else { return };
            if tx
                .send(game::play(&p, &bots, &rules, &dir, isolated))
                .is_err()
            {
                return;
            }
        }));
    }
    drop(tx);
    let mut error = None;
    let mut interrupted = false;
    loop {
        let g = match rx.recv_timeout(std::time::Duration::from_millis(100)) {
            Ok(g) => g,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if !interrupted && INTERRUPTED.load(Ordering::SeqCst) {
                    interrupted = true;
                    stop.store(true, Ordering::Relaxed);
                    game::kill_all();
                    on(Progress::Interrupted);
                }
                continue;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        };
        if interrupted {
            // Cut short by the interrupt: played again on resuming.
            continue;
        }
        if let Err(e) = store.append(&g) {
            // Nothing more is played once results cannot be kept.
            stop.store(true, Ordering::Relaxed);
            error.get_or_insert(e);
            continue;
        }
        done.push(g);
        let g = done.last().expect("just pushed");
        on(Progress::Game {
            game: g,
            done: &done,
            total,
        });
        if sprt_decided(&done) && !stop.swap(true, Ordering::Relaxed) {
            on(Progress::SprtDecided);
        }
    }
    for w in workers {
        let _ = w.join();
    }
    sandbox::release();
    if let Some(e) = error {
        return Err(e);
    }
    // In the order the games finished (the results file's), as the SPRT reads them.
    Ok((done, interrupted))
}

/// Set by the first SIGINT or SIGTERM (Ctrl-C): the tournament stops starting
/// games, ends the bots of those under way and reports what finished.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Catch Ctrl-C (and SIGTERM) once; a second one acts as usual. One of the
/// tournament's system-call boundaries (the workspace denies `unsafe` elsewhere).
#[allow(unsafe_code)]
pub fn catch_interrupt() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: zeroed is a valid sigaction (plain integers, an empty mask).
        let mut act: libc::sigaction = unsafe { std::mem::zeroed() };
        act.sa_sigaction = on_interrupt as *const () as libc::sighandler_t;
        act.sa_flags = libc::SA_RESETHAND;
        // SAFETY: act is a valid sigaction (zeroed, an empty mask, a handler that
        // only stores to an atomic, which is async-signal-safe); the old action is
        // not asked for.
        unsafe {
            libc::sigaction(sig, &act, std::ptr::null_mut());
        }
    }
}

/// The summary of `games`: what the text, the JSON and the report show.
pub fn summary<'a>(
    plan: &'a Plan,
    games: &[Played],
    standings: &'a [stats::Standing],
    cross: &'a [Vec<u32>],
) -> report::Summary<'a> {
    let kinds = [
        EndKind::Won,
        EndKind::IllegalMove,
        EndKind::TooManyResets,
        EndKind::OutOfTurn,
        EndKind::Time,
        EndKind::Exited,
        EndKind::NeverJoined,
        EndKind::Closed,
        EndKind::Garbage,
        EndKind::JoinedTwice,
        EndKind::WrongSeat,
        EndKind::Memory,
        EndKind::Processes,
        EndKind::Disk,
        EndKind::Sandbox,
        EndKind::NoResult,
    ];
    report::Summary {
        kind: "summary",
        event: plan.event.as_deref(),
        bots: plan.bots.iter().map(|b| b.name.as_str()).collect(),
        games_scheduled: plan.schedule.len(),
        games_played: games.len(),
        no_result: games.iter().filter(|g| g.winner.is_none()).count(),
        standings,
        crosstable: cross,
        endings: kinds
            .iter()
            .map(|k| {
                (
                    k.word(),
                    games.iter().filter(|g| g.ending.kind == *k).count(),
                )
            })
            .filter(|(_, n)| *n > 0)
            .collect(),
        sprt: plan.sprt.map(|p| stats::sprt(p, games)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_plays_both_seats_and_draws_reproducibly() {
        let s = schedule(3, false, &[5, 9], 1);
        assert_eq!(s.len(), 3 * 2 * 2);
        for p in &s {
            assert!(s
                .iter()
                .any(|q| q.stones == p.stones && q.bots == [p.bots[1], p.bots[0]]));
        }
        assert_eq!(schedule(4, true, &[5], 1).len(), 6);
        assert_eq!(draw(5, 10, 20, 3), draw(5, 10, 20, 3));
        assert_ne!(draw(5, 10, 20, 3), draw(5, 10, 20, 4));
        assert!(draw(100, 10, 20, 3).iter().all(|n| (10..=20).contains(n)));
    }
}
