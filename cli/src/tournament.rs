//! `nimbot tournament` (also `nimbot match`): many bots, both seats, games in
//! parallel, every ending named, nothing lost.
//!
//! The runner is `nimbot_tournament`; this file reads the flags into a plan,
//! prints a line per game, the progress bar, the pre-flight's findings and the
//! standings, and sets the exit status.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use nimbot_tournament::game::{Played, Rules};
use nimbot_tournament::sandbox::{self, Limits};
use nimbot_tournament::store::{Plan, Store};
use nimbot_tournament::{
    catch_interrupt, check, plan, play_all, progress, report, stats, summary, Progress,
};

#[derive(Args, Debug)]
#[command(after_help = "Bots (--bot [NAME=]SPEC):
  nimbot | nimbot:POLICY     this binary's `connect` (exploit, longest, trap, first)
  board:DEVICE               a board decides every move (connect --board; a failed move forfeits)
  text:COMMAND               a bot for the stock exp-nim text client (prompts on stdin, `K F` on stdout)
  line:COMMAND               a bot speaking nimbot's line protocol on stdin/stdout
  COMMAND                    a shell command that joins the game itself, with {addr} {host} {port}
                             {order} (0/1) {seat} (first/second) {name} {stones} {resets} {init_max},
                             {first:TEXT} {second:TEXT} (TEXT in that seat only, e.g. {first:-f})
  NAME;dir=DIR=SPEC          the bot runs in DIR (otherwise in the current directory)

Files in --out DIR: tournament.json (the plan), results.jsonl (a line per game, fsynced),
records/ (each game's record, for `nimbot analyze`), stderr/ (each bot's stderr per game),
report.html (standings, crosstable, every game's value history).

Exit status: 0 every game has a result, 1 some game has none, 2 usage error (or --out
in use by another run), 3 the tournament's files cannot be written, 130 interrupted
(Ctrl-C: the bots are ended, the standings so far printed; --resume continues).

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
    /// N values, comma-separated (each pairing plays each, in both seats);
    /// `@FILE` reads them from FILE, one a line.
    #[arg(long, short = 'n', value_delimiter = ',', conflicts_with = "draw")]
    stones: Vec<String>,
    /// The event's name, for the report and the JSON summary.
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
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
    #[arg(long, short = 't', default_value_t = f64::from(nimbot_platform::wire::DEFAULT_CLOCK))]
    time: f64,
    /// Seconds a bot has to join before it loses the game ("never joined").
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    join_timeout: f64,
    #[command(flatten)]
    current_max: crate::serve::CurrentMaxArg,
    /// Add init_max and game_time to the welcome, as some copies of the server do.
    #[arg(long)]
    welcome_extras: bool,
    /// Keep at least MS milliseconds between two messages to the same bot (on
    /// nobody's clock), so that a client that reads once per message (the course's
    /// stock client) never gets two in one read; 0 sends at once.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pace: u64,
    /// Every game's referee listens on this port (for bots that hard-code one, such
    /// as the course's 9000). Games run K at once each in a network namespace of its
    /// own where the machine allows it (Linux, as root), else one at a time.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u16).range(1..))]
    port: Option<u16>,
    /// Run the bots unconfined: as the runner's user, seeing its files, network
    /// and processes (docs/tournament.md, "Running untrusted bots"). Otherwise
    /// every command, text and line bot is confined, and a machine that cannot
    /// confine them is refused with what it lacks.
    #[arg(long)]
    no_sandbox: bool,
    /// What a confined bot may use, `NAME=VALUE,...` of mem (bytes, K/M/G),
    /// procs, disk (its scratch /tmp and any one file), files (open at once) and
    /// cpu (cores; a quota) [default: mem=512M,procs=64,disk=64M,files=256,cpu=1].
    #[arg(long, value_name = "LIMITS", conflicts_with = "no_sandbox")]
    limits: Option<String>,
    /// Only the pre-flight: each bot plays one short game against nimbot in each
    /// seat; exit 0 if every bot can start, join and move, else 2 with its stderr.
    #[arg(long, conflicts_with_all = ["resume", "no_check"])]
    check: bool,
    /// Start without the pre-flight (which otherwise runs before every tournament
    /// and resume); `--no-check=NAME,...` skips only these bots' check games (a bot
    /// known to crash mid-game, say). Kept in tournament.json for --resume.
    #[arg(long, value_name = "NAME", num_args = 0..=1, require_equals = true, value_delimiter = ',')]
    no_check: Option<Vec<String>>,
    /// Games at once, each with its own referee [default: the machine's cores;
    /// confined, as many as give each bot its CPU share (cores / (2 x cpu)), and
    /// more warns that clocks are shared].
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
const EXIT_INTERRUPTED: u8 = 130;

fn usage(msg: &str) -> ExitCode {
    eprintln!("nimbot tournament: {msg}");
    ExitCode::from(EXIT_USAGE)
}

/// Whether the machine can confine the bots of `plan` (if it confines them), and
/// each confined bot's folder is open to the bot's user.
fn confinable(plan: &Plan) -> Result<(), String> {
    if plan.rules.sandbox.is_none() {
        return Ok(());
    }
    sandbox::ready().map_err(|e| format!("cannot confine the bots: {e}"))?;
    let here = std::env::current_dir().map_err(|e| format!("no working directory: {e}"))?;
    for b in &plan.bots {
        if b.kind()
            .is_ok_and(|k| nimbot_tournament::engine::confinable(&k))
        {
            sandbox::reachable(b.dir.as_deref().unwrap_or(&here))
                .map_err(|e| format!("bot {}: {e}", b.name))?;
        }
    }
    Ok(())
}

/// The plan of the flags.
fn plan(args: &TournamentArgs) -> Result<Plan, String> {
    let sandbox = if args.no_sandbox {
        None
    } else {
        Some(Limits::parse(args.limits.as_deref().unwrap_or(""))?)
    };
    plan::plan(&plan::Options {
        bots: args.bots.clone(),
        gauntlet: args.gauntlet,
        stones: args.stones.clone(),
        draw: args.draw,
        range: args.range.clone(),
        seed: args.seed,
        rounds: args.rounds,
        rules: Rules {
            resets: args.resets,
            init_max: args.init_max,
            time: args.time,
            join_timeout: args.join_timeout,
            largest: args.current_max.current_max == crate::serve::Meaning::Largest,
            welcome_extras: args.welcome_extras,
            pace_ms: args.pace,
            port: args.port,
            sandbox,
        },
        sprt: args.sprt.clone(),
        event: args.event.clone(),
        no_check: args.no_check.clone(),
    })
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
            Ok(x) => {
                if let Err(e) = confinable(&x.1) {
                    return usage(&e);
                }
                x
            }
            Err(e) => return usage(&e),
        }
    } else {
        let plan = match plan(args).and_then(|p| confinable(&p).map(|()| p)) {
            Ok(p) => p,
            Err(e) => return usage(&e),
        };
        if let Err(e) = Store::available(&args.out) {
            return usage(&e);
        }
        if args.check || plan.unchecked.len() < plan.bots.len() {
            let (concurrency, isolated) = seating(args, &plan);
            if let Err(status) = preflight(&plan, concurrency, isolated, args.quiet) {
                return status;
            }
            if args.check {
                return ExitCode::SUCCESS;
            }
        }
        match Store::create(&args.out, &plan) {
            Ok(s) => (s, plan, Vec::new()),
            Err(e) => return usage(&e),
        }
    };
    let (concurrency, isolated) = seating(args, &plan);
    if args.resume && args.no_check.is_none() && done.len() < plan.schedule.len() {
        if let Err(status) = preflight(&plan, concurrency, isolated, args.quiet) {
            return status;
        }
    }
    catch_interrupt();
    let left = nimbot_tournament::todo(&plan, &done);
    if !done.is_empty() && !args.quiet {
        eprintln!(
            "nimbot tournament: resuming {}: {} of {} games on disk, {left} to play",
            store.dir.display(),
            done.len(),
            plan.schedule.len(),
        );
    }
    let bar = (std::io::stderr().is_terminal() && left > 0).then(|| {
        let b = ProgressBar::new(plan.schedule.len() as u64);
        b.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {elapsed} elapsed, ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.set_position(done.len() as u64);
        b.reset_eta();
        b
    });
    let say = |line: String| match &bar {
        Some(b) => b.println(line),
        None => eprintln!("{line}"),
    };
    let mut on = |p: Progress<'_>| match p {
        Progress::Game {
            game: g,
            done,
            total,
        } => {
            if args.json {
                crate::json::print(&progress::GameLine::new(g));
            }
            if !args.quiet {
                say(progress::game_line(g, done.len(), total));
            }
            if let Some(b) = &bar {
                b.inc(1);
                // On a terminal, the standings so far every few games.
                if done.len() % progress::LIVE_EVERY == 0 && done.len() < total && !args.quiet {
                    say(progress::live_standings(&plan, done));
                }
            }
        }
        Progress::SprtDecided if !args.quiet => {
            say("nimbot tournament: the SPRT has decided; the games under way finish".into());
        }
        Progress::SprtDecided => {}
        Progress::Interrupted => {
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            eprintln!("nimbot tournament: interrupted; ending the games under way");
        }
    };
    let played = play_all(&mut store, &plan, done, concurrency, isolated, &mut on);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    match played {
        Ok((games, false)) => finish(&store, &plan, &games, args.json),
        Ok((games, true)) => {
            let _ = finish(&store, &plan, &games, args.json);
            eprintln!(
                "nimbot tournament: interrupted after {} of {} games; the games under way will be played again by\n  nimbot tournament --resume --out {}",
                games.len(),
                plan.schedule.len(),
                store.dir.display()
            );
            ExitCode::from(EXIT_INTERRUPTED)
        }
        Err(e) => {
            eprintln!("nimbot tournament: {e}");
            ExitCode::from(EXIT_FILES)
        }
    }
}

/// Games at once and whether each gets a network namespace of its own
/// (`nimbot_tournament::seating`, which says why a fixed port plays one at a time).
fn seating(args: &TournamentArgs, plan: &Plan) -> (usize, bool) {
    let (concurrency, isolated, note) = nimbot_tournament::seating(args.concurrency, plan);
    if let (Some(note), false) = (note, args.quiet) {
        eprintln!("nimbot tournament: {note}");
    }
    (concurrency, isolated)
}

/// The pre-flight ([`check::preflight`]): a bot that cannot start, join or move
/// is reported with its stderr, and the status is 2.
fn preflight(plan: &Plan, concurrency: usize, isolated: bool, quiet: bool) -> Result<(), ExitCode> {
    let bots = check::checked(plan).len();
    if bots == 0 {
        return Ok(());
    }
    if !quiet {
        let skipped = match plan.unchecked.len() {
            0 => String::new(),
            n => format!(" ({n} skipped by --no-check)"),
        };
        eprintln!(
            "nimbot tournament: checking {bots} bots{skipped}: one short game against nimbot in each seat (--no-check skips this)"
        );
    }
    match check::preflight(plan, concurrency, isolated, quiet) {
        Ok((findings, passed)) => {
            eprint!("{findings}");
            passed.then_some(()).ok_or(ExitCode::from(EXIT_USAGE))
        }
        Err(e) => {
            eprintln!("nimbot tournament: {e}");
            Err(ExitCode::from(EXIT_FILES))
        }
    }
}

fn finish(store: &Store, plan: &Plan, games: &[Played], json: bool) -> ExitCode {
    let names: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
    let standings = stats::standings(&names, games);
    let cross = stats::crosstable(names.len(), games);
    let s = summary(plan, games, &standings, &cross);
    let html_path = store.dir.join("report.html");
    if let Err(e) = std::fs::write(&html_path, report::html(&s, games, plan)) {
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

/// `--bench`: `nimbot bench tournament` (quick games between nimbot policies,
/// figures and a check of the disk), in --out DIR if one is given.
fn bench(args: &TournamentArgs, games: usize) -> ExitCode {
    let load = nimbot_bench::tournament::Load {
        games,
        seed: args.seed,
        resets: args.resets,
        init_max: args.init_max,
        concurrency: args.concurrency.unwrap_or(8).max(1),
    };
    let dir = (args.out != Path::new("tournament")).then_some(args.out.as_path());
    crate::bench::load_bench("nimbot tournament", &load, dir)
}
