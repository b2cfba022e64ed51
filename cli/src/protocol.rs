//! `nimbot protocol parse`: reply lines of the line protocol in, one JSON line each
//! out, read by the protocol's one grammar (`nimbot_protocol::grammar::Response`).
//! What the Python drivers (firmware/qemu_test.py, tools/tiny_test.py, ...) read
//! replies with, through tools/protocol_replies.py, so that no script parses reply
//! text of its own.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use nimbot_bridge::replies::reply_json;
use nimbot_protocol::grammar::Response;
use serde_json::Value as Json;

#[derive(Args, Debug)]
pub struct ProtocolArgs {
    #[command(subcommand)]
    command: ProtocolCommand,
}

#[derive(Subcommand, Debug)]
enum ProtocolCommand {
    /// Read reply lines on stdin and print each as one JSON line, at once (a
    /// driver keeps one process and writes a line at a time).
    ///
    /// Each line of stdin is one reply (a line ending of `\n` or `\r\n`); each
    /// output line is a JSON object whose "reply" names the reply (ok, move, lost,
    /// over, query, moves, state, version, policy, limits, help, error), with its
    /// fields by name, or `null` for a line that is not a reply of the grammar.
    /// Examples: `move 2 0` gives {"reply":"move","game":"expanding","take":2,
    /// "reset":false,"won":false}; `win 3 0 1` gives {"reply":"query","value":"win",
    /// "take":3,"reset":false,"distance":1}; a distance of `-` is null.
    /// docs/protocol.md lists the replies.
    #[command(verbatim_doc_comment)]
    Parse,
}

pub fn run(args: &ProtocolArgs) -> ExitCode {
    match args.command {
        ProtocolCommand::Parse => parse_lines(),
    }
}

fn parse_lines() -> ExitCode {
    let mut out = io::stdout().lock();
    let mut line = Vec::new();
    let mut input = io::stdin().lock();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => return ExitCode::SUCCESS,
            Ok(_) => {}
            Err(e) => {
                eprintln!("nimbot protocol parse: cannot read stdin: {e}");
                return ExitCode::from(1);
            }
        }
        let text = line
            .strip_suffix(b"\n")
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
            .unwrap_or(&line);
        let json = Response::parse(text).map_or(Json::Null, |r| reply_json(&r));
        // Written and flushed line by line: the driver waits for each answer.
        let written = writeln!(out, "{json}").and_then(|()| out.flush());
        if written.is_err() {
            return ExitCode::SUCCESS;
        }
    }
}
