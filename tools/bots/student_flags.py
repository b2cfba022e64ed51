#!/usr/bin/env python3
"""A course-style bot with the stock client's flags: -f/--first to move first
(second without it), -n NAME, and HOST:PORT (default 127.0.0.1:9000). Greedy.

usage: student_flags.py [-f] [-n NAME] [HOST:PORT]
"""
import argparse

import course

p = argparse.ArgumentParser()
p.add_argument("-f", "--first", action="store_true")
p.add_argument("-n", "--name", default="flags")
p.add_argument("addr", nargs="?", default="127.0.0.1:9000")
a = p.parse_args()
host, port = a.addr.rsplit(":", 1)
course.play(a.name, a.first, course.greedy, host=host, port=int(port))
