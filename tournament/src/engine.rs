//! The bots of a tournament: how each is given on the command line and how it is
//! started for one game.
//!
//! A bot is `[NAME=]SPEC`, SPEC one of:
//! - `nimbot` or `nimbot:POLICY` (`exploit`, `longest`, `trap`, `first`): this
//!   binary's `connect` with that policy;
//! - `board:DEVICE`: `connect --board DEVICE --board-fallback forfeit` (a board
//!   decides every move; a board that fails a move gives the game up);
//! - `text:COMMAND`: a bot written for the stock `exp-nim` text client (prompts on
//!   its stdin, `K F` lines on its stdout); the runner is its text client;
//! - `line:COMMAND`: a bot that speaks nimbot's line protocol on stdin/stdout, as a
//!   board does on its serial line: put on a loopback socket and played with
//!   `connect --board`;
//! - anything else: a shell command (`sh -c`) that joins the game itself, with
//!   `{addr}`, `{host}`, `{port}`, `{order}` (0/1), `{seat}` (first/second), `{name}`,
//!   `{stones}`, `{resets}` and `{init_max}` filled in, and `{first:TEXT}` /
//!   `{second:TEXT}` giving TEXT in that seat only (`{first:-f}` for a bot that
//!   takes a first-seat flag, `{first:True}{second:False}`).
//!
//! `NAME;dir=DIR=SPEC` runs the bot in DIR (for a bot that reads its files from
//! where it is started); otherwise bots run in the runner's working directory.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::thread;
use std::time::Duration;

use nimbot::{Move, Player};
use nimbot_platform::json::{Feed, Splitter, Writer};
use nimbot_platform::text_client;
use nimbot_platform::wire::{Hello, MoveMessage, Reason, State, MAX_NAME};
use serde::{Deserialize, Serialize};

/// One bot as given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bot {
    /// Its name in the tables (and on the wire, for nimbot's kinds).
    pub name: String,
    /// What it is.
    pub spec: String,
    /// The directory it runs in (absolute); `None`: the runner's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<std::path::PathBuf>,
}

/// What a spec asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Nimbot(String),
    Board(String),
    Text(String),
    Line(String),
    Shell(String),
}

/// The policies `nimbot:POLICY` takes: the core's registry.
fn policy_names() -> Vec<&'static str> {
    nimbot::Policy::ALL
        .into_iter()
        .map(nimbot::Policy::as_str)
        .collect()
}

impl Bot {
    /// Read `[NAME[;dir=DIR]=]SPEC`; the name defaults to the spec's short form.
    pub fn parse(text: &str) -> Result<Bot, String> {
        let valid = |n: &str| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
        };
        let mut dir = None;
        let (name, spec) = match text.split_once('=') {
            Some((head, rest)) if head.contains(';') => {
                // NAME;dir=DIR=SPEC: the option's value runs to the next '='.
                let (name, opt) = head.split_once(';').unwrap_or((head, ""));
                if !valid(name) {
                    return Err(bad_name(text, name));
                }
                if opt != "dir" {
                    return Err(format!(
                        "bot '{text}': unknown option '{opt}' (the one option is {name};dir=DIR=COMMAND)"
                    ));
                }
                let Some((d, spec)) = rest.split_once('=') else {
                    return Err(format!("bot '{text}': want {name};dir=DIR=COMMAND"));
                };
                let path = std::path::Path::new(d);
                if !path.is_dir() {
                    return Err(format!("bot '{text}': dir '{d}' is not a directory"));
                }
                dir = Some(
                    std::fs::canonicalize(path)
                        .map_err(|e| format!("bot '{text}': dir '{d}': {e}"))?,
                );
                (Some(name.to_owned()), spec.to_owned())
            }
            Some((n, s)) if valid(n) => (Some(n.to_owned()), s.to_owned()),
            // A command with '=' in it has an option before it ("--port={port}");
            // words that end otherwise are a name that is not one.
            Some((head, _))
                if head.split_whitespace().count() > 1
                    && !head
                        .split_whitespace()
                        .last()
                        .is_some_and(|w| w.starts_with('-')) =>
            {
                return Err(bad_name(text, head));
            }
            _ => (None, text.to_owned()),
        };
        if spec.trim().is_empty() {
            return Err(format!("bot '{text}': an empty command"));
        }
        let bot = Bot {
            name: name.unwrap_or_else(|| default_name(&spec)),
            spec,
            dir,
        };
        bot.kind()?;
        check_placeholders(&bot.spec).map_err(|e| format!("bot '{text}': {e}"))?;
        Ok(bot)
    }

    /// The kind of bot, checked.
    pub fn kind(&self) -> Result<Kind, String> {
        let s = self.spec.trim();
        if s == "nimbot" {
            return Ok(Kind::Nimbot("exploit".into()));
        }
        if let Some(p) = s.strip_prefix("nimbot:") {
            if !policy_names().contains(&p) {
                return Err(format!(
                    "bot '{s}': unknown policy '{p}' (one of {})",
                    policy_names().join(", ")
                ));
            }
            return Ok(Kind::Nimbot(p.into()));
        }
        for (prefix, make) in [
            ("board:", Kind::Board as fn(String) -> Kind),
            ("text:", Kind::Text),
            ("line:", Kind::Line),
        ] {
            if let Some(rest) = s.strip_prefix(prefix) {
                if rest.trim().is_empty() {
                    return Err(format!("bot '{s}': nothing after '{prefix}'"));
                }
                return Ok(make(rest.to_owned()));
            }
        }
        Ok(Kind::Shell(s.to_owned()))
    }
}

fn bad_name(text: &str, name: &str) -> String {
    format!(
        "bot '{text}': '{name}' is not a name (letters, digits, '_', '-' and '.'); a command \
         with '=' in it is given as NAME=COMMAND"
    )
}

/// A short name for a spec: nimbot's kinds by policy, commands by their script or
/// program's file stem.
fn default_name(spec: &str) -> String {
    let s = spec.trim();
    if s == "nimbot" {
        return "nimbot".into();
    }
    if let Some(p) = s.strip_prefix("nimbot:") {
        return format!("nimbot-{p}");
    }
    let body = ["board:", "text:", "line:"]
        .iter()
        .find_map(|p| s.strip_prefix(p))
        .unwrap_or(s);
    let word = body
        .split_whitespace()
        .find(|w| w.ends_with(".py") || w.ends_with(".sh") || w.contains('/'))
        .or_else(|| body.split_whitespace().next())
        .unwrap_or("bot");
    let stem = word.rsplit('/').next().unwrap_or(word);
    let stem = stem.split('.').next().unwrap_or(stem);
    let clean: String = stem
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || "_-".contains(*c))
        .take(24)
        .collect();
    if clean.is_empty() {
        "bot".into()
    } else {
        clean
    }
}

/// Names made unique by a suffix (`-2`, `-3`, ...), in order.
pub fn unique_names(bots: &mut [Bot]) {
    for i in 0..bots.len() {
        let base = bots[i].name.clone();
        let mut k = 1;
        while bots[..i].iter().any(|b| b.name == bots[i].name) {
            k += 1;
            bots[i].name = format!("{base}-{k}");
        }
    }
}

/// The placeholders [`Seat::fill`] fills in.
const PLACEHOLDERS: [&str; 9] = [
    "addr", "host", "port", "order", "seat", "name", "stones", "resets", "init_max",
];

/// Every `{word}` and `{word:` of `spec` is a placeholder (a typo such as
/// `{frist:-f}` would otherwise reach the bot as it is); a shell's `${VAR}` is not
/// one.
fn check_placeholders(spec: &str) -> Result<(), String> {
    for (at, _) in spec.match_indices('{') {
        if spec[..at].ends_with('$') {
            continue;
        }
        let rest = &spec[at + 1..];
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .collect();
        let after = rest[word.len()..].chars().next();
        let known = match after {
            Some('}') => PLACEHOLDERS.contains(&word.as_str()),
            Some(':') => word == "first" || word == "second",
            _ => true,
        };
        if !known && !word.is_empty() {
            let shown: String = rest.chars().take_while(|&c| c != '}').collect();
            return Err(format!(
                "unknown placeholder {{{shown}}} (the placeholders: {}, {{first:TEXT}}, {{second:TEXT}})",
                PLACEHOLDERS.map(|p| format!("{{{p}}}")).join(" ")
            ));
        }
    }
    Ok(())
}

/// `{first:TEXT}` and `{second:TEXT}` replaced by TEXT in that seat (`order` 0
/// or 1) and by nothing in the other.
fn seat_only(cmd: &str, order: usize) -> String {
    let mut out = String::new();
    let mut rest = cmd;
    loop {
        let next = ["{first:", "{second:"]
            .iter()
            .enumerate()
            .filter_map(|(seat, tag)| rest.find(tag).map(|at| (at, seat, tag.len())))
            .min();
        let Some((at, seat, len)) = next else { break };
        let Some(end) = rest[at + len..].find('}') else {
            break;
        };
        out.push_str(&rest[..at]);
        if seat == order {
            out.push_str(&rest[at + len..at + len + end]);
        }
        rest = &rest[at + len + end + 1..];
    }
    out.push_str(rest);
    out
}

/// What a started bot needs to know of its game.
pub struct Seat<'a> {
    pub host: &'a str,
    pub port: u16,
    /// 0 first, 1 second.
    pub order: usize,
    pub name: &'a str,
    pub stones: u32,
    pub resets: u8,
    pub init_max: u32,
}

impl Seat<'_> {
    fn seat_word(&self) -> &'static str {
        if self.order == 0 {
            "first"
        } else {
            "second"
        }
    }

    fn fill(&self, cmd: &str) -> String {
        let cmd = seat_only(cmd, self.order);
        cmd.replace("{addr}", &format!("{}:{}", self.host, self.port))
            .replace("{host}", self.host)
            .replace("{port}", &self.port.to_string())
            .replace("{order}", &self.order.to_string())
            .replace("{seat}", self.seat_word())
            .replace("{name}", self.name)
            .replace("{stones}", &self.stones.to_string())
            .replace("{resets}", &self.resets.to_string())
            .replace("{init_max}", &self.init_max.to_string())
    }

    fn connect(&self) -> io::Result<Command> {
        let mut c = Command::new(std::env::current_exe()?);
        c.arg("connect")
            .arg(format!("{}:{}", self.host, self.port))
            .arg(format!("--{}", self.seat_word()))
            .args(["--name", self.name, "--init-max"])
            .arg(self.init_max.to_string())
            .args(["--timeout", "60"]);
        Ok(c)
    }
}

/// A bot started for one game: its process (in a process group of its own) and its
/// stderr, to be read by the caller.
pub struct Started {
    pub child: Child,
    pub stderr: Option<std::process::ChildStderr>,
    /// Helpers that run on the bot's behalf (the text client, the line relay); they
    /// end with the bot's pipes or the game's sockets, and are not waited for.
    pub helpers: Vec<thread::JoinHandle<()>>,
}

fn group(c: &mut Command) -> &mut Command {
    c.process_group(0)
}

fn in_dir<'c>(c: &'c mut Command, dir: Option<&std::path::Path>) -> &'c mut Command {
    match dir {
        Some(d) => c.current_dir(d),
        None => c,
    }
}

/// A bot's shell command: in a process group of its own in `dir`, or confined in
/// `jail` (a session of its own, `view.own` its directory).
fn shell(
    cmd: &str,
    dir: Option<&std::path::Path>,
    jail: Option<&Confined<'_>>,
) -> io::Result<Command> {
    let script = exec(cmd);
    match jail {
        Some(j) => j.jail.command(&["sh", "-c", &script], j.view),
        None => {
            let mut c = Command::new("sh");
            c.args(["-c", &script]);
            in_dir(group(&mut c), dir);
            Ok(c)
        }
    }
}

/// A bot's shell command with every stdio piped (the runner speaks for it on
/// the wire).
fn spawn_piped(
    cmd: &str,
    dir: Option<&std::path::Path>,
    jail: Option<&Confined<'_>>,
) -> io::Result<std::process::Child> {
    shell(cmd, dir, jail)?
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
}

/// Whether a bot of this kind runs confined when the tournament confines: the
/// programs of others (commands, text and line bots), not nimbot's own policies
/// nor boards (a device the runner opens).
pub fn confinable(kind: &Kind) -> bool {
    matches!(kind, Kind::Shell(_) | Kind::Text(_) | Kind::Line(_))
}

/// Where and how a confined bot runs.
pub struct Confined<'a> {
    pub jail: &'a crate::sandbox::Jail,
    pub view: &'a crate::sandbox::View,
}

/// Start `bot` for `seat`, confined in `jail` when given (for the kinds that
/// are, [`confinable`]).
pub fn start(bot: &Bot, seat: &Seat<'_>, jail: Option<&Confined<'_>>) -> io::Result<Started> {
    let kind = bot.kind().map_err(io::Error::other)?;
    let mut helpers = Vec::new();
    let mut child = match kind {
        Kind::Nimbot(policy) => {
            // Quiet: the runner knows how the game ended, and a bot that writes
            // nothing to stderr costs no file.
            let mut c = seat.connect()?;
            c.args(["--policy", &policy, "--quiet"]);
            group(&mut c)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()?
        }
        Kind::Board(device) => {
            let mut c = seat.connect()?;
            c.args(["--board", &device, "--board-fallback", "forfeit"]);
            group(&mut c)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()?
        }
        Kind::Shell(cmd) => shell(&seat.fill(&cmd), bot.dir.as_deref(), jail)?
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?,
        Kind::Line(cmd) => {
            // The line bot and nimbot's `connect --board` in one group: `sh -c`
            // runs the bot with its stdio on a loopback socket the runner relays.
            let relay = TcpListener::bind("127.0.0.1:0")?;
            let port = relay.local_addr()?.port();
            let mut kid = spawn_piped(&seat.fill(&cmd), bot.dir.as_deref(), jail)?;
            let (stdin, stdout) = (kid.stdin.take(), kid.stdout.take());
            let pgid = kid.id();
            helpers.push(thread::spawn(move || {
                if let (Some(i), Some(o)) = (stdin, stdout) {
                    relay_line(relay, i, o);
                }
            }));
            let mut c = seat.connect()?;
            c.args(["--board", &format!("tcp:127.0.0.1:{port}")])
                .args(["--board-fallback", "forfeit"]);
            // connect joins the bot's group, so the game ends both at once (a
            // confined bot's session is its own: connect ends with the game's
            // sockets).
            let pgid = if jail.is_some() { 0 } else { pgid };
            c.process_group(i32::try_from(pgid).unwrap_or(0))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            match c.spawn() {
                Ok(mut connect) => {
                    // The bot's exit is what the referee watches; connect is reaped here.
                    helpers.push(thread::spawn(move || {
                        let _ = connect.wait();
                    }));
                }
                Err(e) => {
                    let _ = kid.kill();
                    return Err(e);
                }
            }
            kid
        }
        Kind::Text(cmd) => {
            let mut kid = spawn_piped(&seat.fill(&cmd), bot.dir.as_deref(), jail)?;
            let (stdin, stdout) = (kid.stdin.take(), kid.stdout.take());
            let addr = format!("{}:{}", seat.host, seat.port);
            let (order, name) = (seat.order, seat.name.to_owned());
            helpers.push(thread::spawn(move || {
                if let (Some(i), Some(o)) = (stdin, stdout) {
                    let _ = text_client(&addr, order, &name, i, o);
                }
            }));
            kid
        }
    };
    let stderr = child.stderr.take();
    Ok(Started {
        child,
        stderr,
        helpers,
    })
}

/// A simple command (no shell syntax beyond words and quotes) is `exec`ed, so
/// that the bot is the process watched: its exit status and signal are its own,
/// not the shell's report of them.
fn exec(cmd: &str) -> String {
    if cmd.chars().any(|c| ";&|()<>`$\n\\*?{}[]~#".contains(c)) {
        cmd.to_owned()
    } else {
        format!("exec {cmd}")
    }
}

/// Copy what arrives as it arrives (a plain loop: `io::copy`'s splice between a
/// socket and a pipe can hold a short line back).
fn pump(from: &mut impl Read, to: &mut impl Write) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = from.read(&mut buf) {
        if n == 0 || to.write_all(&buf[..n]).and_then(|()| to.flush()).is_err() {
            return;
        }
    }
}

/// Carry bytes between the first connection to `relay` and the bot's pipes.
fn relay_line(relay: TcpListener, mut stdin: ChildStdin, mut stdout: ChildStdout) {
    // `connect` comes at once, unless it failed to start: then give up.
    let _ = relay.set_nonblocking(true);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let sock = loop {
        match relay.accept() {
            Ok((s, _)) => break s,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if std::time::Instant::now() > deadline {
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
            Err(_) => return,
        }
    };
    let _ = sock.set_nonblocking(false);
    drop(relay);
    let _ = sock.set_nodelay(true);
    let Ok(mut back) = sock.try_clone() else {
        return;
    };
    let up = thread::spawn(move || {
        pump(&mut stdout, &mut back);
        let _ = back.shutdown(std::net::Shutdown::Write);
    });
    let mut sock = sock;
    pump(&mut sock, &mut stdin);
    drop(stdin);
    let _ = up.join();
}

/// Objects from a TCP stream, one at a time.
struct Objects {
    stream: TcpStream,
    splitter: Splitter<1024>,
    buf: Vec<u8>,
    at: usize,
}

impl Objects {
    fn next(&mut self) -> io::Result<Vec<u8>> {
        loop {
            while self.at < self.buf.len() {
                let b = self.buf[self.at];
                self.at += 1;
                match self.splitter.feed(b) {
                    Ok(Feed::Pending) => {}
                    Ok(Feed::Complete) => {
                        return Ok(self.splitter.object().unwrap_or(&[]).to_vec());
                    }
                    Err(e) => return Err(io::Error::other(e.as_str())),
                }
            }
            let mut chunk = [0u8; 1024];
            let n = self.stream.read(&mut chunk)?;
            if n == 0 {
                return Err(io::Error::other("the server closed the connection"));
            }
            self.buf = chunk[..n].to_vec();
            self.at = 0;
        }
    }
}

/// An `exp-nim`-style text client for a bot on pipes: it joins the game, prompts
/// `Please enter your move: ` (no newline) when the bot is to move, reads `K F`,
/// and reports every move (`You took K stones.`, `Opponent took K stones and used
/// reset.`, `Current max:`, `Stones left:`) and the end (`Game over`, the reason).
fn text_client(
    addr: &str,
    order: usize,
    name: &str,
    mut to_bot: ChildStdin,
    from_bot: ChildStdout,
) -> io::Result<()> {
    let stream = connect_retry(addr)?;
    let _ = stream.set_nodelay(true);
    let mut w = stream.try_clone()?;
    let seat = Player::from_index(order);
    let mut hello = Writer::<{ 6 * MAX_NAME + 40 }>::new();
    Hello {
        name: name.as_bytes(),
        seat,
    }
    .emit(&mut hello);
    w.write_all(hello.as_bytes())?;
    let mut objects = Objects {
        stream,
        splitter: Splitter::new(),
        buf: Vec::new(),
        at: 0,
    };
    let mut lines = BufReader::new(from_bot);
    let _welcome = objects.next()?;
    let mut mine = order == 0;
    loop {
        if mine {
            to_bot.write_all(text_client::PROMPT)?;
            to_bot.flush()?;
            let mv = loop {
                let mut line = String::new();
                if lines.read_line(&mut line)? == 0 {
                    // The bot closed its output: the game goes on without a move.
                    return Ok(());
                }
                // As exp-nim: a line it cannot read is refused and asked again.
                match text_client::parse_answer(line.as_bytes()) {
                    Some(mv) => break mv,
                    None => {
                        to_bot.write_all(&text_client::invalid())?;
                        to_bot.write_all(text_client::PROMPT)?;
                        to_bot.flush()?;
                    }
                }
            };
            let mut out = Writer::<64>::new();
            MoveMessage {
                seat: Some(seat),
                mv,
            }
            .emit(&mut out);
            w.write_all(out.as_bytes())?;
        }
        let msg = objects.next()?;
        let Ok(state) = State::parse(&msg) else {
            return Ok(());
        };
        let end = state.end();
        let reason = end.and_then(|e| e.reason).unwrap_or_default();
        if end.is_none() || Reason::classify(reason) == Reason::Won {
            to_bot.write_all(&text_client::move_report(
                mine,
                state.mv().unwrap_or(Move::new(0, false)),
                state.current_max().unwrap_or(0),
                state.stones_left().unwrap_or(0),
            ))?;
        }
        if end.is_some() {
            to_bot.write_all(&text_client::game_over())?;
            to_bot.write_all(reason)?;
            to_bot.write_all(b"\n")?;
            return Ok(());
        }
        mine = !mine;
    }
}

fn connect_retry(addr: &str) -> io::Result<TcpStream> {
    let mut last = None;
    for _ in 0..20 {
        match TcpStream::connect(addr) {
            Ok(s) => return Ok(s),
            Err(e) => last = Some(e),
        }
        thread::sleep(Duration::from_millis(50));
    }
    Err(last.unwrap_or_else(|| io::Error::other("cannot connect")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_placeholders_names_and_dirs() {
        let seat = |order| Seat {
            host: "h",
            port: 9,
            order,
            name: "b",
            stones: 5,
            resets: 1,
            init_max: 3,
        };
        let cmd = "bot {first:-f} {first:True}{second:False} -n {name} {addr}";
        assert_eq!(seat(0).fill(cmd), "bot -f True -n b h:9");
        assert_eq!(seat(1).fill(cmd), "bot  False -n b h:9");
        assert_eq!(seat(1).fill("x {second:}{first:y"), "x {first:y");
        for bad in [
            "my bot=python3 x.py",
            "my bot;dir=.=python3 x.py",
            "a b;dir=/=x",
        ] {
            let e = Bot::parse(bad).unwrap_err();
            assert!(e.contains("is not a name"), "{bad}: {e}");
        }
        let e = Bot::parse("python3 bot.py {frist:-f}").unwrap_err();
        assert!(
            e.contains("unknown placeholder {frist:-f} (the placeholders: {addr}"),
            "{e}"
        );
        for typo in ["python3 bot.py {prot}", "x {first:-f} {nmae}", "x {seat:1}"] {
            let e = Bot::parse(typo).unwrap_err();
            assert!(e.contains("unknown placeholder {"), "{typo}: {e}");
        }
        assert!(Bot::parse("sh -c 'x ${HOME} {first:-f} {addr}'").is_ok());
        assert!(Bot::parse("a;cwd=/=x")
            .unwrap_err()
            .contains("unknown option"));
        assert!(Bot::parse("a;dir=/no/such/dir=x")
            .unwrap_err()
            .contains("not a directory"));
        let b = Bot::parse("book;dir=/tmp=python3 bot.py --port={port}").unwrap();
        assert_eq!(
            (b.name.as_str(), b.spec.as_str()),
            ("book", "python3 bot.py --port={port}")
        );
        assert_eq!(b.dir, Some(std::fs::canonicalize("/tmp").unwrap()));
        let b = Bot::parse("python3 bot.py --port={port}").unwrap();
        assert_eq!(b.spec, "python3 bot.py --port={port}");
    }

    #[test]
    fn specs_and_names() {
        let b = Bot::parse("nimbot:trap").unwrap();
        assert_eq!(
            (b.name.as_str(), b.kind()),
            ("nimbot-trap", Ok(Kind::Nimbot("trap".into())))
        );
        assert!(Bot::parse("nimbot:bogus").is_err());
        let b = Bot::parse("py=python3 bots/greedy.py {addr} {order}").unwrap();
        assert_eq!(b.name, "py");
        let b = Bot::parse("python3 bots/greedy.py {addr} {order}").unwrap();
        assert_eq!(b.name, "greedy");
        assert_eq!(b.kind(), Ok(Kind::Shell(b.spec.clone())));
        let b = Bot::parse("text:./mybot --fast").unwrap();
        assert_eq!(b.kind(), Ok(Kind::Text("./mybot --fast".into())));
        assert!(Bot::parse("line:").is_err());
        let mut v = vec![Bot::parse("nimbot").unwrap(), Bot::parse("nimbot").unwrap()];
        unique_names(&mut v);
        assert_eq!(v[1].name, "nimbot-2");
    }
}
