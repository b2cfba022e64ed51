#!/usr/bin/env python3
"""A sample bot: a random legal move (a reset now and then), except that it
takes the pile when it can. The seed is the sixth argument (default 1).

usage: rand.py HOST PORT ORDER [NAME] [M] [SEED]
"""
import random
import sys

from client import play

rng = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 1)


def choose(stones, limit, mine, theirs, m):
    if stones <= limit:
        return stones, False
    return rng.randint(1, limit), mine > 0 and rng.random() < 0.1


play(choose)
