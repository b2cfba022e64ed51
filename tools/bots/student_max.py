#!/usr/bin/env python3
"""A course-style bot that takes --first or --second, then HOST PORT; it takes as
many stones as allowed, its limit computed as current_max + 1 as the bots written
for the course's latest server do (a referee sending the other meaning of
current_max, the next move's limit, sees it take one too many).

usage: student_max.py --first|--second HOST PORT [NAME]
"""
import sys

import course

first = sys.argv[1] == "--first"
name = sys.argv[4] if len(sys.argv) > 4 else "max"
course.play(name, first, course.largest, host=sys.argv[2], port=int(sys.argv[3]),
            current_max_plus_one=True)
