//! `nimbot`: the host adapter. Runs the line protocol on stdin/stdout, answers
//! one-off queries, plays a demo game and prints benchmarks.

mod bench;
mod connect;
mod demo;
mod exp_nim;
mod matches;
mod serve;

use std::io::{self, Write as _};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use embedded_io_adapters::std::FromStd;
use nimbot::protocol::{serve, Session};
use nimbot::{Engine, Position, SolvingEngine};

/// Perfect play for Expanding Nim with resets.
///
/// With no command, nimbot speaks its line protocol on stdin/stdout (see `serial`).
#[derive(Parser, Debug)]
#[command(version, about, long_about = None, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

const AFTER_HELP: &str = "\
Examples:
  nimbot demo --stones 100            watch nimbot play a random opponent
  nimbot query 20 3 4 4 0             value and move for 20 stones, cap 3, 4 resets each
  printf 'new 20 4 3 first\\ngo\\n' | nimbot
                                      the line protocol on stdin/stdout";

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak the line protocol on stdin/stdout (the default).
    ///
    /// One command per line, one reply line each:
    ///   new N R M first|second  -> ok          start a game, the bot in that seat
    ///   go                      -> move K F    the bot moves (F = 1: reset); "won" appended if it ends the game
    ///   opp K F                 -> move K F    the opponent's move, then the bot's answer; "lost" if the opponent emptied the pile
    ///   query S C A B F         -> win K F | lose K F
    ///   state | end | version | limits | help
    /// Bad input gets one "error ..." line and changes nothing.
    #[command(verbatim_doc_comment)]
    Serial,
    /// Print the value of one normalized position and the move nimbot plays there.
    ///
    /// Prints "win K R" (a winning move: take K, reset R = 0/1) or "lose K R" (the move
    /// it would play in a lost position). Positions beyond any table are solved in memory.
    Query {
        /// s: stones left (>= 1).
        stones: u32,
        /// c: the cap max(M, largest take so far + 1), >= M.
        cap: u32,
        /// a: resets left to the player to move.
        own_resets: u8,
        /// b: resets left to the opponent.
        opp_resets: u8,
        /// f: 1 if the opponent reset on the previous move (the limit is then M), else 0.
        #[arg(value_parser = clap::value_parser!(u8).range(0..=1))]
        pending: u8,
        /// M: the game's initial maximum.
        #[arg(long, short = 'm', default_value_t = 3)]
        init_max: u32,
    },
    /// Play one game between nimbot and a random (or perfect) opponent and print it.
    Demo(demo::DemoArgs),
    /// Measure solving and decision speed; prints JSON lines.
    Bench(bench::BenchArgs),
    /// Play one game against the tournament's TCP server.
    ///
    /// Exit status: 0 won, 1 lost, 2 usage error, 3 protocol, connection or
    /// state-mismatch error (one summary line on stderr either way).
    #[command(
        after_help = "Examples:\n  nimbot connect 127.0.0.1:9000 --first --name alice\n  nimbot connect game.example.org:9000 --second --init-max 3"
    )]
    Connect(connect::ConnectArgs),
    /// Play one game through the stock `exp-nim` text client, on stdin/stdout.
    ///
    /// Wire it with a named pipe; exit status as for `connect`.
    #[command(
        after_help = "Examples:\n  mkfifo cmd-pipe\n  nimbot exp-nim --first --stones 100 < cmd-pipe | ./exp-nim -f -n nimbot 127.0.0.1:9000 > cmd-pipe\n  nimbot exp-nim --second < cmd-pipe | ./exp-nim -n nimbot 127.0.0.1:9000 > cmd-pipe"
    )]
    ExpNim(exp_nim::ExpNimArgs),
    /// Referee one game on the platform's wire protocol, then exit.
    ///
    /// Existing Python bots and exp-nim connect to it unchanged. It prints
    /// "listening on ADDR:PORT" on stdout and logs the game to stderr (or --log).
    /// Exit status: 0 a game was played, 2 usage error, 3 no game (join timeout, bind error).
    #[command(
        after_help = "Examples:\n  nimbot serve 100 4                     N = 100, R = 4, M = 3 on port 9000\n  nimbot serve 999 4 -m 3 -p 0 -t 120    any free port (printed), 120 s each\n  nimbot serve 50 2 --current-max largest --welcome-extras --log game.log"
    )]
    Serve(serve::ServeArgs),
    /// Play local games through the referee and print a results table.
    #[command(
        after_help = "Examples:\n  nimbot match --stones 100                      nimbot against itself, both seats\n  nimbot match --stones 20,57,100 --bot 'nimbot' --bot 'python3 mybot.py {addr} {order}'"
    )]
    Match(matches::MatchArgs),
}

/// The engine every game-playing command uses (one place to swap it).
pub fn engine() -> Box<dyn Engine> {
    Box::new(SolvingEngine::default())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serial) {
        Command::Serial => run_serial(),
        Command::Query {
            stones,
            cap,
            own_resets,
            opp_resets,
            pending,
            init_max,
        } => run_query(stones, cap, own_resets, opp_resets, pending == 1, init_max),
        Command::Demo(args) => demo::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Connect(args) => connect::run(&args),
        Command::ExpNim(args) => exp_nim::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Match(args) => matches::run(&args),
    }
}

fn run_serial() -> ExitCode {
    let mut session = Session::new(SolvingEngine::default());
    let mut input = FromStd::new(io::stdin().lock());
    let mut output = FromStd::new(io::stdout().lock());
    match serve(&mut session, &mut input, &mut output) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nimbot: i/o error: {e:?}");
            ExitCode::from(1)
        }
    }
}

fn run_query(stones: u32, cap: u32, own: u8, opp: u8, pending: bool, init_max: u32) -> ExitCode {
    let pos = match Position::new(stones, cap, own, opp, pending, init_max) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("nimbot query: {e}");
            return ExitCode::from(2);
        }
    };
    match SolvingEngine::default().decide(&pos) {
        Ok(d) => {
            let word = if d.wins { "win" } else { "lose" };
            let _ = writeln!(
                io::stdout(),
                "{word} {} {}",
                d.mv.take,
                u8::from(d.mv.reset)
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("nimbot query: {e}");
            ExitCode::from(2)
        }
    }
}
