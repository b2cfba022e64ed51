"""The course's client as the student bots of 2018 used it, written from
docs/tournament.md's wire for nimbot's tournament tests: each message is read with
ONE recv(1024) and json.loads, as the course's stock client did. Two messages in
one read kill it (json.decoder.JSONDecodeError: Extra data), as they killed the
course's bots; a referee that paces its messages (nimbot tournament --pace) keeps
them apart.

A bot calls play(name, first, choose) with choose(stones, limit, mine, theirs, m)
returning (take, reset); it exits 0 (won) or 1 (lost).
"""
import json
import socket
import sys

HOST, PORT = "127.0.0.1", 9000


def recv(sock):
    data = sock.recv(1024)
    if not data:
        sys.exit("the server closed the connection")
    return json.loads(data.decode())


def play(name, first, choose, host=HOST, port=PORT, m=3, read_init_max=False):
    sock = socket.create_connection((host, port), timeout=300)
    order = 0 if first else 1
    sock.sendall(json.dumps({"name": name, "order": order}).encode())
    welcome = recv(sock)
    stones, resets = welcome["init_stones"], welcome["init_resets"]
    mine, theirs = resets, resets
    largest, pending, turn = 0, False, 0
    while True:
        if turn == order:
            limit = m if pending else max(m, largest + 1)
            take, reset = choose(stones, limit, mine, theirs, m)
            sock.sendall(json.dumps({"order": order, "num_stones": take, "reset": reset}).encode())
        state = recv(sock)
        if read_init_max:
            # Some course bots read M from every state (the server sends it).
            m = state["init_max"]
        if state["finished"]:
            won = state["winner"] == name
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


def greedy(stones, limit, mine, theirs, m):
    """Win when the pile is in reach; else keep it out of the opponent's reach,
    with a reset (holding the opponent to M) when that is what does it."""
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
