#!/usr/bin/env python3
"""Boot the nimbot firmware in QEMU and play it over its serial port.

The firmware (the board's UART, on QEMU's stdio; any board QEMU emulates, and the Pico
through firmware/pico_emulator.py, which takes the same `-kernel IMAGE` and serves the
same stdio) plays complete games against an opponent driven from here:
  * the judge written from the game's rules (tools/rules_judge.py, not nimbot's
    code) checks that every move the firmware makes is legal, and that it claims
    `won` exactly when it empties the pile and never spends a reset on its winning
    move;
  * the host `nimbot` binary's line protocol is the oracle: `query` gives the value
    of every position and the perfect opponent's moves; the judge's own search checks
    every value it gives of a pile of up to 30 stones;
  * whenever the firmware moves from a won position, the position it leaves must be
    lost for the opponent; with a perfect opponent it must win exactly the won starts.
Then the related games: Fibonacci Nim and Super-Nim games are played out between the
firmware and the host binary, each relaying the other's moves (the Fibonacci winner
must be the one theory names; both sides must agree on every Super-Nim verdict); a
board built for Expanding Nim only (--expanding-only: the Arduino Uno) must instead
refuse them and say protocol 1.
Then `moves` and `query` must list the host's moves and values, with `-` for every
distance (the firmware has no solver). Then malformed and overlong input must get
`error ...` lines while the game in progress survives (no hang, no reset), and the firmware's `stack` diagnostic gives
the stack high-water mark for the RAM budget.

Every reply is read by the protocol's grammar (`nimbot protocol parse`, through
tools/protocol_replies.py); only the firmware's own `stack` diagnostic is not a reply.
Every read has a timeout; QEMU and the oracle are killed however this exits.
Prints one closing line `N passed, N failed` (N = games + input checks).
"""

import argparse
import json
import os
import random
import select
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
from protocol_replies import Replies  # noqa: E402 (after the path it is found on)
from rules_judge import Game, Illegal, wins  # noqa: E402

# The protocol's banner and help texts, written once in Rust (nimbot_protocol::grammar)
# and kept in docs/protocol.json by its test (protocol/tests/grammar.rs).
with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "docs", "protocol.json")) as _f:
    PROTOCOL = json.load(_f)
BANNER = PROTOCOL["banner"]

M = 3  # the only initial max the embedded table covers


class Failure(Exception):
    pass


# The replies' reader (tools/protocol_replies.py), on the host binary: read_replies_with.
REPLIES = None


def read_replies_with(nimbot):
    """Read every reply from here on with `nimbot protocol parse` of this binary."""
    global REPLIES
    REPLIES = Replies(nimbot, error=Failure)
    return REPLIES


def reply_of(line, reply, **fields):
    """The reply `line` read by the grammar: a `reply` with `fields`, else Failure."""
    return REPLIES.expect(line, reply, **fields)


class Tally:
    """Checks passed and failed; a section of checks that fails counts once."""

    def __init__(self):
        self.passed = self.failed = 0

    def fail(self, label, e):
        self.failed += 1
        print(f"FAIL {label}: {e}", flush=True)

    def section(self, label, check, fw=None):
        """Run `check` (it returns how many checks passed); a Failure is reported under
        `label` and, when `fw` is given, the firmware's game is ended so that whatever
        was in flight does not leak into the next section."""
        try:
            self.passed += check()
        except (Failure, Illegal) as e:
            self.fail(label, e)
            if fw is not None:
                fw.ask("end")


class LineProcess:
    """A child process spoken to one line at a time, with a timeout per reply."""

    def __init__(self, argv, name, timeout):
        self.name = name
        self.timeout = timeout
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        self.buf = b""

    def send(self, data: bytes):
        try:
            self.proc.stdin.write(data)
        except BrokenPipeError:
            raise Failure(f"{self.name} closed its input") from None

    def readline(self, timeout=None) -> str:
        deadline = time.monotonic() + (timeout or self.timeout)
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure(f"{self.name}: no reply within {timeout or self.timeout} s")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    raise Failure(f"{self.name} exited (status {self.proc.poll()})")
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        try:
            return line.decode("ascii").rstrip("\r")
        except UnicodeDecodeError:
            raise Failure(f"{self.name}: non-ASCII reply {line!r}") from None

    def ask(self, line: str, timeout=None) -> str:
        self.send(line.encode("ascii") + b"\n")
        return self.readline(timeout)

    def expect_silence(self, seconds):
        """Nothing arrives for `seconds` (blank lines get no reply)."""
        fd = self.proc.stdout.fileno()
        if self.buf:
            raise Failure(f"{self.name}: unexpected output {self.buf!r}")
        ready, _, _ = select.select([fd], [], [], seconds)
        if ready:
            raise Failure(f"{self.name}: unexpected output {os.read(fd, 4096)!r}")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def oracle_process(path, policy, timeout):
    """The host binary in `stdio` mode, the oracle both scripts ask for values."""
    return LineProcess([path] + (["--policy", policy] if policy else []), "oracle", timeout)


def stop(*processes, replies=None):
    """End the processes that were started (None: not started) and the reply reader."""
    for p in processes:
        if p is not None:
            p.kill()
    if replies is not None:
        replies.close()


def await_banner(fw, timeout):
    """Boot handshake: bytes that reach a UART before the firmware has enabled it are
    dropped (some UARTs in QEMU drop them, as real ones do), so nothing is sent
    before the banner the firmware writes once it listens."""
    banner = fw.readline(timeout=max(timeout, 30))
    if banner != BANNER:
        raise Failure(f"boot: expected the banner {BANNER!r}, got {banner!r}")


class Oracle:
    """Perfect play from the host `nimbot` binary's `query`."""

    def __init__(self, proc):
        self.proc = proc

    def query(self, pos):
        """(won, take, reset) at `pos`; a value the judge's own search can check
        (a pile of up to 30 stones) must be the search's."""
        q = reply_of(self.proc.ask("query %d %d %d %d %d" % pos), "query")
        won = q["value"] == "win"
        if wins(pos, M) not in (None, won):
            raise Failure(f"oracle: {pos} is {q['value']}, the rules' own search says otherwise")
        return won, q["take"], q["reset"]


def parse_move(reply):
    """(take, reset, won) of the firmware's Expanding Nim move."""
    mv = reply_of(reply, "move", game="expanding")
    return mv["take"], mv["reset"], mv["won"]


def play(fw, oracle, n, r, bot, opponent, rng):
    """One game; the bot sits in seat `bot` (0 first, 1 second). Returns the winner."""
    seat = "first" if bot == 0 else "second"
    reply = fw.ask(f"new {n} {r} {M} {seat}")
    if reply != "ok":
        raise Failure(f"new {n} {r} {M} {seat}: {reply!r}")
    game = Game(n, r, M)
    moves = 0
    while game.winner is None:
        if game.to_move == bot:
            reply = fw.ask("go")
        else:
            pos = game.normalized()
            if opponent == "perfect":
                _, take, reset = oracle.query(pos)
            else:
                take = rng.randint(1, game.limit())
                reset = game.resets[game.to_move] > 0 and rng.random() < 0.3
            game.play(take, reset)
            moves += 1
            reply = fw.ask(f"opp {take} {int(reset)}")
            if game.winner is not None:
                if reply != "lost":
                    raise Failure(f"opponent emptied the pile; firmware said {reply!r}")
                break
        # The firmware's move, in `reply`.
        pos = game.normalized()
        was_won, _, _ = oracle.query(pos)
        take, reset, claims_win = parse_move(reply)
        game.play(take, reset)
        moves += 1
        if claims_win != (game.winner == bot):
            raise Failure(f"{reply!r}: the pile has {game.s} stones left")
        if claims_win and reset:
            raise Failure(f"{reply!r}: a reset spent on the winning move")
        if was_won and game.winner is None:
            opp_wins, _, _ = oracle.query(game.normalized())
            if opp_wins:
                raise Failure(f"at {pos} (won) the firmware played {take} {int(reset)}, which loses")
    state = fw.ask("state")
    expected = "won" if game.winner == bot else "lost"
    if reply_of(state, "state", game="expanding")["turn"] != expected:
        raise Failure(f"after the game: {state!r}, expected turn {expected}")
    return game.winner, moves


FIBONACCI = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597}


def relay(first, second, game, options=""):
    """Play `new GAME SEAT OPTIONS` out between two line-protocol sessions, `first`
    moving first, each `opp` the other's move. Returns (first's verdict, second's
    verdict)."""
    for side, seat in ((first, "first"), (second, "second")):
        reply = side.ask(f"new {game} {seat}{options}")
        if reply != "ok":
            raise Failure(f"{side.name} new {game} {seat}: {reply!r}")
    reply, mover, other = first.ask("go"), first, second
    for _ in range(1000):
        mv = reply_of(reply, "move", game=game.split()[0])
        if mv["game"] == "fibonacci":
            move, verdict = str(mv["take"]), "won" if mv["won"] else None
        else:
            move, verdict = mv["move"], mv["over"]
        answer = other.ask(f"opp {move}")
        if verdict:
            # The other side's word on it: `lost` (Fibonacci Nim) or `over R` (Super-Nim).
            end = reply_of(answer, ("lost", "over"))
            theirs = end.get("result", end["reply"])
            expected = {"won": "lost", "lost": "won", "draw": "draw"}.get(verdict)
            if theirs != expected:
                raise Failure(f"{mover.name} ended with {reply!r}, {other.name} said {answer!r}")
            return (verdict, theirs) if mover is first else (theirs, verdict)
        reply, mover, other = answer, other, mover
    raise Failure(f"{game}: no end after 1000 moves")


# What a host is told to play a board's Super-Nim: its heap limit and its player.
BOARD_SUPERNIM = " heaps 12 player search"
SUPERNIM_STARTS = ["2,4,2,5,7", "27,2,2,2,2,2,2,2,2,2,2,2", "3,3,3,3,3,3,5,5,5,5,5,5",
                   "1,3,5,7,9,11,2,4,6,8,10,12"]


def play_other_games(fw, host, rng, samples, supernim_starts):
    """Fibonacci Nim and Super-Nim games between the firmware and the host binary:
    fixed starts and `samples` random ones of each game, the firmware in both seats."""
    games = 0
    for n in [2, 3, 4, 5, 8, 20, 21, 100, 987, 999] + rng.sample(range(2, 1000), samples):
        for fw_first in (True, False):
            a, b = (fw, host) if fw_first else (host, fw)
            first_result, _ = relay(a, b, f"fibonacci {n}")
            if (first_result == "won") != (n not in FIBONACCI):
                raise Failure(f"fibonacci {n}: the first player {first_result}")
            games += 1
    starts = list(supernim_starts)
    starts += [",".join(str(rng.randint(1, 12)) for _ in range(rng.randint(1, 12))) for _ in range(samples)]
    # The host binary holds up to 1024 heaps and plays its own player:
    # `heaps 12 player search` gives it the boards' limit and player.
    for heaps in starts:
        relay(fw, host, f"supernim {heaps}", BOARD_SUPERNIM)
        relay(host, fw, f"supernim {heaps}", BOARD_SUPERNIM)
        games += 2
    return games


def all_moves(proc, pos):
    """`moves S C A B F` on `proc`, every page: ((value, distance), the moves as
    the grammar reads them: take, reset, wins, distance)."""
    items, head, start = [], None, 0
    for _ in range(100):
        reply = proc.ask("moves %d %d %d %d %d %d" % (pos + (start,)))
        if len(reply) > 120:
            raise Failure(f"{proc.name}: moves {pos}: a reply longer than the line: {reply!r}")
        page = reply_of(reply, "moves")
        head = head or (page["value"], page["distance"])
        items += page["moves"]
        if page["more"] is None:
            return head, items
        start = page["more"]
        if start != len(items):
            raise Failure(f"{proc.name}: moves {pos}: 'more {start}' after {len(items)} moves")
    raise Failure(f"{proc.name}: moves {pos}: no last page")


def check_root_probe(fw, host, rng, samples, with_moves=True):
    """The firmware's `moves` and `query` against the host binary's: the same moves
    and values, and `-` for every distance (the firmware has no solver). Without
    `moves` (the Arduino Uno, whose flash has no room for it): `query` alone, and
    `moves` refused."""
    # (200, 40, 4, 4, 0): 80 moves over several lines, in the table (3 + ... + 39 + 200 <= 999).
    positions = [(20, 3, 4, 4, 0), (200, 40, 4, 4, 0), (7, 6, 0, 1, 0), (5, 3, 1, 0, 1)]
    positions += [(rng.randint(4, 999), 3, rng.randint(0, 4), rng.randint(0, 4), rng.randint(0, 1))
                  for _ in range(samples)]
    for pos in positions:
        q = reply_of(fw.ask("query %d %d %d %d %d" % pos), "query")
        if not with_moves:
            h = reply_of(host.ask("query %d %d %d %d %d" % pos), "query")
            if q["value"] != h["value"] or q["distance"] is not None:
                raise Failure(f"query {pos}: firmware {q}, host {h}")
            continue
        (fv, fd), fitems = all_moves(fw, pos)
        (hv, hd), hitems = all_moves(host, pos)
        strip = lambda items: [(i["take"], i["reset"], i["wins"]) for i in items]
        if fv != hv or fd is not None or hd is None or strip(fitems) != strip(hitems) \
                or any(i["distance"] is not None for i in fitems):
            raise Failure(f"moves {pos}: firmware {fv} {fd} {fitems}, host {hv} {hd} {hitems}")
        if q["value"] != fv or q["distance"] is not None:
            raise Failure(f"query {pos} on the firmware: {q}")
    return len(positions)


def check_first_decisions(fw, host, starts):
    """The firmware's first Super-Nim move from each start must be the host binary's
    (the same search, node budget and move order): one deep search each, where
    complete games would cost too much (a slow emulator)."""
    for heaps in starts:
        for side in (fw, host):
            reply = side.ask(f"new supernim {heaps} first{BOARD_SUPERNIM}")
            if reply != "ok":
                raise Failure(f"{side.name} new supernim {heaps} first: {reply!r}")
        theirs, ours = host.ask("go"), fw.ask("go", timeout=max(fw.timeout, 300))
        if ours != theirs:
            raise Failure(f"supernim {heaps}: the firmware's first move {ours!r}, the host's {theirs!r}")
        for side in (fw, host):
            side.ask("end")
    return len(starts)


def check_expanding_only(fw):
    """A build without the related games refuses them, and says so in `version`."""
    checks = 0
    for line in ("new fibonacci 5 first", "new supernim 2,4 second"):
        reply = fw.ask(line)
        if reply != "error this build plays Expanding Nim only":
            raise Failure(f"{line}: expected the Expanding-Nim-only refusal, got {reply!r}")
        checks += 1
    reply = fw.ask("version")
    if reply_of(reply, "version")["protocol"] != 1:
        raise Failure(f"version: expected protocol 1, got {reply!r}")
    return checks + 1


def check_bad_input(fw):
    """Malformed and overlong lines get one error each; the game survives them."""
    checks = 0

    def expect(line: bytes, want: str):
        """Send `line`; its reply, read by the grammar, must be `want`: a reply's
        name (ok, move, state: an Expanding Nim game's), or `error TEXT` for an
        error whose text starts with TEXT."""
        nonlocal checks
        fw.send(line + b"\n")
        reply = fw.readline()
        kind, _, text = want.partition(" ")
        got = reply_of(reply, kind, **({"game": "expanding"} if kind in ("move", "state") else {}))
        if not got.get("text", "").startswith(text):
            raise Failure(f"{line[:60]!r}...: expected {want!r}, got {reply!r}")
        checks += 1
        return reply

    expect(b"end", "ok")
    expect(b"go", "error no game")
    expect(b"new 20 4 3 second", "ok")
    expect(b"opp 2 0", "move")
    before = expect(b"state", "state")
    bad = [
        (b"bogus", "error unknown command"),
        (b"opp", "error usage: opp"),
        (b"opp x 0", "error bad number"),
        (b"opp 1 2", "error flag must be 0 or 1"),
        (b"opp 1 0 7", "error too many arguments"),
        (b"opp 99 0", "error illegal move: take 99"),
        (b"opp 0 0", "error illegal move: take 0"),
        (b"go", "error out of turn"),
        (b"new 20 4", "error usage: new"),
        (b"new 1000 4 3 first", "error"),  # beyond the table
        (b"new 20 5 3 first", "error"),
        (b"new 20 4 2 first", "error"),
        (b"new 0 4 3 first", "error"),
        (b"query 5 3 1 1", "error usage: query"),
        (b"opp 99999999999999999999 0", "error bad number"),
        (b"x" * 81, "error line too long"),
        (b"opp 1 0 " + b" " * 200, "error line too long"),
        (bytes(range(1, 10)) * 600, "error line too long"),  # 5400 bytes
        (b"\x01x\x01c\x03\x04", "error unknown command"),  # Ctrl-A x, Ctrl-C, Ctrl-D
        (b"\xff\xfe\x80 opp 1 0", "error unknown command"),
        (b"\x00", "error unknown command"),
        (b"stack extra", "error unknown command"),
        (b"\r", None),
    ]
    for line, want in bad:
        if want is None:
            fw.send(line + b"\n")
            fw.expect_silence(0.3)
            checks += 1
        else:
            expect(line, want)
    fw.send(b"\n\n   \n")
    fw.expect_silence(0.3)
    if expect(b"state", "state") != before:
        raise Failure("the game changed after bad input (or the firmware reset)")
    expect(b"opp 1 0", "move")
    expect(b"end", "ok")
    return checks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--elf", required=True)
    ap.add_argument("--oracle", required=True, help="the host nimbot binary")
    ap.add_argument("--qemu", required=True, metavar="COMMAND",
                    help="QEMU's (or firmware/pico_emulator.py's) command line, one string, "
                         "without the image option and the ELF (which this adds last)")
    ap.add_argument("--image-flag", default="-kernel",
                    help="QEMU's option that loads the ELF (-bios on the AVR machines, where -kernel "
                         "loads the image but starts nothing)")
    ap.add_argument("--expanding-only", action="store_true",
                    help="the firmware plays Expanding Nim only: check that it refuses the related games")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--samples", type=int, default=16, help="random N per (R, seat) beyond the fixed ones")
    ap.add_argument("--fixed", default=None, metavar="N,N,...",
                    help="the fixed piles played against the perfect opponent (default: 22 from 1 to 999)")
    ap.add_argument("--stones", default="1-999", metavar="LO-HI",
                    help="the piles random samples come from (default 1-999, the default table's; "
                         "a bigger embedded table: e.g. 50001-99999)")
    ap.add_argument("--resets", default="0,1,4", metavar="R,R,...",
                    help="the resets per player every sample is played with (default 0,1,4)")
    ap.add_argument("--oracle-policy", default=None, metavar="POLICY",
                    help="the oracle's --policy, how the perfect opponent moves in lost positions "
                         "(default: the binary's own; `trap` where its default needs distances, which "
                         "the host makes only up to about 14,000 stones)")
    ap.add_argument("--games-only", action="store_true",
                    help="play the Expanding Nim games and measure the stack, nothing else "
                         "(the big-table image: its other checks are the default image's)")
    ap.add_argument("--random-samples", type=int, default=None,
                    help="random N per (R, seat) against the random opponent (default: half of --samples)")
    ap.add_argument("--supernim", action="append", default=None, metavar="HEAPS",
                    help="a fixed Super-Nim start, played out in both seats (repeat it; "
                    "default: four starts of 5 and 12 heaps)")
    ap.add_argument("--first-decision", action="append", default=[], metavar="HEAPS",
                    help="a Super-Nim start whose first move only is compared with the host binary's (repeat it)")
    ap.add_argument("--other-samples", type=int, default=6,
                    help="random Fibonacci Nim and Super-Nim starts beyond the fixed ones")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for any reply")
    ap.add_argument("--static-ram", type=int, default=0, help=".data + .bss + .uninit bytes")
    ap.add_argument("--ram-budget", type=int, default=8192)
    args = ap.parse_args()

    # The board's UART should be straight on stdio, with no monitor and no mux,
    # so that no byte of the input (not even Ctrl-A) is taken as a QEMU command.
    qemu = shlex.split(args.qemu) + [args.image_flag, args.elf]
    print("qemu: " + " ".join(qemu), flush=True)
    rng = random.Random(args.seed)
    tally = Tally()
    fw = oracle_proc = replies = None
    started = time.monotonic()
    try:
        replies = read_replies_with(args.oracle)
        fw = LineProcess(qemu, "firmware", args.timeout)
        oracle_proc = oracle_process(args.oracle, args.oracle_policy, args.timeout)
        oracle = Oracle(oracle_proc)
        await_banner(fw, args.timeout)
        # A line garbled on the way in gets an error reply: ask again a few times.
        for _ in range(3):
            reply = fw.ask("version")
            if (replies.parse(reply) or {}).get("reply") == "version":
                break
            time.sleep(0.2)
        reply_of(reply, "version")

        fixed = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 20, 31, 64, 100, 257, 500, 998, 999]
        if args.fixed is not None:
            fixed = [int(n) for n in args.fixed.split(",") if n]
        random_samples = args.samples // 2 if args.random_samples is None else args.random_samples
        lo, hi = (int(x) for x in args.stones.split("-"))
        games = []
        for r in (int(x) for x in args.resets.split(",")):
            for bot in (0, 1):
                ns = fixed + rng.sample(range(max(lo, 14), hi), args.samples)
                games += [(n, r, bot, "perfect") for n in ns]
                games += [(n, r, bot, "random") for n in rng.sample(range(lo, hi + 1), random_samples)]
        total_moves = 0

        def one_game(n, r, bot, opponent):
            nonlocal total_moves
            start_won = oracle.query((n, M, r, r, 0))[0]
            bot_should_win = start_won == (bot == 0)
            winner, moves = play(fw, oracle, n, r, bot, opponent, rng)
            total_moves += moves
            if opponent == "perfect" and (winner == bot) != bot_should_win:
                raise Failure(f"won={winner == bot}, theory says {bot_should_win}")
            if bot_should_win and winner != bot:
                raise Failure("lost a won start")
            return 1

        for n, r, bot, opponent in games:
            label = f"N={n} R={r} seat={'first' if bot == 0 else 'second'} vs {opponent}"
            tally.section(label, lambda: one_game(n, r, bot, opponent), fw)
        elapsed = time.monotonic() - started
        print(f"games: {len(games)} complete games ({total_moves} moves) in {elapsed:.1f} s", flush=True)

        # The related games, the root probe and bad input (a big-table image shares
        # them with the default one: --games-only leaves them to that run).
        if not args.games_only:
            def other_games():
                t0 = time.monotonic()
                if args.expanding_only:
                    n = check_expanding_only(fw)
                    print("other games: refused (Expanding Nim only, protocol 1)", flush=True)
                    return n
                supernim = SUPERNIM_STARTS if args.supernim is None else args.supernim
                n = play_other_games(fw, oracle_proc, rng, args.other_samples, supernim)
                print(f"other games: {n} Fibonacci Nim and Super-Nim games against the host binary "
                      f"in {time.monotonic() - t0:.1f} s", flush=True)
                return n

            def first_decisions():
                t0 = time.monotonic()
                n = check_first_decisions(fw, oracle_proc, args.first_decision)
                print(f"first decisions: {len(args.first_decision)} Super-Nim searches agree with the host binary "
                      f"in {time.monotonic() - t0:.1f} s", flush=True)
                return n

            def root_probe():
                n = check_root_probe(fw, oracle_proc, rng, args.other_samples,
                                     with_moves=not args.expanding_only)
                if args.expanding_only:
                    reply_of(fw.ask("moves 20 3 4 4 0"), "error")  # `moves` on a board without it
                print(f"root probe: `moves` and `query` of {n} positions equal to the host's, "
                      "distances `-`", flush=True)
                return n

            def bad_input():
                n = check_bad_input(fw)
                print("bad input: every malformed or overlong line got one error; the game survived", flush=True)
                return n

            tally.section("other games", other_games, fw)
            if args.first_decision:
                tally.section("first decisions", first_decisions, fw)
            tally.section("root probe", root_probe, fw)
            tally.section("bad input", bad_input)

        # The firmware's own diagnostic, not a reply of the protocol: `stack used N of M`.
        reply = fw.ask("stack")
        words = reply.split()
        if len(words) != 5 or words[:2] != ["stack", "used"]:
            raise Failure(f"stack: {reply!r}")
        stack = int(words[2])
        ram = args.static_ram + stack
        print(f"stack high-water mark: {stack} bytes; RAM: {args.static_ram} static + {stack} stack = {ram} bytes (budget {args.ram_budget})", flush=True)
        if ram > args.ram_budget:
            tally.fail("RAM", f"{ram} bytes is over the budget of {args.ram_budget}")
        else:
            tally.passed += 1
    except (Failure, Illegal) as e:
        tally.failed += 1
        print(f"FAIL {e}", flush=True)
    finally:
        stop(fw, oracle_proc, replies=replies)
    print(f"firmware: {tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
