#!/usr/bin/env python3
"""A stock-like platform client, written from docs/tournament.md for nimbot's tests.

Like the original it reads each message with ONE recv(1024) and json.loads. Unlike
the original it survives a coalesced read ("{...}{...}"): it splits it with
raw_decode and counts it, so a loaded test machine cannot make the test flaky.
It plays a simple legal strategy: take the whole pile when allowed, else 1.

usage: stock_client.py HOST PORT ORDER NAME [M]
Prints one line: "result won|lost moves K coalesced C".
"""
import json
import socket
import sys

host, port, order, name = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
m = int(sys.argv[5]) if len(sys.argv) > 5 else 3

sock = socket.create_connection((host, port), timeout=30)
sock.sendall(json.dumps({"name": name, "order": order}).encode())
queue = []
coalesced = 0


def recv():
    global coalesced
    if queue:
        return queue.pop(0)
    data = sock.recv(1024).decode()
    if not data:
        sys.exit("connection closed")
    try:
        return json.loads(data)
    except json.JSONDecodeError:
        coalesced += 1
        dec, i = json.JSONDecoder(), 0
        while i < len(data):
            obj, i = dec.raw_decode(data, i)
            queue.append(obj)
        return queue.pop(0)


welcome = recv()
stones, resets = welcome["init_stones"], welcome["init_resets"]
largest, pending, mine = 0, False, resets
moves = 0
turn = 0
state = None
while True:
    if turn == order:
        limit = m if pending else max(m, largest + 1)
        take = stones if stones <= limit else 1
        sock.sendall(json.dumps({"order": order, "num_stones": take, "reset": False}).encode())
    state = recv()
    if state["finished"]:
        break
    k = state["stones_removed"]
    stones -= k
    largest = max(largest, k)
    pending = state["reset_used"]
    assert state["stones_left"] == stones, (state, stones)
    moves += 1
    turn = 1 - turn
won = state["winner"] == name
print(f"result {'won' if won else 'lost'} moves {moves + 1} coalesced {coalesced}")
