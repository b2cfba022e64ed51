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


def play(choose):
    host, port, order = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    name = sys.argv[4] if len(sys.argv) > 4 else "py"
    m = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    wire = Wire(host, port)
    wire.send({"name": name, "order": order})
    welcome = wire.recv()
    m = welcome.get("init_max", m)
    stones, resets = welcome["init_stones"], welcome["init_resets"]
    mine, theirs = resets, resets
    largest, pending, turn = 0, False, 0
    while True:
        if turn == order:
            limit = m if pending else max(m, largest + 1)
            take, reset = choose(stones, limit, mine, theirs, m)
            wire.send({"order": order, "num_stones": take, "reset": reset})
        state = wire.recv()
        if state["finished"]:
            won = state["reason"].endswith("won the game! Congrats!") == (turn == order)
            print(f"{name}: {'won' if won else 'lost'}: {state['reason']}", file=sys.stderr)
            sys.exit(0 if won else 1)
        took = state["stones_removed"]
        stones -= took
        largest = max(largest, took)
        pending = bool(state["reset_used"])
        if pending:
            if turn == order:
                mine -= 1
            else:
                theirs -= 1
        turn = 1 - turn
