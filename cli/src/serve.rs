//! `nimbot serve`: a referee that speaks the platform's wire protocol for one game.
//!
//! The server (sockets, reader threads, clocks, the log) is
//! `nimbot_match::serve`, the judging `nimbot_platform::referee`; this file checks
//! the options, opens the files and the listener, and says how the game went.

use std::fs::File;
use std::io::{self, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use nimbot_match::recorder::Recorder;
use nimbot_match::serve::{referee, GameLog, Log, ServeOptions};
use nimbot_platform::referee::CurrentMax;

use crate::exit::{params, usage};

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  nimbot serve 100 4                     N = 100, R = 4, M = 3 on port 9000\n  nimbot serve 999 4 -m 3 -p 0 -t 120    any free port (printed), 120 s each\n  nimbot serve 50 2 --current-max limit --welcome-extras --log game.log"
)]
pub struct ServeArgs {
    /// N: stones at the start.
    stones: u32,
    /// R: resets each player may use.
    resets: u8,
    /// M: the initial maximum.
    /// (`--max` is its old name.)
    #[arg(short = 'm', long = "init-max", alias = "max", default_value_t = 3)]
    init_max: u32,
    /// TCP port; 0 picks a free one (the bound address is printed on stdout).
    #[arg(short = 'p', long, default_value_t = 9000)]
    port: u16,
    /// Address to listen on.
    #[arg(short = 'a', long, default_value = "0.0.0.0")]
    address: String,
    /// Thinking time per player for the whole game, in seconds.
    #[arg(short = 't', long = "time", default_value_t = f64::from(nimbot_platform::wire::DEFAULT_CLOCK))]
    time: f64,
    #[command(flatten)]
    current_max: CurrentMaxArg,
    /// Add "init_max" and "game_time" to the welcome, as some copies do.
    #[arg(long)]
    welcome_extras: bool,
    /// Give up (exit 3) if two players have not joined within this many seconds; 0 waits forever.
    #[arg(long, default_value_t = 300.0)]
    join_timeout: f64,
    /// Keep at least MS milliseconds between two messages to the same client (on
    /// nobody's clock), so that a client that reads once per message (the course's
    /// stock client) never gets two in one read.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pace: u64,
    /// Write the game log to this file instead of stderr.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Also write the platform server's game-log.txt format to this file (one record
    /// per judged move, then "Game over" and the reason), for `nimbot analyze`.
    #[arg(long, value_name = "FILE")]
    game_log: Option<PathBuf>,
    /// Write the game's record to FILE (JSON lines, as `connect --record`, with
    /// both players' clocks), for `nimbot analyze`; written when the game is over.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

/// `--current-max`, one option in `serve` and `tournament`.
#[derive(Args, Debug)]
pub struct CurrentMaxArg {
    /// What `current_max` reports: `largest` (the course's server since its "reset
    /// fix" of 2018-09-20: the largest take so far, M - 1 after a reset, i.e. the
    /// limit minus one; its later bots take up to current_max + 1) or `limit` (the
    /// server before that commit: the next move's limit, M after a reset).
    #[arg(long, value_enum, value_name = "MEANING", default_value_t = Meaning::Largest)]
    pub current_max: Meaning,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meaning {
    Limit,
    Largest,
}

impl From<Meaning> for CurrentMax {
    fn from(m: Meaning) -> CurrentMax {
        match m {
            Meaning::Limit => CurrentMax::Limit,
            Meaning::Largest => CurrentMax::Largest,
        }
    }
}

pub fn run(args: &ServeArgs) -> ExitCode {
    let params = match params("serve", args.stones, args.resets, args.init_max) {
        Ok(p) => p,
        Err(status) => return status,
    };
    if !(args.time.is_finite() && args.time > 0.0)
        || args.join_timeout.is_nan()
        || args.join_timeout < 0.0
    {
        return usage("serve", "times must be positive numbers of seconds");
    }
    let out: Box<dyn Write + Send> = match &args.log {
        Some(path) => match File::create(path) {
            Ok(f) => Box::new(f),
            Err(e) => return usage("serve", format!("cannot create {}: {e}", path.display())),
        },
        None => Box::new(io::stderr()),
    };
    let mut log = Log::new(out);
    let listener = match TcpListener::bind((args.address.as_str(), args.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "nimbot serve: cannot listen on {}:{}: {e}",
                args.address, args.port
            );
            return ExitCode::from(3);
        }
    };
    let local = listener
        .local_addr()
        .map_or_else(|_| "?".to_string(), |a| a.to_string());
    println!("listening on {local}");
    let _ = io::stdout().flush();
    log.line(&format!(
        "listening on {local}: N = {}, R = {}, M = {}, {} s each, current_max = {:?}",
        args.stones, args.resets, args.init_max, args.time, args.current_max.current_max
    ));
    let mut game_log = match &args.game_log {
        Some(path) => match File::create(path) {
            Ok(f) => Some(GameLog::new(io::BufWriter::new(f))),
            Err(e) => return usage("serve", format!("cannot create {}: {e}", path.display())),
        },
        None => None,
    };
    let mut recorder = match &args.record {
        Some(path) => match Recorder::create(path, "serve", None, None) {
            Ok(r) => Some(r),
            Err(e) => return usage("serve", format!("--record: {e}")),
        },
        None => None,
    };
    let options = ServeOptions {
        params,
        time: args.time,
        current_max: args.current_max.current_max.into(),
        welcome_extras: args.welcome_extras,
        join_timeout: (args.join_timeout > 0.0).then(|| Duration::from_secs_f64(args.join_timeout)),
        pace: Duration::from_millis(args.pace),
    };
    let played = referee(&options, listener, &mut log, &mut game_log, &mut recorder);
    if let (Some(r), Ok(winner)) = (recorder, &played) {
        if let Err(e) = r.finish(*winner, "no result") {
            eprintln!("nimbot serve: --record: {e}");
        }
    }
    match played {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            log.line(&format!("no game: {e}"));
            if args.log.is_some() {
                eprintln!("nimbot serve: no game: {e}");
            }
            ExitCode::from(3)
        }
    }
}
