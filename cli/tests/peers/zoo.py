#!/usr/bin/env python3
"""Misbehaving bots for the tournament's fault tests (written from
docs/tournament.md's protocol). Each plays "take 1" until its fault.

usage: zoo.py MODE HOST PORT ORDER NAME
MODE: crash (exit 7 on its 3rd move), crash1 (exit 7 on its first move), segv
(killed by SIGSEGV on its 3rd move), kill9 (killed by SIGKILL on its 3rd move),
hang (joins, never moves), slow (0.4 s a move, loses on time), nojoin (never
connects), close (closes the socket on its 3rd move, keeps running), slowcrash
(closes the socket on its 3rd move, says why on stderr, exits 3 a second later), garbage
(bytes that are not JSON), badjson (a malformed object), flood (a 1 MB message and
5 MB of stderr), twice (joins twice), first (asks for the first seat whatever
ORDER says), swap (asks for the seat ORDER does not give).
"""
import json
import os
import signal
import socket
import sys
import time

mode, host, port, order, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
print(f"zoo {mode}: starting as order {order}", file=sys.stderr, flush=True)
if mode == "nojoin":
    time.sleep(60)
    sys.exit(0)


asked = {"first": 0, "swap": 1 - order}.get(mode, order)


def join():
    s = socket.create_connection((host, port), timeout=60)
    s.sendall(json.dumps({"name": name, "order": asked}).encode())
    return s


sock = join()
if mode == "twice":
    time.sleep(0.2)
    other = join()
    time.sleep(30)
    sys.exit(0)
dec, buf = json.JSONDecoder(), ""


def recv():
    global buf
    while True:
        text = buf.lstrip()
        if text:
            try:
                obj, end = dec.raw_decode(text)
                buf = text[end:]
                return obj
            except json.JSONDecodeError:
                pass
        data = sock.recv(4096)
        if not data:
            sys.exit(0)
        buf += data.decode()


recv()  # the welcome
turn, moves = 0, 0
while True:
    if turn == order:
        moves += 1
        if moves == 1 and mode == "crash1":
            print("zoo crash1: giving up on move 1", file=sys.stderr, flush=True)
            os._exit(7)
        if moves == 3:
            if mode == "kill9":
                os.kill(os.getpid(), signal.SIGKILL)
            if mode == "crash":
                print("zoo crash: giving up on move 3", file=sys.stderr, flush=True)
                os._exit(7)
            if mode == "segv":
                os.kill(os.getpid(), signal.SIGSEGV)
            if mode == "slowcrash":
                sock.close()
                print("zoo slowcrash: json.decoder.JSONDecodeError: Extra data", file=sys.stderr, flush=True)
                time.sleep(1)
                sys.exit(3)
            if mode == "close":
                sock.close()
                time.sleep(30)
                sys.exit(0)
        if mode == "hang":
            time.sleep(60)
        if mode == "slow":
            time.sleep(0.4)
        if mode == "garbage":
            sock.sendall(b"take one please\n")
        elif mode == "badjson":
            sock.sendall(b'{"num_stones": one, "reset": false}')
        elif mode == "flood":
            sys.stderr.write("x" * (5 << 20))
            sys.stderr.flush()
            sock.sendall(json.dumps({"num_stones": 1, "pad": "y" * (1 << 20)}).encode())
        else:
            sock.sendall(json.dumps({"order": order, "num_stones": 1, "reset": False}).encode())
    state = recv()
    if state["finished"]:
        sys.exit(0)
    turn = 1 - turn
