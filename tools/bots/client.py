"""The platform's wire for Python bots, written from docs/tournament.md: one JSON
object per message with no framing, objects that may arrive two in one read or one
over several reads, the game tracked from `stones_removed` and `reset_used`.

A bot module calls `play(choose)` with `choose(stones, limit, my_resets,
their_resets, m)` returning `(take, reset)`; `play` reads HOST PORT ORDER [NAME]
[M] from the command line, plays one game and exits 0 (won) or 1 (lost).
"""
import json
import socket
import sys


class Wire:
    def __init__(self, host, port):
        self.sock = socket.create_connection((host, port), timeout=300)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = ""
        self.dec = json.JSONDecoder()

    def send(self, obj):
        self.sock.sendall(json.dumps(obj).encode())

    def recv(self):
        while True:
            text = self.buf.lstrip()
            if text:
                try:
                    obj, end = self.dec.raw_decode(text)
                    self.buf = text[end:]
                    return obj
                except json.JSONDecodeError:
                    pass
            data = self.sock.recv(4096)
            if not data:
                sys.exit("the server closed the connection")
            self.buf += data.decode()


class Tracker:
    """The game as a bot tracks it from the state messages: the pile, both seats'
    resets, the largest take and a pending reset (the next move's limit is M)."""

    def __init__(self, welcome, m):
        self.stones, self.m = welcome["init_stones"], m
        self.mine = self.theirs = welcome["init_resets"]
        self.largest, self.pending = 0, False

    def limit(self):
        return self.m if self.pending else max(self.m, self.largest + 1)

    def update(self, state, mine):
        """Take in the state message of a move (`mine`: this bot made it)."""
        took = state["stones_removed"]
        self.stones -= took
        self.largest = max(self.largest, took)
        self.pending = bool(state["reset_used"])
        if self.pending:
            if mine:
                self.mine -= 1
            else:
                self.theirs -= 1


def greedy(stones, limit, mine, theirs, m):
    """Win when the pile is within reach; otherwise take the fewest stones that
    keep the pile out of the opponent's reach, declaring a reset (the opponent is
    then held to M) when that is what keeps it out."""
    if stones <= limit:
        return stones, False
    for take in range(1, limit + 1):
        if stones - take > max(m, take + 1, limit):
            return take, False
    if mine > 0:
        for take in range(1, limit + 1):
            if stones - take > m:
                return take, True
    return 1, False


def play(choose):
    host, port, order = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    name = sys.argv[4] if len(sys.argv) > 4 else "py"
    m = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    wire = Wire(host, port)
    wire.send({"name": name, "order": order})
    welcome = wire.recv()
    game = Tracker(welcome, welcome.get("init_max", m))
    turn = 0
    while True:
        if turn == order:
            take, reset = choose(game.stones, game.limit(), game.mine, game.theirs, game.m)
            wire.send({"order": order, "num_stones": take, "reset": reset})
        state = wire.recv()
        if state["finished"]:
            won = state["reason"].endswith("won the game! Congrats!") == (turn == order)
            print(f"{name}: {'won' if won else 'lost'}: {state['reason']}", file=sys.stderr)
            sys.exit(0 if won else 1)
        game.update(state, turn == order)
        turn = 1 - turn
