#!/usr/bin/env python3
"""A sample bot: wins when the pile is within reach; otherwise takes the fewest
stones that keep the pile out of the opponent's reach, declaring a reset (the
opponent is then held to M) when that is what keeps it out (client.greedy).

usage: greedy.py HOST PORT ORDER [NAME] [M]
"""
from client import greedy, play

play(greedy)
