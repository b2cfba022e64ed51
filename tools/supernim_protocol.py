#!/usr/bin/env python3
"""Super-Nim through the line protocol, the way a tournament or a person plays it:
nimbot's `serial` against an opponent played here, over many starts and both seats.
A benchmark: it prints figures, it asserts nothing (docs/figures.md keeps them;
tools/figures.sh supernim runs it).

    tools/supernim_protocol.py NIMBOT [--opponent greedy|random] [--games 200]
        [--cap 200] [--seed 1] [--player perfect|search] [--options WORDS]
        [--shard I/N] [--json]

Each start (2 to 6 heaps of 1 to 10 sticks, from Python's seeded generator) is
played twice, nimbot first then second. The opponent plays a uniformly random
distinct move, or (greedy) splits a 2 whenever one is on the board. The script
computes no game fact itself: the moves of a position are the library's (`nimbot
moves --game super-nim`), every move is judged by the library's rules in a
`nimbot serial` session of its own (the judge: a one-ply game, `cap 1`, in which
the move is the opponent's; `error` if the rules refuse it, else `state` gives the
heaps it leaves and its points), and every reply is read by the protocol's grammar
(tools/protocol_replies.py). It keeps the game's record from the judge and checks
nimbot's replies against it: a move that is not legal, a wrong `over`, or a game
that goes past the cap stops it with an error. Results are split by nimbot's seat
and the parity of the start's 2s; the time of each reply (nimbot's move, and for
`opp` also what it learns from the opponent's move) is measured, the worst and the
median printed.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_replies import Replies  # noqa: E402 (after the path it is found on)


class Mismatch(Exception):
    pass


class Serial:
    """One `nimbot serial` session, a line in and a line out."""

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


class Rules:
    """Super-Nim's rules as the library has them: a position's moves from `nimbot
    moves`, and a move played by the judge session."""

    def __init__(self, path, replies):
        self.path, self.replies = path, replies
        self.judge = Serial(path)
        self.listed = {}

    def moves(self, heaps):
        """The position's distinct moves in protocol words, in a fixed order (the
        merges by their two heaps, then one move a heap by its size)."""
        key = tuple(sorted(heaps))
        if key not in self.listed:
            out = subprocess.run(
                [self.path, "moves", "--game", "super-nim", ",".join(map(str, key)),
                 "--nodes", "1", "--json"], capture_output=True, text=True)
            if out.returncode != 0:
                raise Mismatch(f"nimbot moves {key}: {out.stderr.strip()}")
            words = []
            for m in json.loads(out.stdout)["moves"]:
                if m["kind"] == "merge":
                    a, b = sorted((m["heap"], m["onto"]))
                    words.append(((0, a, b), f"merge {a} {b}"))
                else:
                    words.append(((1, m["heap"], 0), f"{m['kind']} {m['heap']}"))
            self.listed[key] = [w for _, w in sorted(words)]
        return self.listed[key]

    def play(self, heaps, move):
        """The heaps and the points after `move` by the library's rules, or None if
        they refuse it."""
        if not heaps:
            return None
        self.replies.expect(self.judge.ask(f"new supernim {','.join(map(str, heaps))} second cap 1"), "ok")
        got = self.replies.parse(self.judge.ask(f"opp {move}"))
        if got is None or got["reply"] == "error":
            return None
        if got["reply"] != "over":
            raise Mismatch(f"the judge did not end its one-ply game: {got}")
        state = self.replies.expect(self.judge.ask("state"), "state", game="supernim")
        return sorted(state["heaps"]), state["score"]["opponent"]

    def close(self):
        self.judge.close()


def opponent_move(moves, kind, rng):
    if kind == "greedy" and "split 2" in moves:
        return "split 2"
    return rng.choice(moves)


def one_game(bot, rules, replies, start, first, cap, kind, rng, options):
    """Plays one game; returns nimbot's result: 'won', 'lost' or 'draw'."""
    seat = "first" if first else "second"
    replies.expect(bot.ask(f"new supernim {','.join(map(str, start))} {seat} cap {cap} {options}".rstrip()), "ok")
    heaps, score, plies = sorted(start), [0, 0], 0  # score: [nimbot, opponent]
    mover = 0 if first else 1

    def over():
        return not heaps or plies >= cap

    def result():
        return "won" if score[0] > score[1] else "lost" if score[0] < score[1] else "draw"

    reply = bot.ask("go", timed=True) if first else None
    while True:
        if mover == 0:
            got = replies.parse(reply)
            if got is None or got["reply"] != "move" or got.get("game") != "supernim":
                raise Mismatch(f"expected a move at ply {plies}: {reply!r}")
            move, said_over = got["move"], got["over"]
            after = rules.play(heaps, move)
            if after is None:
                raise Mismatch(f"illegal move {move!r} in {heaps}")
            heaps, points = after
            score[0] += points
            plies += 1
            if over() != (said_over is not None) or (said_over and said_over != result()):
                raise Mismatch(f"after {move!r}: over {over()} {result()}, nimbot {reply!r}")
            if over():
                return result()
            mover = 1
        else:
            move = opponent_move(rules.moves(heaps), kind, rng)
            heaps, points = rules.play(heaps, move)
            score[1] += points
            plies += 1
            reply = bot.ask(f"opp {move}", timed=True)
            if over():
                got = replies.parse(reply)
                if got is None or got["reply"] != "over" or got["result"] != result():
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
    bot = Serial(args.nimbot)
    replies = Replies(args.nimbot, error=Mismatch)
    rules = Rules(args.nimbot, replies)
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
            r = one_game(bot, rules, replies, start, first, args.cap, args.opponent, rng, args.options)
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
        rules.close()
        replies.close()
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
