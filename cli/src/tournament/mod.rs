//! `nimbot tournament` (also `nimbot match`): many bots, both seats, games in
//! parallel, every ending named, nothing lost.
//!
//! The schedule (every pairing of a round-robin or a gauntlet plays every N of a
//! list, or N drawn with a seed, once in each seat) is fixed and written to
//! `DIR/tournament.json` before the first game. Each game runs on a worker thread
//! of its own ([`game::play`]: its own referee on its own loopback port, the bots
//! as process groups); as each ends the main thread appends it to
//! `DIR/results.jsonl` and fsyncs, prints a line, and moves the progress bar.
//! `--resume` reads both files back and plays only the games not on disk. At the
//! end: the standings, the crosstable, Elo, the SPRT ([`stats`]), as text or JSON,
//! and `DIR/report.html` ([`report`]).

mod engine;
mod game;
mod report;
mod stats;
mod store;

use std::collections::VecDeque;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use engine::Bot;
use game::{EndKind, Pairing, Played, Rules};
use store::{Plan, Store};

#[derive(Args, Debug)]
#[command(after_help = "Bots (--bot [NAME=]SPEC):
  nimbot | nimbot:POLICY     this binary's `connect` (exploit, longest, trap, first)
  board:DEVICE               a board decides every move (connect --board; a failed move forfeits)
  text:COMMAND               a bot for the stock exp-nim text client (prompts on stdin, `K F` on stdout)
  line:COMMAND               a bot speaking nimbot's line protocol on stdin/stdout
  COMMAND                    a shell command that joins the game itself, with {addr} {host} {port}
                             {order} (0/1) {seat} (first/second) {name} {stones} {resets} {init_max}

Files in --out DIR: tournament.json (the plan), results.jsonl (a line per game, fsynced),
records/ (each game's record, for `nimbot analyze`), stderr/ (each bot's stderr per game),
report.html (standings, crosstable, every game's value history).

Exit status: 0 every game has a result, 1 some game has none, 2 usage error, 3 the
tournament's files cannot be written.

Examples:
  nimbot tournament --bot nimbot:trap --bot nimbot:first --stones 20,57,100
  nimbot tournament --bot nimbot --bot 'py=python3 bot.py {host} {port} {order}' --draw 10 --range 10..200 --seed 7 -c 4
  nimbot tournament --bot nimbot:longest --bot nimbot:trap --draw 200 --sprt 0 50 0.05 0.05
  nimbot tournament --resume --out tournament          continue a tournament that was stopped
  nimbot tournament --bench                            1,000 quick games at concurrency 8, figures")]
pub struct TournamentArgs {
    /// A bot, `[NAME=]SPEC` (see below); at least two (repeat a bot to play it against itself).
    #[arg(long = "bot", value_name = "SPEC")]
    bots: Vec<String>,
    /// The first bot plays each other bot (a gauntlet) instead of every pair playing (a round-robin).
    #[arg(long)]
    gauntlet: bool,
    /// N values, comma-separated (each pairing plays each, in both seats).
    #[arg(long, short = 'n', value_delimiter = ',', conflicts_with = "draw")]
    stones: Vec<u32>,
    /// Draw this many N values with --seed from --range instead of a list.
    #[arg(long, value_name = "K")]
    draw: Option<usize>,
    /// The range N is drawn from, LO..HI (inclusive).
    #[arg(long, value_name = "LO..HI", default_value = "10..200")]
    range: String,
    /// The seed of the drawn N values.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play the whole schedule this many times.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// R: resets each player may use.
    #[arg(long, short = 'r', default_value_t = 4)]
    resets: u8,
    /// M: the initial maximum.
    #[arg(long, short = 'm', default_value_t = 3)]
    init_max: u32,
    /// Seconds of thinking per player and game.
    #[arg(long, short = 't', default_value_t = 120.0)]
    time: f64,
    /// Seconds a bot has to join before it loses the game ("never joined").
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    join_timeout: f64,
    /// `current_max` as the other copy of the server reports it (largest take so far).
    #[arg(long)]
    current_max_largest: bool,
    /// Add init_max and game_time to the welcome, as some copies of the server do.
    #[arg(long)]
    welcome_extras: bool,
    /// Games at once, each with its own referee [default: the machine's cores].
    #[arg(long, short = 'c', value_name = "K")]
    concurrency: Option<usize>,
    /// The tournament's directory.
    #[arg(long, value_name = "DIR", default_value = "tournament")]
    out: PathBuf,
    /// Continue the tournament in --out DIR: the games on disk are kept, the others played.
    #[arg(long)]
    resume: bool,
    /// A two-bot match stops as soon as Wald's test decides between elo0 and elo1
    /// (the first bot's Elo advantage), with error rates alpha and beta.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// JSON lines on stdout: one per game as it ends, then the summary.
    #[arg(long)]
    json: bool,
    /// No line per game (the bar, on a terminal, stays).
    #[arg(long, short = 'q')]
    quiet: bool,
    /// The load benchmark: GAMES quick games between nimbot policies (at
    /// concurrency 8 unless -c), then games per second, the CPU shares of the
    /// referees, the runner and the bots, and a check of the results on disk.
    #[arg(long, value_name = "GAMES", num_args = 0..=1, default_missing_value = "1000")]
    bench: Option<usize>,
}

const EXIT_NO_RESULT: u8 = 1;
const EXIT_USAGE: u8 = 2;
const EXIT_FILES: u8 = 3;

fn usage(msg: &str) -> ExitCode {
    eprintln!("nimbot tournament: {msg}");
    ExitCode::from(EXIT_USAGE)
}

/// N values drawn with `seed` from `lo..=hi` (splitmix64).
fn draw(k: usize, lo: u32, hi: u32, seed: u64) -> Vec<u32> {
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
fn schedule(bots: usize, gauntlet: bool, stones: &[u32], rounds: usize) -> Vec<Pairing> {
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

fn parse_range(text: &str) -> Option<(u32, u32)> {
    let (lo, hi) = text.split_once("..")?;
    let (lo, hi) = (lo.trim().parse().ok()?, hi.trim().parse().ok()?);
    (1 <= lo && lo <= hi).then_some((lo, hi))
}

/// The plan from the command line.
fn plan(args: &TournamentArgs) -> Result<Plan, String> {
    let mut bots = args
        .bots
        .iter()
        .map(|b| Bot::parse(b))
        .collect::<Result<Vec<_>, _>>()?;
    if bots.len() < 2 {
        return Err(
            "give at least two bots (--bot nimbot --bot nimbot plays nimbot against itself)".into(),
        );
    }
    engine::unique_names(&mut bots);
    let (stones, seed) = match args.draw {
        Some(k) => {
            let (lo, hi) = parse_range(&args.range).ok_or_else(|| {
                format!("--range '{}': want LO..HI with 1 <= LO <= HI", args.range)
            })?;
            (draw(k, lo, hi, args.seed), Some(args.seed))
        }
        None if args.stones.is_empty() => (vec![100], None),
        None => (args.stones.clone(), None),
    };
    if stones.is_empty() || stones.contains(&0) {
        return Err("N values must be at least 1".into());
    }
    if args.init_max == 0 {
        return Err("--init-max must be at least 1".into());
    }
    let secs = |x: f64| x > 0.0 && x.is_finite() && x < 1e6;
    if !secs(args.time) || !secs(args.join_timeout) {
        return Err("--time and --join-timeout must be positive seconds".into());
    }
    let sprt = match &args.sprt {
        None => None,
        Some(v) => {
            let s = [v[0], v[1], v[2], v[3]];
            if bots.len() != 2 {
                return Err("--sprt is for a match of two bots".into());
            }
            let p = |x: f64| x > 0.0 && x < 0.5;
            if !(p(s[2]) && p(s[3]) && s[0] < s[1]) {
                return Err(
                    "--sprt ELO0 ELO1 ALPHA BETA: want ELO0 < ELO1 and 0 < ALPHA, BETA < 0.5"
                        .into(),
                );
            }
            Some(s)
        }
    };
    let schedule = schedule(bots.len(), args.gauntlet, &stones, args.rounds.max(1));
    Ok(Plan {
        format: store::FORMAT,
        bots,
        rules: Rules {
            resets: args.resets,
            init_max: args.init_max,
            time: args.time,
            join_timeout: args.join_timeout,
            largest: args.current_max_largest,
            welcome_extras: args.welcome_extras,
        },
        mode: if args.gauntlet {
            "gauntlet"
        } else {
            "round-robin"
        }
        .into(),
        seed,
        sprt,
        schedule,
    })
}

/// A game's line for `--json` and the progress line: the result without the
/// record and the stderr.
#[derive(Serialize)]
struct GameLine<'a> {
    kind: &'static str,
    game: usize,
    stones: u32,
    names: &'a [String; 2],
    winner: Option<u8>,
    ending: &'a game::Ending,
    plies: u32,
    clocks: [f64; 2],
    seconds: f64,
    blunders: [u32; 2],
}

fn progress_line(g: &Played, done: usize, total: usize) -> String {
    let result = match g.winner {
        Some(w) => format!("{} wins", g.names[usize::from(w)]),
        None => "NO RESULT".into(),
    };
    format!(
        "[{done}/{total}] game {} N={} {} - {}: {result} ({}: {}) {:.1} s",
        g.game,
        g.stones,
        g.names[0],
        g.names[1],
        g.ending.kind.word(),
        g.ending.text,
        g.seconds
    )
}

pub fn run(args: &TournamentArgs) -> ExitCode {
    if let Some(games) = args.bench {
        return bench(args, games);
    }
    let (mut store, plan, done) = if args.resume {
        if !args.bots.is_empty() || !args.stones.is_empty() || args.draw.is_some() {
            return usage(&format!(
                "--resume plays the plan in {}: give no --bot, --stones or --draw with it",
                args.out.join("tournament.json").display()
            ));
        }
        match Store::resume(&args.out) {
            Ok(x) => x,
            Err(e) => return usage(&e),
        }
    } else {
        let plan = match plan(args) {
            Ok(p) => p,
            Err(e) => return usage(&e),
        };
        match Store::create(&args.out, &plan) {
            Ok(s) => (s, plan, Vec::new()),
            Err(e) => return usage(&e),
        }
    };
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| thread::available_parallelism().map_or(2, |n| n.get()));
    match play_all(
        &mut store,
        &plan,
        done,
        concurrency.max(1),
        args.json,
        args.quiet,
    ) {
        Ok(games) => finish(&store, &plan, &games, args.json),
        Err(e) => {
            eprintln!("nimbot tournament: {e}");
            ExitCode::from(EXIT_FILES)
        }
    }
}

/// Play the games of `plan` not in `done`, `concurrency` at once; all games, in
/// schedule order.
fn play_all(
    store: &mut Store,
    plan: &Plan,
    mut done: Vec<Played>,
    concurrency: usize,
    json: bool,
    quiet: bool,
) -> Result<Vec<Played>, String> {
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
    if !done.is_empty() && !quiet {
        eprintln!(
            "nimbot tournament: resuming {}: {} of {total} games on disk, {} to play",
            store.dir.display(),
            done.len(),
            todo.len()
        );
    }
    let bar = if std::io::stderr().is_terminal() && !todo.is_empty() {
        let b = ProgressBar::new(total as u64);
        b.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {elapsed} elapsed, ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.set_position(done.len() as u64);
        b.reset_eta();
        Some(b)
    } else {
        None
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
            if tx.send(game::play(&p, &bots, &rules, &dir)).is_err() {
                return;
            }
        }));
    }
    drop(tx);
    let mut error = None;
    for g in rx {
        if let Err(e) = store.append(&g) {
            // Nothing more is played once results cannot be kept.
            stop.store(true, Ordering::Relaxed);
            error.get_or_insert(e);
            continue;
        }
        done.push(g);
        let g = done.last().expect("just pushed");
        if json {
            crate::json::print(&GameLine {
                kind: "game",
                game: g.game,
                stones: g.stones,
                names: &g.names,
                winner: g.winner,
                ending: &g.ending,
                plies: g.plies,
                clocks: g.clocks,
                seconds: g.seconds,
                blunders: g.blunders,
            });
        }
        if !quiet {
            let line = progress_line(g, done.len(), total);
            match &bar {
                Some(b) => b.println(line),
                None => eprintln!("{line}"),
            }
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
        if sprt_decided(&done) && !stop.swap(true, Ordering::Relaxed) && !quiet {
            let line =
                "nimbot tournament: the SPRT has decided; the games under way finish".to_string();
            match &bar {
                Some(b) => b.println(line),
                None => eprintln!("{line}"),
            }
        }
    }
    for w in workers {
        let _ = w.join();
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = error {
        return Err(e);
    }
    done.sort_by_key(|g| g.game);
    Ok(done)
}

fn summary<'a>(
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
        EndKind::NoResult,
    ];
    report::Summary {
        kind: "summary",
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

fn finish(store: &Store, plan: &Plan, games: &[Played], json: bool) -> ExitCode {
    let names: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
    let standings = stats::standings(&names, games);
    let cross = stats::crosstable(names.len(), games);
    let s = summary(plan, games, &standings, &cross);
    let html_path = store.dir.join("report.html");
    if let Err(e) = std::fs::write(&html_path, report::html(&s, games)) {
        eprintln!(
            "nimbot tournament: cannot write {}: {e}",
            html_path.display()
        );
        return ExitCode::from(EXIT_FILES);
    }
    if json {
        crate::json::print(&s);
    } else {
        print!("{}", report::text(&s));
        println!(
            "results: {}, records: {}, report: {}",
            store.dir.join("results.jsonl").display(),
            store.dir.join("records").display(),
            html_path.display()
        );
    }
    if s.no_result > 0 {
        ExitCode::from(EXIT_NO_RESULT)
    } else {
        ExitCode::SUCCESS
    }
}

/// CPU seconds of this process (all threads) and of its reaped children. One of the
/// tournament's two system-call boundaries (the workspace denies `unsafe` elsewhere).
#[allow(unsafe_code)]
fn rusage() -> (f64, f64) {
    let get = |who| {
        let mut u = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: getrusage writes one rusage into the pointer it is given, which
        // points to a zeroed rusage of ours.
        let ok = unsafe { libc::getrusage(who, u.as_mut_ptr()) } == 0;
        if !ok {
            return 0.0;
        }
        // SAFETY: zeroed is a valid rusage (plain integers), and getrusage filled it.
        let u = unsafe { u.assume_init() };
        let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        tv(u.ru_utime) + tv(u.ru_stime)
    };
    (get(libc::RUSAGE_SELF), get(libc::RUSAGE_CHILDREN))
}

/// `--bench`: quick games between nimbot policies, figures and a check of the disk.
fn bench(args: &TournamentArgs, games: usize) -> ExitCode {
    let pairs = games.div_ceil(2).max(1);
    let dir = if args.out == Path::new("tournament") {
        std::env::temp_dir().join(format!("nimbot-bench-{}", std::process::id()))
    } else {
        args.out.clone()
    };
    let _ = std::fs::remove_dir_all(&dir);
    let bots = vec![
        Bot::parse("nimbot:longest").expect("a valid bot"),
        Bot::parse("nimbot:trap").expect("a valid bot"),
    ];
    let mut schedule = schedule(2, false, &draw(pairs, 5, 60, args.seed), 1);
    schedule.truncate(games);
    let plan = Plan {
        format: store::FORMAT,
        bots,
        rules: Rules {
            resets: args.resets,
            init_max: args.init_max,
            time: 10.0,
            join_timeout: 10.0,
            largest: false,
            welcome_extras: false,
        },
        mode: "round-robin".into(),
        seed: Some(args.seed),
        sprt: None,
        schedule,
    };
    let mut store = match Store::create(&dir, &plan) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    let concurrency = args.concurrency.unwrap_or(8).max(1);
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    // Other work on the machine takes its share of the cores: say how much.
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into());
    let (self0, kids0) = rusage();
    let ref0 = game::REFEREE_NS.load(Ordering::Relaxed);
    let t = Instant::now();
    let played = match play_all(&mut store, &plan, Vec::new(), concurrency, false, true) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("nimbot tournament: {e}");
            return ExitCode::from(EXIT_FILES);
        }
    };
    let wall = t.elapsed().as_secs_f64();
    let (self1, kids1) = rusage();
    let referee = (game::REFEREE_NS.load(Ordering::Relaxed) - ref0) as f64 / 1e9;
    let runner = (self1 - self0 - referee).max(0.0);
    let bots = kids1 - kids0;
    let cpu = referee + runner + bots;
    let share = |x: f64| 100.0 * x / cpu.max(1e-9);
    println!(
        "{} games (N drawn from 5..60, seed {}, nimbot:longest against nimbot:trap) at concurrency {concurrency} on {cores} cores (load average {load} before): {:.1} s, {:.2} games/s",
        played.len(),
        args.seed,
        wall,
        played.len() as f64 / wall
    );
    println!(
        "CPU {cpu:.1} s ({:.0} % of the cores' time): referees {referee:.2} s ({:.1} %), runner {runner:.2} s ({:.1} %), bots {bots:.1} s ({:.1} %)",
        100.0 * cpu / (wall * cores as f64),
        share(referee),
        share(runner),
        share(bots)
    );
    let bad = played.iter().filter(|g| g.winner.is_none()).count();
    let status = match store.reread() {
        Ok((distinct, twice)) => {
            println!(
                "results on disk: {distinct} distinct games of {} scheduled, {twice} written twice, {bad} without a result",
                plan.schedule.len()
            );
            distinct == plan.schedule.len() && twice == 0 && bad == 0
        }
        Err(e) => {
            eprintln!("nimbot tournament: {e}");
            false
        }
    };
    if args.out == Path::new("tournament") {
        let _ = std::fs::remove_dir_all(&dir);
    }
    if status {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NO_RESULT)
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
