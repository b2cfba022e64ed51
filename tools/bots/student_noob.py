#!/usr/bin/env python3
"""A course-style bot that hard-codes 127.0.0.1:9000 and its name (with a space),
reads init_max from every state, and takes one stone unless it can win.

usage: student_noob.py [-f]
"""
import sys

import course

course.play("first noob", "-f" in sys.argv[1:], course.one, read_init_max=True)
