//! Every bot confined (docs/tournament.md, "Running untrusted bots"): a user of
//! its own, its own process namespace, the game's network namespace, a read-only
//! view of the system with a private bounded scratch, and control groups that
//! bound its memory, processes and CPU and end everything it started.
//!
//! The mounts and namespaces are bubblewrap's (`bwrap`, Debian's `bubblewrap`),
//! run under the bot's user; this module makes the user (a uid of a reserved
//! range, when the runner is root), the control groups (cgroup v1 or v2), the
//! resource limits, and watches each bot for a broken limit. The system calls
//! are in its `sys` module, the tournament's boundary for them (the workspace denies
//! `unsafe` elsewhere).

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// What a confined bot may use; `--limits mem=…,procs=…,disk=…,files=…,cpu=…`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Bytes of memory (its scratch's files count too).
    pub mem: u64,
    /// Processes and threads at once.
    pub procs: u32,
    /// Bytes of its scratch (`/tmp`) and of any one file it writes.
    pub disk: u64,
    /// Open files at once.
    pub files: u32,
    /// Cores of CPU time (a quota, so that a busy opponent cannot slow its clock).
    pub cpu: f64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            mem: 512 << 20,
            procs: 64,
            disk: 64 << 20,
            files: 256,
            cpu: 1.0,
        }
    }
}

/// A size in bytes, K/M/G (powers of 1024) as people write it.
fn size(n: u64) -> String {
    for (unit, shift) in [("G", 30), ("M", 20), ("K", 10)] {
        if n >= 1 << shift && n % (1 << shift) == 0 {
            return format!("{}{unit}", n >> shift);
        }
    }
    format!("{n}")
}

fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (num, shift) = match t.chars().last()?.to_ascii_uppercase() {
        'K' => (&t[..t.len() - 1], 10),
        'M' => (&t[..t.len() - 1], 20),
        'G' => (&t[..t.len() - 1], 30),
        _ => (t, 0),
    };
    num.parse::<u64>().ok()?.checked_mul(1 << shift)
}

impl Limits {
    /// `mem=256M,procs=32,disk=16M,files=128,cpu=1`: any of them, the others
    /// default.
    ///
    /// # Errors
    /// An unknown name or a value that is not one, named.
    pub fn parse(text: &str) -> Result<Limits, String> {
        let mut l = Limits::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((k, v)) = item.split_once('=') else {
                return Err(format!("--limits: '{item}' is not NAME=VALUE"));
            };
            let bad = || format!("--limits: {k}={v} is not a valid value");
            match k.trim() {
                "mem" => l.mem = parse_size(v).filter(|&n| n >= 16 << 20).ok_or_else(bad)?,
                "disk" => l.disk = parse_size(v).filter(|&n| n >= 4096).ok_or_else(bad)?,
                "procs" => l.procs = v.trim().parse().ok().filter(|&n| n >= 4).ok_or_else(bad)?,
                "files" => l.files = v.trim().parse().ok().filter(|&n| n >= 16).ok_or_else(bad)?,
                "cpu" => {
                    l.cpu = v
                        .trim()
                        .parse()
                        .ok()
                        .filter(|&c: &f64| (0.01..=1024.0).contains(&c))
                        .ok_or_else(bad)?;
                }
                _ => {
                    return Err(format!(
                        "--limits: unknown limit '{k}' (mem, procs, disk, files, cpu)"
                    ))
                }
            }
        }
        Ok(l)
    }

    /// As `--limits` takes them.
    pub fn text(&self) -> String {
        format!(
            "mem={},procs={},disk={},files={},cpu={}",
            size(self.mem),
            self.procs,
            size(self.disk),
            self.files,
            self.cpu
        )
    }
}

/// A limit a bot broke: the ending's kind and its text's tail.
#[derive(Clone, Debug, PartialEq)]
pub struct Breach {
    /// `memory`, `processes` or `disk`.
    pub what: Broke,
    /// "used more than 512M of memory".
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broke {
    Memory,
    Processes,
    Disk,
}

/// The first uid of the range confined bots run as when the runner is root (a
/// range no Debian package or login user is given: 64000..64999 is set aside
/// for sites, and nimbot takes 64800..64999).
pub const UID_BASE: u32 = 64800;
const UIDS: u32 = 200;

/// The uids in use by bots of games under way.
static UIDS_TAKEN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// The control groups' layout of this machine.
#[derive(Clone, Debug)]
enum Layout {
    /// cgroup v1: a hierarchy per controller (memory, pids, cpu).
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        cpu: PathBuf,
    },
    /// cgroup v2: one hierarchy (its root).
    V2(PathBuf),
}

/// What confinement needs here, found once.
#[derive(Clone, Debug)]
struct Machine {
    bwrap: PathBuf,
    layout: Layout,
    /// Cores of their own for each bot (a cpuset), where the machine offers them.
    pin: Option<Pin>,
}

/// What holding a bot to cores of its own needs: v1's cpuset hierarchy (v2's is
/// the one hierarchy), the cores a tournament may hand out and the memory nodes.
#[derive(Clone, Debug)]
struct Pin {
    v1: Option<PathBuf>,
    cpus: Vec<u32>,
    mems: String,
}

static MACHINE: OnceLock<Result<Machine, String>> = OnceLock::new();

/// Whether this machine can confine bots; else one line that says what is
/// missing (and that `--no-sandbox` runs them unconfined).
///
/// # Errors
/// Not root, no bubblewrap, no user namespaces, no cgroup controllers.
pub fn ready() -> Result<(), String> {
    machine().map(|_| ())
}

fn machine() -> Result<&'static Machine, String> {
    MACHINE
        .get_or_init(find_machine)
        .as_ref()
        .map_err(|e| format!("{e}; --no-sandbox runs the bots unconfined"))
}

fn find_machine() -> Result<Machine, String> {
    if !sys::is_root() {
        return Err("confining bots needs root here (a uid of their own, a network namespace per game and control groups for memory, processes and CPU)".into());
    }
    let bwrap = ["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .ok_or("confining bots needs bubblewrap (apt-get install bubblewrap)")?;
    let layout = find_layout()?;
    let pin = find_pin(&layout);
    if !crate::netns::available() {
        return Err(
            "confining bots needs network namespaces (unshare(CLONE_NEWNET) was refused)".into(),
        );
    }
    // bwrap runs under the bot's uid: the kernel must let that user make a user
    // namespace.
    let max = fs::read_to_string("/proc/sys/user/max_user_namespaces").unwrap_or_default();
    if max.trim() == "0" {
        return Err(
            "confining bots needs user namespaces (/proc/sys/user/max_user_namespaces is 0)".into(),
        );
    }
    if fs::read_to_string("/proc/sys/kernel/unprivileged_userns_clone")
        .is_ok_and(|s| s.trim() == "0")
    {
        return Err("confining bots needs unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)".into());
    }
    Ok(Machine { bwrap, layout, pin })
}

/// The cpuset controller, if the machine has one this process may use: v1's
/// hierarchy, or v2's controller given to the groups below the root. Without it
/// bots are bounded by their CPU quota only.
fn find_pin(layout: &Layout) -> Option<Pin> {
    let read = |dir: &Path, files: &[&str]| {
        files
            .iter()
            .find_map(|f| fs::read_to_string(dir.join(f)).ok())
            .map(|t| t.trim().to_owned())
    };
    let (v1, root) = match layout {
        Layout::V2(root) => {
            let have = fs::read_to_string(root.join("cgroup.controllers")).unwrap_or_default();
            if !have.split_whitespace().any(|c| c == "cpuset") {
                return None;
            }
            fs::write(root.join("cgroup.subtree_control"), "+cpuset").ok()?;
            (None, root.clone())
        }
        Layout::V1 { .. } => {
            let mounts = fs::read_to_string("/proc/self/mounts").unwrap_or_default();
            let root = mounts.lines().find_map(|line| {
                let f: Vec<&str> = line.split_whitespace().collect();
                (f.get(2) == Some(&"cgroup")
                    && f.get(3)
                        .is_some_and(|o| o.split(',').any(|x| x == "cpuset")))
                .then(|| PathBuf::from(f.get(1).copied().unwrap_or_default()))
            })?;
            clear_stale(&root);
            (Some(root.clone()), root)
        }
    };
    let cpus = read(
        &root,
        &[
            "cpuset.effective_cpus",
            "cpuset.cpus.effective",
            "cpuset.cpus",
        ],
    )
    .or_else(|| read(Path::new("/sys/devices/system/cpu"), &["online"]))
    .and_then(|t| crate::cores::parse_list(&t))
    .filter(|c| !c.is_empty())?;
    let mems = read(
        &root,
        &[
            "cpuset.effective_mems",
            "cpuset.mems.effective",
            "cpuset.mems",
        ],
    )
    .filter(|m| !m.is_empty())
    .unwrap_or_else(|| "0".into());
    Some(Pin { v1, cpus, mems })
}

/// cgroup v2 when its hierarchy has the three controllers, else v1's three
/// hierarchies.
fn find_layout() -> Result<Layout, String> {
    let mounts = fs::read_to_string("/proc/self/mounts").unwrap_or_default();
    let mut v1 = (None, None, None);
    let mut v2 = None;
    for line in mounts.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (Some(path), Some(kind), Some(opts)) = (f.get(1), f.get(2), f.get(3)) else {
            continue;
        };
        let opts: Vec<&str> = opts.split(',').collect();
        match *kind {
            "cgroup2" => {
                let have = fs::read_to_string(Path::new(path).join("cgroup.controllers"))
                    .unwrap_or_default();
                let have: Vec<&str> = have.split_whitespace().collect();
                if ["memory", "pids", "cpu"].iter().all(|c| have.contains(c)) {
                    v2 = Some(PathBuf::from(path));
                }
            }
            "cgroup" => {
                let p = Some(PathBuf::from(path));
                if opts.contains(&"memory") {
                    v1.0 = p.clone();
                }
                if opts.contains(&"pids") {
                    v1.1 = p.clone();
                }
                if opts.contains(&"cpu") {
                    v1.2 = p;
                }
            }
            _ => {}
        }
    }
    // Each bot's group sits at the top of its hierarchy, beside the machine's
    // other work: its CPU weight is one task's, whatever its opponent does (under
    // a shared parent, a busy opponent would halve the parent's share).
    if let Some(root) = v2 {
        // Controllers reach a group only through its parent's subtree_control.
        fs::write(root.join("cgroup.subtree_control"), "+memory +pids +cpu").map_err(|e| {
            format!(
                "cannot give the memory, pids and cpu controllers to {}'s groups: {e}",
                root.display()
            )
        })?;
        clear_stale(&root);
        return Ok(Layout::V2(root));
    }
    match v1 {
        (Some(memory), Some(pids), Some(cpu)) => {
            for h in [&memory, &pids, &cpu] {
                clear_stale(h);
            }
            Ok(Layout::V1 { memory, pids, cpu })
        }
        _ => Err("confining bots needs the memory, pids and cpu cgroup controllers (cgroup v2, or v1's hierarchies)".into()),
    }
}

/// Remove the empty groups of runs that ended without removing them (killed):
/// `nimbot-PID-N` of a process that is gone.
fn clear_stale(base: &Path) {
    let Ok(groups) = fs::read_dir(base) else {
        return;
    };
    for g in groups.flatten() {
        let name = g.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix("nimbot-"))
            .and_then(|n| n.split('-').next());
        if pid.is_some_and(|p| !Path::new("/proc").join(p).exists()) {
            let _ = fs::remove_dir(g.path());
        }
    }
}

/// Where a bot may look: its own directory (read-only), and what it must not
/// see (other bots' directories, the tournament's files), hidden.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The bot's directory (its `dir=`, else the runner's): read-only.
    pub own: Option<PathBuf>,
    /// Hidden under an empty directory.
    pub hide: Vec<PathBuf>,
    /// Programs of the organizer's the bot may run (this binary), read-only.
    pub tools: Vec<PathBuf>,
}

/// One confined bot: its uid, its control groups and what it broke.
pub struct Jail {
    uid: u32,
    limits: Limits,
    /// Its group in each hierarchy (one for v2, three for v1).
    groups: Vec<PathBuf>,
    layout: Layout,
    bwrap: PathBuf,
    /// The scratch, opened once the bot runs: its use can be read after it ends.
    scratch: Mutex<Option<fs::File>>,
    /// The memory killer's and the process limit's counts when it was taken
    /// (a group is used again by later games).
    base: (u64, u64),
    /// Its group of the cpuset controller (where `cpuset.cpus` is written), and
    /// the cores it holds for the game under way.
    cpuset: Option<PathBuf>,
    cores: Vec<u32>,
}

/// Groups of games that ended, empty, kept for the next games: making and
/// removing control groups costs milliseconds a game. Emptied by [`release`].
static POOL: Mutex<Vec<Jail>> = Mutex::new(Vec::new());
static NEXT: AtomicU64 = AtomicU64::new(1);

/// A jail with `limits`: one a finished game gave back, else a new one.
///
/// # Errors
/// As [`Jail::new`].
pub fn take(limits: Limits) -> io::Result<Jail> {
    let kept = POOL.lock().ok().and_then(|mut pool| {
        // Killed processes stay charged to a group until they are reaped (the
        // runner reaps bubblewrap a moment later): only a group with none is
        // used again, with its whole process limit.
        let i = pool
            .iter()
            .position(|j| j.limits == limits && j.tasks() == 0)?;
        Some(pool.swap_remove(i))
    });
    let mut jail = match kept {
        Some(j) => j,
        None => Jail::new(&NEXT.fetch_add(1, Ordering::Relaxed).to_string(), limits)?,
    };
    jail.base = (jail.ooms(), jail.forks_refused());
    jail.pin();
    Ok(jail)
}

/// A game is over: end every process of `jail`, and keep it for the next game
/// (or remove it, if something of the bot would not end).
pub fn give_back(mut jail: Jail) {
    jail.kill();
    jail.unpin();
    if let Ok(mut s) = jail.scratch.lock() {
        s.take();
    }
    if jail.pids().is_empty() {
        if let Ok(mut pool) = POOL.lock() {
            pool.push(jail);
        }
    }
}

/// Remove the kept groups (at the end of a run).
pub fn release() {
    let kept: Vec<Jail> = POOL
        .lock()
        .map(|mut p| p.drain(..).collect())
        .unwrap_or_default();
    drop(kept);
}

impl Jail {
    /// A uid and control groups for one bot (`name`, unique among the bots
    /// running), with `limits`.
    ///
    /// # Errors
    /// The machine cannot confine (see [`ready`]), every uid is in use, or the
    /// control groups cannot be made.
    pub fn new(name: &str, limits: Limits) -> io::Result<Jail> {
        let m = machine().map_err(io::Error::other)?;
        let uid = {
            let mut taken = UIDS_TAKEN
                .lock()
                .map_err(|_| io::Error::other("uid lock"))?;
            let uid = (UID_BASE..UID_BASE + UIDS)
                .find(|u| !taken.contains(u))
                .ok_or_else(|| io::Error::other("every uid of the sandbox's range is in use"))?;
            taken.push(uid);
            uid
        };
        let mut jail = Jail {
            uid,
            limits,
            groups: Vec::new(),
            layout: m.layout.clone(),
            bwrap: m.bwrap.clone(),
            scratch: Mutex::new(None),
            base: (0, 0),
            cpuset: None,
            cores: Vec::new(),
        };
        let leaf = format!("nimbot-{}-{name}", std::process::id());
        let period = 100_000u64;
        let quota = ((limits.cpu * period as f64) as u64).max(1000);
        match &m.layout {
            Layout::V1 { memory, pids, cpu } => {
                let (mg, pg, cg) = (memory.join(&leaf), pids.join(&leaf), cpu.join(&leaf));
                for g in [&mg, &pg, &cg] {
                    fs::create_dir_all(g)?;
                    jail.groups.push(g.clone());
                }
                fs::write(mg.join("memory.limit_in_bytes"), limits.mem.to_string())?;
                // With swap accounting, swap counts too (else the limit is RAM only
                // and a hog swaps).
                let _ = fs::write(
                    mg.join("memory.memsw.limit_in_bytes"),
                    limits.mem.to_string(),
                );
                let _ = fs::write(mg.join("memory.swappiness"), "0");
                fs::write(pg.join("pids.max"), limits.procs.to_string())?;
                fs::write(cg.join("cpu.cfs_period_us"), period.to_string())?;
                fs::write(cg.join("cpu.cfs_quota_us"), quota.to_string())?;
            }
            Layout::V2(base) => {
                let g = base.join(&leaf);
                fs::create_dir_all(&g)?;
                jail.groups.push(g.clone());
                fs::write(g.join("memory.max"), limits.mem.to_string())?;
                let _ = fs::write(g.join("memory.swap.max"), "0");
                fs::write(g.join("pids.max"), limits.procs.to_string())?;
                fs::write(g.join("cpu.max"), format!("{quota} {period}"))?;
            }
        }
        if let Some(pin) = &m.pin {
            let all = crate::cores::format_list(&pin.cpus);
            match (&pin.v1, jail.groups.first()) {
                (Some(root), _) => {
                    // A v1 cpuset group takes no process until it has cores and
                    // memory nodes.
                    let g = root.join(&leaf);
                    let made = fs::create_dir_all(&g)
                        .and_then(|()| fs::write(g.join("cpuset.mems"), &pin.mems))
                        .and_then(|()| fs::write(g.join("cpuset.cpus"), &all));
                    if made.is_ok() {
                        jail.groups.push(g.clone());
                        jail.cpuset = Some(g);
                    } else {
                        let _ = fs::remove_dir(&g);
                    }
                }
                (None, Some(g)) => {
                    if fs::write(g.join("cpuset.cpus"), &all).is_ok() {
                        jail.cpuset = Some(g.clone());
                    }
                }
                (None, None) => {}
            }
        }
        Ok(jail)
    }

    /// Hold cores of its own for the game about to start (see [`crate::cores`]),
    /// or, if none are free, let it run on every core under its quota.
    fn pin(&mut self) {
        let Some(g) = &self.cpuset else { return };
        // A cpuset group is made only where the machine has one to hand out.
        let Some(all) = machine().ok().and_then(|m| m.pin.as_ref()).map(|p| &p.cpus) else {
            return;
        };
        let n = crate::cores::wanted(self.limits.cpu);
        let mine = crate::cores::claim(n, all);
        let cpus = mine.as_deref().unwrap_or(all);
        if fs::write(g.join("cpuset.cpus"), crate::cores::format_list(cpus)).is_ok() {
            self.cores = mine.unwrap_or_default();
        } else if let Some(c) = mine {
            crate::cores::give(&c);
        }
    }

    /// Its game is over: its cores are free for the next bot.
    fn unpin(&mut self) {
        crate::cores::give(&self.cores);
        self.cores.clear();
    }

    /// The cores it holds for the game under way (empty: every core, its quota).
    pub fn cores(&self) -> &[u32] {
        &self.cores
    }

    /// The uid the bot runs as.
    pub fn uid(&self) -> u32 {
        self.uid
    }

    /// `argv` run confined with `view`: bwrap, under the bot's uid, in its
    /// control groups, with its resource limits, in a session of its own (no
    /// terminal), no new privileges.
    ///
    /// # Errors
    /// A path or argument with a NUL byte.
    pub fn command(&self, argv: &[&str], view: &View) -> io::Result<Command> {
        let mut c = Command::new(&self.bwrap);
        let s = |p: &Path| p.display().to_string();
        c.args([
            "--unshare-user",
            "--unshare-pid",
            "--unshare-ipc",
            "--unshare-uts",
        ])
        .args(["--unshare-cgroup-try", "--die-with-parent"])
        .args(["--hostname", "bot"])
        // The system, read-only; a fresh /dev and /proc (its own processes).
        .args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
        // Homes and run-time directories of the organizer, hidden (each under an
        // empty read-only folder).
        for p in [
            "/home",
            "/root",
            "/run",
            "/var/tmp",
            "/var/mail",
            "/mnt",
            "/media",
        ] {
            if Path::new(p).is_dir() {
                c.args(["--tmpfs", p, "--remount-ro", p]);
            }
        }
        // The scratch: /tmp, bounded.
        c.args(["--size", &self.limits.disk.to_string(), "--tmpfs", "/tmp"]);
        if let Ok(home) = std::env::var("HOME") {
            if Path::new(&home).is_dir() && home != "/" {
                c.args(["--tmpfs", &home, "--remount-ro", &home]);
            }
        }
        let own = view.own.as_deref();
        for t in &view.tools {
            c.args(["--ro-bind", &s(t), &s(t)]);
        }
        if let Some(d) = own {
            c.args(["--ro-bind", &s(d), &s(d)]);
        }
        // What it must not see, unless it holds the bot's own folder.
        for h in &view.hide {
            if h.is_dir() && !own.is_some_and(|o| o.starts_with(h)) {
                c.args(["--tmpfs", &s(h), "--remount-ro", &s(h)]);
            }
        }
        if let Some(d) = own {
            c.args(["--chdir", &s(d)]);
        }
        c.args(["--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp"])
            .args(["--setenv", "USER", "bot", "--setenv", "LOGNAME", "bot"])
            .arg("--")
            .args(argv);
        let procs: Vec<CString> = self
            .groups
            .iter()
            .map(|g| CString::new(g.join("cgroup.procs").as_os_str().as_encoded_bytes()))
            .collect::<Result<_, _>>()
            .map_err(io::Error::other)?;
        let (uid, files, disk) = (self.uid, u64::from(self.limits.files), self.limits.disk);
        // SAFETY (of the closure, run between fork and exec): it calls only
        // async-signal-safe system calls on memory prepared before the fork (see
        // sys::enter).
        #[allow(unsafe_code)]
        unsafe {
            c.pre_exec(move || sys::enter(&procs, uid, files, disk));
        }
        Ok(c)
    }

    /// Find the bot's scratch once it runs, and keep it open: its use can be read
    /// even after the bot ended (and its mounts with it).
    fn look(&self) {
        let Ok(mut scratch) = self.scratch.lock() else {
            return;
        };
        if scratch.is_some() {
            return;
        }
        for pid in self.pids() {
            if let Ok(f) = fs::File::open(format!("/proc/{pid}/root/tmp")) {
                if sys::fs_size(&f).is_some_and(|(total, _)| total == self.limits.disk) {
                    *scratch = Some(f);
                    return;
                }
            }
        }
    }

    /// The processes in its groups.
    fn pids(&self) -> Vec<i32> {
        let mut out = Vec::new();
        for g in &self.groups {
            let text = fs::read_to_string(g.join("cgroup.procs")).unwrap_or_default();
            out.extend(text.lines().filter_map(|l| l.trim().parse::<i32>().ok()));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A count in a `KEY N` file of the bot's group of `controller` (memory or
    /// pids).
    fn count(&self, controller: &str, file: &str, key: &str) -> u64 {
        let dir = match &self.layout {
            Layout::V2(_) => self.groups.first(),
            // Made in the order memory, pids, cpu.
            Layout::V1 { .. } => match controller {
                "memory" => self.groups.first(),
                _ => self.groups.get(1),
            },
        };
        let text = dir
            .and_then(|d| fs::read_to_string(d.join(file)).ok())
            .unwrap_or_default();
        text.lines()
            .filter_map(|l| l.split_once(' '))
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| v.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Processes the memory killer ended in the group, ever.
    fn ooms(&self) -> u64 {
        match self.layout {
            Layout::V1 { .. } => self.count("memory", "memory.oom_control", "oom_kill"),
            Layout::V2(_) => self.count("memory", "memory.events", "oom_kill"),
        }
    }

    /// Tasks charged to its process limit (zombies not yet reaped included).
    fn tasks(&self) -> u64 {
        let dir = match &self.layout {
            Layout::V2(_) => self.groups.first(),
            Layout::V1 { .. } => self.groups.get(1),
        };
        dir.and_then(|d| fs::read_to_string(d.join("pids.current")).ok())
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(u64::MAX)
    }

    /// Forks refused at the process limit, ever.
    fn forks_refused(&self) -> u64 {
        self.count("pids", "pids.events", "max")
    }

    /// The limit the bot broke, if it broke one: the memory killer struck in
    /// its group, a fork failed at its process limit, or its scratch is full.
    pub fn breach(&self) -> Option<Breach> {
        self.look();
        if self.ooms() > self.base.0 {
            return Some(Breach {
                what: Broke::Memory,
                text: format!("used more than its {} of memory", size(self.limits.mem)),
            });
        }
        if self.forks_refused() > self.base.1 {
            return Some(Breach {
                what: Broke::Processes,
                text: format!("tried to run more than {} processes", self.limits.procs),
            });
        }
        let full = self.scratch.lock().ok().and_then(|s| {
            let (total, free) = sys::fs_size(s.as_ref()?)?;
            Some(total > 0 && free < 8192)
        });
        if full == Some(true) {
            return Some(Breach {
                what: Broke::Disk,
                text: format!("filled its {} scratch", size(self.limits.disk)),
            });
        }
        None
    }

    /// End every process of the bot (all of its groups, however they were
    /// started), waiting until none is left (at most a second).
    pub fn kill(&self) {
        if let (Layout::V2(_), Some(g)) = (&self.layout, self.groups.first()) {
            let _ = fs::write(g.join("cgroup.kill"), "1");
        }
        let until = std::time::Instant::now() + Duration::from_secs(1);
        loop {
            let pids = self.pids();
            if pids.is_empty() || std::time::Instant::now() > until {
                return;
            }
            for p in pids {
                sys::kill(p);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Jail {
    fn drop(&mut self) {
        self.kill();
        self.unpin();
        if let Ok(mut s) = self.scratch.lock() {
            s.take();
        }
        for g in &self.groups {
            // A group empties a moment after its last process is reaped.
            for _ in 0..50 {
                if fs::remove_dir(g).is_ok() || !g.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        if let Ok(mut taken) = UIDS_TAKEN.lock() {
            taken.retain(|u| *u != self.uid);
        }
    }
}

/// Whether `dir` (and each folder above it) lets another user in, which the
/// bot's user needs to run there.
pub fn reachable(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    for d in dir.ancestors() {
        let mode = fs::metadata(d).map(|m| m.permissions().mode()).unwrap_or(0);
        if mode & 0o001 == 0 {
            return Err(format!(
                "{} is closed to other users (mode {:o}), so a confined bot (another user) cannot reach {}: chmod o+rx it, or move the bot",
                d.display(),
                mode & 0o777,
                dir.display()
            ));
        }
    }
    Ok(())
}

/// The system calls of confinement (one of the tournament's boundaries).
mod sys {
    use std::ffi::CString;
    use std::io;
    use std::os::fd::AsRawFd;

    pub fn is_root() -> bool {
        // SAFETY: geteuid(2) takes nothing and cannot fail.
        #[allow(unsafe_code)]
        unsafe {
            libc::geteuid() == 0
        }
    }

    /// SIGKILL to `pid`.
    pub fn kill(pid: i32) {
        // SAFETY: kill(2) touches no memory of ours; `pid` is a process of a
        // bot's group, read just before.
        #[allow(unsafe_code)]
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }

    /// Bytes of the file system of `f`: its size and what is free.
    pub fn fs_size(f: &std::fs::File) -> Option<(u64, u64)> {
        let mut st = std::mem::MaybeUninit::<libc::statvfs>::zeroed();
        // SAFETY: fstatvfs writes one statvfs into the pointer it is given, a
        // zeroed one of ours; the fd is open for the call.
        #[allow(unsafe_code)]
        let st = unsafe {
            if libc::fstatvfs(f.as_raw_fd(), st.as_mut_ptr()) != 0 {
                return None;
            }
            st.assume_init()
        };
        let frag = st.f_frsize as u64;
        Some((st.f_blocks as u64 * frag, st.f_bfree as u64 * frag))
    }

    fn check(r: libc::c_int) -> io::Result<()> {
        if r == -1 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    }

    /// In the child, between fork and exec: join the control groups (each
    /// `cgroup.procs` given, writing "0" moves the writer), bound open files,
    /// file size and core dumps, leave the runner's session (no terminal to
    /// reach), drop to `uid` (no supplementary groups), and forbid new
    /// privileges.
    ///
    /// Only async-signal-safe calls (open, write, close, setrlimit, setsid,
    /// setgroups, setgid, setuid, prctl) on memory made before the fork.
    #[allow(unsafe_code)]
    pub fn enter(procs: &[CString], uid: u32, files: u64, disk: u64) -> io::Result<()> {
        for p in procs {
            // SAFETY: `p` is a NUL-terminated path made before the fork; the fd is
            // ours, written once and closed.
            unsafe {
                let fd = libc::open(p.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                check(fd)?;
                let w = libc::write(fd, b"0".as_ptr().cast(), 1);
                libc::close(fd);
                if w != 1 {
                    return Err(io::Error::last_os_error());
                }
            }
        }
        for (res, n) in [
            (libc::RLIMIT_NOFILE, files),
            (libc::RLIMIT_FSIZE, disk),
            (libc::RLIMIT_CORE, 0),
        ] {
            let lim = libc::rlimit {
                rlim_cur: n,
                rlim_max: n,
            };
            // SAFETY: setrlimit reads the rlimit it is given, ours on the stack.
            check(unsafe { libc::setrlimit(res, &lim) })?;
        }
        // SAFETY: plain system calls on integers (setgroups with an empty list
        // reads no memory).
        unsafe {
            check(libc::setsid())?;
            check(libc::setgroups(0, std::ptr::null()))?;
            check(libc::setgid(uid))?;
            check(libc::setuid(uid))?;
            check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_and_print() {
        let d = Limits::default();
        assert_eq!(Limits::parse("").unwrap(), d);
        let l = Limits::parse("mem=256M, procs=32,disk=16M,files=128,cpu=0.5").unwrap();
        assert_eq!(
            (l.mem, l.procs, l.disk, l.files, l.cpu),
            (256 << 20, 32, 16 << 20, 128, 0.5)
        );
        assert_eq!(Limits::parse(&l.text()).unwrap(), l);
        assert_eq!(d.text(), "mem=512M,procs=64,disk=64M,files=256,cpu=1");
        assert_eq!(Limits::parse("mem=1G").unwrap().mem, 1 << 30);
        for bad in ["mem", "mem=lots", "mem=1K", "swap=1G", "procs=-1", "cpu=0"] {
            assert!(Limits::parse(bad).is_err(), "{bad}");
        }
    }
}
