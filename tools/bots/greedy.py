#!/usr/bin/env python3
"""A sample bot: wins when the pile is within reach; otherwise takes the fewest
stones that keep the pile out of the opponent's reach, declaring a reset (the
opponent is then held to M) when that is what keeps it out.

usage: greedy.py HOST PORT ORDER [NAME] [M]
"""
from client import play


def choose(stones, limit, mine, theirs, m):
    if stones <= limit:
        return stones, False
    for take in range(1, limit + 1):
        left = stones - take
        if left > max(m, take + 1, limit):
            return take, False
    if mine > 0:
        for take in range(1, limit + 1):
            if stones - take > m:
                return take, True
    return 1, False


play(choose)
