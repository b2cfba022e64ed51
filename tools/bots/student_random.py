#!/usr/bin/env python3
"""A course-style bot that hard-codes 127.0.0.1:9000, moves first with -f, and
plays random legal moves (the pile when it can), seeded by -s SEED.

usage: student_random.py [-f] [-s SEED]
"""
import argparse
import random

import course

p = argparse.ArgumentParser()
p.add_argument("-f", action="store_true")
p.add_argument("-s", type=int, default=1)
a = p.parse_args()
rng = random.Random(a.s)


def choose(stones, limit, mine, theirs, m):
    if stones <= limit:
        return stones, False
    return rng.randint(1, limit), mine > 0 and rng.random() < 0.1


course.play("random", a.f, choose)
