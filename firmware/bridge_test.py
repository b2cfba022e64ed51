#!/usr/bin/env python3
"""Tournament games through the host bridge, the firmware in an emulator.

The board (QEMU, or any emulator with the board's UART on its stdio, as
qemu_test.py runs it) is offered to the bridge as a serial port by a relay written
here: a pty (the bridge opens it as a tty, raw, 115200 baud) or a TCP socket, as
ser2net or QEMU's socket chardev would. `nimbot serve` referees; `nimbot connect
--board DEVICE` plays one seat, and an opponent the other: `nimbot connect --policy
trap` (perfect in won positions, leaving the fewest winning replies in lost ones), the
same with `--policy first` (one stone in lost positions), or a client written here
that plays random legal moves. One game per board goes
through `nimbot exp-nim --board` and an exp-nim-like text client instead.

Every game is judged from the referee's game log, replayed by this file's rules
(tools/rules_judge.py, written from docs/rules.md): the host binary's `query` (the solver's table) gives the value of
every position the board's seat faced, and the board's seat must win exactly when
one of them was won (perfect play never lets a won position go; a lost one can only
be won back by an opponent's mistake, which makes a won one). The bridge's exit
status and summary line must agree with the log.

Then the faults, each in a game of its own, injected by the relay on cue (after the
bridge's k-th command line): the emulator killed and restarted (a reset: silence,
then the banner), the same after an outage longer than the bridge's tries (the host
plays meanwhile, the board comes back), noise on the line (bytes flipped, inserted
or dropped both ways for the whole game), the TCP link dropped, a board that stops
answering for good (SIGSTOP: the host plays the rest), the same with
`--board-fallback forfeit` (the bridge gives the game up: exit 3, the referee's
"exceeded time limit"), and a game the board's table does not cover (exit 2 before
any seat is taken). Each must end as docs/firmware.md says.

Prints one line per game and a closing `N passed, N failed`.
"""

import argparse
import json
import os
import random
import re
import select
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu_test import BANNER, M, Failure, Game, Illegal, LineProcess, Oracle, read_replies_with  # noqa: E402
from rules_judge import move_record, replay_game_log  # noqa: E402 (tools/, on the path qemu_test puts it)

PEER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli", "tests", "peers", "exp_nim_like.py")
# An emulated board answers QEMU's in milliseconds; a reply later than --board-timeout
# (0.5 s by default) is a fault (a loaded machine may cause some, which the bridge
# then survives like any other).


class Relay:
    """The board's UART (an emulator on stdio) as a pty or a TCP server, with faults.

    One thread moves bytes between the emulator and the bridge; output while no
    bridge is connected is dropped, as a UART with nobody listening drops it.
    `arm(k, action)` runs `action` right after the bridge's k-th command line (from
    1, blank lines not counted) has reached the board; `noise` is the chance per
    byte of harm, both ways.

    A board hears nothing before its banner: bytes from the bridge while the
    emulator boots are dropped, as the chip's receiver, not yet started, drops
    them. (QEMU would hold them instead, and its nRF51 UART model hands them over
    only at its main loop's next wake-up, about a second later: it does not ask the
    character device for input again when the firmware starts the receiver. On a
    loaded machine that second pushed the micro:bit's answers to the bridge's
    first `version` past the meeting's tries.)
    """

    def __init__(self, argv, kind, rng):
        self.argv = argv
        self.kind = kind
        self.rng = rng
        self.noise = 0.0
        self.trigger = None
        # Command lines from the bridge (blank lines not counted), and whether one
        # has begun.
        self.commands = 0
        self.partial = False
        self.lock = threading.Lock()
        self.client = None
        self.stopped = False
        self.proc = None
        self.listener = None
        self.start_board()
        if kind == "tcp":
            self.listener = socket.socket()
            self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.listener.bind(("127.0.0.1", 0))
            self.listener.listen(4)
            self.device = "127.0.0.1:%d" % self.listener.getsockname()[1]
        else:
            self.master, slave = os.openpty()
            # Raw from the start: no echo of the board's output back to it.
            tty.setraw(slave)
            self.device = os.ttyname(slave)
            # The relay keeps the slave open, so the bridge's opening and closing
            # it never hangs the line up.
            self.slave = slave
            self.client = self.master
        self.running = True
        self.thread = threading.Thread(target=self.pump, daemon=True)
        self.thread.start()
        self.wait_booted()

    def start_board(self):
        self.kill_board()
        self.proc = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0
        )
        self.stopped = False
        self.booted = threading.Event()
        self.boot_tail = b""

    def wait_booted(self, timeout=60):
        """Wait for the board's banner (a game starts with a board that is up)."""
        if not self.booted.wait(timeout):
            raise Failure(f"the board printed no banner within {timeout} s of its start")

    def kill_board(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            if self.stopped:
                self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
        self.proc.wait(timeout=10)

    # The faults.
    def restart(self, after=0.0):
        """Kill the emulator; start it again `after` seconds later (a reset)."""
        self.kill_board()
        if after:
            threading.Timer(after, self.start_board_locked).start()
        else:
            self.start_board()

    def start_board_locked(self):
        with self.lock:
            self.start_board()

    def stop(self, resume_after=None):
        """Freeze the emulator (SIGSTOP): the board stops answering."""
        self.proc.send_signal(signal.SIGSTOP)
        self.stopped = True
        if resume_after is not None:
            threading.Timer(resume_after, self.resume).start()

    def resume(self):
        with self.lock:
            if self.stopped and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGCONT)
                self.stopped = False

    def drop_link(self):
        """Close the bridge's TCP connection (a lost device)."""
        if self.kind == "tcp" and self.client is not None:
            self.client.close()
            self.client = None

    def arm(self, at, action):
        with self.lock:
            self.commands = 0
            self.partial = False
            self.trigger = (at, action)

    def fresh(self):
        """No more faults, and a board just started (for the next game)."""
        with self.lock:
            self.trigger = None
            self.noise = 0.0
            self.start_board()
        self.wait_booted()

    def set_noise(self, p):
        self.noise = p

    def harm(self, data):
        if not self.noise:
            return data
        out = bytearray()
        for b in data:
            x = self.rng.random()
            if x < self.noise:
                out.append(b ^ (1 << self.rng.randrange(8)))
            elif x < 1.5 * self.noise:
                out.append(b)
                out.append(self.rng.randrange(256))
            elif x < 1.75 * self.noise:
                continue
            else:
                out.append(b)
        return bytes(out)

    def pump(self):
        while self.running:
            with self.lock:
                board_out = self.proc.stdout
                # A killed board's pipe is at its end until the board restarts.
                fds = [board_out] if self.proc.returncode is None else []
                if self.client is not None:
                    fds.append(self.client)
                elif self.kind == "tcp":
                    fds.append(self.listener)
            try:
                ready, _, _ = select.select(fds, [], [], 0.05)
            except (OSError, ValueError):
                continue
            with self.lock:
                for fd in ready:
                    self.move(fd, board_out)

    def move(self, fd, board_out):
        if fd is self.listener:
            self.client, _ = self.listener.accept()
            self.client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return
        if fd is board_out:
            if board_out is not self.proc.stdout:
                return
            data = os.read(board_out.fileno(), 4096)
            if not data:
                self.proc.poll()
                return
            if not self.booted.is_set():
                self.boot_tail = (self.boot_tail + data)[-64:]
                if BANNER.encode() in self.boot_tail:
                    self.booted.set()
            if self.client is not None:
                self.send_to_bridge(self.harm(data))
            return
        # From the bridge. An earlier fd of the same select may have closed the
        # client (a failed send): its stale socket is then no longer ours to read.
        if self.kind == "tcp" and fd is not self.client:
            return
        try:
            data = self.client.recv(4096) if self.kind == "tcp" else os.read(self.master, 4096)
        except OSError:
            data = b""
        if not data:
            if self.kind == "tcp":
                self.client.close()
                self.client = None
            return
        if not self.booted.is_set():
            return
        try:
            self.proc.stdin.write(self.harm(data))
        except (BrokenPipeError, ValueError):
            pass
        for b in data:
            if b == 0x0A:
                self.commands += self.partial
                self.partial = False
            elif b != 0x0D:
                self.partial = True
        if self.trigger and self.commands >= self.trigger[0]:
            action = self.trigger[1]
            self.trigger = None
            time.sleep(0.02)  # let the command reach the board first
            action()

    def send_to_bridge(self, data):
        try:
            if self.kind == "tcp":
                self.client.sendall(data)
            else:
                os.write(self.master, data)
        except OSError:
            if self.kind == "tcp":
                self.client.close()
                self.client = None

    def close(self):
        self.running = False
        self.thread.join(timeout=5)
        self.kill_board()
        if self.kind == "tcp":
            self.listener.close()
            if self.client is not None:
                self.client.close()
        else:
            os.close(self.master)
            os.close(self.slave)


class Referee:
    """`nimbot serve` on a free loopback port, writing the platform's game log."""

    def __init__(self, nimbot, n, r, tmp, clock=120):
        self.game_log = os.path.join(tmp, "game-log.txt")
        self.log = os.path.join(tmp, "serve.log")
        for f in (self.game_log, self.log):
            if os.path.exists(f):
                os.remove(f)
        self.proc = subprocess.Popen(
            [nimbot, "serve", str(n), str(r), "-p", "0", "-a", "127.0.0.1", "-t", str(clock),
             "--join-timeout", "60", "--log", self.log, "--game-log", self.game_log],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        line = self.proc.stdout.readline()
        if not line.startswith("listening on "):
            raise Failure(f"nimbot serve: {line!r}")
        self.addr = line.split()[-1]

    def wait(self, timeout):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure("the referee did not finish") from None

    def moves(self):
        """The game log's moves (take, reset) in order, the reason line, and the log."""
        with open(self.game_log) as f:
            text = f.read()
        lines = text.splitlines()
        moves, reason = [], None
        for i, line in enumerate(lines):
            record = move_record(line)
            if record:
                moves.append(record[1:])
            elif line == "Game over":
                reason = lines[i + 1] if i + 1 < len(lines) else ""
        return moves, reason, text


def random_client(addr, order, seed, result):
    """A TCP client that plays random legal moves (written from docs/tournament.md)."""
    rng = random.Random(seed)
    host, port = addr.rsplit(":", 1)
    try:
        sock = socket.create_connection((host, int(port)), timeout=60)
        sock.sendall(json.dumps({"name": "random", "order": order}).encode())
        dec, buf, game = json.JSONDecoder(), "", None
        while True:
            data = sock.recv(4096)
            if not data:
                result["closed"] = True
                return
            buf += data.decode()
            while True:
                buf = buf.lstrip()
                if not buf:
                    break
                try:
                    msg, end = dec.raw_decode(buf)
                except json.JSONDecodeError:
                    break
                buf = buf[end:]
                if game is None:
                    game = Game(msg["init_stones"], msg["init_resets"], M)
                elif msg.get("finished"):
                    result["finished"] = msg
                    return
                else:
                    game.play(msg["stones_removed"], msg["reset_used"])
                if game.to_move == order and game.winner is None:
                    take = rng.randint(1, game.limit())
                    reset = game.resets[order] > 0 and rng.random() < 0.25 and take < game.s
                    sock.sendall(json.dumps({"order": order, "num_stones": take, "reset": reset}).encode())
    except (OSError, ValueError, KeyError) as e:
        result["error"] = repr(e)


class Bench:
    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix="nimbot-bridge-")
        read_replies_with(args.nimbot)
        self.oracle = Oracle(LineProcess([args.nimbot, "--policy", "trap"], "oracle", 30))
        self.passed = 0
        self.failed = 0
        self.games = 0
        self.seed = args.seed
        self.board_log = None

    def board_argv(self):
        return shlex.split(self.args.emulator) + [self.args.image_flag, self.args.elf]

    def game(self, relay, n, r, board_seat, opponent, label, bridge_args=(), expect=None, via="connect"):
        """One refereed game; returns the bridge's summary line."""
        self.games += 1
        seat_flag = "--first" if board_seat == 0 else "--second"
        ref = Referee(self.args.nimbot, n, r, self.tmp)
        self.board_log = os.path.join(self.tmp, "board.log")
        board_cmd = ["--board", relay.device, "--board-timeout", str(self.args.board_timeout),
                     "--board-log", self.board_log, *bridge_args]
        if self.args.board_policy:
            board_cmd += ["--policy", self.args.board_policy]
        err_path = os.path.join(self.tmp, "bridge.err")
        with open(err_path, "w") as err:
            if via == "connect":
                bridge = subprocess.Popen(
                    [self.args.nimbot, "connect", ref.addr, seat_flag, "--name", "board", *board_cmd],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                )
            else:
                fifo = os.path.join(self.tmp, "cmd-pipe")
                if not os.path.exists(fifo):
                    os.mkfifo(fifo)
                stones = ["--stones", str(n)] if board_seat == 0 else []
                cmd = (
                    f"{shlex.quote(self.args.nimbot)} exp-nim {seat_flag} {' '.join(stones)} --resets {r} "
                    f"{' '.join(shlex.quote(a) for a in board_cmd)} < {fifo} | python3 {shlex.quote(PEER)} "
                    f"{'-f' if board_seat == 0 else ''} -n board {ref.addr} > {fifo}"
                )
                bridge = subprocess.Popen(["sh", "-c", cmd], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
            opp_seat = 1 - board_seat
            opp_result = {}
            if opponent == "random":
                opp = threading.Thread(target=random_client, args=(ref.addr, opp_seat, self.seed + self.games, opp_result))
                opp.start()
            else:
                extra = ["--policy", opponent]
                opp = subprocess.Popen(
                    [self.args.nimbot, "connect", ref.addr, "--first" if opp_seat == 0 else "--second",
                     "--name", "opponent", *extra],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )
            try:
                code = bridge.wait(timeout=self.args.game_timeout)
            except subprocess.TimeoutExpired:
                bridge.kill()
                code = None
            if code == 2:
                # The bridge refused before joining: no game will come.
                ref.proc.kill()
            if opponent == "random":
                opp.join(timeout=30)
            else:
                try:
                    opp.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    opp.kill()
            ref.wait(30)
        with open(err_path) as f:
            stderr = f.read().strip()
        if via == "exp-nim":
            # The bridge's line; the shell's status is the text client's.
            code = 0 if " won as " in stderr else 1 if " lost as " in stderr else 3
        moves, reason, log = ref.moves()
        return self.judge(n, r, board_seat, code, stderr, moves, reason, log, label, expect, via)

    def judge(self, n, r, board_seat, code, stderr, moves, reason, log, label, expect, via):
        lines = stderr.splitlines()
        if len(lines) != 1:
            raise Failure(f"{label}: the bridge printed {len(lines)} lines, not one: {stderr!r}")
        summary = lines[0]
        if expect == "forfeit":
            if code != 3 or "gave the game up" not in summary:
                raise Failure(f"{label}: expected a forfeit (exit 3), got {code}: {summary}")
            if reason is None or not reason.endswith("exceeded time limit") or "board" not in reason:
                raise Failure(f"{label}: the referee's reason {reason!r}")
            return summary
        if reason is None or not reason.endswith("won the game! Congrats!"):
            raise Failure(f"{label}: the game did not end by a win: {reason!r}\n{summary}")
        game = Game(n, r, M)
        board_faced_won = False
        for take, reset in moves:
            if game.to_move == board_seat:
                won, _, _ = self.oracle.query(game.normalized())
                board_faced_won |= won
            game.play(take, reset)
        if game.winner is None:
            raise Failure(f"{label}: the game log ends before the pile is empty")
        # The whole log by the rules: each record's limit and pile, the winner named.
        if replay_game_log(log, n, r, M)[0] != game.winner:
            raise Failure(f"{label}: the game log names another winner")
        board_won = game.winner == board_seat
        if board_won != board_faced_won:
            raise Failure(
                f"{label}: the board's seat {'won' if board_won else 'lost'} although it "
                f"{'faced' if board_faced_won else 'never faced'} a won position\n{summary}"
            )
        word = "won" if board_won else "lost"
        seat = "first" if board_seat == 0 else "second"
        if code != (0 if board_won else 1) or not summary.startswith(f"nimbot {via}: {word} as {seat} after {len(moves)} moves"):
            raise Failure(f"{label}: exit {code} and summary {summary!r} disagree with the log ({word}, {len(moves)} moves)")
        ours = sum(1 for i in range(len(moves)) if i % 2 == board_seat)
        m = re.search(r"the board played (all (\d+)|(\d+) of (\d+)) moves(, the host (\d+))?", summary)
        if not m and not (ours == 0 and summary.endswith("; the board had no move to play")):
            raise Failure(f"{label}: no board part in {summary!r}")
        total = int(m.group(2) or m.group(4)) if m else 0
        if total != ours:
            raise Failure(f"{label}: the summary counts {total} moves of the board's seat, the log {ours}")
        if expect and not re.search(expect, summary):
            raise Failure(f"{label}: the summary does not show /{expect}/: {summary}")
        return summary

    def check(self, label, fn):
        started = time.monotonic()
        self.board_log = None
        try:
            summary = fn()
            self.passed += 1
            print(f"ok   {label} [{time.monotonic() - started:.1f} s]: {summary}")
        except (Failure, Illegal) as e:
            self.failed += 1
            print(f"FAIL {label} [{time.monotonic() - started:.1f} s]: {e}")
            # The end of the bridge's conversation with the board, for the reader.
            if self.board_log and os.path.exists(self.board_log):
                with open(self.board_log) as f:
                    print("  the board's log, last lines:\n    " + "    ".join(f.readlines()[-25:]))
        sys.stdout.flush()

    def run(self):
        rng = random.Random(self.seed)
        opponents = ["trap", "random", "first"]
        fixed = [n for n in [999, 998, 1, 2, 13, 100, 500, 257, 31, 64] if n <= self.args.max_stones]
        starts = fixed + [rng.randint(3, self.args.max_stones) for _ in range(self.args.games - len(fixed))]
        resets = [4, 0, 1, 4, 2]
        relays = {kind: Relay(self.board_argv(), kind, rng) for kind in ("pty", "tcp")}
        try:
            for i, n in enumerate(starts[: self.args.games]):
                kind = "pty" if i % 2 == 0 else "tcp"
                seat, opp, r = (i // 2) % 2, opponents[i % 3], resets[i % 5]
                label = f"game {i + 1}: N={n} R={r} board {'first' if seat == 0 else 'second'} vs {opp} ({kind})"
                self.check(label, lambda: self.game(relays[kind], n, r, seat, opp, label))
            n = min(300, self.args.max_stones)
            label = f"exp-nim: N={n} R=4 board second vs trap (pty)"
            self.check(label, lambda: self.game(relays["pty"], n, 4, 1, "trap", label, via="exp-nim"))
            self.faults(relays["tcp"], rng)
        finally:
            for relay in relays.values():
                relay.close()
            self.oracle.proc.kill()

    def fault(self, relay, label, at, action, n, r, seat, opponent, expect, bridge_args=()):
        def go():
            relay.arm(at, action)
            try:
                return self.game(relay, n, r, seat, opponent, label, bridge_args, expect)
            finally:
                # A board stopped for good, or reset: a fresh one for the next game.
                relay.fresh()
        self.check(label, go)

    def faults(self, relay, rng):
        # Commands 1 and 2 are the meeting's `version` and `limits`; the game's start
        # at 3 (`policy`, `new`, then `go` or `opp`).
        mid = 20
        t = self.args.board_timeout
        n = min(300, self.args.max_stones)
        self.fault(relay, "fault: emulator killed and restarted mid-game (a reset)", mid,
                   relay.restart, n, 4, 0, "trap", r"board reset")
        # The outage outlasts the bridge's three tries; the outage and the boot after
        # it stay well inside the budget for faults (a slow emulator boots in seconds).
        self.fault(relay, f"fault: emulator killed, restarted after an outage of {5 * t:g} s", mid,
                   lambda: relay.restart(after=5 * t), n, 4, 1, "random",
                   r"the host \d+ \(after: .*\).*by query",
                   bridge_args=["--board-budget", f"{max(30, 12 * t):g}"])
        self.fault(relay, "fault: noise on the line both ways (1 byte in 300 harmed)", 3,
                   lambda: relay.set_noise(1 / 300), min(500, self.args.max_stones), 4, 0, "random",
                   r"faults: ")
        self.fault(relay, "fault: the TCP link dropped", mid, relay.drop_link, n, 4, 1,
                   "trap", r"device lost")
        self.fault(relay, "fault: the board stops answering for good", mid, relay.stop, n, 4, 0,
                   "first", r"the host \d+ \(after: no reply\).*budget for faults ran out",
                   bridge_args=["--board-budget", f"{4 * t:g}"])
        self.fault(relay, "fault: the board stops answering, --board-fallback forfeit", mid,
                   relay.stop, n, 4, 1, "trap", "forfeit",
                   bridge_args=["--board-fallback", "forfeit"])
        self.check("a game beyond the board's table: exit 2 before a seat is taken", lambda: self.refused(relay))

    def refused(self, relay):
        # Nobody listens on the address: exit 2 must come before any connection.
        proc = subprocess.run(
            [self.args.nimbot, "connect", "127.0.0.1:9", "--first", "--init-max", "4", "--board", relay.device,
             "--board-timeout", str(self.args.board_timeout)],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
        )
        lines = proc.stderr.strip().splitlines()
        if proc.returncode != 2 or len(lines) != 1 or "cannot play this game" not in lines[0]:
            raise Failure(f"exit {proc.returncode}: {proc.stderr!r}")
        return lines[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--emulator", required=True, help="the emulator's command line, UART on stdio, without -kernel ELF")
    ap.add_argument("--nimbot", required=True, help="the host binary")
    ap.add_argument("--image-flag", default="-kernel", help="the emulator's option that loads the image")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--max-stones", type=int, default=999, help="the largest N of the games")
    ap.add_argument("--board-timeout", type=float, default=0.5, help="the bridge's --board-timeout")
    ap.add_argument("--board-policy", choices=("first", "trap"),
                    help="the board's policy in lost positions (the bridge's --policy; by default the "
                         "bridge's own default, which the firmware plays as `trap`): `first` costs one "
                         "table probe a move, for an emulator too slow for `trap`'s scan of every move")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--game-timeout", type=float, default=120)
    args = ap.parse_args()
    bench = Bench(args)
    started = time.monotonic()
    bench.run()
    print(f"bridge: {bench.games} games in {time.monotonic() - started:.0f} s")
    print(f"{bench.passed} passed, {bench.failed} failed")
    sys.exit(1 if bench.failed else 0)


if __name__ == "__main__":
    main()
