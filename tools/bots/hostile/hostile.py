#!/usr/bin/env python3
"""A hostile bot, for the sandbox's tests (docs/tournament.md, "Running untrusted
bots"): it first tries ATTACK, says on stderr what came of it ("ATTACK
blocked: ...", "ATTACK WORKED: ..." or, for what only the runner can judge,
"ATTACK done: ..."), then plays "take 1" until the game ends. Its first line on stderr is its uid.

usage: hostile.py ATTACK HOST PORT ORDER NAME [ARG]
ATTACK:
  none      no attack (the victim)
  read      reads the file ARG (another bot's folder)
  records   appends a forged line to the results file ARG
  home      writes a file into the folder ARG (the organizer's home)
  loopback  connects to ARG, a port listening on the host's loopback
  kill      kills every process whose command line holds ARG (through /proc)
  forkbomb  forks without end
  memhog    allocates memory without end (1 GB at most)
  disk      writes its scratch (/tmp) full (256 MB at most)
  cpuhog    keeps 8 processes spinning, in its opponent's turns too
  probe     no attack: a clock probe, fixed work (ARG loop turns, 3,000,000
            unless given) before each of its moves (tools/sandbox_bench.sh)
  orphans   leaves a child behind (a new session, sleeping 600 s, ARG in its
            command line), then plays
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time

attack, host, port, order, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
arg = sys.argv[6] if len(sys.argv) > 6 else ""


def say(worked, what):
    word = {True: "WORKED", False: "blocked", None: "done"}[worked]
    print(f"{attack} {word}: {what}", file=sys.stderr, flush=True)


def try_read():
    try:
        with open(arg) as f:
            say(True, f"read {arg}: {f.read(40)!r}")
    except OSError as e:
        say(False, f"{arg}: {e}")


def try_records():
    try:
        with open(arg, "a") as f:
            f.write('{"game": 999, "forged": true}\n')
        say(True, f"appended to {arg}")
    except OSError as e:
        say(False, f"{arg}: {e}")


def try_home():
    path = os.path.join(arg, "pwned.txt")
    try:
        with open(path, "w") as f:
            f.write("pwned\n")
        say(True, f"wrote {path}")
    except OSError as e:
        say(False, f"{path}: {e}")


def try_loopback():
    try:
        s = socket.create_connection(("127.0.0.1", int(arg)), timeout=2)
        s.sendall(b"hello from a bot\n")
        s.close()
        say(True, f"connected to 127.0.0.1:{arg}")
    except OSError as e:
        say(False, f"127.0.0.1:{arg}: {e}")


def try_kill():
    killed = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if arg in cmd and "hostile.py kill" not in cmd:
            try:
                os.kill(int(pid), signal.SIGKILL)
                killed.append(pid)
            except OSError:
                pass
    say(bool(killed), f"killed {killed}" if killed else f"no process holding {arg!r} to kill")


def forkbomb():
    kids = 0
    while True:
        try:
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
            kids += 1
        except OSError as e:
            say(False, f"fork refused after {kids} children: {e}")
            time.sleep(0.05)


def memhog():
    hog = []
    for _ in range(128):
        hog.append(bytearray(8 << 20))
    say(True, f"holds {len(hog) * 8} MB")


def disk():
    written = 0
    try:
        with open("/tmp/fill", "wb") as f:
            while written < 256 << 20:
                f.write(b"x" * (1 << 20))
                f.flush()
                written += 1 << 20
        say(True, f"wrote {written >> 20} MB")
    except OSError as e:
        say(False, f"stopped after {written >> 20} MB: {e}")
    finally:
        # Unconfined (the tests' "before"), leave nothing on the host's disk.
        if os.environ.get("NIMBOT_ZOO_CLEAN"):
            try:
                os.remove("/tmp/fill")
            except OSError:
                pass


def cpuhog():
    for _ in range(8):
        if os.fork() == 0:
            while True:
                pass
    say(None, "8 spinners started")


def orphans():
    # A grandchild in a session of its own, outliving the bot.
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", arg], start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    say(None, "left a child sleeping 600 s")


attacks = {"none": lambda: None, "probe": lambda: None, "read": try_read, "records": try_records, "home": try_home,
           "loopback": try_loopback, "kill": try_kill, "forkbomb": forkbomb, "memhog": memhog,
           "disk": disk, "cpuhog": cpuhog, "orphans": orphans}
print(f"uid {os.getuid()}", file=sys.stderr, flush=True)
sock = socket.create_connection((host, port), timeout=60)
sock.sendall(json.dumps({"name": name, "order": order}).encode())
dec, buf = json.JSONDecoder(), ""


def recv():
    global buf
    while True:
        text = buf.lstrip()
        if text:
            try:
                obj, end = dec.raw_decode(text)
                buf = text[end:]
                return obj
            except json.JSONDecodeError:
                pass
        data = sock.recv(4096)
        if not data:
            sys.exit(0)
        buf += data.decode()


recv()  # the welcome
attacks[attack]()
turn = 0
while True:
    if turn == order:
        if attack == "probe":
            x = 0
            for i in range(int(arg or 3000000)):
                x += i
        sock.sendall(json.dumps({"order": order, "num_stones": 1, "reset": False}).encode())
    state = recv()
    if state["finished"]:
        sys.exit(0)
    turn = 1 - turn
