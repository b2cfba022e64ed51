//! `nimbot`: the host adapter. Runs the line protocol on stdin/stdout, answers
//! one-off queries, plays a demo game and prints benchmarks.

mod bench;
mod demo;
mod latency;
mod nim_arena;
mod opponents;

use std::io::{self, Write as _};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use embedded_io_adapters::std::FromStd;
use nimbot::protocol::{serve, Session};
use nimbot::{Engine, Policy, Position, TableOrSolverEngine};

/// Perfect play for Expanding Nim with resets.
///
/// With no command, nimbot speaks its line protocol on stdin/stdout (see `serial`).
#[derive(Parser, Debug)]
#[command(version, about, long_about = None, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// How nimbot moves in a lost position: `trap` leaves the opponent the fewest
    /// winning replies, `first` takes 1 (the baseline). Won positions always get a
    /// winning move.
    #[arg(long, global = true, value_enum, default_value_t = PolicyArg::Trap)]
    policy: PolicyArg,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum PolicyArg {
    Trap,
    First,
}

impl From<PolicyArg> for Policy {
    fn from(p: PolicyArg) -> Policy {
        match p {
            PolicyArg::Trap => Policy::Trap,
            PolicyArg::First => Policy::First,
        }
    }
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
    /// Play nimbot (each lost-position policy) against fallible opponents over many
    /// starts and both seats; win rates for won and for lost starts.
    Arena(nim_arena::NimArenaArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let policy = Policy::from(cli.policy);
    match cli.command.unwrap_or(Command::Serial) {
        Command::Serial => run_serial(policy),
        Command::Query {
            stones,
            cap,
            own_resets,
            opp_resets,
            pending,
            init_max,
        } => run_query(
            stones,
            cap,
            own_resets,
            opp_resets,
            pending == 1,
            init_max,
            policy,
        ),
        Command::Demo(args) => demo::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Arena(args) => nim_arena::run(&args),
    }
}

/// The engine every host command plays with: the embedded table whenever it covers
/// the game, the in-memory solver beyond it.
fn engine() -> TableOrSolverEngine<'static> {
    TableOrSolverEngine::embedded()
}

fn run_serial(policy: Policy) -> ExitCode {
    let mut session = Session::with_policy(engine(), policy);
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

fn run_query(
    stones: u32,
    cap: u32,
    own: u8,
    opp: u8,
    pending: bool,
    init_max: u32,
    policy: Policy,
) -> ExitCode {
    let pos = match Position::new(stones, cap, own, opp, pending, init_max) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("nimbot query: {e}");
            return ExitCode::from(2);
        }
    };
    match engine().decide_with(&pos, policy) {
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
