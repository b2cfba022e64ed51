//! The tournament's load benchmark (`nimbot bench tournament`, also `nimbot
//! tournament --bench`): quick games between two nimbot policies, the wall time,
//! the CPU of the referees, the runner and the bots, and a check that every game
//! is on disk once.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::Instant;

use nimbot_tournament::engine::Bot;
use nimbot_tournament::game::{self, Rules};
use nimbot_tournament::store::{self, Plan, Store};
use nimbot_tournament::{draw, play_all, rusage, schedule};

/// What the benchmark plays.
#[derive(Clone, Copy, Debug)]
pub struct Load {
    /// Games in all.
    pub games: usize,
    /// The seed the N values are drawn with (from 5..60).
    pub seed: u64,
    /// R: resets per player.
    pub resets: u8,
    /// M: the initial maximum.
    pub init_max: u32,
    /// Games at once.
    pub concurrency: usize,
}

/// What a benchmark run measured.
pub struct Figures {
    /// Games played.
    pub games: usize,
    /// Games at once.
    pub concurrency: usize,
    /// The machine's cores.
    pub cores: usize,
    /// The machine's load average before the run (`?` if unknown).
    pub load: String,
    /// Seconds from the first game's start to the last one's end.
    pub wall: f64,
    /// CPU seconds of the referees, the runner (the rest of this process) and the
    /// bots (reaped children).
    pub referee: f64,
    /// The runner's CPU seconds (see `referee`).
    pub runner: f64,
    /// The bots' CPU seconds (see `referee`).
    pub bots: f64,
    /// The referees' CPU per game (milliseconds) and the wall time per game
    /// (milliseconds, all games under way counted) over the first tenth of the
    /// games finished and over the last tenth: a cost that grows with the games
    /// already played (sockets left in TIME_WAIT, files) shows as a difference.
    pub early: (f64, f64),
    /// The same over the last tenth (see `early`).
    pub late: (f64, f64),
    /// The results file read back: games, games written twice, games without a
    /// result, games scheduled.
    pub distinct: usize,
    /// Games written twice (see `distinct`).
    pub twice: usize,
    /// Games without a result (see `distinct`).
    pub no_result: usize,
    /// Games scheduled (see `distinct`).
    pub scheduled: usize,
}

impl Figures {
    /// The four lines the benchmark prints (`seed` the N values were drawn with).
    pub fn text(&self, seed: u64) -> String {
        let f = self;
        let cpu = f.referee + f.runner + f.bots;
        let share = |x: f64| 100.0 * x / cpu.max(1e-9);
        format!(
            "{} games (N drawn from 5..60, seed {seed}, nimbot:longest against nimbot:trap) at concurrency {} on {} cores (load average {} before): {:.1} s, {:.2} games/s\n\
             CPU {cpu:.1} s ({:.0} % of the cores' time): referees {:.2} s ({:.1} %), runner {:.2} s ({:.1} %), bots {:.1} s ({:.1} %)\n\
             per game, first tenth against last tenth of the games: referees' CPU {:.2} ms against {:.2} ms, wall {:.2} ms against {:.2} ms\n\
             results on disk: {} distinct games of {} scheduled, {} written twice, {} without a result\n",
            f.games,
            f.concurrency,
            f.cores,
            f.load,
            f.wall,
            f.games as f64 / f.wall,
            100.0 * cpu / (f.wall * f.cores as f64),
            f.referee,
            share(f.referee),
            f.runner,
            share(f.runner),
            f.bots,
            share(f.bots),
            f.early.0,
            f.late.0,
            f.early.1,
            f.late.1,
            f.distinct,
            f.scheduled,
            f.twice,
            f.no_result
        )
    }

    /// Every game on disk once, each with a result.
    pub fn all_there(&self) -> bool {
        self.distinct == self.scheduled && self.twice == 0 && self.no_result == 0
    }
}

/// Play `load` in `dir` (emptied first, a new tournament there), or with `None`
/// in a scratch folder of the temporary directory, removed afterwards.
///
/// # Errors
/// The directory cannot hold the tournament or its results.
pub fn run_in(load: &Load, dir: Option<&Path>) -> Result<Figures, String> {
    let Some(dir) = dir else {
        let scratch = std::env::temp_dir().join(format!("nimbot-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let figures = run(load, &scratch);
        let _ = std::fs::remove_dir_all(&scratch);
        return figures;
    };
    let _ = std::fs::remove_dir_all(dir);
    run(load, dir)
}

/// Play `load` (N drawn from 5..60 with its seed, nimbot:longest against
/// nimbot:trap) in `dir` (a new tournament there).
///
/// # Errors
/// The directory cannot hold the tournament or its results.
pub fn run(load: &Load, dir: &Path) -> Result<Figures, String> {
    let &Load {
        games,
        seed,
        resets,
        init_max,
        concurrency,
    } = load;
    let bots = ["nimbot:longest", "nimbot:trap"]
        .iter()
        .map(|b| Bot::parse(b))
        .collect::<Result<Vec<_>, _>>()?;
    let mut schedule = schedule(2, false, &draw(games.div_ceil(2).max(1), 5, 60, seed), 1);
    schedule.truncate(games);
    let plan = Plan {
        format: store::FORMAT,
        bots,
        rules: Rules {
            resets,
            init_max,
            time: 10.0,
            join_timeout: 10.0,
            largest: true,
            welcome_extras: false,
            pace_ms: 0,
            port: None,
            sandbox: None,
        },
        mode: "round-robin".into(),
        seed: Some(seed),
        sprt: None,
        schedule,
        event: None,
        unchecked: Vec::new(),
    };
    let mut store = Store::create(dir, &plan)?;
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    // Other work on the machine takes its share of the cores: say how much.
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into());
    let (self0, kids0) = rusage();
    let ref0 = game::REFEREE_NS.load(Ordering::Relaxed);
    let t = Instant::now();
    // After each game finished: the referees' CPU so far and the time.
    let mut marks = vec![(ref0, t)];
    let (played, _) = play_all(
        &mut store,
        &plan,
        Vec::new(),
        concurrency,
        false,
        &mut |_| marks.push((game::REFEREE_NS.load(Ordering::Relaxed), Instant::now())),
    )?;
    let wall = t.elapsed().as_secs_f64();
    let tenth = (marks.len() / 10).max(1);
    let per_game = |from: usize, to: usize| {
        let ((c0, t0), (c1, t1)) = (marks[from], marks[to]);
        let n = (to - from).max(1) as f64;
        (
            c1.saturating_sub(c0) as f64 / 1e6 / n,
            t1.duration_since(t0).as_secs_f64() * 1e3 / n,
        )
    };
    let last = marks.len() - 1;
    let early = per_game(0, tenth.min(last));
    let late = per_game(last.saturating_sub(tenth), last);
    let (self1, kids1) = rusage();
    let referee = (game::REFEREE_NS.load(Ordering::Relaxed) - ref0) as f64 / 1e9;
    let (distinct, twice) = store.reread()?;
    Ok(Figures {
        games: played.len(),
        concurrency,
        cores,
        load,
        wall,
        referee,
        runner: (self1 - self0 - referee).max(0.0),
        bots: kids1 - kids0,
        early,
        late,
        distinct,
        twice,
        no_result: played.iter().filter(|g| g.winner.is_none()).count(),
        scheduled: plan.schedule.len(),
    })
}
