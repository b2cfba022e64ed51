//! `nimbot exp-nim`: play through the stock `exp-nim` text client, reading its output
//! on stdin and writing moves on stdout (wired with a named pipe). The protocol is
//! `nimbot_platform::text_client::TextClient`, the game's loop
//! `nimbot_match::client::play_text`; this file checks the options and says how the
//! game went.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use nimbot_match::client::play_text;
use nimbot_platform::text_client::TextClient;
use nimbot_platform::wire::EXIT_USAGE;

use crate::connect::{seat, Side, SideArgs};

#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("seat").required(true))]
#[command(
    after_help = "Examples:\n  mkfifo cmd-pipe\n  nimbot exp-nim --first --stones 100 < cmd-pipe | ./exp-nim -f -n nimbot 127.0.0.1:9000 > cmd-pipe\n  nimbot exp-nim --second < cmd-pipe | ./exp-nim -n nimbot 127.0.0.1:9000 > cmd-pipe\n  nimbot exp-nim --second --board /dev/ttyACM0 < cmd-pipe | ./exp-nim -n nimbot 127.0.0.1:9000 > cmd-pipe"
)]
pub struct ExpNimArgs {
    /// Play first (exp-nim was started with -f); needs --stones.
    #[arg(long, group = "seat")]
    first: bool,
    /// Play second; N is derived from the opponent's first move.
    #[arg(long, group = "seat")]
    second: bool,
    /// N: stones at the start (required when first; checked when second).
    #[arg(long, short = 'n')]
    stones: Option<u32>,
    /// R: resets each player may use.
    #[arg(long, short = 'r', default_value_t = 4)]
    resets: u8,
    /// M: the initial maximum.
    #[arg(long, short = 'm', default_value_t = 3)]
    init_max: u32,
    /// Write the game's record to FILE (JSON lines, as `connect --record`; exp-nim
    /// shows no clocks, so only nimbot's own are recorded).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    #[command(flatten)]
    side: SideArgs,
}

/// The game's exit status; `Err`: the status of what stopped it before it began,
/// already said on stderr.
pub fn run(args: &ExpNimArgs) -> Result<ExitCode, ExitCode> {
    const CMD: &str = "exp-nim";
    let seat = seat(args.first);
    let mut side = Side::new(CMD, &args.side, seat)?;
    let policy = side.policy;
    let client = TextClient::new(seat, args.stones, args.resets, args.init_max).map_err(|e| {
        eprintln!("nimbot exp-nim: {}", e.as_str());
        ExitCode::from(EXIT_USAGE)
    })?;
    let client = client.with_policy(policy);
    side.meet((args.stones, Some(args.resets), args.init_max))?;
    side.record(args.record.as_deref())?;
    if let Some(r) = side.recorder.as_mut() {
        // exp-nim does not show the names.
        let names = ["nimbot", "opponent"];
        let ours = seat.index();
        r.names([0, 1].map(|i| names[usize::from(i != ours)].to_owned()));
    }
    let (stdin, stdout) = (io::stdin().lock(), io::stdout().lock());
    let outcome = side.play(|engine, recorder| play_text(client, engine, stdin, stdout, recorder));
    Ok(side.finish(outcome))
}
