"""The course's client as the student bots of 2018 used it, written from
docs/tournament.md's wire for nimbot's tournament tests: each message is read with
ONE recv(1024) and json.loads, as the course's stock client did. Two messages in
one read kill it (json.decoder.JSONDecodeError: Extra data), as they killed the
course's bots; a referee that paces its messages (nimbot tournament --pace) keeps
them apart.

A bot calls play(name, first, choose) with choose(stones, limit, mine, theirs, m)
returning (take, reset); it exits 0 (won) or 1 (lost). The game is tracked as
client.py tracks it; the strategies are ordinary Nim's rule, the largest take, one
stone, and client.greedy.
"""
import json
import socket
import sys

from client import Tracker, greedy  # noqa: F401 (greedy: a strategy of the students')

HOST, PORT = "127.0.0.1", 9000


def recv(sock):
    data = sock.recv(1024)
    if not data:
        sys.exit("the server closed the connection")
    return json.loads(data.decode())


def play(name, first, choose, host=HOST, port=PORT, m=3, read_init_max=False,
         current_max_plus_one=False):
    """current_max_plus_one: the limit is the last state's current_max + 1 (M before
    the first state), as the bots written for the course's latest server compute
    it (that server sends the largest take so far, M - 1 after a reset)."""
    sock = socket.create_connection((host, port), timeout=300)
    order = 0 if first else 1
    sock.sendall(json.dumps({"name": name, "order": order}).encode())
    game = Tracker(recv(sock), m)
    current_max = None
    turn = 0
    while True:
        if turn == order:
            limit = game.limit()
            if current_max_plus_one:
                limit = game.m if current_max is None else current_max + 1
            take, reset = choose(game.stones, limit, game.mine, game.theirs, game.m)
            sock.sendall(json.dumps({"order": order, "num_stones": take, "reset": reset}).encode())
        state = recv(sock)
        current_max = state["current_max"]
        if read_init_max:
            # Some course bots read M from every state (the server sends it).
            game.m = state["init_max"]
        if state["finished"]:
            won = state["winner"] == name
            print(f"{name}: {'won' if won else 'lost'}: {state['reason']}", file=sys.stderr)
            sys.exit(0 if won else 1)
        game.update(state, turn == order)
        turn = 1 - turn


def bachet(stones, limit, mine, theirs, m):
    """Ordinary Nim's rule: leave a multiple of limit + 1 (it ignores the growing
    limit and the resets)."""
    if stones <= limit:
        return stones, False
    return (stones % (limit + 1)) or 1, False


def largest(stones, limit, mine, theirs, m):
    """Take as many as allowed."""
    return min(stones, limit), False


def one(stones, limit, mine, theirs, m):
    """Take the pile if allowed, else one stone."""
    return (stones, False) if stones <= limit else (1, False)
