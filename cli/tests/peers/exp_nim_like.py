#!/usr/bin/env python3
"""An exp-nim-like text client, written from docs/tournament.md for nimbot's tests.

usage: exp_nim_like.py [-f] -n NAME HOST:PORT
Joins the game over TCP (tolerating coalesced reads) and talks to the bot on
stdin/stdout: the prompt "Please enter your move: " with no newline, then one line
"K F" from the bot; it prints the lines the original prints plus a few extra lines
that copies add (a banner, reset counts), which the bot must ignore.
"""
import json
import socket
import sys

args = sys.argv[1:]
first = "-f" in args
name = args[args.index("-n") + 1]
host, port = args[-1].rsplit(":", 1)
sock = socket.create_connection((host, int(port)), timeout=30)
sock.sendall(json.dumps({"name": name, "order": 0 if first else 1}).encode())
queue, dec = [], json.JSONDecoder()


def recv():
    while not queue:
        data = sock.recv(1024).decode()
        if not data:
            sys.exit("connection closed")
        i = 0
        while i < len(data):
            while i < len(data) and data[i].isspace():
                i += 1
            if i < len(data):
                obj, i = dec.raw_decode(data, i)
                queue.append(obj)
    return queue.pop(0)


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def show(state, who):
    used = " and used reset" if state["reset_used"] else ""
    out(f"{who} took {state['stones_removed']} stones{used}.")
    out(f"Current max: {state['current_max']}")
    out(f"Stones left: {state['stones_left']}")
    out(f"Player {name} has {state['player_0' if first else 'player_1']['resets_left']} resets left")
    out("-" * 20)


welcome = recv()
out("Game mode")
out("Good luck have fun!")
my_turn = first
while True:
    if my_turn:
        while True:
            sys.stdout.write("Please enter your move: ")
            sys.stdout.flush()
            line = sys.stdin.readline()
            if not line:
                sys.exit("bot closed its output")
            try:
                k, r = (int(x) for x in line.split())
                break
            except ValueError:
                out("Invalid move string")
        sock.sendall(json.dumps({"num_stones": k, "reset": bool(r)}).encode())
    state = recv()
    if not state["finished"] or state["reason"].endswith("won the game! Congrats!"):
        show(state, "You" if my_turn else "Opponent")
    if state["finished"]:
        out("Game over")
        out(state["reason"])
        break
    my_turn = not my_turn
