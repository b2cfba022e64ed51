//! `nimbot` as one small, fully static Linux executable (x86_64 or aarch64) for
//! locked-down tournament machines: no C library, the default table inside.
//!
//! It speaks what a player needs, spelled as in the full host binary: the line
//! protocol on stdin/stdout (no arguments, or `serial`), `query`, `exp-nim` and
//! `connect`, with the same outputs, summary lines and exit codes. Everything the
//! games need is the no_std core (`nimbot_protocol`, `nimbot_platform`);
//! this crate parses arguments, resolves host names ([`hosts`]) and moves bytes
//! through [`sys`], the only `unsafe` module. Games in the embedded table (N <= 999,
//! R <= 4, M = 3) are played from it; larger ones are solved in memory by the
//! core's solver, on a heap of `mmap`s within `--max-memory` ([`sys::heap`]). It
//! plays Expanding Nim only: Fibonacci Nim and Super-Nim are left to the full
//! binary and the firmware. docs/tiny.md lists the system calls per command.
#![no_std]
#![no_main]

mod hosts;
// The one unsafe module: system calls, the entry point and the heap (the crate
// denies unsafe code elsewhere, as the workspace does).
#[allow(unsafe_code)]
mod sys;

use nimbot::{
    text::{parse_micros, parse_u32, parse_u64, text, word_index, Decimal},
    DecideError, Decision, Engine, Evaluation, Knowledge, Limits, Oracle, Params, Player, Policy,
    Position, Table,
};
use nimbot_platform::json::{Feed, Splitter};
use nimbot_platform::tcp_client::{Client, ClientError, Step};
use nimbot_platform::text_client::{TextAction, TextClient, TextError};
use nimbot_platform::wire::{GameResult, EXIT_FAILED, EXIT_LOST, EXIT_USAGE, MAX_MESSAGE};
use nimbot_protocol::{serve, Session};
use nimbot_solve::{DistanceCache, SolutionCache, SolveBox};

use core::mem::ManuallyDrop;
use sys::heap::OUT_OF_MEMORY;
use sys::{Args, Errno, Socket};

/// All heap memory comes from `mmap`, within `--max-memory`.
#[global_allocator]
static HEAP: sys::heap::Mmap = sys::heap::Mmap;

const STDIN: i32 = 0;
const STDOUT: i32 = 1;
const STDERR: i32 = 2;

/// Exit statuses, as in the full binary.
const LOST: u8 = EXIT_LOST;
const USAGE: u8 = EXIT_USAGE;
const FAILED: u8 = EXIT_FAILED;

const HELP: &str = "\
nimbot (tiny static build): perfect play for Expanding Nim with resets

Usage:
  nimbot [serial]                  the line protocol on stdin/stdout
  nimbot query S C A B F [-m M]    value, move and distance of a position (win|lose K R D)
  nimbot connect HOST:PORT --first|--second [--name NAME] [--init-max M] [--timeout SECS]
                 [--retry SECS]    keep trying a server that is not up yet
  nimbot exp-nim --first|--second [--stones N] [--resets R] [--init-max M]
  nimbot --policy first|trap ...   how to move in lost positions (default trap;
                                   longest and exploit need the full binary)
  nimbot --help | --version

HOST: dotted IPv4, an IPv4 name in /etc/hosts, or localhost (no DNS).
";

/// The end of the help: what the build does beyond the table, and exit statuses.
const HELP_END: &str = "\
Games beyond the embedded table (N <= 999, R <= 4, M = 3) are solved in memory:
  nimbot --max-memory MIB ...      at most MIB mebibytes for that (default 64)
Exit status: 0 won (or done), 1 lost, 2 usage, 3 protocol, connection or state
error, 4 the game does not fit in --max-memory.
";

/// Run the command line; the result is the exit status.
fn main(args: &Args) -> u8 {
    sys::ignore_sigpipe();
    #[cfg(feature = "panic-canary")]
    core::hint::black_box(core::hint::black_box(args.as_slice())[20]);
    if args.overflow {
        return usage("too many arguments");
    }
    // `--policy` is global, as in the full binary: take it out wherever it is.
    let mut rest: [&[u8]; sys::MAX_ARGS] = [&[]; sys::MAX_ARGS];
    let mut n = 0;
    let mut policy = Policy::Trap;
    let mut it = args.as_slice().iter().copied();
    while let Some(arg) = it.next() {
        // Names are looked up with `word_index`: `==` on a byte string compiles to a
        // comparison per byte at opt-level "z".
        if word_index(arg, text!("-h --help"), b' ').is_some() {
            return print(STDOUT, &[HELP.as_bytes(), HELP_END.as_bytes()], 0);
        }
        const GLOBAL: &[u8] = b"--max-memory --policy";
        let found = option(arg, &mut it, GLOBAL, 2);
        if let Some((0, value)) = found {
            match number(value, GLOBAL, 0) {
                Ok(mib) => sys::heap::set_limit((mib as usize).saturating_mul(1 << 20)),
                Err(status) => return status,
            }
            continue;
        }
        if let Some((_, value)) = found {
            // The engine knows values only (`TinyEngine` plays what `Engine::plays`
            // allows by default): `longest` and `exploit` need distances and models.
            let named = value.and_then(Policy::from_name);
            let Some(p) = named.filter(|p| p.needs() == Knowledge::Values) else {
                return usage(
                    "--policy takes first or trap (longest and exploit need the full binary)",
                );
            };
            policy = p;
            continue;
        }
        if let Some(slot) = rest.get_mut(n) {
            *slot = arg;
            n += 1;
        }
    }
    let rest = rest.get(..n).unwrap_or(&[]);
    match rest.split_first() {
        None => run_serial(policy),
        // By position in a list: one loop instead of a comparison per name.
        Some((&cmd, tail)) => match word_index(cmd, text!(COMMANDS), b' ') {
            Some(0) if tail.is_empty() => run_serial(policy),
            Some(1) => run_query(tail, policy),
            Some(2) => run_connect(tail, policy),
            Some(3) => run_exp_nim(tail, policy),
            Some(4) => print(STDOUT, &[HELP.as_bytes(), HELP_END.as_bytes()], 0),
            Some(5 | 6) => print(STDOUT, &[nimbot::SOFTWARE.as_bytes(), b"\n"], 0),
            _ => usage_arg("unexpected argument", cmd),
        },
    }
}

/// The commands, as [`main`] matches them by position.
const COMMANDS: &str = "serial query connect exp-nim help --version -V";

/// If `arg` is one of a command's options, which one and its value. `names` lists
/// the `longs` long names (`--name`), then the short names of the first of them in
/// the same order (`-n`), separated by spaces: option `i` is the `i`-th long name
/// or short name `longs + i`. The value is that of `--long=v` or the next argument
/// (`None` if it is missing). One table-driven function rather than a call per
/// option at every command: smaller code.
fn option<'a>(
    arg: &'a [u8],
    it: &mut impl Iterator<Item = &'a [u8]>,
    names: &[u8],
    longs: usize,
) -> Option<(usize, Option<&'a [u8]>)> {
    for (i, name) in names.split(|&b| b == b' ').enumerate() {
        if arg == name {
            return Some((i % longs, it.next()));
        }
        // `--long=v` (not `strip_prefix`: some compilers leave its slice split's
        // panic path in).
        if i < longs && arg.get(..name.len()) == Some(name) {
            if let Some((b'=', value)) = arg.get(name.len()..).and_then(|r| r.split_first()) {
                return Some((i, Some(value)));
            }
        }
    }
    None
}

/// A number option's value: `Err` (a usage error already reported, naming the
/// `i`-th of `names`) if it is not one.
fn number(value: Option<&[u8]>, names: &[u8], i: usize) -> Result<u32, u8> {
    value.and_then(parse_u32).ok_or_else(|| {
        let what = names.split(|&b| b == b' ').nth(i).unwrap_or(b"");
        usage_arg("expected a number for", what)
    })
}

// ---------------------------------------------------------------- output

/// Bytes a [`Text`] holds.
const TEXT_CAPACITY: usize = 512;

/// A line assembled on the stack and written with one system call.
struct Text {
    buf: [u8; TEXT_CAPACITY],
    len: usize,
}

impl Text {
    fn new() -> Text {
        Text {
            buf: [0; TEXT_CAPACITY],
            len: 0,
        }
    }

    /// Append bytes (silently cut at the buffer's end).
    fn push(&mut self, bytes: &[u8]) -> &mut Text {
        for &b in bytes {
            if let Some(slot) = self.buf.get_mut(self.len) {
                *slot = b;
                self.len += 1;
            }
        }
        self
    }

    /// Append `n` in decimal.
    fn num(&mut self, n: u64) -> &mut Text {
        self.push(&Decimal::new(n))
    }

    // One copy for its many callers (80 B less).
    #[inline(never)]
    fn bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

/// Write the parts to `fd` (in one write when they fit a [`Text`], like a line;
/// part by part when longer, like the help), then return `status`.
fn print(fd: i32, parts: &[&[u8]], status: u8) -> u8 {
    let total = parts.iter().fold(0usize, |n, p| n.saturating_add(p.len()));
    if total > TEXT_CAPACITY {
        for p in parts {
            let _ = sys::write_all(fd, p);
        }
        return status;
    }
    let mut t = Text::new();
    for p in parts {
        t.push(p);
    }
    let _ = sys::write_all(fd, t.bytes());
    status
}

fn usage(msg: &str) -> u8 {
    print(
        STDERR,
        &[
            b"nimbot: error: ",
            msg.as_bytes(),
            b"\n(see nimbot --help)\n",
        ],
        USAGE,
    )
}

fn usage_arg(msg: &str, arg: &[u8]) -> u8 {
    print(
        STDERR,
        &[
            b"nimbot: error: ",
            msg.as_bytes(),
            b" '",
            arg,
            b"'\n(see nimbot --help)\n",
        ],
        USAGE,
    )
}

// ---------------------------------------------------------------- engine

/// The engine of every command: the embedded table where it covers the position,
/// else a solution from the core's solver (its `SolutionCache`, as the full binary's
/// `SolvingEngine` keeps one), refusing boxes that cannot fit in `--max-memory` (a
/// box needs at least one bit per stored position). Both answer through one `dyn
/// Oracle`, so the move code is compiled once. Distances to the end (`query`,
/// `moves`) come from the core's distances of the box around the position, within
/// `--max-memory`; `longest` is refused (it would keep distances of whole games).
struct TinyEngine {
    table: Option<Table>,
    solutions: SolutionCache,
    distances: DistanceCache,
}

impl TinyEngine {
    /// The oracle for `pos`: the table if it answers `pos`, else a solution of `bx`
    /// (kept from the last question when it answers `pos`).
    fn cover(&mut self, bx: SolveBox, pos: &Position) -> Result<&dyn Oracle, DecideError> {
        if let Some(t) = self.table.as_ref().filter(|t| t.value(pos).is_ok()) {
            return Ok(t);
        }
        Ok(self.solutions.ensure(bx, Some(pos))?)
    }
}

impl Engine for TinyEngine {
    fn limits(&self) -> Limits {
        Limits::RULES
    }
    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        let bx = SolveBox::games(params.stones(), params.resets(), params.init_max());
        self.cover(bx, &params.start()).map(|_| ())
    }
    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError> {
        let oracle = self.cover(SolveBox::around(pos), pos)?;
        policy.decide(oracle, pos)
    }
    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        let oracle = self.cover(SolveBox::around(pos), pos)?;
        let value = nimbot::position_value(oracle, pos)?;
        // Distances of the smallest box around `pos` (unless kept ones cover it):
        // all a `query` or a `moves` needs.
        let distance = self
            .distances
            .get(pos, SolveBox::around(pos), sys::heap::limit() as u64);
        Ok(Evaluation { value, distance })
    }
}

/// The engine every command starts with (one copy for its four callers). The
/// callers keep it in a `ManuallyDrop`: the process ends right after the command,
/// and no drop code is linked for it (about 100 bytes).
#[inline(never)]
fn engine() -> TinyEngine {
    TinyEngine {
        table: Some(Table::embedded()),
        solutions: SolutionCache::new(sys::heap::limit() as u64),
        distances: DistanceCache::new(),
    }
}

/// The line for a game that does not fit in memory, and [`OUT_OF_MEMORY`].
fn too_large(cmd: &str) -> u8 {
    cmd_line(
        cmd,
        b"error: ",
        &[
            b"the game does not fit in the memory allowed (--max-memory ",
            &Decimal::new((sys::heap::limit() >> 20) as u64),
            b" MiB)",
        ],
        OUT_OF_MEMORY,
    )
}

// ---------------------------------------------------------------- serial

/// A file descriptor as an `embedded-io` reader.
struct Input(i32);

impl embedded_io::ErrorType for Input {
    type Error = Errno;
}

impl embedded_io::Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Errno> {
        sys::read(self.0, buf)
    }
}

/// Standard output as an `embedded-io` writer that sends each reply line with one
/// system call (the protocol flushes after every line).
struct Output(Text);

impl embedded_io::ErrorType for Output {
    type Error = Errno;
}

impl embedded_io::Write for Output {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Errno> {
        if self.0.len + buf.len() > self.0.buf.len() {
            self.flush()?;
        }
        if buf.len() > self.0.buf.len() {
            return sys::write(STDOUT, buf);
        }
        self.0.push(buf);
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> Result<(), Errno> {
        if self.0.len + buf.len() > self.0.buf.len() {
            self.flush()?;
        }
        if buf.len() > self.0.buf.len() {
            return sys::write_all(STDOUT, buf);
        }
        self.0.push(buf);
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Errno> {
        let r = sys::write_all(STDOUT, self.0.bytes());
        self.0.len = 0;
        r
    }
}

fn run_serial(policy: Policy) -> u8 {
    let engine = engine();
    let mut session = ManuallyDrop::new(Session::with_policy(engine, policy));
    match serve(&mut session, &mut Input(STDIN), &mut Output(Text::new())) {
        Ok(()) => 0,
        Err(_) => print(STDERR, &[b"nimbot: i/o error\n"], LOST),
    }
}

// ---------------------------------------------------------------- query

fn run_query(args: &[&[u8]], policy: Policy) -> u8 {
    let mut init_max = 3;
    let mut numbers = [0u64; 8];
    let mut count = 0;
    let mut it = args.iter().copied();
    while let Some(arg) = it.next() {
        const OPTIONS: &[u8] = b"--init-max --game -m";
        let found = option(arg, &mut it, OPTIONS, 2);
        if let Some((0, v)) = found {
            init_max = match number(v, OPTIONS, 0) {
                Ok(m) => m,
                Err(status) => return status,
            };
        } else if let Some((_, v)) = found {
            if v.and_then(|v| word_index(v, text!("expanding expanding-nim"), b' '))
                .is_none()
            {
                return usage("the tiny binary plays Expanding Nim only (--game expanding)");
            }
        } else {
            let Some(n) = parse_u64(arg) else {
                return usage_arg("expected a number, got", arg);
            };
            if let Some(slot) = numbers.get_mut(count) {
                *slot = n;
            }
            count += 1;
        }
    }
    if count == 0 {
        return usage("query needs the position's numbers");
    }
    let numbers = numbers.get(..count).unwrap_or(&[]);
    let mut line = Text::new();
    let &[stones, cap, own, opp, pending] = numbers else {
        return query_error(
            line.push(b"expanding nim needs 5 numbers S C A B F, got ")
                .num(count as u64)
                .bytes(),
        );
    };
    let (Ok(stones), Ok(cap)) = (u32::try_from(stones), u32::try_from(cap)) else {
        return query_error(b"stones or cap out of range");
    };
    let (Ok(own), Ok(opp)) = (u8::try_from(own), u8::try_from(opp)) else {
        return query_error(b"resets out of range");
    };
    let pending = match pending {
        0 => false,
        1 => true,
        _ => return query_error(b"the pending flag F must be 0 or 1"),
    };
    let pos = match Position::new(stones, cap, own, opp, pending, init_max) {
        Ok(p) => p,
        Err(e) => return query_error(e.as_str().as_bytes()),
    };
    let mut engine = ManuallyDrop::new(engine());
    let engine = &mut *engine;
    match engine
        .decide(&pos, policy)
        .and_then(|d| Ok((d, engine.evaluate(&pos)?.distance)))
    {
        Ok((d, distance)) => {
            line.push(d.value.as_word().as_bytes())
                .push(b" ")
                .num(d.mv.take.into())
                .push(if d.mv.reset { b" 1 " } else { b" 0 " });
            match distance {
                Some(d) => line.num(d.into()),
                None => line.push(b"-"),
            };
            line.push(b"\n");
            print(STDOUT, &[line.bytes()], 0)
        }
        Err(DecideError::TooLarge) => too_large("query"),
        Err(e) => query_error(e.as_str().as_bytes()),
    }
}

fn query_error(msg: &[u8]) -> u8 {
    cmd_usage("query", msg)
}

// ---------------------------------------------------------------- games

/// The one-line summary of a finished game, and its exit status (0 won, 1 lost).
fn report(cmd: &str, r: &GameResult) -> u8 {
    print(STDERR, &[r.summary(cmd).as_slice(), b"\n"], r.exit_status())
}

/// A command's arguments that cannot make a game: `nimbot CMD: MSG`, exit status 2.
fn cmd_usage(cmd: &str, msg: &[u8]) -> u8 {
    cmd_line(cmd, b"", &[msg], USAGE)
}

/// A game that could not be played to its end: one line, exit status 3.
fn fail(cmd: &str, parts: &[&[u8]]) -> u8 {
    cmd_line(cmd, b"error: ", parts, FAILED)
}

/// `nimbot CMD: ` and `kind`, then the parts, as one line on stderr; returns `status`.
fn cmd_line(cmd: &str, kind: &[u8], parts: &[&[u8]], status: u8) -> u8 {
    let mut t = Text::new();
    t.push(b"nimbot ")
        .push(cmd.as_bytes())
        .push(b": ")
        .push(kind);
    for p in parts {
        t.push(p);
    }
    t.push(b"\n");
    let _ = sys::write_all(STDERR, t.bytes());
    status
}

/// Whether `arg` is `--first` or `--second`; if so, it is noted in `seat`.
fn seat_flag(arg: &[u8], seat: &mut (bool, bool)) -> bool {
    match word_index(arg, text!("--first --second"), b' ') {
        Some(0) => seat.0 = true,
        Some(1) => seat.1 = true,
        _ => return false,
    }
    true
}

/// The seat from `--first` / `--second` (see [`seat_flag`]): exactly one of them.
fn seat_of(seat: (bool, bool)) -> Result<Player, u8> {
    match seat {
        (true, false) => Ok(Player::First),
        (false, true) => Ok(Player::Second),
        _ => Err(usage("exactly one of --first and --second is required")),
    }
}

/// An exp-nim game that cannot go on: [`too_large`] or [`fail`].
fn text_fail(e: TextError) -> u8 {
    match e {
        TextError::Engine(DecideError::TooLarge) => too_large("exp-nim"),
        e => fail("exp-nim", &[e.as_str().as_bytes()]),
    }
}

// Its own stack frame (not inlined into `main` with the others): 133 bytes less,
// measured.
#[inline(never)]
fn run_exp_nim(args: &[&[u8]], policy: Policy) -> u8 {
    const CMD: &str = "exp-nim";
    let mut seat = (false, false);
    let (mut stones, mut resets, mut init_max) = (None, 4u32, 3u32);
    let mut it = args.iter().copied();
    while let Some(arg) = it.next() {
        const OPTIONS: &[u8] = b"--stones --resets --init-max -n -r -m";
        let parsed = if seat_flag(arg, &mut seat) {
            Ok(())
        } else if let Some((i, v)) = option(arg, &mut it, OPTIONS, 3) {
            number(v, OPTIONS, i).map(|n| match i {
                0 => stones = Some(n),
                1 => resets = n,
                _ => init_max = n,
            })
        } else {
            Err(usage_arg("unexpected argument", arg))
        };
        if let Err(status) = parsed {
            return status;
        }
    }
    let seat = match seat_of(seat) {
        Ok(s) => s,
        Err(status) => return status,
    };
    let Ok(resets) = u8::try_from(resets) else {
        return usage("--resets is out of range");
    };
    let mut client = match TextClient::new(seat, stones, resets, init_max) {
        Ok(c) => c.with_policy(policy),
        Err(e) => return cmd_usage(CMD, e.as_str().as_bytes()),
    };
    let mut engine = ManuallyDrop::new(engine());
    let engine = &mut *engine;
    if let Err(e) = client.prepare(engine) {
        return text_fail(e);
    }
    let mut buf = [0u8; 4096];
    loop {
        let n = match sys::read(STDIN, &mut buf) {
            Ok(0) => {
                return match client.end_of_input() {
                    Ok(r) => report(CMD, &r),
                    Err(e) => text_fail(e),
                }
            }
            Ok(n) => n,
            Err(e) => return fail(CMD, &[b"read failed: ", e.text().as_bytes()]),
        };
        for &b in buf.get(..n).unwrap_or(&[]) {
            match client.feed(b, engine) {
                Ok(TextAction::None) => {}
                Ok(TextAction::Send(line)) => {
                    if let Err(e) = sys::write_all(STDOUT, &line) {
                        return fail(CMD, &[b"write failed: ", e.text().as_bytes()]);
                    }
                }
                Ok(TextAction::Finished(r)) => return report(CMD, &r),
                Err(e) => return text_fail(e),
            }
        }
    }
}

// Its own stack frame too: 51 bytes less, measured.
#[inline(never)]
fn run_connect(args: &[&[u8]], policy: Policy) -> u8 {
    const CMD: &str = "connect";
    let mut seat = (false, false);
    let mut addr: Option<&[u8]> = None;
    let mut name: &[u8] = b"nimbot";
    let mut init_max = 3u32;
    let mut timeout = Some(600_000_000u64);
    let mut retry: Option<(u64, &[u8])> = Some((0, b"0"));
    let mut it = args.iter().copied();
    while let Some(arg) = it.next() {
        const OPTIONS: &[u8] = b"--name --init-max --timeout --retry -n -m";
        let parsed = if seat_flag(arg, &mut seat) {
            Ok(())
        } else if let Some((i, v)) = option(arg, &mut it, OPTIONS, 4) {
            match i {
                0 => v
                    .map(|v| name = v)
                    .ok_or_else(|| usage("--name needs a value")),
                1 => number(v, OPTIONS, 1).map(|n| init_max = n),
                2 => {
                    timeout = v.and_then(parse_micros);
                    Ok(())
                }
                _ => {
                    retry = v.and_then(|v| Some((parse_micros(v)?, v)));
                    Ok(())
                }
            }
        } else if arg.first() != Some(&b'-') && addr.is_none() {
            addr = Some(arg);
            Ok(())
        } else {
            Err(usage_arg("unexpected argument", arg))
        };
        if let Err(status) = parsed {
            return status;
        }
    }
    let Some(addr) = addr else {
        return usage("connect needs HOST:PORT");
    };
    let seat = match seat_of(seat) {
        Ok(s) => s,
        Err(status) => return status,
    };
    let (Some(timeout), Some((retry, retry_text))) = (timeout.filter(|_| init_max != 0), retry)
    else {
        return cmd_usage(
            CMD,
            b"--init-max must be at least 1, --timeout and --retry numbers of seconds",
        );
    };
    let mut client = match Client::new(seat, name, init_max) {
        Ok(c) => c.with_policy(policy),
        Err(e) => return cmd_usage(CMD, e.as_str().as_bytes()),
    };
    let mut engine = ManuallyDrop::new(engine());
    let engine = &mut *engine;
    let Some((host, port)) = split_addr(addr) else {
        return fail(CMD, &[b"cannot resolve ", addr, b": expected HOST:PORT"]);
    };
    let Some(ip) = hosts::resolve(host) else {
        return fail(
            CMD,
            &[
                b"cannot resolve ",
                host,
                b": not an IPv4 address, not in /etc/hosts and not localhost (no DNS here)",
            ],
        );
    };
    let cannot = |e: Errno| {
        fail(
            CMD,
            &[b"cannot connect to ", addr, b": ", e.text().as_bytes()],
        )
    };
    // With --retry, a server that is not up yet is tried again, after pauses from
    // 0.1 s doubling to 2 s, until the time is up (one line on stderr). The clock is
    // read only then (docs/tiny.md's allowlist).
    let mut deadline = None;
    let mut pause = 100_000u64;
    let socket = loop {
        let attempt = Socket::tcp().and_then(|s| {
            // On Linux the send timeout also bounds `connect` (the full binary waits 10 s).
            let _ = s.set_write_timeout(10_000_000);
            s.connect(ip, port).map(|()| s)
        });
        let e = match attempt {
            Ok(s) => break s,
            Err(e) if retry == 0 => return cannot(e),
            Err(e) => e,
        };
        let end = *deadline.get_or_insert_with(|| {
            cmd_line(
                CMD,
                b"",
                &[
                    b"cannot connect to ",
                    addr,
                    b": ",
                    e.text().as_bytes(),
                    b"; retrying for up to ",
                    retry_text,
                    b" s",
                ],
                0,
            );
            sys::now_micros().saturating_add(retry)
        });
        let left = end.saturating_sub(sys::now_micros());
        if left == 0 {
            return cannot(e);
        }
        sys::sleep(pause.min(left));
        pause = (pause * 2).min(2_000_000);
    };
    let _ = socket.set_nodelay();
    if timeout > 0 {
        let _ = socket.set_read_timeout(timeout);
    }
    if let Err(e) = sys::write_all(socket.fd(), &client.hello()) {
        return fail(CMD, &[b"send failed: ", e.text().as_bytes()]);
    }
    let mut splitter: Splitter<MAX_MESSAGE> = Splitter::new();
    let mut buf = [0u8; 4096];
    loop {
        let _ = socket.set_quickack();
        let n = match sys::read(socket.fd(), &mut buf) {
            Ok(0) => {
                return fail(
                    CMD,
                    &[b"the server closed the connection before the end (no result)"],
                )
            }
            Ok(n) => n,
            Err(e) => return fail(CMD, &[b"read failed: ", e.text().as_bytes()]),
        };
        for &b in buf.get(..n).unwrap_or(&[]) {
            match splitter.feed(b) {
                Ok(Feed::Pending) => continue,
                Ok(Feed::Complete) => {}
                Err(e) => return fail(CMD, &[e.as_str().as_bytes()]),
            }
            let msg = splitter.object().unwrap_or(&[]);
            match client.handle(msg, engine) {
                Ok(Step::Wait) => {}
                Ok(Step::Send(bytes)) => {
                    if let Err(e) = sys::write_all(socket.fd(), &bytes) {
                        return fail(CMD, &[b"send failed: ", e.text().as_bytes()]);
                    }
                }
                Ok(Step::Finished(r)) => return report(CMD, &r),
                Err(ClientError::Engine(DecideError::TooLarge)) => return too_large(CMD),
                Err(e) => return fail(CMD, &[e.as_str().as_bytes()]),
            }
        }
    }
}

/// `HOST:PORT` split at the last colon, with a valid port.
fn split_addr(addr: &[u8]) -> Option<(&[u8], u16)> {
    let colon = addr.iter().rposition(|&b| b == b':')?;
    let (host, port) = (addr.get(..colon)?, addr.get(colon + 1..)?);
    Some((host, u16::try_from(parse_u32(port)?).ok()?))
}
