"""The line protocol's replies for the Python drivers, read by the protocol's one grammar.

A script never takes a reply apart itself: `Replies(nimbot)` keeps one
`nimbot protocol parse` process of the host binary (nimbot_protocol::grammar's
`Response::parse` behind it) and hands each reply line to it, one line in and one
JSON object out, so a line costs a pipe's round trip. `nimbot protocol parse --help`
and docs/protocol.md say what the objects hold: "reply" names the reply (ok, move,
lost, over, query, moves, state, version, policy, limits, help, error), the other
keys its fields, and a line outside the grammar is None.

    replies = Replies("target/release/nimbot", error=Failure)
    replies.expect("move 2 0", "move")   # {'reply': 'move', 'game': 'expanding', 'take': 2, ...}
    replies.parse("hello")                # None
"""

import json
import subprocess


class Replies:
    """Reply lines read by `nimbot protocol parse` (one process, kept open)."""

    def __init__(self, nimbot, error=ValueError):
        # `error(message)` is raised (or called, if it exits) when a reply is not
        # the one a driver expects.
        self.error = error
        self.proc = subprocess.Popen([nimbot, "protocol", "parse"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def parse(self, line):
        """The reply `line` as a dict, or None if it is not a reply of the grammar."""
        if "\n" in line or "\r" in line:
            return None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise self.error("nimbot protocol parse has exited") from None
        answer = self.proc.stdout.readline()
        if not answer:
            raise self.error(f"nimbot protocol parse has exited (status {self.proc.poll()})")
        return json.loads(answer)

    def expect(self, line, reply, **fields):
        """The reply `line` as a dict, which must be a `reply` (a name, or a tuple of
        names) with `fields` as given (e.g. game="fibonacci"); else `error`."""
        got = self.parse(line)
        names = (reply,) if isinstance(reply, str) else reply
        if got is None or got["reply"] not in names or any(got.get(k) != v for k, v in fields.items()):
            want = "|".join(names) + "".join(f" {k}={v}" for k, v in fields.items())
            raise self.error(f"expected a `{want}` reply, got {line!r}")
        return got

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
