#!/usr/bin/env python3
"""What a decision costs the firmware, counted in instructions in QEMU.

Boots the board's cost image (the firmware built with the `cost` feature) in QEMU
with `-icount shift=0`: virtual time advances exactly one nanosecond per executed
instruction, so a counter on the core clock that the firmware reads around each
engine decision counts instructions, in steps of its clock period. The image
answers `cost` with the ticks of the last command and of the decision in it.

The ticks-to-instructions ratio is measured, not assumed: `cost spin N` times a
loop of exactly 2 N instructions, for two values of N, and the ratio comes from the
difference (a third N must land where the two predict).

Then complete Expanding Nim games (M = 3, the table's range: piles up to 999, 0 to
4 resets, the bot in both seats) against five opponents: perfect (the host
`nimbot` binary's `query`), greedy (perfect, with the largest winning take, so that
the bot decides lost positions under growing caps), random, one that always takes
one stone (long games) and one that always takes all it may. After every firmware move,
`cost` gives that decision's ticks. Prints the median and the worst per decision,
the position of the worst, and the same at the real chip's clocks (one
instruction a cycle: a lower bound on time). `--json` prints one JSON object.

Every move is checked legal by the same referee as qemu_test.py (the correctness
of the moves is that test's business; here only their cost is).
"""

import argparse
import copy
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

from qemu_test import (BANNER, M, Failure, Game, Illegal, LineProcess, Oracle, await_banner, oracle_process,
                       parse_move, read_replies_with, stop)

ICOUNT = "-icount shift=0,align=off,sleep=off"
# Calibration loops: `cost spin N` runs 2 N instructions.
SPINS = (1_000, 1_000_000, 100_000)


def cost(fw):
    """(line ticks, decide ticks, decisions) of the previous command. (`cost` is
    the cost image's own diagnostic, not a command of the protocol: its replies are
    outside the grammar, and read here.)"""
    reply = fw.ask("cost")
    words = reply.split()
    if len(words) != 7 or words[0:2] != ["cost", "line"] or words[3::2] != ["decide", "decisions"] \
            or not all(w.isdigit() for w in words[2::2]):
        raise Failure(f"cost: unexpected reply {reply!r} (is this the cost image?)")
    return int(words[2]), int(words[4]), int(words[6])


def calibrate(fw):
    """Instructions per tick, from loops of known length."""
    ticks = {}
    for n in SPINS:
        reply = fw.ask(f"cost spin {n}")
        words = reply.split()
        if len(words) != 3 or words[:2] != ["cost", "spin"] or not words[2].isdigit():
            raise Failure(f"cost spin {n}: unexpected reply {reply!r}")
        ticks[n] = int(words[2])
    (n1, n2, n3) = SPINS
    if ticks[n2] <= ticks[n1]:
        raise Failure(f"calibration: the counter did not advance ({ticks})")
    ratio = 2 * (n2 - n1) / (ticks[n2] - ticks[n1])
    # The line through the first two points must predict the third within a tick.
    predicted = ticks[n1] + 2 * (n3 - n1) / ratio
    if abs(predicted - ticks[n3]) > 1.5:
        raise Failure(f"calibration: spin {n3} took {ticks[n3]} ticks, the others predict {predicted:.1f}")
    return ratio, ticks


class Opponent:
    """How the other seat moves: perfect (the oracle's move), greedy (perfect, but
    the largest winning take: the bot is kept in lost positions while the cap
    grows), random, ones (take 1: long games) or most (take the limit)."""

    def __init__(self, kind, oracle, rng):
        self.kind, self.oracle, self.rng = kind, oracle, rng

    def move(self, game):
        if self.kind == "perfect":
            _, take, reset = self.oracle.query(game.normalized())
            return take, reset
        if self.kind == "greedy":
            for take in range(min(game.limit(), game.s), 0, -1):
                for reset in (False, True) if game.resets[game.to_move] > 0 else (False,):
                    after = copy.deepcopy(game)
                    after.play(take, reset)
                    if after.winner is not None or not self.oracle.query(after.normalized())[0]:
                        return take, reset
            return min(game.limit(), game.s), False
        if self.kind == "random":
            return self.rng.randint(1, game.limit()), game.resets[game.to_move] > 0 and self.rng.random() < 0.3
        if self.kind == "ones":
            return 1, False
        return min(game.limit(), game.s), False  # most


def play(fw, n, r, bot, opponent, record):
    """One complete game; `record(position, line, decide)` for each firmware move."""
    seat = "first" if bot == 0 else "second"
    reply = fw.ask(f"new {n} {r} {M} {seat}")
    if reply != "ok":
        raise Failure(f"new {n} {r} {M} {seat}: {reply!r}")
    game = Game(n, r, M)
    while game.winner is None:
        if game.to_move == bot:
            pos = game.normalized()
            reply = fw.ask("go")
        else:
            take, reset = opponent.move(game)
            game.play(take, reset)
            if game.winner is not None:
                reply = fw.ask(f"opp {take} {int(reset)}")
                if reply != "lost":
                    raise Failure(f"opp emptied the pile; firmware said {reply!r}")
                break
            pos = game.normalized()
            reply = fw.ask(f"opp {take} {int(reset)}")
        take, reset, _ = parse_move(reply)
        line, decide, decisions = cost(fw)
        if decisions != 1:
            raise Failure(f"{reply!r}: {decisions} decisions timed, expected 1")
        record(pos, line, decide)
        game.play(take, reset)


def schedule(full, rng, with_oracle, starts=None, only=None):
    """The games: (N, R, bot seat, opponent); `starts` (the short schedule's piles, e.g.
    of a bigger table) and `only` (opponent kinds) narrow the short schedule."""
    opponents = ["perfect", "greedy"] if with_oracle else []
    opponents += ["random", "ones", "most"]
    if only:
        opponents = [o for o in opponents if o in only]
    if starts:
        return [(n, r, bot, o) for r in (0, 4) for n in starts for bot in (0, 1) for o in opponents]
    if full:
        starts = [999, 998, 997, 777, 500, 257, 100, 31, 13]
        resets = range(0, 5)
    else:
        starts = [999, 500]
        resets = (0, 4)
    games = []
    for r in resets:
        ns = starts + (rng.sample(range(14, 1000), 3) if full else [])
        for n in ns:
            for bot in (0, 1):
                games += [(n, r, bot, o) for o in opponents]
    return games


def one_insn_per_tb(qemu):
    """QEMU's option for translation blocks of one instruction (renamed in 8.1)."""
    out = subprocess.run([qemu[0], "--version"], capture_output=True, text=True).stdout
    major, minor = (int(x) for x in out.split("version ")[1].split(".")[:2])
    return ["-singlestep"] if (major, minor) < (8, 1) else ["-accel", "tcg,one-insn-per-tb=on"]


def trace_check(qemu_base, elf, ratio, timeout):
    """Count one decision's instructions a second way, from QEMU's own trace, and
    compare with the timer's figure: with one instruction per translation block and
    `-d exec,nochain`, QEMU logs a line for every instruction it executes (and says
    so when it abandons one, which is then logged again). The decision is the go
    of `new 999 4 3 first`; its instructions are those from the entry of the
    firmware's `measured_decision` until execution is back in its caller. Returns (trace
    count, timer count)."""
    with tempfile.TemporaryDirectory() as tmp:
        log_path = os.path.join(tmp, "exec.log")
        qemu = qemu_base + one_insn_per_tb(qemu_base) + ["-d", "exec,nochain", "-D", log_path, "-kernel", elf]
        fw = LineProcess(qemu, "firmware (traced)", timeout)
        try:
            if fw.readline(timeout=max(timeout, 60)) != BANNER:
                raise Failure("traced boot: no banner")
            if fw.ask("new 999 4 3 first") != "ok":
                raise Failure("traced run: new refused")
            parse_move(fw.ask("go"))
            _, decide, decisions = cost(fw)
        finally:
            fw.kill()
        if decisions != 1:
            raise Failure(f"traced run: {decisions} decisions timed")
        executed = []  # symbols of the executed instructions, in order
        with open(log_path, errors="replace") as log:
            for line in log:
                if line.startswith("Trace "):
                    executed.append(line.rsplit("] ", 1)[-1].strip())
                elif line.startswith(("Stopped execution", "cpu_io_recompile")) and executed:
                    executed.pop()  # logged, then abandoned before it ran
    entry = next((i for i, sym in enumerate(executed) if "measured_decision" in sym), None)
    if entry is None or entry == 0:
        raise Failure("trace: no call of the firmware's measured_decision (inlined in this build?)")
    caller = executed[entry - 1]
    back = next((i for i in range(entry, len(executed)) if executed[i] == caller), None)
    if back is None:
        raise Failure("trace: the decision never returned to its caller")
    return back - entry, decide * ratio


def summary(values):
    ordered = sorted(values)
    return {
        "median": statistics.median(ordered),
        "p99": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "worst": ordered[-1],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--elf", required=True, help="the board's cost image")
    ap.add_argument("--qemu", required=True, metavar="COMMAND",
                    help=f"QEMU's command line without `-kernel ELF`; `{ICOUNT}` is added")
    ap.add_argument("--oracle", required=True,
                    help="the host nimbot binary: it reads the replies (`nimbot protocol parse`) and is the "
                         "perfect opponent (--opponents narrows the games to the others)")
    ap.add_argument("--short", action="store_true", help="a few games only (the test's check)")
    ap.add_argument("--starts", default=None, metavar="N,N,...",
                    help="these piles only, R = 0 and 4, both seats (an image with a bigger table)")
    ap.add_argument("--opponents", default=None, metavar="KIND,KIND,...",
                    help="these opponents only (perfect, greedy, random, ones, most)")
    ap.add_argument("--oracle-policy", default=None, metavar="POLICY",
                    help="the oracle's --policy (as in qemu_test.py: `trap` beyond about 14,000 stones)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--clock", type=float, action="append", metavar="MHZ",
                    help="a clock to convert to microseconds at (repeatable; default 12 and 50)")
    ap.add_argument("--trace-check", action="store_true",
                    help="also count one decision from QEMU's instruction trace and compare (a few seconds)")
    ap.add_argument("--max-instructions", type=int, default=0,
                    help="fail if the worst decision costs more (0: no bound)")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for any reply")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of text")
    args = ap.parse_args()
    clocks = args.clock or [12.0, 50.0]

    qemu = shlex.split(args.qemu) + shlex.split(ICOUNT) + ["-kernel", args.elf]
    log = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.json else \
        (lambda *a: print(*a, flush=True))
    log("qemu: " + " ".join(qemu))
    rng = random.Random(args.seed)
    fw = oracle_proc = replies = None
    started = time.monotonic()
    try:
        replies = read_replies_with(args.oracle)
        fw = LineProcess(qemu, "firmware", args.timeout)
        oracle = None
        if args.oracle:
            oracle_proc = oracle_process(args.oracle, args.oracle_policy, args.timeout)
            oracle = Oracle(oracle_proc)
        await_banner(fw, args.timeout)
        ratio, spin_ticks = calibrate(fw)
        log(f"calibration: cost spin {', '.join(f'{n} -> {t}' for n, t in spin_ticks.items())} ticks: "
            f"{ratio:.4f} instructions a tick")

        checked = None
        if args.trace_check:
            traced, timed = trace_check(shlex.split(args.qemu) + shlex.split(ICOUNT), args.elf, ratio,
                                        args.timeout)
            # The timer's window holds a few instructions around the call (its reads),
            # and the timer counts in whole ticks.
            if not -ratio <= timed - traced <= 100:
                raise Failure(f"trace check: the trace counts {traced} instructions in the decision, "
                              f"the timer {timed:.0f}")
            checked = {"decision": "go after new 999 4 3 first", "trace": traced, "timer": round(timed)}
            log(f"trace check: the go of `new 999 4 3 first` is {traced} instructions in QEMU's trace, "
                f"{timed:.0f} by the timer (which also holds the call and its own reads)")
        starts = [int(n) for n in args.starts.split(",")] if args.starts else None
        only = args.opponents.split(",") if args.opponents else None
        games = schedule(not args.short and not starts, rng, oracle is not None, starts, only)
        decisions = []  # (decide instructions, line instructions, position, game)
        for i, (n, r, bot, kind) in enumerate(games):
            opponent = Opponent(kind, oracle, rng)
            label = {"n": n, "r": r, "seat": "first" if bot == 0 else "second", "opponent": kind}

            def record(pos, line, decide, label=label):
                won = oracle.query(pos)[0] if oracle else None
                decisions.append((decide * ratio, line * ratio, pos, label, won))

            play(fw, n, r, bot, opponent, record)
            if not args.json and (i + 1) % 25 == 0:
                log(f"  {i + 1}/{len(games)} games, {len(decisions)} decisions")
        elapsed = time.monotonic() - started
    except (Failure, Illegal) as e:
        print(f"FAIL {e}", file=sys.stderr, flush=True)
        return 1
    finally:
        stop(fw, oracle_proc, replies=replies)

    decide = summary([d[0] for d in decisions])
    line = summary([d[1] for d in decisions])
    by_value = {}
    for name, won in (("won", True), ("lost", False)):
        costs = [d[0] for d in decisions if d[4] is won]
        if costs:
            by_value[name] = dict(summary(costs), decisions=len(costs))
    worst = max(decisions, key=lambda d: d[0])
    s, c, a, b, f = worst[2]
    result = {
        "image": os.path.basename(args.elf),
        "icount": ICOUNT,
        "instructions_per_tick": ratio,
        "calibration_ticks": {f"spin {n}": t for n, t in spin_ticks.items()},
        "trace_check": checked,
        "games": len(games),
        "decisions": len(decisions),
        "decide_instructions": {k: round(v) for k, v in decide.items()},
        "decide_instructions_by_value": {
            name: {k: round(v) for k, v in figures.items()} for name, figures in by_value.items()},
        "command_instructions": {k: round(v) for k, v in line.items()},
        "worst_position": {"stones": s, "cap": c, "own_resets": a, "opp_resets": b, "pending": f},
        "worst_game": worst[3],
        "worst_us": {f"{mhz:g}MHz": round(decide["worst"] / mhz, 1) for mhz in clocks},
        "median_us": {f"{mhz:g}MHz": round(decide["median"] / mhz, 1) for mhz in clocks},
        "seconds": round(elapsed, 1),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        g = worst[3]
        top = max(n for n, _, _, _ in games)
        print(f"{len(decisions)} decisions in {len(games)} complete games (M = 3, piles up to {top}, "
              f"resets {min(r for _, r, _, _ in games)} to {max(r for _, r, _, _ in games)}, opponents {', '.join(sorted({x[3] for x in games}))}), {elapsed:.0f} s")
        print("instructions per decision (engine decide: read the table, choose the move):")
        print(f"  median {decide['median']:,.0f}   p99 {decide['p99']:,.0f}   worst {decide['worst']:,.0f}")
        print(f"  worst at position stones {s} cap {c} resets {a} {b} pending {f} "
              f"(game N = {g['n']}, R = {g['r']}, bot {g['seat']}, opponent {g['opponent']})")
        for name, v in by_value.items():
            print(f"  {name} positions ({v['decisions']}): median {v['median']:,.0f}   "
                  f"p99 {v['p99']:,.0f}   worst {v['worst']:,.0f}")
        print("instructions per command (go/opp: parse, the opponent's move, the decision, the reply):")
        print(f"  median {line['median']:,.0f}   p99 {line['p99']:,.0f}   worst {line['worst']:,.0f}")
        for mhz in clocks:
            print(f"at {mhz:g} MHz, one instruction a cycle (a lower bound): median "
                  f"{decide['median'] / mhz:,.1f} us, worst {decide['worst'] / mhz:,.1f} us a decision")
    if decide["worst"] <= 0:
        print("FAIL the worst decision took no instructions", file=sys.stderr)
        return 1
    if args.max_instructions and decide["worst"] > args.max_instructions:
        print(f"FAIL the worst decision took {decide['worst']:,.0f} instructions, "
              f"over the bound of {args.max_instructions:,}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
