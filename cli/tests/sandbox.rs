//! The sandbox of `nimbot tournament` (docs/tournament.md, "Running untrusted
//! bots"): a hostile zoo (tools/bots/hostile/hostile.py) plays a quiet victim in
//! both seats, confined with small limits. Each attack is contained (the
//! victim's folder, the results, the home and the host's loopback out of reach,
//! the victim out of sight, every process of a bot gone after its game), and a
//! broken limit loses the attacker's own game with its named ending. A machine
//! that cannot confine is refused with what it lacks.
//!
//! Needs root (CI runs as root, with bubblewrap installed by tools/test.sh); as
//! another user the tests say so and pass. CI cost: 20 games of a few plies, about
//! 15 s of wall time on a 2-core machine.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{processes_with, BIN};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find(|l| l.starts_with("Uid:"))
            .is_some_and(|l| l.split_whitespace().nth(2) == Some("0"))
    })
}

/// The control groups the run `pid` left at the top of any hierarchy.
fn groups_left(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("nimbot-{pid}-");
    let mut left = Vec::new();
    let mut roots = vec![PathBuf::from("/sys/fs/cgroup")];
    if let Ok(hierarchies) = std::fs::read_dir("/sys/fs/cgroup") {
        roots.extend(hierarchies.flatten().map(|h| h.path()));
    }
    for root in roots {
        if let Ok(groups) = std::fs::read_dir(&root) {
            left.extend(
                groups
                    .flatten()
                    .filter(|g| g.file_name().to_string_lossy().starts_with(&prefix))
                    .map(|g| g.path()),
            );
        }
    }
    left
}

#[test]
fn the_hostile_zoo_is_contained_and_each_broken_limit_blamed_on_its_attacker() {
    if !root() {
        eprintln!("not root: this machine cannot confine bots; nothing to test");
        return;
    }
    let pid = std::process::id();
    let base = std::env::temp_dir().join(format!("nimbot-test-sandbox-{pid}"));
    let _ = std::fs::remove_dir_all(&base);
    let (victim_dir, home, out) = (base.join("victim"), base.join("home"), base.join("out"));
    std::fs::create_dir_all(&victim_dir).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let secret = victim_dir.join("secret.txt");
    std::fs::write(&secret, "the victim's table\n").unwrap();
    // A listener on the host's loopback, which no bot may reach.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let (victim_mark, orphan_mark) = (format!("victim-{pid}"), format!("orphan-{pid}"));
    let results = out.join("results.jsonl");
    let hostile = repo().join("tools/bots/hostile/hostile.py");
    let bot = |attack: &str, arg: &str| {
        format!(
            "{attack}=python3 {} {attack} {{host}} {{port}} {{order}} {{name}} {arg}",
            hostile.display()
        )
    };
    let victim = format!(
        "victim;dir={}=python3 {} none {{host}} {{port}} {{order}} {{name}} {victim_mark}",
        victim_dir.display(),
        hostile.display()
    );
    let attacks: [(&str, String); 10] = [
        ("read", secret.display().to_string()),
        ("records", results.display().to_string()),
        ("home", home.display().to_string()),
        ("loopback", port),
        ("kill", victim_mark.clone()),
        ("forkbomb", String::new()),
        ("memhog", String::new()),
        ("disk", String::new()),
        ("cpuhog", String::new()),
        ("orphans", orphan_mark.clone()),
    ];
    let mut args = vec![
        "tournament".to_owned(),
        "--out".into(),
        out.display().to_string(),
        "--gauntlet".into(),
        "--no-check".into(),
        "-n".into(),
        "8".into(),
        "-t".into(),
        "30".into(),
        "-c".into(),
        "2".into(),
        "--limits".into(),
        "mem=64M,procs=16,disk=4M".into(),
        "--bot".into(),
        victim,
    ];
    for (attack, arg) in &attacks {
        args.extend(["--bot".into(), bot(attack, arg)]);
    }
    let child = Command::new(BIN)
        .args(&args)
        .env("HOME", &home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let run = child.id();
    let o = child.wait_with_output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(0), "{said}");
    let text = std::fs::read_to_string(&results).unwrap();
    let games: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("every results line is the runner's"))
        .collect();
    assert_eq!(games.len(), 2 * attacks.len(), "{said}");
    assert!(!text.contains("forged"), "{text}");
    for g in &games {
        let names = [
            g["names"][0].as_str().unwrap(),
            g["names"][1].as_str().unwrap(),
        ];
        let a = usize::from(names[0] == "victim");
        let attack = names[a];
        let (kind, seat) = (&g["ending"]["kind"], &g["ending"]["seat"]);
        let stderr = g["stderr_tail"][a].as_str().unwrap();
        let end = format!("{attack}: {}", g["ending"]);
        // Every bot ran as a user of its own, not root.
        let uid = stderr
            .lines()
            .find_map(|l| l.strip_prefix("uid "))
            .and_then(|u| u.trim().parse::<u32>().ok());
        assert!(uid.is_some_and(|u| u >= 64800), "{end}: {stderr}");
        match attack {
            "forkbomb" | "memhog" | "disk" => {
                let (word, limit) = match attack {
                    "forkbomb" => ("processes", "16 processes"),
                    "memhog" => ("memory", "64M of memory"),
                    _ => ("disk", "4M scratch"),
                };
                assert_eq!(kind, word, "{end}");
                assert_eq!(seat.as_u64(), Some(a as u64), "{end}");
                assert_eq!(g["winner"].as_u64(), Some(1 - a as u64), "{end}");
                let t = g["ending"]["text"].as_str().unwrap();
                assert!(t.contains(limit) && t.starts_with(attack), "{end}");
            }
            _ => {
                // Played to the end: the victim was neither killed nor disturbed.
                assert_eq!(kind, "won", "{end}");
                assert_eq!(g["plies"], 8, "{end}");
                if attack != "cpuhog" && attack != "orphans" {
                    assert!(
                        stderr.contains(&format!("{attack} blocked")),
                        "{end}: {stderr}"
                    );
                }
            }
        }
    }
    assert_eq!(
        std::fs::read_dir(&home).unwrap().count(),
        0,
        "the home was written"
    );
    assert!(
        listener.accept().is_err(),
        "a bot reached the host's loopback"
    );
    assert_eq!(
        processes_with(&orphan_mark),
        0,
        "a bot's child outlived its game"
    );
    assert_eq!(processes_with(&victim_mark), 0, "a bot outlived its game");
    assert_eq!(groups_left(run), Vec::<PathBuf>::new());
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_machine_that_cannot_confine_is_refused_with_what_it_lacks() {
    // As a user without privileges (nobody), through util-linux's setpriv.
    let which = Command::new("setpriv").arg("--version").output();
    if !root() || which.is_err() {
        eprintln!("needs root and setpriv; nothing to test");
        return;
    }
    let o = Command::new("setpriv")
        .args([
            "--reuid",
            "65534",
            "--regid",
            "65534",
            "--clear-groups",
            BIN,
        ])
        .args([
            "tournament",
            "--bot",
            "a=true",
            "--bot",
            "b=true",
            "-n",
            "5",
        ])
        .args(["--out", "/nonexistent/out"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("needs root") && err.contains("--no-sandbox"),
        "{err}"
    );
    let o = Command::new(BIN)
        .args(["tournament", "--bot", "a=true", "--bot", "b=true"])
        .args(["--limits", "mem=lots"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("mem=lots"), "{err}");
}

/// The cores the kernel lets a confined bot run on, as it printed them.
fn cores_of(stderr: &str) -> Vec<u32> {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap_or_else(|| panic!("no core list in {stderr:?}"));
    let mut cores = Vec::new();
    for part in line.trim().split(',') {
        let (lo, hi) = part.split_once('-').unwrap_or((part, part));
        cores.extend(lo.parse::<u32>().unwrap()..=hi.parse::<u32>().unwrap());
    }
    cores
}

#[test]
fn the_two_confined_bots_of_a_game_run_on_cores_of_their_own() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cpuset = std::fs::read_to_string("/proc/self/mounts").is_ok_and(|m| {
        m.lines()
            .any(|l| l.contains(" cgroup ") && l.contains("cpuset") || l.contains(" cgroup2 "))
    });
    if !root() || cores < 2 || !cpuset {
        eprintln!("not root, one core or no cpuset controller: nothing to test");
        return;
    }
    let out = std::env::temp_dir().join(format!("nimbot-test-cores-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let bot = |name: &str, policy: &str| {
        format!(
            "{name}=grep Cpus_allowed_list /proc/self/status >&2; exec {BIN} connect {{addr}} --{{seat}} --name {{name}} --policy {policy}"
        )
    };
    let o = Command::new(BIN)
        .args([
            "tournament",
            "-q",
            "--no-check",
            "-c",
            "1",
            "--stones",
            "12,20",
        ])
        .args(["--bot", &bot("a", "trap"), "--bot", &bot("b", "longest")])
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let mut games = 0;
    for game in 1..=4 {
        let read = |seat: u8| {
            std::fs::read_to_string(out.join(format!("stderr/game-{game:05}-{seat}.txt")))
                .unwrap_or_default()
        };
        let (a, b) = (cores_of(&read(0)), cores_of(&read(1)));
        // A CPU limit of one core: one core each, not the same one.
        assert_eq!((a.len(), b.len()), (1, 1), "game {game}: {a:?} and {b:?}");
        assert_ne!(a, b, "game {game}: both bots on core {a:?}");
        games += 1;
    }
    assert_eq!(games, 4);
    let _ = std::fs::remove_dir_all(&out);
}
