//! `nimbot match`: local games through the referee, and a results table.
//!
//! Every game runs `nimbot serve` as a child on a free loopback port, then the two
//! bots as children; the winner and reason come from the referee's log. Each bot is
//! `nimbot` (this binary's `connect`) or a shell command with `{addr}`, `{host}`,
//! `{port}`, `{order}` (0/1) and `{seat}` (first/second) filled in. With one bot it
//! plays itself; with several, every ordered pair plays (both seats) for every N.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitCode, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  nimbot match --stones 100                      nimbot against itself, both seats\n  nimbot match --stones 20,57,100 --bot 'nimbot' --bot 'python3 mybot.py {addr} {order}'"
)]
pub struct MatchArgs {
    /// N values, comma-separated.
    #[arg(long, short = 'n', value_delimiter = ',', default_value = "100")]
    stones: Vec<u32>,
    /// R: resets each player may use.
    #[arg(long, short = 'r', default_value_t = 4)]
    resets: u8,
    /// M: the initial maximum.
    #[arg(long, short = 'm', default_value_t = 3)]
    init_max: u32,
    /// Seconds of thinking per player and game.
    #[arg(long, short = 't', default_value_t = 120.0)]
    time: f64,
    /// A bot: `nimbot`, or a shell command using {addr} {host} {port} {order} {seat}.
    /// Repeat for a round-robin.
    #[arg(long = "bot", default_value = "nimbot")]
    bots: Vec<String>,
}

struct Played {
    stones: u32,
    seats: [usize; 2],
    winner: Option<usize>,
    how: String,
}

fn spawn_bot(
    bot: &str,
    host: &str,
    port: &str,
    order: usize,
    name: &str,
    m: u32,
) -> std::io::Result<Child> {
    let seat = if order == 0 { "first" } else { "second" };
    if bot == "nimbot" {
        let exe = std::env::current_exe()?;
        return Command::new(exe)
            .args(["connect", &format!("{host}:{port}"), &format!("--{seat}")])
            .args(["--name", name, "--init-max", &m.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
    }
    let cmd = bot
        .replace("{addr}", &format!("{host}:{port}"))
        .replace("{host}", host)
        .replace("{port}", port)
        .replace("{order}", &order.to_string())
        .replace("{seat}", seat);
    Command::new("sh")
        .args(["-c", &cmd])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
}

/// Wait for `child` until `deadline`, killing it after.
fn reap(child: &mut Child, deadline: Instant) {
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn play(args: &MatchArgs, stones: u32, seats: [usize; 2]) -> Result<Played, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let time = args.time.to_string();
    let mut serve = Command::new(exe)
        .args(["serve", &stones.to_string(), &args.resets.to_string()])
        .args([
            "-m",
            &args.init_max.to_string(),
            "-p",
            "0",
            "-a",
            "127.0.0.1",
        ])
        .args(["-t", &time, "--join-timeout", "30"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the referee: {e}"))?;
    let mut first = String::new();
    let out = serve.stdout.take().ok_or("no referee stdout")?;
    let _ = BufReader::new(out).read_line(&mut first);
    let Some(addr) = first.trim().strip_prefix("listening on ") else {
        let _ = serve.kill();
        let _ = serve.wait();
        return Err("the referee did not start".into());
    };
    let (host, port) = addr.rsplit_once(':').ok_or("bad referee address")?;
    let mut err = serve.stderr.take().ok_or("no referee stderr")?;
    let log = thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs_f64(2.0 * args.time + 40.0);
    let mut bots = Vec::new();
    for (order, &b) in seats.iter().enumerate() {
        let name = format!("bot{b}");
        match spawn_bot(&args.bots[b], host, port, order, &name, args.init_max) {
            Ok(c) => bots.push(c),
            Err(e) => eprintln!("nimbot match: cannot start bot {b}: {e}"),
        }
    }
    reap(&mut serve, deadline);
    for c in &mut bots {
        reap(c, Instant::now() + Duration::from_secs(2));
    }
    let log = log.join().unwrap_or_default();
    let last = log.lines().find_map(|l| {
        l.split_once("] game over after ")
            .map(|(_, r)| r.to_string())
    });
    let Some(line) = last else {
        return Ok(Played {
            stones,
            seats,
            winner: None,
            how: "no result".into(),
        });
    };
    let winner = if line.contains("(winner: player_0") {
        Some(seats[0])
    } else if line.contains("(winner: player_1") {
        Some(seats[1])
    } else {
        None
    };
    let how = line
        .split_once(" (winner")
        .map_or(line.as_str(), |p| p.0)
        .to_string();
    Ok(Played {
        stones,
        seats,
        winner,
        how,
    })
}

pub fn run(args: &MatchArgs) -> ExitCode {
    if args.bots.is_empty() || args.stones.is_empty() {
        eprintln!("nimbot match: need at least one bot and one N");
        return ExitCode::from(2);
    }
    let mut pairs = Vec::new();
    if args.bots.len() == 1 {
        pairs.push([0, 0]);
    } else {
        for a in 0..args.bots.len() {
            for b in 0..args.bots.len() {
                if a != b {
                    pairs.push([a, b]);
                }
            }
        }
    }
    let mut games = Vec::new();
    for &n in &args.stones {
        for &seats in &pairs {
            match play(args, n, seats) {
                Ok(p) => games.push(p),
                Err(e) => {
                    eprintln!("nimbot match: {e}");
                    return ExitCode::from(3);
                }
            }
        }
    }
    println!(
        "{:>6}  {:<8} {:<8} {:<8} how",
        "N", "first", "second", "winner"
    );
    for g in &games {
        let w = g.winner.map_or("-".to_string(), |w| format!("bot{w}"));
        println!(
            "{:>6}  {:<8} {:<8} {:<8} {}",
            g.stones,
            format!("bot{}", g.seats[0]),
            format!("bot{}", g.seats[1]),
            w,
            g.how
        );
    }
    println!();
    println!("{:<6} {:>5} {:>5}  command", "bot", "games", "wins");
    for (i, cmd) in args.bots.iter().enumerate() {
        let played = games.iter().filter(|g| g.seats.contains(&i)).count();
        let wins = games.iter().filter(|g| g.winner == Some(i)).count();
        println!("{:<6} {:>5} {:>5}  {cmd}", format!("bot{i}"), played, wins);
    }
    ExitCode::SUCCESS
}
