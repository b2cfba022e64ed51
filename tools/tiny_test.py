#!/usr/bin/env python3
"""Complete games through the tiny static binary, checked against the full one.

usage: tiny_test.py [--beyond-only] [--quick] TINY FULL    (tools/tiny.sh test runs it)
       tiny_test.py --jail TINY FULL             (as root: the syscall allowlist)

TINY may be a wrapper that runs the binary under qemu-aarch64. --beyond-only: run
only the tests of games beyond the embedded table. --quick: for a binary under
emulation, where the same code runs many times slower (the native run covers the
breadth): a third of the random positions, a
seventh of the random queries beyond the table, none of its 5,000-stone queries,
one of its three referee games, and every wait three times as long.
NIMBOT_WAIT_SCALE=K makes every wait K times longer still (a loaded machine).

1. The line protocol: random sessions (games of many N, R and both seats against a
   random opponent, with queries, state, policy switches and bad input mixed in)
   are played interactively against FULL; the recorded input is then piped through
   TINY in one go and its output must equal FULL's byte for byte.
2. query: TINY and FULL print the same thing and exit alike for many positions.
3. connect: TINY plays FULL's `connect` through FULL's referee (`serve -p 0`) in both
   seats for many N; the side with the won start wins, exit codes 0/1, one summary
   line. Plus TINY against itself, a silent server (--timeout), a closed port and
   usage errors.
4. exp-nim: TINY in pipe mode behind cli/tests/peers/exp_nim_like.py (a named pipe)
   against FULL's connect, both seats.
5. Beyond the table: query over a random sample of N <= 5000, R <= 6,
   M <= 5 equal to FULL's; games beyond the table through the referee and the pipe;
   --max-memory too small: one line and exit status 4.

Every game through the referee is judged again, move by move, from the referee's
game log by tools/rules_judge.py (written from docs/rules.md, not from nimbot's
code), and the value of every start of up to 30 stones by that file's own search.
Every reply and `query` answer is read by the protocol's grammar (`nimbot protocol
parse` of FULL, through tools/protocol_replies.py).
Every wait has a timeout and every child is killed however the test ends.
"""
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

if sys.argv[1:2] == ["--launch"]:
    # Inside the jail (see jail()): chroot, address-space limit, seccomp, execve.
    import seccomp  # Debian's python3-seccomp
    root, kib, calls = sys.argv[2:5]
    argv = sys.argv[sys.argv.index("--") + 1:]
    os.chroot(root)
    os.chdir("/")
    resource.setrlimit(resource.RLIMIT_AS, (int(kib) * 1024, int(kib) * 1024))
    jail_filter = seccomp.SyscallFilter(defaction=seccomp.KILL_PROCESS)
    for call in calls.split(",") + ["execve"]:
        jail_filter.add_rule(seccomp.ALLOW, call)
    jail_filter.load()
    os.execve(argv[0], argv, {})
FLAGS = [a for a in sys.argv[1:] if a.startswith("--")]
# How many random positions the query checks take (query, beyond the table).
# --quick: the binary runs under emulation (see the docstring).
QUICK = "--quick" in FLAGS
QUERY_SAMPLE, BEYOND_SAMPLE = (50, 8) if QUICK else (150, 60)
# Every wait for a child is this many times its nominal length: three times under
# emulation (--quick), and NIMBOT_WAIT_SCALE times more on a machine known to be
# loaded (a wait that runs out fails the test, so it must not be tight).
WAIT_SCALE = (3 if QUICK else 1) * float(os.environ.get("NIMBOT_WAIT_SCALE", "1"))
TINY, FULL = [a for a in sys.argv[1:] if not a.startswith("--")]
# The jail's launcher needs the seccomp module: Debian's python3-seccomp.
JAIL_PYTHON = "/usr/bin/python3"
# The tiny binary's default lost-position policy is trap; the full binary's is
# exploit. Compare like with like: the full binary with trap unless a test says
# otherwise. The tiny binary refuses `longest` and `exploit` (no distances, no
# models), on its command line and on the line protocol.
TRAP = ["--policy", "trap"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from protocol_replies import Replies  # noqa: E402 (after the path it is found on)
import rules_judge  # noqa: E402
PEER = os.path.join(ROOT, "cli", "tests", "peers", "exp_nim_like.py")
KIDS = []
rng = random.Random(20240611)
checks = 0
# The replies' reader (tools/protocol_replies.py on FULL), made in main.
REPLIES = None
# The referees' game logs (see referee), removed at the end.
GAME_LOGS = tempfile.mkdtemp(prefix="nimbot-tiny-logs-")


def fail(msg):
    for k in KIDS:
        if k.poll() is None:
            k.kill()
    sys.exit(f"tiny_test: FAIL: {msg}")


def check(cond, msg):
    global checks
    checks += 1
    if not cond:
        fail(msg)


def spawn(args, **kw):
    kw.setdefault("stdin", subprocess.DEVNULL)
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    p = subprocess.Popen(args, **kw)
    KIDS.append(p)
    return p


def finish(p, secs):
    """(exit code, stdout, stderr) of a child, killing it after `secs` (scaled)."""
    secs *= WAIT_SCALE
    try:
        out, err = p.communicate(timeout=secs)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        fail(f"{p.args} did not finish in {secs} s\n{(err or b'').decode(errors='replace')}")
    return p.returncode, (out or b"").decode(errors="replace"), (err or b"").decode(errors="replace")


def run(args, stdin=b"", secs=20):
    secs *= WAIT_SCALE
    p = spawn(args, stdin=subprocess.PIPE)
    try:
        out, err = p.communicate(stdin, timeout=secs)
    except subprocess.TimeoutExpired:
        p.kill()
        fail(f"{args} did not finish in {secs} s")
    return p.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def reply(line, kind, **fields):
    """`line` read by the protocol's grammar: a `kind` reply with `fields`, else FAIL."""
    return REPLIES.expect(line.rstrip("\n"), kind, **fields)


def first_wins(n, r):
    """The full binary's value of the start (N, R, M = 3); the rules' own search
    (tools/rules_judge.py) must agree with it where it reaches (N <= 30)."""
    code, out, _ = run([FULL, "query", str(n), "3", str(r), str(r), "0"])
    check(code == 0, f"full query {n} {r}")
    won = reply(out, "query")["value"] == "win"
    check(rules_judge.first_wins(n, r, 3) in (None, won), f"the value of N={n} R={r}: full {out!r}, "
          "the rules' own search says otherwise")
    return won


def random_position():
    """S C A B F inside the table: S plus the stones the cap needs gone is <= 999."""
    while True:
        s, c = rng.randint(1, 999), rng.randint(3, 45)
        if s + (c * (c - 1) - 6) // 2 <= 999:
            return [str(s), str(c), str(rng.randint(0, 4)), str(rng.randint(0, 4)), str(rng.randint(0, 1))]


# ---------------------------------------------------------------- 1. line protocol

class Full:
    """The full binary's line protocol, one reply per line (read with a timeout)."""

    def __init__(self):
        self.p = spawn([FULL] + TRAP, stdin=subprocess.PIPE)
        self.lines = []
        self.replies = []
        self.transcript = []
        self.cv = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            with self.cv:
                self.replies.append(line.decode())
                self.transcript.append(line.decode())
                self.cv.notify()

    def ask(self, line, reply=True):
        self.lines.append(line)
        self.p.stdin.write(line.encode() + b"\n")
        self.p.stdin.flush()
        if not reply:
            return None
        with self.cv:
            if not self.cv.wait_for(lambda: self.replies, timeout=10):
                fail(f"full binary gave no reply to {line!r}")
            return self.replies.pop(0).rstrip("\n")


NOISE = ["", "bogus", "opp x 0", "opp 1 2", "go now", "new 5 4 3 third", "x" * 100,
         "help", "version", "state", "policy", "opp 0 0",
         "  state  ", "query 5 3 1 1 1", "end x"]


# The two replies where the tiny binary (Expanding Nim only, protocol version 1)
# differs from the full one (version 2, with Fibonacci Nim and Super-Nim).
with open(os.path.join(ROOT, "docs", "protocol.json")) as _f:
    HELP = json.load(_f)["help"]
TINY_HELP = HELP["expanding"]


def as_tiny(full_output):
    """FULL's line-protocol output as the tiny binary must answer it."""
    lines = []
    for line in full_output.split("\n"):
        version = REPLIES.parse(line) if line.startswith("version ") else None
        if version and version["reply"] == "version" and version["protocol"] == 2:
            line = f"version {version['software']} protocol 1"
        elif line == HELP["related-games"]:
            line = TINY_HELP
        lines.append(line)
    return "\n".join(lines)


def session(full, games):
    for _ in range(games):
        n = rng.choice([1, 2, 3, 4, 5, 7, 8, 12, 20, 33, 57, 100, 257, 500, 998, 999,
                        rng.randint(1, 999)])
        r = rng.choice([0, 1, 2, 4])
        seat = rng.choice(["first", "second"])
        if rng.random() < 0.3:
            full.ask("policy " + rng.choice(["first", "trap"]))
        check(full.ask(f"new {n} {r} 3 {seat}") == "ok", "new")
        for _ in range(3000):
            st = reply(full.ask("state"), "state", game="expanding")
            turn = st["turn"]
            if turn in ("won", "lost"):
                break
            if rng.random() < 0.05:
                line = rng.choice(NOISE)
                full.ask(line, reply=bool(line.strip()))
            if rng.random() < 0.05:
                full.ask("query " + " ".join(random_position()))
            if turn == "bot":
                full.ask("go")
            else:
                stones, limit, opp_resets = st["stones"], st["limit"], st["opp_resets"]
                k = rng.randint(1, min(stones, limit))
                if rng.random() < 0.02:
                    k = limit + 1  # illegal: an error, game unchanged
                f = 1 if opp_resets > 0 and rng.random() < 0.3 else 0
                full.ask(f"opp {k} {f}")
        else:
            fail("a game did not end")
        full.ask("end")


def test_line_protocol():
    t0 = time.time()
    full = Full()
    session(full, 120)
    full.p.stdin.close()
    try:
        check(full.p.wait(timeout=10) == 0, "full serial exit")
    except subprocess.TimeoutExpired:
        fail("the full binary did not end at the end of its input")
    script = "".join(l + "\n" for l in full.lines).encode()
    expected = "".join(full.transcript)
    # FULL again on the whole script at once, then TINY: byte for byte.
    code_f, out_f, _ = run([FULL] + TRAP, script)
    code_t, out_t, err_t = run([TINY], script)
    if out_f != expected or code_f != 0:
        for i, (a, b) in enumerate(zip(out_f.splitlines(), expected.splitlines())):
            if a != b:
                fail(f"the full binary differs from itself at reply {i}: {a!r} {b!r}")
        fail(f"the full binary differs from itself: exit {code_f}, {len(out_f)} {len(expected)} bytes")
    out_f = as_tiny(out_f)
    if out_t != out_f:
        for i, (a, b) in enumerate(zip(out_t.splitlines(), out_f.splitlines())):
            if a != b:
                ctx = [l for l in full.lines if l.strip()][max(0, i - 3):i + 1]
                fail(f"line protocol differs at reply {i} (lines {ctx}): tiny {a!r}, full {b!r}")
        fail("line protocol output lengths differ")
    check(code_t == 0 and err_t == "", f"tiny serial exit {code_t} {err_t}")
    # A last line without a newline, and the policy option.
    for args in ([], ["--policy", "first"], ["serial"], ["serial", "--policy", "first"]):
        tail = b"new 30 2 3 first\ngo\nstate"
        check(run([TINY] + args, tail)[1] == run([FULL] + full_policy(args), tail)[1], f"serial {args}")
    # Policies the tiny binary cannot play are refused, never played as another.
    for pol in ("longest", "exploit"):
        code, out, err = run([TINY, "--policy", pol], b"version\n")
        check(code == 2 and out == "" and "--policy takes first or trap" in err, f"--policy {pol}: {code} {err!r}")
        reply = run([TINY], f"policy {pol}\npolicy\n".encode())[1].splitlines()
        check(reply == ["error policy not played by this engine", "policy trap"], f"policy {pol}: {reply}")
    print(f"line protocol: {len(full.lines)} lines, 120 games: same bytes as the full binary "
          f"({time.time() - t0:.1f} s)")


# ---------------------------------------------------------------- 2. query

def full_policy(args):
    """The full binary's arguments matching the tiny binary's policy for `args`
    (the full binary takes `--policy` after its command)."""
    return list(args) if "--policy" in args else list(args) + TRAP


def test_query():
    t0 = time.time()
    cases = [["8", "3", "0", "0", "0"], ["4", "3", "0", "0", "0"], ["999", "3", "4", "4", "0"],
             ["20", "3", "4", "4", "0"], ["1", "3", "0", "0", "1"],
             ["--game", "expanding", "20", "3", "4", "4", "0"]]
    for _ in range(QUERY_SAMPLE):
        cases.append(random_position())
    for c in cases:
        for pol in ([], ["--policy", "first"], ["--policy", "trap"]):
            ft = run([TINY, "query"] + c + pol)
            ff = run([FULL, "query"] + c + full_policy(pol))
            check(ft[:2] == ff[:2], f"query {c} {pol}: tiny {ft}, full {ff}")
    # Errors exit 2 in both (the messages may differ).
    for c in (["1", "2", "3"], ["5", "2", "0", "0", "0"], ["5", "3", "0", "0", "2"],
              ["x"], ["5", "3", "300", "0", "0"], ["5", "3", "0", "0", "0", "1"]):
        code = run([TINY, "query"] + c)[0]
        check(code == 2 and run([FULL, "query"] + c)[0] == 2, f"query error {c}: {code}")
    # Expanding Nim only: the related games are refused with one line (exit 2), on
    # the command line and on the line protocol (which says protocol 1).
    code, _, err = run([TINY, "query", "--game", "fibonacci", "20", "19"])
    check(code == 2 and len(err.splitlines()) == 2 and "Expanding Nim only" in err,
          f"query --game fibonacci: {code} {err!r}")
    code, out, _ = run([TINY], b"new fibonacci 20 first\nversion\nnew supernim 3,4 second\n")
    replies = out.splitlines()
    check(code == 0 and len(replies) == 3 and replies[0] == replies[2]
          == "error this build plays Expanding Nim only" and reply(replies[1], "version")["protocol"] == 1,
          f"related games on the line protocol: {out!r}")
    check(run([TINY, "--version"])[1] == run([FULL, "--version"])[1], "--version")
    code, out, _ = run([TINY, "--help"])
    check(code == 0 and all(w in out for w in ("query", "connect", "exp-nim", "--policy", "--version"))
          and out.endswith("fit in --max-memory.\n"), f"--help is whole: {out[-80:]!r}")
    check(run([TINY, "bogus"])[0] == 2, "usage")
    print(f"query: {3 * len(cases)} position-policy pairs equal to the full binary's ({time.time() - t0:.1f} s)")


# ---------------------------------------------------------------- 3. connect

def referee(n, r, extra=()):
    # The move log goes to a file: a long game's log outgrows a pipe nobody reads yet.
    log = tempfile.TemporaryFile()
    fd, game_log = tempfile.mkstemp(prefix="game-", suffix=".txt", dir=GAME_LOGS)
    os.close(fd)
    p = spawn([FULL, "serve", str(n), str(r), "-p", "0", "-a", "127.0.0.1", "-t", "30",
               "--join-timeout", "20", "--game-log", game_log, *extra], stderr=log)
    p.log = log
    p.game_log = game_log
    line = p.stdout.readline().decode().strip()
    if not line.startswith("listening on "):
        fail(f"referee said {line!r}")
    return p, line[len("listening on "):]


def judged(ref, n, r):
    """The finished game's winner (0: the first seat) by the rules' own judge: the
    referee's game log replayed move by move (tools/rules_judge.py)."""
    with open(ref.game_log) as f:
        text = f.read()
    try:
        winner, _, _ = rules_judge.replay_game_log(text, n, r, 3)
    except rules_judge.Illegal as e:
        fail(f"the referee's game log of N={n} R={r}: {e}\n{text[-2000:]}")
    return winner


def summary_ok(err, cmd, won, seat):
    lines = err.strip().splitlines()
    return len(lines) == 1 and lines[0].startswith(f"nimbot {cmd}: {'won' if won else 'lost'} as {seat} after ")


def connect_game(n, r, tiny_first, opponent=None):
    opponent = opponent or FULL
    ref, addr = referee(n, r)
    host = rng.choice(["127.0.0.1", "localhost"])
    addr = addr.replace("127.0.0.1", host)
    tseat, oseat = ("--first", "--second") if tiny_first else ("--second", "--first")
    tiny = spawn([TINY, "connect", addr, tseat, "--name", "tiny", "--timeout", "30"])
    other = spawn([opponent, "connect", addr, oseat, "--name", "other", "--timeout", "30"])
    tc, _, terr = finish(tiny, 40)
    oc, _, oerr = finish(other, 40)
    rc = finish(ref, 20)[0]
    ref.log.seek(0)
    log = ref.log.read().decode(errors="replace")
    ctx = f"connect N={n} R={r} tiny_first={tiny_first}\n{terr}{oerr}{log[-2000:]}"
    tiny_wins = first_wins(n, r) == tiny_first
    check(rc == 0, ctx)
    check(judged(ref, n, r) == (0 if tiny_wins == tiny_first else 1), f"the judge's winner: {ctx}")
    check(tc == (0 if tiny_wins else 1), ctx)
    check(oc == (1 if tiny_wins else 0), ctx)
    check(summary_ok(terr, "connect", tiny_wins, tseat[2:]), ctx)


def silent_server():
    """A server that accepts and never answers: --timeout must end the wait."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    t0 = time.time()
    p = spawn([TINY, "connect", f"127.0.0.1:{port}", "--first", "--timeout", "0.5"])
    code, _, err = finish(p, 10)
    check(code == 3 and "read failed" in err and time.time() - t0 < 5, f"silent server: {code} {err}")
    srv.close()
    # Now nobody listens on that port.
    code, _, err = finish(spawn([TINY, "connect", f"127.0.0.1:{port}", "--second"]), 10)
    check(code == 3 and "cannot connect" in err, f"closed port: {code} {err}")


def retry_game():
    """--retry: the referee starts a second after the bot, on the port the bot keeps
    trying; the bot says so once, then plays the game to its end."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    tiny = spawn([TINY, "connect", f"127.0.0.1:{port}", "--first", "--retry", "20", "--timeout", "30"])
    time.sleep(1.0)
    log = tempfile.TemporaryFile()
    ref = spawn([FULL, "serve", "20", "4", "-p", str(port), "-a", "127.0.0.1", "-t", "30",
                 "--join-timeout", "20"], stderr=log)
    check(ref.stdout.readline().decode().startswith("listening on "), "--retry: the referee")
    other = spawn([FULL, "connect", f"127.0.0.1:{port}", "--second", "--name", "other", "--timeout", "30"])
    tc, _, terr = finish(tiny, 40)
    finish(other, 40)
    finish(ref, 20)
    wins = first_wins(20, 4)
    lines = terr.strip().splitlines()
    check(len(lines) == 2 and "retrying for up to 20 s" in lines[0]
          and summary_ok(lines[1], "connect", wins, "first") and tc == (0 if wins else 1),
          f"--retry: {tc} {terr!r}")
    code, _, err = finish(spawn([TINY, "connect", f"127.0.0.1:{port}", "--first", "--retry", "0.3"]), 10)
    check(code == 3 and len(err.splitlines()) == 2 and "cannot connect" in err.splitlines()[1],
          f"--retry ran out: {code} {err!r}")


def test_connect():
    t0 = time.time()
    games = 0
    for n in [1, 2, 3, 4, 5, 8, 13, 20, 57, 100, 257, 500, 998, 999, rng.randint(1, 999)]:
        for r in ([4, 0] if n in (8, 100, 999) else [rng.choice([0, 1, 2, 4])]):
            for tiny_first in (True, False):
                connect_game(n, r, tiny_first)
                games += 1
    for n in (20, 100):
        connect_game(n, 4, True, opponent=TINY)
        games += 1
    silent_server()
    retry_game()
    for args in (["connect", "127.0.0.1:1"], ["connect", "--first"],
                 ["connect", "127.0.0.1:1", "--first", "--second"],
                 ["connect", "127.0.0.1:1", "--first", "--init-max", "0"],
                 ["connect", "127.0.0.1:1", "--first", "--timeout", "soon"],
                 ["connect", "127.0.0.1:1", "--first", "--retry", "-1"]):
        code = run([TINY] + args)[0]
        check(code == 2, f"usage {args}: {code}")
    check(run([TINY, "connect", "example.org:9000", "--first"])[0] == 3, "unresolvable host")
    print(f"connect: {games} games through the referee, exit codes and summaries right; "
          f"timeout, refused, --retry and usage errors ({time.time() - t0:.1f} s)")


# ---------------------------------------------------------------- 4. exp-nim

def exp_nim_game(n, r, tiny_first, tmp):
    fifo = os.path.join(tmp, f"pipe-{n}-{r}-{tiny_first}")
    os.mkfifo(fifo)
    status, errf = fifo + ".status", fifo + ".err"
    ref, addr = referee(n, r)
    seat, flag, stones = ("--first", "-f", f"--stones {n}") if tiny_first else ("--second", "", "")
    script = (f"({TINY} exp-nim {seat} {stones} --resets {r} < '{fifo}' 2> '{errf}'; echo $? > '{status}')"
              f" | python3 '{PEER}' {flag} -n text {addr} > '{fifo}'")
    text = spawn(["sh", "-c", script], start_new_session=True)
    other = spawn([FULL, "connect", addr, "--second" if tiny_first else "--first",
                   "--name", "tcp", "--timeout", "30"])
    try:
        finish(text, 40)
    finally:
        try:
            os.killpg(text.pid, 9)
        except ProcessLookupError:
            pass
    oc, _, oerr = finish(other, 20)
    rc = finish(ref, 20)[0]
    ref.log.seek(0)
    log = ref.log.read().decode(errors="replace")
    code = open(status).read().strip() if os.path.exists(status) else "?"
    err = open(errf).read() if os.path.exists(errf) else ""
    tiny_wins = first_wins(n, r) == tiny_first
    ctx = f"exp-nim N={n} R={r} tiny_first={tiny_first}: {code}\n{err}{oerr}{log[-2000:]}"
    check(rc == 0 and judged(ref, n, r) == (0 if tiny_wins == tiny_first else 1), f"the judge's winner: {ctx}")
    check(rc == 0 and code == ("0" if tiny_wins else "1"), ctx)
    check(oc == (1 if tiny_wins else 0), ctx)
    check(summary_ok(err, "exp-nim", tiny_wins, seat[2:]), ctx)


def test_exp_nim():
    t0 = time.time()
    games = 0
    with tempfile.TemporaryDirectory(prefix="nimbot-tiny-") as tmp:
        for n, r in [(1, 0), (8, 0), (20, 4), (57, 2), (100, 4), (999, 4), (rng.randint(1, 999), 4)]:
            for tiny_first in (True, False):
                exp_nim_game(n, r, tiny_first, tmp)
                games += 1
    code, _, err = run([TINY, "exp-nim", "--first"])
    check(code == 2, f"exp-nim --first without --stones: {code} {err}")
    code, _, err = run([TINY, "exp-nim", "--second"], b"Game mode\n")
    check(code == 3 and len(err.splitlines()) == 1, f"exp-nim early end of input: {code} {err}")
    print(f"exp-nim: {games} games through a named pipe, exit codes and summaries right "
          f"({time.time() - t0:.1f} s)")


# ---------------------------------------------------------------- 5. beyond the table

def beyond_position():
    """A random position of a game beyond the table: N <= 5000, R <= 6, M <= 5."""
    while True:
        n, r, m = rng.randint(1, 5000), rng.randint(0, 6), rng.randint(1, 5)
        if n <= 999 and r <= 4 and m == 3:
            continue
        c = rng.randint(m, m + 40)
        s = n - (c * (c - 1) - m * (m - 1)) // 2
        if s >= 1:
            return [str(s), str(c), str(rng.randint(0, r)), str(rng.randint(0, r)),
                    str(rng.randint(0, 1)), "-m", str(m)]


def same_but_distance(tiny, full):
    """`query` answers that agree, the tiny's distance allowed to be `-` (distances
    that do not fit its memory limit)."""
    t, f = reply(tiny, "query"), reply(full, "query")
    return t == f or t == dict(f, distance=None)


def test_beyond():
    t0 = time.time()
    cases = [["1500", "3", "4", "4", "0"], ["5000", "3", "6", "6", "0"],
             ["5000", "5", "6", "5", "1", "-m", "5"], ["1000", "3", "0", "0", "0"],
             ["999", "3", "5", "0", "0"], ["700", "3", "1", "2", "1", "-m", "1"]]
    if QUICK:
        # Emulated, the biggest solves (5,000 stones) cost minutes: the native run has them.
        cases = [c for c in cases if int(c[0]) <= 1500]
    cases += [beyond_position() for _ in range(BEYOND_SAMPLE)]
    for c in cases:
        for pol in ([], ["--policy", "first"]):
            # Memory enough for the distances too, so the answer must be the full's
            # to the last word (with the default 64 MiB some are `-`: see below).
            ft = run([TINY, "--max-memory", "512", "query"] + c + pol, secs=60)
            ff = run([FULL, "query"] + c + full_policy(pol), secs=60)
            check(ft[:2] == ff[:2] and ft[0] == 0, f"query {c} {pol}: tiny {ft}, full {ff}")
    # With the default memory, a distance that does not fit is `-` (docs/tiny.md);
    # the value and the move stay the full binary's.
    for c in cases[:6]:
        ft = run([TINY, "query"] + c, secs=60)
        ff = run([FULL, "query"] + c + TRAP, secs=60)
        check(ft[0] == 0 and same_but_distance(ft[1], ff[1]), f"query {c}: tiny {ft}, full {ff}")
    # The line protocol on games beyond the table, against the full binary.
    script = "".join(f"new {n} {r} {m} first\ngo\nstate\nopp 1 0\nstate\nquery {' '.join(beyond_position()[:5])}\n"
                     for n, r, m in [(1500, 4, 3), (3000, 6, 5), (999, 5, 3), (2000, 2, 1)])
    ft, ff = run([TINY], script.encode(), secs=60), run([FULL] + TRAP, script.encode(), secs=60)
    check(ft[:2] == ff[:2] and "error" not in ft[1], f"line protocol beyond the table:\n{ft}\n{ff}")
    games = 0
    for n, r in [(1500, 4)] if QUICK else [(1500, 4), (2345, 6), (1000, 5)]:
        for tiny_first in (True, False):
            connect_game(n, r, tiny_first)
            games += 1
    with tempfile.TemporaryDirectory(prefix="nimbot-tiny-") as tmp:
        for tiny_first in (True, False):
            exp_nim_game(1800, 5, tiny_first, tmp)
            games += 1
    # Too little memory: one line, exit status 4, for every command. (The solver's
    # memory grows with N, 16 bytes a pile: 200,000 stones need about 3 MiB.)
    for args, stdin in ((["--max-memory", "1", "query", "200000", "3", "4", "4", "0"], b""),
                        (["--max-memory", "1", "query", "200000", "3", "0", "0", "0"], b""),
                        (["--max-memory", "1", "exp-nim", "--first", "--stones", "200000"], b"")):
        code, out, err = run([TINY] + args, stdin)
        check(code == 4 and len(err.splitlines()) == 1 and "memory" in err,
              f"{args}: exit {code}, {err!r}")
    # The line protocol answers such a game with an error line, as the full binary
    # does, and goes on.
    script = b"new 200000 0 3 first\ngo\nnew 30 0 3 first\ngo\n"
    code, out, err = run([TINY, "--max-memory=1", "serial"], script)
    small = run([FULL] + TRAP, b"new 30 0 3 first\ngo\n")[1].splitlines()
    check(code == 0 and out.splitlines() == ["error position too large to solve here",
                                             "error no game (send new)"] + small,
          f"--max-memory=1 serial: exit {code}, {out!r} {err!r}, full {small}")
    code, _, err = run([TINY, "--max-memory", "lots", "query", "1", "3", "0", "0", "0"])
    check(code == 2, f"--max-memory lots: {code} {err}")
    print(f"beyond the table: {2 * len(cases)} queries equal to the full binary's, {games} games, "
          f"out-of-memory exits ({time.time() - t0:.1f} s)")


# ---------------------------------------------------------------- 6. the syscall allowlist

DOC = os.path.join(ROOT, "docs", "tiny.md")
JAIL_KIB = 24 * 1024  # ulimit -v in the jail: 24 MiB of address space


def allowlist():
    """command -> system calls, from the table between the markers in docs/tiny.md."""
    text = open(DOC).read()
    table = text.split("<!-- syscalls -->")[1]
    calls = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].startswith("`"):
            for cmd in re.findall(r"`([a-z-]+)`", cells[0]):
                calls[cmd] = re.findall(r"`([a-z_0-9]+)`", cells[1])
    return calls


def jail(root, calls, args, stdin=b"", secs=60):
    """Run the binary at /nimbot inside `root` as the only program: chroot, `env -i`,
    ulimit -v, a seccomp filter that kills the process on any call not in `calls`."""
    cmd = [JAIL_PYTHON, os.path.abspath(__file__), "--launch", root, str(JAIL_KIB),
           ",".join(calls), "--", "/nimbot"] + args
    if os.geteuid() != 0:
        cmd = ["unshare", "--user", "--map-root-user"] + cmd  # chroot needs the capability
    return run(cmd, stdin, secs)


def killed_by_filter(result):
    return result[0] == -signal.SIGSYS and result[1] == ""


def test_jail():
    """The documented allowlist, per command, is all the binary needs for whole games,
    in an empty root with only a hosts file, no environment and little address space;
    and the filter really is on: drop one call from a list and the binary is killed."""
    t0 = time.time()
    calls = allowlist()
    check(set(calls) >= {"serial", "query", "connect", "exp-nim"}, f"allowlist in {DOC}: {calls}")
    print("allowlist (docs/tiny.md): " + "; ".join(f"{c}: {' '.join(v)}" for c, v in calls.items()))
    with tempfile.TemporaryDirectory(prefix="nimbot-jail-") as root:
        shutil.copy(TINY, os.path.join(root, "nimbot"))
        os.mkdir(os.path.join(root, "etc"))
        with open(os.path.join(root, "etc", "hosts"), "w") as f:
            f.write("# test hosts file: an IPv6 entry (skipped), a line too long to read, the server\n"
                    "::1 referee.lan\n" + "10.9.9.9 " + "x" * 300 + " referee.lan\n"
                    "127.0.0.1\tReferee.LAN  referee # the tournament server\n10.0.0.9 other")
        check(sorted(os.listdir(root)) == ["etc", "nimbot"], "the jail holds only the binary and etc/hosts")
        # The line protocol: a session of whole games, the same bytes as the full binary.
        full = Full()
        session(full, 12)
        full.p.stdin.close()
        full.p.wait(timeout=10)
        script = "".join(l + "\n" for l in full.lines).encode()
        script += b"new 1500 5 3 first\ngo\nstate\nopp 1 0\nstate\n"
        code_f, out_f, err_f = run([FULL] + TRAP, script)
        expected = (code_f, as_tiny(out_f), err_f)
        got = jail(root, calls["serial"], [], script)
        check(got == expected, f"jailed serial: {got[0]} {got[2]!r} {got[1][-300:]!r}")
        # query, in and beyond the table.
        positions = [random_position() for _ in range(5)]
        positions += [beyond_position() for _ in range(3)]
        for c in positions:
            got, want = jail(root, calls["query"], ["query"] + c), run([FULL, "query"] + c + TRAP)
            check(got[0] == want[0] and same_but_distance(got[1], want[1]),
                  f"jailed query {c}: {got} {want}")
        # connect: whole games through the referee, the server named in the hosts file.
        games = 0
        for n, r, tiny_first, host in [(100, 4, True, "referee.lan"), (257, 2, False, "referee"),
                                       (57, 0, True, "127.0.0.1"), (1500, 5, False, "referee.lan")]:
            ref, addr = referee(n, r)
            port = addr.rsplit(":", 1)[1]
            tseat, oseat = ("--first", "--second") if tiny_first else ("--second", "--first")
            other = spawn([FULL, "connect", addr, oseat, "--name", "other", "--timeout", "30"])
            code, _, err = jail(root, calls["connect"], ["connect", f"{host}:{port}", tseat,
                                                         "--timeout", "30"])
            oc = finish(other, 20)[0]
            rc = finish(ref, 20)[0]
            tiny_wins = first_wins(n, r) == tiny_first
            check(rc == 0 and judged(ref, n, r) == (0 if tiny_wins == tiny_first else 1),
                  f"jailed connect {host} N={n} R={r}: the judge's winner")
            check(rc == 0 and code == (0 if tiny_wins else 1) and oc == (1 if tiny_wins else 0)
                  and summary_ok(err, "connect", tiny_wins, tseat[2:]),
                  f"jailed connect {host} N={n} R={r}: {code} {oc} {rc} {err!r}")
            games += 1
        # --retry reads the clock and sleeps, only while the server is not up.
        code, _, err = jail(root, calls["connect"], ["connect", "referee.lan:9", "--first",
                                                     "--retry", "0.3"])
        check(code == 3 and len(err.splitlines()) == 2 and "retrying" in err,
              f"jailed --retry: {code} {err!r}")
        code, _, err = jail(root, calls["connect"], ["connect", "nowhere.lan:9", "--first"])
        check(code == 3 and len(err.splitlines()) == 1 and "nowhere.lan" in err,
              f"jailed unknown host: {code} {err!r}")
        # More than the memory allows (the windowed solver fits 30,000 stones in far
        # less than the jail's address space): one line, exit status 4.
        code, _, err = jail(root, calls["query"], ["query", "2000000", "3", "4", "4", "0"])
        check(code == 4 and len(err.splitlines()) == 1 and "memory" in err,
              f"jailed query beyond ulimit -v: {code} {err!r}")
        # The filter is on: one call fewer and the binary dies of SIGSYS.
        for cmd, args, drop in (("query", ["query", "8", "3", "0", "0", "0"], "write"),
                                ("serial", [], "read"),
                                ("connect", ["connect", "referee.lan:9", "--first"], "socket"),
                                ("connect", ["connect", "referee.lan:9", "--first"], "openat")):
            got = jail(root, [c for c in calls[cmd] if c != drop], args, b"new 5 0 3 first\n")
            check(killed_by_filter(got), f"{cmd} without {drop} must be killed: {got}")
    print(f"syscall allowlist: serial session, {len(positions)} queries, {games} connect games "
          f"in an empty root under seccomp, env -i, ulimit -v {JAIL_KIB // 1024} MiB; "
          f"a call off the list kills ({time.time() - t0:.1f} s)")


def main():
    global REPLIES
    t0 = time.time()
    REPLIES = Replies(FULL, error=fail)
    try:
        if "--jail" in FLAGS:
            test_jail()
        elif "--beyond-only" not in FLAGS:
            test_query()
            test_line_protocol()
            test_connect()
            test_exp_nim()
        if "--jail" not in FLAGS:
            test_beyond()
    finally:
        for k in KIDS:
            if k.poll() is None:
                k.kill()
        REPLIES.close()
        shutil.rmtree(GAME_LOGS, ignore_errors=True)
    print(f"tiny_test: OK, {checks} checks in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
