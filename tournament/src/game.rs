//! One game of a tournament: its own referee on its own loopback port, the two bots
//! started as process groups of their own, and the ending named from what happened.
//!
//! The game runs on the game loop of `nimbot serve`
//! ([`nimbot_match::game_loop::run_game`]: the sockets, the judging by
//! `nimbot_platform::referee`, the pace, every byte on the wire); this module is
//! its hooks ([`Hooks`] for `Game`); what it returns is [`crate::played`]'s (its
//! types re-exported here). Its event channel
//! carries in arrival order what the sockets bring (a hello, an object, bytes that
//! are not one, a close) and what the bots' processes do (an exit, with its status,
//! the hooks' own events), so that the ending says which: a crash is told from a
//! closed socket, a bot that never joined is seen within the join timeout (at once if
//! its process is gone), a hello is seated by the schedule (a hello asking for the
//! other seat, or a second one, is its sender's fault). Nothing is shared with other
//! games but a CPU counter for the benchmark.

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use nimbot::{Params, Player};
use nimbot_analysis::record;
use nimbot_match::game_loop::{run_game, Answer, Cause, Events, Hooks, Join, Kind, Status};
use nimbot_match::recorder::Recorder;
use nimbot_match::serve::ServeOptions;
use nimbot_platform::json::Object;
use nimbot_platform::referee::{CurrentMax, Referee, Verdict};
use nimbot_platform::wire::{safe_name, MoveMessage, Reason, MAX_NAME};

use crate::confine;
use crate::engine::{self, Bot, Confined, Seat};
pub use crate::played::{EndKind, Ending, Pairing, Played, Rules};
use crate::sandbox;
use crate::stderr::{drain, last_line};
use crate::{netns, owner};

/// Nanoseconds of CPU spent refereeing (every thread of every game but the
/// record's analysis), for the load benchmark (`nimbot bench tournament`, the
/// crate `nimbot-bench`).
pub static REFEREE_NS: AtomicU64 = AtomicU64::new(0);

use crate::cpu::thread_cpu_ns;

fn count_cpu(start: u64) {
    REFEREE_NS.fetch_add(thread_cpu_ns().saturating_sub(start), Ordering::Relaxed);
}

/// How long a bot whose socket closed is given to show its process ended.
const EXIT_GRACE: Duration = Duration::from_millis(300);
/// How long a bot whose connection closed is given to show it crashed (a Python
/// traceback can take a second on a loaded machine) before the ending says
/// "closed".
const CRASH_GRACE: Duration = Duration::from_secs(2);
/// How long bots are given to exit after the last state message.
const QUIT_GRACE: Duration = Duration::from_secs(2);

fn secs(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e4).round() / 1e4
}

fn joined_word(seated: bool) -> &'static str {
    if seated {
        "after joining, before the game began"
    } else {
        "before joining"
    }
}

/// "exited with status 7" / "was killed by signal 9 (SIGKILL)".
fn status_text(s: ExitStatus) -> String {
    if let Some(code) = s.code() {
        format!("exited with status {code}")
    } else if let Some(sig) = s.signal() {
        let name = match sig {
            6 => " (SIGABRT)",
            9 => " (SIGKILL)",
            11 => " (SIGSEGV)",
            15 => " (SIGTERM)",
            _ => "",
        };
        format!("was killed by signal {sig}{name}")
    } else {
        "exited".into()
    }
}

struct Bots {
    stderr: Vec<Receiver<(String, u64)>>,
    stderr_seat: Vec<usize>,
    helpers: Vec<thread::JoinHandle<()>>,
}

// One of the tournament's two system-call boundaries (the workspace denies
// `unsafe` elsewhere): killing a bot's process group.
#[allow(unsafe_code)]
fn kill_group(pgid: Option<u32>) {
    if let Some(p) = pgid.and_then(|p| i32::try_from(p).ok()) {
        // SAFETY: kill(2) with a negative pid signals a process group; it touches
        // no memory of ours. The group is one this game created and has not reaped
        // the leader of (the watcher reaps it after this call at the earliest).
        unsafe {
            libc::kill(-p, libc::SIGKILL);
        }
    }
}

/// The process groups of the bots of every game under way, for [`kill_all`].
static LIVE_GROUPS: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// Set by [`kill_all`]: a game that starts its bots after it ends them at once.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// End the bots of every game under way (Ctrl-C): their games end at once, and the
/// caller drops their results, to be played again on resuming.
pub fn kill_all() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    if let Ok(groups) = LIVE_GROUPS.lock() {
        for &g in groups.iter() {
            kill_group(Some(g));
        }
    }
}

/// Play one game. `dir` holds `records/` and `stderr/`; `isolated`: the game (its
/// referee and its bots) runs in a network namespace of its own, so that a fixed
/// `--port` can serve several games at once.
pub fn play(pairing: &Pairing, bots: &[Bot], rules: &Rules, dir: &Path, isolated: bool) -> Played {
    let cpu = thread_cpu_ns();
    let started = Instant::now();
    let names = pairing.bots.map(|b| bots[b].name.clone());
    let id = pairing.game;
    let record_path = dir.join("records").join(format!("game-{id:05}.jsonl"));
    let mut g = Game {
        pairing,
        rules,
        names: names.clone(),
        started,
        referee: None,
        recorder: Recorder::create(&record_path, "tournament", None, None).ok(),
        ending: None,
        winner: None,
        plies: 0,
        pgid: [None, None],
        exits: [None, None],
        conns: Vec::new(),
        seated: [None, None],
        close_wait: [None, None],
        pre_exit: None,
        wrong_seat: None,
    };
    let Ok(params) = Params::new(pairing.stones, rules.resets, rules.init_max) else {
        g.no_result("the game's N, R and M are not a valid game".into());
        return g.finish(cpu, dir);
    };
    let mut options = ServeOptions {
        params,
        time: rules.time,
        current_max: if rules.largest {
            CurrentMax::Largest
        } else {
            CurrentMax::Limit
        },
        welcome_extras: rules.welcome_extras,
        join_timeout: None,
        pace: Duration::from_millis(rules.pace_ms),
    };
    let events: Events<Exit> = Events::new();
    // A confined game has a network of its own: its bots reach its referee only.
    if confine::needs_net(isolated, rules) {
        if let Err(e) = netns::enter_new() {
            g.no_result(format!(
                "the runner cannot give the game a network namespace: {e}"
            ));
            return g.finish(cpu, dir);
        }
    }
    let listener = match TcpListener::bind(("127.0.0.1", rules.port.unwrap_or(0))) {
        Ok(l) => l,
        Err(e) => {
            let port = rules
                .port
                .map_or("a loopback port".into(), |p| format!("127.0.0.1:{p}"));
            g.no_result(format!("the runner cannot listen on {port}: {e}"));
            return g.finish(cpu, dir);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let mut b = Bots {
        stderr: Vec::new(),
        stderr_seat: Vec::new(),
        helpers: Vec::new(),
    };
    let mut start_errors: [Option<String>; 2] = [None, None];
    let (jails, sandbox_errors) = confine::jails(bots, pairing, rules, &mut start_errors);
    let views = [0, 1].map(|order| confine::view(bots, pairing.bots[order], dir));
    for order in 0..2 {
        if start_errors[order].is_some() {
            continue;
        }
        let seat = Seat {
            host: "127.0.0.1",
            port,
            order,
            name: &names[order],
            stones: pairing.stones,
            resets: rules.resets,
            init_max: rules.init_max,
        };
        let confined = jails[order].as_deref().map(|jail| Confined {
            jail,
            view: &views[order],
        });
        match engine::start(&bots[pairing.bots[order]], &seat, confined.as_ref()) {
            Ok(mut s) => {
                g.pgid[order] = Some(s.child.id());
                if let Ok(mut live) = LIVE_GROUPS.lock() {
                    live.push(s.child.id());
                }
                if INTERRUPTED.load(Ordering::SeqCst) {
                    kill_group(g.pgid[order]);
                }
                if let Some(err) = s.stderr.take() {
                    let path = dir.join("stderr").join(format!("game-{id:05}-{order}.txt"));
                    let (done, got) = sync_channel(1);
                    thread::spawn(move || {
                        let cpu = thread_cpu_ns();
                        let kept = drain(err, path);
                        count_cpu(cpu);
                        let _ = done.send(kept);
                    });
                    b.stderr.push(got);
                    b.stderr_seat.push(order);
                }
                b.helpers.append(&mut s.helpers);
                let tx = events.sender();
                let mut child = s.child;
                let jailed = jails[order].is_some();
                thread::spawn(move || {
                    let cpu = thread_cpu_ns();
                    if let Ok(st) = child.wait() {
                        tx.send((order, Instant::now(), confine::bwrap_status(st, jailed)));
                    }
                    count_cpu(cpu);
                });
            }
            Err(e) => start_errors[order] = Some(format!("cannot be started: {e}")),
        }
    }
    let watch = confine::Watch::start(&jails);
    if g.started_both(&start_errors, &sandbox_errors) {
        let join = Duration::from_secs_f64(rules.join_timeout);
        options.join_timeout = Some(join.saturating_sub(started.elapsed()));
        match run_game(listener, &options, &mut g, &events) {
            Ok(referee) => g.referee = referee,
            Err(e) => g.no_result(format!("the game's referee stopped: {e}")),
        }
    }
    // Wind down: the sockets are shut by `run_game`; bots get a moment to exit,
    // then their groups are killed.
    let quit = Instant::now() + QUIT_GRACE;
    let mut gone = [g.exits[0].is_some(), g.exits[1].is_some()];
    for (i, p) in g.pgid.iter().enumerate() {
        // A confined bot is not waited for: its whole group is ended below.
        if p.is_none() || jails[i].is_some() {
            gone[i] = true;
        }
    }
    while !(gone[0] && gone[1]) {
        match events.next_extra(quit) {
            Some((o, _, _)) => gone[o] = true,
            None => break,
        }
    }
    for p in g.pgid {
        kill_group(p);
        if let Ok(mut live) = LIVE_GROUPS.lock() {
            live.retain(|g| Some(*g) != p);
        }
    }
    // A broken limit loses the game of the bot that broke it; then nothing of
    // either bot is left running.
    if let Some((seat, breach)) = confine::finish(watch, jails) {
        g.broke(seat, &breach);
    }
    let mut tails = [String::new(), String::new()];
    let mut sizes = [0u64; 2];
    for (got, seat) in b.stderr.into_iter().zip(b.stderr_seat) {
        // A process that left the bot's group may hold its stderr open: not waited for.
        match got.recv_timeout(QUIT_GRACE) {
            Ok((t, n)) => (tails[seat], sizes[seat]) = (t, n),
            Err(_) => {
                tails[seat] =
                    "(stderr still open: a process outside the bot's group holds it)".into()
            }
        }
    }
    // Helpers end with the bots' pipes and sockets, all closed by now; a game does
    // not wait for them.
    drop(b.helpers);
    for (i, e) in start_errors.iter().enumerate() {
        if let Some(e) = e {
            tails[i] = e.clone();
        }
    }
    // An exit's text names the bot's last words.
    if let Some(end) = g.ending.as_mut() {
        if matches!(end.kind, EndKind::Exited | EndKind::NeverJoined) {
            if let Some(line) = end.seat.and_then(|s| last_line(&tails[usize::from(s)])) {
                end.text = format!("{} (stderr: {line})", end.text);
            }
        }
    }
    let mut played = g.finish(cpu, dir);
    played.stderr_tail = tails;
    played.stderr_bytes = sizes;
    played
}

struct Game<'a> {
    pairing: &'a Pairing,
    rules: &'a Rules,
    names: [String; 2],
    started: Instant,
    /// The referee, once the game is over (for the clocks).
    referee: Option<Referee>,
    recorder: Option<Recorder>,
    ending: Option<Ending>,
    winner: Option<u8>,
    /// Plies played so far.
    plies: u32,
    /// The bots' process groups.
    pgid: [Option<u32>; 2],
    /// When each bot's process ended, and how.
    exits: [Option<(Instant, ExitStatus)>; 2],
    /// Per connection: its ends, and the scheduled seat of the bot that made it,
    /// when known.
    conns: Vec<Conn>,
    /// Each seat's connection, once its bot has said hello.
    seated: [Option<usize>; 2],
    /// A bot whose process ended counts as closed at this time (its socket had
    /// its chance).
    close_wait: [Option<Instant>; 2],
    /// One bot ended before the game began: the moment to see whether the other
    /// fails too.
    pre_exit: Option<Instant>,
    /// A hello for the wrong seat while the other bot had not joined: the seat
    /// of its sender and the ending's text, judged once the other joins (if it
    /// never does, neither bot could play: no result).
    wrong_seat: Option<(usize, String)>,
}

/// A bot's process ended: its seat, when, how.
type Exit = (usize, Instant, ExitStatus);

/// A connection to the game's referee, as the runner sees it.
#[derive(Clone, Copy, Debug, Default)]
struct Conn {
    /// Its two ends (the client end's unread bytes are asked by them).
    ends: Option<owner::Ends>,
    /// The scheduled seat of the bot whose process made it, when that can be told.
    seat: Option<usize>,
}

impl Game<'_> {
    /// What is known of connection `c` (nothing, for a number not seen).
    fn conn(&self, c: usize) -> Conn {
        self.conns.get(c).copied().unwrap_or_default()
    }

    fn end(&mut self, kind: EndKind, seat: Option<usize>, text: String) {
        if self.ending.is_some() {
            return;
        }
        let after = secs(self.started.elapsed());
        self.winner = match kind {
            EndKind::Won => seat.map(|s| s as u8),
            EndKind::NoResult => None,
            _ => seat.map(|s| 1 - s as u8),
        };
        self.ending = Some(Ending {
            kind,
            seat: seat.map(|s| s as u8),
            text,
            ply: self.plies,
            after,
            clock: None,
            status: None,
            signal: None,
            detected_in: None,
            other_meaning: false,
        });
    }

    /// A refused move's ending is at the ply it tried (as its text says: an
    /// illegal first move is ply 1).
    fn refused_ply(&mut self) {
        let next = self.plies + 1;
        if let Some(e) = self.ending.as_mut() {
            e.ply = next;
        }
    }

    fn no_result(&mut self, text: String) {
        self.end(EndKind::NoResult, None, text);
    }

    fn exited(&mut self, seat: usize, st: ExitStatus, at: Instant, when: &str) {
        let text = format!("{} {} {when}", self.names[seat], status_text(st));
        self.end(EndKind::Exited, Some(seat), text);
        if let Some(e) = self.ending.as_mut() {
            e.status = st.code();
            e.signal = st.signal();
            e.detected_in = Some(secs(at.elapsed()));
        }
    }

    /// Seat `seat` broke a limit of its sandbox: it loses, whatever the game's
    /// ending was.
    fn broke(&mut self, seat: usize, breach: &sandbox::Breach) {
        let (old, ply) = (self.ending.take(), self.at_ply());
        let text = format!("{} {} {ply} (--limits)", self.names[seat], breach.text);
        self.end(confine::kind(breach), Some(seat), text);
        if let (Some(old), Some(new)) = (old, self.ending.as_mut()) {
            new.after = old.after;
        }
    }

    fn at_ply(&self) -> String {
        match self.plies {
            0 => "before the first move".into(),
            n => format!("after ply {n}"),
        }
    }

    /// Both bots started (else the ending says which could not be).
    fn started_both(&mut self, start_errors: &[Option<String>; 2], sandbox: &[bool; 2]) -> bool {
        let failed: Vec<usize> = (0..2).filter(|&i| start_errors[i].is_some()).collect();
        match failed[..] {
            [] => true,
            [i] => {
                let text = format!(
                    "{} {}",
                    self.names[i],
                    start_errors[i].clone().unwrap_or_default()
                );
                let kind = [EndKind::NeverJoined, EndKind::Sandbox][usize::from(sandbox[i])];
                self.end(kind, Some(i), text);
                false
            }
            _ => {
                self.no_result("neither bot could be started".into());
                false
            }
        }
    }

    /// Name the referee's verdict from what happened.
    fn name_verdict(
        &mut self,
        referee: &Referee,
        cause: Option<&Cause>,
        closed: &[bool; 2],
        events: &Events<Exit>,
    ) {
        let Some(Verdict { winner, reason }) = referee.verdict() else {
            return;
        };
        // The event that brought the verdict: bytes that are not an object, or the
        // mover's own message (refused).
        let garbage = cause.and_then(|c| match c.kind {
            Kind::Garbage(why) => Some((c.seat.index(), why)),
            _ => None,
        });
        let refused = cause.and_then(|c| match &c.kind {
            Kind::Object(bytes) if c.in_turn => Some((c.seat.index(), bytes, c.limit, c.stones)),
            _ => None,
        });
        let w = winner.index();
        let loser = 1 - w;
        let name = self.names[loser].clone();
        let ply = self.plies;
        match reason {
            Reason::Won => {
                let text = format!("{} took the last stone at ply {ply}", self.names[w]);
                self.end(EndKind::Won, Some(w), text);
            }
            Reason::TimeLimit if closed[loser] => {
                let text = format!("{name} closed its connection {}", self.at_ply());
                self.end(EndKind::Closed, Some(loser), text);
                self.rename_exit(loser, events);
            }
            Reason::TimeLimit => {
                let used = referee.used_us(Player::from_index(loser)) as f64 / 1e6;
                let text = format!(
                    "{name} ran out of time {} (clock {used:.3} s of {} s)",
                    self.at_ply(),
                    self.rules.time
                );
                self.end(EndKind::Time, Some(loser), text);
                if let Some(e) = self.ending.as_mut() {
                    e.clock = Some((used * 1e4).round() / 1e4);
                }
            }
            Reason::IllegalMove if garbage.is_some_and(|g| g.0 == loser) => {
                let why = garbage.map_or("", |g| g.1);
                let text = format!(
                    "{name} sent bytes that are not a JSON object {}: {why}",
                    self.at_ply()
                );
                self.end(EndKind::Garbage, Some(loser), text);
            }
            Reason::IllegalMove
                if refused.is_some_and(|r| r.0 == loser && Object::parse(r.1).is_err()) =>
            {
                let bytes = refused.map_or(&[][..], |r| &r.1[..r.1.len().min(80)]);
                let text = format!(
                    "{name} sent malformed JSON at ply {}: {}",
                    ply + 1,
                    String::from_utf8_lossy(bytes)
                );
                self.end(EndKind::Garbage, Some(loser), text);
                self.refused_ply();
            }
            Reason::IllegalMove => {
                let mut other_meaning = false;
                let text = match refused.filter(|r| r.0 == loser) {
                    Some((_, bytes, limit, stones)) => match parse_move(bytes) {
                        Some(mv) => {
                            // With current_max = the limit, current_max + 1 is one
                            // too many; with the largest take so far, it is the limit.
                            other_meaning = !self.rules.largest
                                && u64::from(mv.take) == u64::from(limit) + 1
                                && mv.take <= stones;
                            format!(
                                "{name} made an illegal move at ply {}: took {}{} with limit {limit} and {stones} stones left{}",
                                ply + 1,
                                mv.take,
                                if mv.reset { " with a reset" } else { "" },
                                if other_meaning {
                                    " (current_max + 1: legal had current_max been the largest take so far, as the course's latest server sends it; --current-max largest)"
                                } else {
                                    ""
                                }
                            )
                        }
                        None => format!(
                            "{name} sent a message that is not a move at ply {}: {}",
                            ply + 1,
                            String::from_utf8_lossy(&bytes[..bytes.len().min(80)])
                        ),
                    },
                    None => format!("{name} made an illegal move at ply {}", ply + 1),
                };
                self.end(EndKind::IllegalMove, Some(loser), text);
                self.refused_ply();
                if let Some(e) = self.ending.as_mut() {
                    e.other_meaning = other_meaning;
                }
            }
            Reason::TooManyResets => {
                let text = format!("{name} used a reset with none left at ply {}", ply + 1);
                self.end(EndKind::TooManyResets, Some(loser), text);
                self.refused_ply();
            }
            Reason::OutOfTurn => {
                let text = format!("{name} moved out of turn after ply {ply}");
                self.end(EndKind::OutOfTurn, Some(loser), text);
            }
            Reason::Unknown => self.no_result("the referee gave no reason".into()),
        }
    }

    /// A closed connection whose process has ended (or ends within a moment) is
    /// named an exit.
    fn rename_exit(&mut self, seat: usize, events: &Events<Exit>) {
        let until = Instant::now() + CRASH_GRACE;
        while self.exits[seat].is_none() {
            match events.next_extra(until) {
                Some((o, at, st)) => self.exits[o] = Some((at, st)),
                None => break,
            }
        }
        if let Some((at, st)) = self.exits[seat] {
            let when = self.at_ply();
            let ending = self.ending.take();
            self.exited(seat, st, at, &when);
            if let (Some(old), Some(new)) = (ending, self.ending.as_mut()) {
                // The verdict came with the close; the exit may be seen just after it.
                new.after = old.after;
                let verdict = self.started + Duration::from_secs_f64(old.after);
                new.detected_in = Some(secs(verdict.saturating_duration_since(at)));
            }
        }
    }

    /// The result: the record written and read back, its blunders counted.
    fn finish(mut self, cpu: u64, dir: &Path) -> Played {
        count_cpu(cpu);
        let ending = self.ending.take().unwrap_or(Ending {
            kind: EndKind::NoResult,
            seat: None,
            text: "the game ended without a verdict".into(),
            ply: self.plies,
            after: secs(self.started.elapsed()),
            clock: None,
            status: None,
            signal: None,
            detected_in: None,
            other_meaning: false,
        });
        let id = self.pairing.game;
        let path = dir.join("records").join(format!("game-{id:05}.jsonl"));
        let winner = self.winner.map(|w| Player::from_index(usize::from(w)));
        let mut lines = Vec::new();
        if let Some(mut rec) = self.recorder.take() {
            rec.names(self.names.clone());
            // The runner's ending, not the reason line the referee sent the bots
            // (which calls a killed bot's closed socket "exceeded time limit").
            let reason = format!("{}: {}", ending.kind.word(), ending.text);
            if rec.finish_as(winner, &reason).is_ok() {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    if let Ok(r) = record::parse(&text) {
                        lines.push(record::Line::Header(r.header));
                        lines.extend(r.plies.into_iter().map(record::Line::Ply));
                        lines.extend(r.end.map(record::Line::End));
                    }
                }
            } else {
                let _ = std::fs::remove_file(&path);
            }
        }
        let plies: Vec<&record::PlyLine> = lines
            .iter()
            .filter_map(|l| match l {
                record::Line::Ply(p) => Some(p),
                _ => None,
            })
            .collect();
        let mut blunders = [0u32; 2];
        let mut first_blunder = None;
        for p in &plies {
            if p.blunder {
                blunders[usize::from(p.seat.min(1))] += 1;
                first_blunder.get_or_insert(p.seat);
            }
        }
        let won_start = plies.first().map(|p| {
            if p.value == "win" {
                p.seat
            } else {
                1 - p.seat.min(1)
            }
        });
        let starts = [0u8, 1].map(|seat| {
            let first = plies.first()?;
            match plies.iter().find(|p| p.seat == seat) {
                Some(p) => Some(p.value == "win"),
                // A seat that never moved, though its turn came (the other seat's
                // first move was judged and left stones): the position that move
                // left it, lost after a winning move, else won.
                None => (!first.refused && first.take < self.pairing.stones)
                    .then(|| first.value != "win" || first.blunder),
            }
        });
        let clocks = self.referee.as_ref().map_or([0.0; 2], |r| {
            [Player::First, Player::Second].map(|p| (r.used_us(p) as f64 / 1e6 * 1e4).round() / 1e4)
        });
        Played {
            game: id,
            stones: self.pairing.stones,
            resets: self.rules.resets,
            init_max: self.rules.init_max,
            bots: self.pairing.bots,
            names: self.names.clone(),
            winner: self.winner,
            // The record's plies (a refused last move counts: the ending's ply).
            plies: if lines.is_empty() {
                self.plies
            } else {
                plies.len() as u32
            },
            ending,
            clocks,
            seconds: secs(self.started.elapsed()),
            won_start,
            starts,
            blunders,
            first_blunder,
            stderr_tail: [String::new(), String::new()],
            stderr_bytes: [0, 0],
            record: lines,
        }
    }
}
/// A tournament game on the referee's loop: seats by the schedule (a hello is
/// attributed to its bot by the socket's owner, else by name), a hello for the
/// wrong seat or a second one blamed on its sender, what the bots' processes do
/// (an exit before the game, an exit that closes a bot's connection a moment
/// later, the crash grace before "closed"), the record, and the ending named.
impl Hooks for Game<'_> {
    type Extra = Exit;
    const CLOSE_AT_START: bool = false;

    fn thread_wrap(&self) -> fn(Box<dyn FnOnce() + Send>) {
        |work| {
            let cpu = thread_cpu_ns();
            work();
            count_cpu(cpu);
        }
    }

    fn hello_timeout(&self) -> Option<Duration> {
        None // a silent bot has not joined: the join timeout or its exit ends the game
    }
    fn on_connect(&mut self, conn: usize, stream: &TcpStream, _open: usize) -> bool {
        let ends = owner::Ends::of(stream);
        let inode = ends
            .and_then(|e| owner::client_end(e).ok().flatten())
            .map(|e| e.inode);
        let seat = inode.and_then(|i| owner::owner(i, &self.pgid));
        self.conns.resize(conn, Conn::default());
        self.conns.push(Conn { ends, seat });
        true
    }

    fn on_hello(&mut self, c: usize, name: &[u8], asked: Player) -> Join {
        let asked = asked.index();
        // Who sent it: the socket's owner, else the scheduled name, else (a bot
        // the runner cannot tell) the seat it asks for.
        let by_name: Vec<usize> = (0..2)
            .filter(|&i| wire_name(&self.names[i]) == name)
            .collect();
        let known = self.conn(c).seat.or(match by_name[..] {
            [i] => Some(i),
            _ => None,
        });
        let o = match known {
            Some(o) => o,
            None => match self.seated[asked] {
                None => asked,
                // The seat went to a bot the runner knows: this is the other.
                Some(t) if self.conn(t).seat == Some(asked) => 1 - asked,
                Some(_) => {
                    self.no_result(format!(
                        "two hellos asked for the {} seat and the runner cannot tell which bot sent which",
                        Player::from_index(asked).name()
                    ));
                    return Join::Wait;
                }
            },
        };
        if asked != o {
            let text = format!(
                "{} asked for the {} seat but the schedule gives it the {} seat (its seat argument: see {{first:TEXT}} and {{second:TEXT}})",
                self.names[o],
                Player::from_index(asked).name(),
                Player::from_index(o).name()
            );
            if self.seated[1 - o].is_some() {
                self.end(EndKind::WrongSeat, Some(o), text);
            } else {
                self.wrong_seat.get_or_insert((o, text));
            }
            return Join::Wait;
        }
        if self.seated[o].is_some() {
            let text = format!(
                "{} joined twice (a second hello asking for the {} seat)",
                self.names[o],
                Player::from_index(o).name()
            );
            self.end(EndKind::JoinedTwice, Some(o), text);
            return Join::Wait;
        }
        self.seated[o] = Some(c);
        if let Some((w, text)) = self.wrong_seat.take() {
            self.end(EndKind::WrongSeat, Some(w), text);
            return Join::Wait;
        }
        match self.seated {
            [Some(a), Some(b)] => Join::Start([a, b]),
            _ => Join::Wait,
        }
    }

    fn on_stray(&mut self, _conn: usize) -> bool {
        // Left open: the bot has not joined, and is seen as such in time.
        false
    }

    fn early(&mut self, conn: usize, kind: &Kind, events: &Events<Exit>) -> bool {
        let Some(p) = self.seated.iter().position(|s| *s == Some(conn)) else {
            return false;
        };
        match kind {
            // A seated bot's message before its opponent joined: not heard.
            Kind::Object(_) => {}
            Kind::Garbage(why) => {
                let text = format!(
                    "{} sent bytes that are not a JSON object before the game ({why})",
                    self.names[p]
                );
                self.end(EndKind::Garbage, Some(p), text);
            }
            Kind::Closed => {
                let ply = self.at_ply();
                let text = format!("{} closed its connection {ply}", self.names[p]);
                self.end(EndKind::Closed, Some(p), text);
                self.rename_exit(p, events);
            }
        }
        false
    }

    fn names(&mut self, _hellos: [&[u8]; 2]) -> [heapless::Vec<u8, MAX_NAME>; 2] {
        [0, 1].map(|i| {
            heapless::Vec::from_slice(
                &self.names[i].as_bytes()[..self.names[i].len().min(MAX_NAME)],
            )
            .unwrap_or_default()
        })
    }

    fn on_start(&mut self, referee: &Referee) {
        self.plies = referee.game().moves();
        if let Some(r) = self.recorder.as_mut() {
            r.names(self.names.clone());
            r.game(Some(referee.game()), None);
        }
    }

    fn on_extra(&mut self, (o, at, st): Exit, status: Status) {
        self.exits[o] = Some((at, st));
        if !status.started {
            if self.exits[1 - o].is_some() {
                self.no_result("both bots exited before the game began".into());
            } else if self.seated[1 - o].is_some() {
                self.exited(o, st, at, joined_word(self.seated[o].is_some()));
            } else {
                // The other bot may be failing too: a moment to see.
                self.pre_exit = Some(at + EXIT_GRACE);
            }
        } else if !status.closed[o] {
            self.close_wait[o] = Some(at + EXIT_GRACE);
        }
    }

    fn wake(&self, status: Status) -> Option<Instant> {
        (0..2)
            .filter(|&i| !status.closed[i])
            .filter_map(|i| self.close_wait[i])
            .chain(self.pre_exit)
            .min()
    }

    fn on_wake(&mut self, now: Instant, status: Status) -> Option<usize> {
        // A bot whose process ended counts as closed once its socket had its chance.
        for i in 0..2 {
            if self.close_wait[i].is_some_and(|t| now >= t) {
                self.close_wait[i] = None;
                if !status.closed[i] {
                    return Some(i);
                }
            }
        }
        if self.pre_exit.is_some_and(|t| now >= t) {
            self.pre_exit = None;
            if let Some(o) = (0..2).find(|&i| self.exits[i].is_some()) {
                if let Some((at, st)) = self.exits[o] {
                    match self.wrong_seat.take() {
                        // The one bot asked for the wrong seat, the other ended
                        // before joining: neither could play.
                        Some((w, text)) if w != o => self.no_result(format!(
                            "{text}, and {} {} before joining",
                            self.names[o],
                            status_text(st)
                        )),
                        _ => self.exited(o, st, at, joined_word(self.seated[o].is_some())),
                    }
                }
            }
        }
        None
    }

    /// What the seat's client socket has not read yet (for `--pace`).
    fn unread(&self, seat: usize) -> Option<u64> {
        let c = self.seated.get(seat).copied().flatten()?;
        let end = owner::client_end(self.conn(c).ends?).ok().flatten()?;
        Some(end.unread)
    }

    fn on_state(&mut self, referee: &Referee, state: &[u8], answer: Answer) {
        self.plies = referee.game().moves();
        if let Some(rec) = self.recorder.as_mut() {
            let judged = answer.from.is_some() && answer.in_turn;
            rec.state(Some(referee.game()), state, judged);
        }
    }

    fn over(&self) -> bool {
        self.ending.is_some()
    }

    fn join_timeout(&mut self) -> Result<(), String> {
        if let Some((w, text)) = self.wrong_seat.take() {
            self.no_result(format!(
                "{text}, and {} never joined (no hello within {} s)",
                self.names[1 - w],
                self.rules.join_timeout
            ));
            return Ok(());
        }
        let missing: Vec<usize> = (0..2).filter(|&i| self.seated[i].is_none()).collect();
        match missing[..] {
            [i] => {
                let text = format!(
                    "{} never joined (no hello within {} s)",
                    self.names[i], self.rules.join_timeout
                );
                self.end(EndKind::NeverJoined, Some(i), text);
            }
            _ => self.no_result(format!(
                "neither bot joined within {} s",
                self.rules.join_timeout
            )),
        }
        Ok(())
    }

    fn on_end(
        &mut self,
        referee: &Referee,
        cause: Option<&Cause>,
        status: Status,
        events: &Events<Exit>,
    ) {
        self.name_verdict(referee, cause, &status.closed, events);
    }
}

/// The move of a move message, if it is one.
fn parse_move(bytes: &[u8]) -> Option<nimbot::Move> {
    MoveMessage::parse(bytes).ok().map(|m| m.mv)
}

/// A name as the wire carries it ([`safe_name`]).
fn wire_name(name: &str) -> Vec<u8> {
    safe_name(name.as_bytes()).to_vec()
}
