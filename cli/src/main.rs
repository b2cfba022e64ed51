//! `nimbot`: the host adapter. Runs the line protocol on stdin/stdout, answers
//! one-off queries, plays a demo game and prints benchmarks.

mod analyze;
mod arena;
mod bench;
mod board;
mod connect;
mod demo;
mod exit;
mod exp_nim;
mod json;
mod line;
mod moves;
mod nim_arena;
mod plot;
mod policy;
mod position;
mod protocol;
mod serve;
mod tournament;
mod web;

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use embedded_io_adapters::std::FromStd;
use nimbot::Position;
use nimbot_protocol::{serve, Session};

use analyze::AnalyzeArgs;
use arena::ArenaArgs;
use bench::BenchArgs;
use connect::ConnectArgs;
use demo::DemoArgs;
use exit::{answer_text, usage};
use exp_nim::ExpNimArgs;
use line::LineArgs;
use moves::MovesArgs;
use policy::PolicyArgs;
use position::{Ask, GameKind, PositionArgs};
use protocol::ProtocolArgs;
use serve::ServeArgs;
use tournament::TournamentArgs;
use web::WebArgs;

/// Perfect play for Expanding Nim with resets.
///
/// With no command, nimbot speaks its line protocol on stdin/stdout (see `serial`).
#[derive(Parser, Debug)]
#[command(name = "nimbot", version = version_line(), about, long_about = None, after_help = AFTER_HELP)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no command: the line protocol's policy.
    #[command(flatten)]
    play: PolicyArgs,
}

/// What `nimbot --version` prints after the name: the version, the commit it was
/// built from and the embedded table's CRC-32 (`nimbot::SOFTWARE`, the line the
/// protocol's `version` reply and the tiny binary also give).
fn version_line() -> &'static str {
    nimbot::SOFTWARE
        .strip_prefix("nimbot ")
        .unwrap_or(nimbot::SOFTWARE)
}

const AFTER_HELP: &str = "\
Examples:
  nimbot demo --stones 100            watch nimbot play a random opponent
  nimbot query 20 3 4 4 0             value and move for 20 stones, cap 3, 4 resets each
  nimbot moves 20 3 4 4 0 --json      every move there, its value and its distance
  nimbot query --game fibonacci 20 19 Fibonacci Nim: 20 stones, at most 19 this move
  nimbot arena --game super-nim --opponent greedy --games 100 --json
  printf 'new 20 4 3 first\\ngo\\n' | nimbot
                                      the line protocol on stdin/stdout";

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak the line protocol on stdin/stdout (the default).
    ///
    /// One command per line, one reply line each (docs/protocol.md explains them).
    #[command(after_long_help = nimbot_protocol::GRAMMAR)]
    Serial(PolicyArgs),
    /// Print the value of one position and the move nimbot plays there.
    ///
    /// Expanding Nim (the default game): S C A B F — S stones left, C the cap
    /// max(M, largest take so far + 1), A and B the resets left to the player to move
    /// and to the opponent, F = 1 if the opponent reset on the previous move. Prints
    /// "win K R D" (a winning move: take K, reset R = 0/1) or "lose K R D" (the move
    /// it would play in a lost position), D the plies to the end when the winner
    /// hurries and the loser holds out ("-" if the game is too large for distances).
    /// Positions beyond any table are solved in memory; `moves` lists every move.
    ///
    /// Fibonacci Nim (--game fibonacci): S LIMIT — S stones left, at most LIMIT may be
    /// taken this move (a game of N stones starts at S = N, LIMIT = N - 1). Prints
    /// "win K" or "lose K".
    #[command(verbatim_doc_comment)]
    Query {
        #[command(flatten)]
        position: PositionArgs,
        /// One JSON line: the position, its value and distance, and the move.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        play: PolicyArgs,
    },
    /// Print every move of one position with its value and its distance to the end.
    ///
    /// The position is S C A B F, as for `query`. A move's distance counts the plies
    /// to the end after it, itself included, when the winner hurries and the loser
    /// holds out; "-" if the game is too large for distances. Winning moves come
    /// first, fastest first, then losing ones, longest first (--json: one line, in
    /// the line protocol's order).
    Moves(MovesArgs),
    /// Print the best-play line from one position to the end of the game.
    ///
    /// The position is S C A B F, as for `query`, or --after. The winner takes its
    /// fastest win and the loser holds out longest, so each ply's distance (plies
    /// to the end, counting the ply) is one less than the one before.
    Line(LineArgs),
    /// Play nimbot against fallible opponents and print win rates: for Expanding Nim
    /// (the default) every opponent family under each lost-position policy, over many
    /// starts and both seats; for Super-Nim a match against --opponent.
    Arena(ArenaArgs),
    /// Play one game between nimbot and a random (or perfect) opponent and print it.
    Demo(DemoArgs),
    /// Measure solving, deciding, the exploit policy, Super-Nim, tables, a tournament's load.
    Bench(BenchArgs),
    /// Play one game against the tournament's TCP server.
    ///
    /// Exit status: 0 won, 1 lost, 2 usage error, 3 protocol, connection or
    /// state-mismatch error (one summary line on stderr either way).
    Connect(ConnectArgs),
    /// Play one game through the stock `exp-nim` text client, on stdin/stdout.
    ///
    /// Wire it with a named pipe; exit status as for `connect`.
    ExpNim(ExpNimArgs),
    /// Referee one game on the platform's wire protocol, then exit.
    ///
    /// Existing Python bots and exp-nim connect to it unchanged. It prints
    /// "listening on ADDR:PORT" on stdout and logs the game to stderr (or --log).
    /// Exit status: 0 a game was played, 2 usage error, 3 no game (join timeout, bind error).
    Serve(ServeArgs),
    /// Run a tournament of bots (commands, nimbot's policies, boards): round-robin
    /// or gauntlet, both seats, games in parallel, every ending named, results kept
    /// on disk as they come (--resume), standings, Elo, SPRT, an HTML report.
    #[command(visible_alias = "match")]
    Tournament(TournamentArgs),
    /// Replay a game record or a platform game log and show where the game was
    /// thrown away.
    ///
    /// Reads a record of --record (JSON lines, which name N, R and M) or the server's
    /// game-log.txt (N comes from its first record; give R and M, which the log does
    /// not hold) and prints, for every move, the value and distance of the
    /// position before it, the winning moves there, whether the move was a blunder
    /// (from a won position it leaves the opponent a won one, or the server refused
    /// it) and, in a lost position, how many plies could still have been held out;
    /// then the first blunder and the blunders per seat.
    Analyze(AnalyzeArgs),
    /// Serve the browser site (explorer, play, analysis) on loopback.
    ///
    /// The site's files are in the binary; it computes in the browser
    /// (WebAssembly), so the server only hands out files.
    Web(WebArgs),
    /// The line protocol for scripts: `protocol parse` reads reply lines on stdin
    /// and prints each as one JSON line, read by the protocol's grammar.
    Protocol(ProtocolArgs),
}

fn main() -> ExitCode {
    quit_quietly_on_broken_pipe();
    let cli = Cli::try_parse().unwrap_or_else(|e| hint_flag_order(e).exit());
    match cli.command.unwrap_or(Command::Serial(cli.play)) {
        Command::Serial(play) => run_serial(play),
        Command::Query {
            position,
            json,
            play,
        } => run_query(&position, json, play),
        Command::Moves(args) => moves::run(&args),
        Command::Arena(args) => arena::run(&args),
        Command::Demo(args) => demo::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Connect(args) => connect::run(&args).unwrap_or_else(|status| status),
        Command::ExpNim(args) => exp_nim::run(&args).unwrap_or_else(|status| status),
        Command::Serve(args) => serve::run(&args),
        Command::Tournament(args) => tournament::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Line(args) => line::run(&args),
        Command::Web(args) => web::run(&args),
        Command::Protocol(args) => protocol::run(&args),
    }
}

/// `nimbot --policy first query ...`: the flags of the bare `nimbot` (the line
/// protocol) given before a command, which has flags of its own. Clap says only
/// that the two conflict; the tip says where the flag goes.
fn hint_flag_order(mut e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() == ErrorKind::ArgumentConflict {
        if let Some(ContextValue::String(cmd)) = e.get(ContextKind::InvalidSubcommand) {
            let tip = format!(
                "a command's flags go after its name, `nimbot {cmd} --FLAG ...` (`nimbot {cmd} --help` lists those it takes)"
            );
            e.insert(
                ContextKind::Suggested,
                ContextValue::StyledStrs(vec![tip.into()]),
            );
        }
    }
    e
}

/// `nimbot arena | head` closes stdout early. Rust ignores SIGPIPE, so the next
/// `println!` panics; end quietly instead, with the status a shell gives a process
/// killed by SIGPIPE (141), as other command-line tools do.
fn quit_quietly_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

fn run_serial(play: PolicyArgs) -> ExitCode {
    let (engine, policy) = match play.engine("serial") {
        Ok(e) => e,
        Err(status) => return status,
    };
    let mut session = Session::with_policy(engine, policy);
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

fn run_query(position: &PositionArgs, json: bool, play: PolicyArgs) -> ExitCode {
    let game = position.game;
    if game != GameKind::Expanding && position.after.after.is_some() {
        return usage("query", "--after is for Expanding Nim only");
    }
    if game != GameKind::Expanding && play.policy.is_some() {
        return usage("query", "--policy is for Expanding Nim only");
    }
    if let Some(answer) = position.related(Ask::Query, json) {
        return answer_text("query", answer);
    }
    match position.expanding() {
        Ok(pos) => query_expanding(&pos, json, play),
        Err(e) => usage("query", e),
    }
}

fn query_expanding(pos: &Position, json: bool, play: PolicyArgs) -> ExitCode {
    let (mut engine, policy) = match play.engine("query") {
        Ok(e) => e,
        Err(status) => return status,
    };
    answer_text(
        "query",
        nimbot_analysis::explore::query(&mut engine, pos, policy, json).map_err(|e| e.to_string()),
    )
}
