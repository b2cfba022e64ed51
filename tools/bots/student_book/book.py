#!/usr/bin/env python3
"""A course-style bot that must be started in its own directory: it opens
book.txt (a take for each pile, "N K" a line) by a relative path, hard-codes
127.0.0.1:9000 and moves first with --first. Piles the book does not list get
ordinary Nim's rule.

usage: cd tools/bots/student_book && python3 book.py [--first]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import course  # noqa: E402

with open("book.txt") as f:
    book = dict(tuple(int(x) for x in line.split()) for line in f if line.strip())


def choose(stones, limit, mine, theirs, m):
    if stones <= limit:
        return stones, False
    take = book.get(stones)
    if take is not None and 1 <= take <= limit:
        return take, False
    return course.bachet(stones, limit, mine, theirs, m)


course.play("book", "--first" in sys.argv[1:], choose)
