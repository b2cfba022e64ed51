#!/usr/bin/env python3
"""A course-style bot that takes True (first) or False (second) as its first
argument and hard-codes 127.0.0.1:9000. Plays ordinary Nim's rule.

usage: student_bool.py True|False [NAME]
"""
import sys

import course

first = sys.argv[1] == "True"
course.play(sys.argv[2] if len(sys.argv) > 2 else "bool", first, course.bachet)
