//! `nimbot exp-nim`: play through the stock `exp-nim` text client, reading its output
//! on stdin and writing moves on stdout (wired with a named pipe). The protocol is
//! `nimbot::platform::text_client::TextClient`; this file moves bytes and flushes every answer.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use nimbot::platform::text_client::{TextAction, TextClient};
use nimbot::platform::wire::{GameResult, EXIT_USAGE};
use nimbot::Engine;

use crate::board::BoardArgs;
use crate::connect::{board_and_record, finish, seat};
use crate::PolicyArgs;
use nimbot_host::record::Recorder;

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
    board: BoardArgs,
    #[command(flatten)]
    play: PolicyArgs,
}

pub fn run(args: &ExpNimArgs) -> ExitCode {
    const CMD: &str = "exp-nim";
    let seat = seat(args.first);
    let policy = match args.play.policy(CMD, args.board.board.is_some()) {
        Ok(p) => p,
        Err(status) => return status,
    };
    let client = match TextClient::new(seat, args.stones, args.resets, args.init_max) {
        Ok(c) => c.with_policy(policy),
        Err(e) => {
            eprintln!("nimbot exp-nim: {}", e.as_str());
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let known = (args.stones, Some(args.resets), args.init_max);
    let (mut board, mut recorder) = match board_and_record(
        CMD,
        &args.board,
        args.play,
        (policy, seat),
        known,
        args.record.as_deref(),
    ) {
        Ok(both) => both,
        Err(code) => return code,
    };
    if let Some(r) = recorder.as_mut() {
        // exp-nim does not show the names.
        let names = ["nimbot", "opponent"];
        let ours = seat.index();
        r.names([0, 1].map(|i| names[usize::from(i != ours)].to_owned()));
    }
    let outcome = match board.as_mut() {
        Some(b) => play(client, b, recorder.as_mut()),
        None => play(client, &mut args.play.host(), recorder.as_mut()),
    };
    finish(CMD, recorder, outcome, board.as_ref())
}

/// Play through the text client on stdin/stdout to the end of the game.
fn play<E: Engine + ?Sized>(
    mut client: TextClient,
    engine: &mut E,
    mut recorder: Option<&mut Recorder>,
) -> Result<GameResult, String> {
    client.prepare(engine).map_err(|e| e.as_str().to_owned())?;
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut buf = [0u8; 4096];
    loop {
        let read = input.read(&mut buf);
        let arrived = Instant::now();
        let n = match read {
            Ok(0) => {
                let end = client.end_of_input();
                if let Some(r) = recorder.as_deref_mut() {
                    r.game(client.game(), None);
                }
                return end.map_err(|e| e.as_str().to_owned());
            }
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("read failed: {e}")),
        };
        for &b in buf.get(..n).unwrap_or(&[]) {
            let action = client.feed(b, engine);
            if let Some(r) = recorder.as_deref_mut() {
                if let Ok(TextAction::Send(_)) = action {
                    r.own_clock(arrived.elapsed().as_secs_f64());
                }
                r.game(client.game(), None);
            }
            match action {
                Ok(TextAction::None) => {}
                Ok(TextAction::Send(line)) => output
                    .write_all(&line)
                    .and_then(|()| output.flush())
                    .map_err(|e| format!("write failed: {e}"))?,
                Ok(TextAction::Finished(r)) => return Ok(r),
                Err(e) => return Err(e.as_str().to_owned()),
            }
        }
    }
}
