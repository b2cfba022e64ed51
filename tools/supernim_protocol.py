#!/usr/bin/env python3
"""Super-Nim through the line protocol, the way a tournament or a person plays it:
nimbot's `serial` against an opponent written here from the seed's rules (not the
library's), over many starts and both seats. A benchmark: it prints figures, it
asserts nothing (docs/figures.md keeps them; tools/figures.sh supernim runs it).

    tools/supernim_protocol.py NIMBOT [--opponent greedy|random] [--games 200]
        [--cap 200] [--seed 1] [--player perfect|search] [--options WORDS]
        [--shard I/N] [--json]

Each start (2 to 6 heaps of 1 to 10 sticks, from Python's seeded generator) is
played twice, nimbot first then second. The opponent plays a uniformly random
distinct move, or (greedy) splits a 2 whenever one is on the board. The script
keeps its own record of the game (heaps, scores, plies) and checks every reply
against it: a move that is not legal, a wrong `over`, or a game that goes past the
cap stops it with an error. Results are split by nimbot's seat and the parity of
the start's 2s; the time of each reply (nimbot's move, and for `opp` also what it
learns from the opponent's move) is measured, the worst and the median printed.
"""

import argparse
import json
import random
import statistics
import subprocess
import sys
import time

MERGE_CAP = 10


def moves_of(heaps):
    """Every distinct move of the seed's rules as the protocol writes it, with the
    heaps it leaves and the points it scores."""
    out = []
    sizes = sorted(set(heaps))
    for i, a in enumerate(sizes):
        for b in sizes[i + 1:]:
            rest = list(heaps)
            rest.remove(a)
            rest.remove(b)
            out.append((f"merge {a} {b}", sorted(rest + [min(a + b, MERGE_CAP)]), 0))
    for n in sizes:
        rest = list(heaps)
        rest.remove(n)
        if n % 2 == 1:
            out.append((f"grow {n}", sorted(rest + [3 * n + 1]), 0))
        elif n == 2:
            out.append(("split 2", sorted(rest), 2))
        else:
            out.append((f"split {n}", sorted(rest + [n // 2, n // 2]), 0))
    return out


def play(heaps, move):
    """The heaps and points after `move` (protocol words), or None if illegal."""
    words = move.split()
    for text, after, points in moves_of(heaps):
        t = text.split()
        if t[0] == words[0] and len(t) == len(words):
            if t[0] == "merge" and sorted(t[1:]) == sorted(words[1:]) and words[1] != words[2]:
                return after, points
            if t[1:] == words[1:]:
                return after, points
    return None


def opponent_move(heaps, kind, rng):
    moves = moves_of(heaps)
    if kind == "greedy":
        for m in moves:
            if m[0] == "split 2":
                return m[0]
    return rng.choice(moves)[0]


class Nimbot:
    def __init__(self, path):
        self.proc = subprocess.Popen([path, "serial"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.times = []

    def ask(self, line, timed=False):
        started = time.perf_counter()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline().strip()
        if timed:
            self.times.append(time.perf_counter() - started)
        return reply

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


class Mismatch(Exception):
    pass


def one_game(bot, start, first, cap, kind, rng, options):
    """Plays one game; returns nimbot's result: 'won', 'lost' or 'draw'."""
    seat = "first" if first else "second"
    reply = bot.ask(f"new supernim {','.join(map(str, start))} {seat} cap {cap} {options}".rstrip())
    if reply != "ok":
        raise Mismatch(f"new: {reply!r}")
    heaps, score, plies = sorted(start), [0, 0], 0  # score: [nimbot, opponent]
    mover = 0 if first else 1

    def over():
        return not heaps or plies >= cap

    def result():
        return "won" if score[0] > score[1] else "lost" if score[0] < score[1] else "draw"

    reply = bot.ask("go", timed=True) if first else None
    while True:
        if mover == 0:
            words = reply.split()
            if not words or words[0] != "move":
                raise Mismatch(f"expected a move at ply {plies}: {reply!r}")
            said_over = words[-2] if len(words) >= 2 and words[-2] == "over" else None
            move = " ".join(words[1:-2] if said_over else words[1:])
            after = play(heaps, move)
            if after is None:
                raise Mismatch(f"illegal move {move!r} in {heaps}")
            heaps, points = after
            score[0] += points
            plies += 1
            if over() != bool(said_over) or (said_over and words[-1] != result()):
                raise Mismatch(f"after {move!r}: over {over()} {result()}, nimbot {reply!r}")
            if over():
                return result()
            mover = 1
        else:
            move = opponent_move(heaps, kind, rng)
            heaps, points = play(heaps, move)
            score[1] += points
            plies += 1
            reply = bot.ask(f"opp {move}", timed=True)
            if over():
                if reply != f"over {result()}":
                    raise Mismatch(f"after the opponent's {move!r}: expected over {result()}, got {reply!r}")
                return result()
            mover = 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("nimbot")
    ap.add_argument("--opponent", choices=["greedy", "random"], default="greedy")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--cap", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--player", choices=["perfect", "search"],
                    help="nimbot's player (`player P` on `new supernim`; default: the build's)")
    ap.add_argument("--options", default="", help="more words appended to `new supernim` (e.g. 'nodes 50000')")
    ap.add_argument("--shard", default="0/1", metavar="I/N",
                    help="play only the pairs of games k with k %% N == I (run N side by side)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.player:
        args.options = f"player {args.player} {args.options}".strip()
    shard, shards = (int(x) for x in args.shard.split("/"))
    starts = random.Random(args.seed)
    bot = Nimbot(args.nimbot)
    # [seat][parity] -> [won, draw, lost]
    table = [[[0, 0, 0] for _ in range(2)] for _ in range(2)]
    started = time.perf_counter()
    try:
        for i in range(args.games):
            if i % 2 == 0:
                start = [starts.randint(1, 10) for _ in range(starts.randint(2, 6))]
            if (i // 2) % shards != shard:
                continue
            first = i % 2 == 0
            rng = random.Random(args.seed * 1_000_003 + i)
            r = one_game(bot, start, first, args.cap, args.opponent, rng, args.options)
            parity = start.count(2) % 2
            table[0 if first else 1][parity][["won", "draw", "lost"].index(r)] += 1
            # Progress on a terminal only (a log or a figures page wants the table).
            if not args.json and sys.stderr.isatty() and (i + 1) % 20 == 0:
                print(f"{i + 1} games", file=sys.stderr)
    except Mismatch as e:
        print(f"supernim_protocol.py: game {i + 1}: {e}", file=sys.stderr)
        return 1
    finally:
        bot.close()
    seconds = time.perf_counter() - started
    worst, median = max(bot.times), statistics.median(bot.times)
    if args.json:
        print(json.dumps({
            "opponent": args.opponent, "games": args.games, "cap": args.cap, "seed": args.seed,
            "options": args.options, "shard": args.shard,
            "by_seat": {seat: {par: dict(zip(["won", "draw", "lost"], table[s][p]))
                               for p, par in enumerate(["even", "odd"])}
                        for s, seat in enumerate(["first", "second"])},
            "replies": len(bot.times), "worst_reply_s": round(worst, 4),
            "reply_times_ms": sorted(round(t * 1000, 2) for t in bot.times)[-5:],
            "median_reply_s": round(median, 5), "seconds": round(seconds, 1)}))
    else:
        print(f"nimbot{' (' + args.options + ')' if args.options else ''} against {args.opponent}, "
              f"{args.games} games, cap {args.cap}, seed {args.seed}, over the line protocol")
        print("seat    2s    won draw lost")
        for s, seat in enumerate(["first", "second"]):
            for p, par in enumerate(["even", "odd"]):
                w, d, l = table[s][p]
                print(f"{seat:<7} {par:<5} {w:>4} {d:>4} {l:>4}")
        print(f"replies {len(bot.times)}: worst {worst * 1000:.1f} ms, median {median * 1000:.2f} ms; "
              f"{seconds:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
