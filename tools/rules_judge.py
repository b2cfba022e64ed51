"""Expanding Nim with resets as docs/rules.md states it, written here from the text
alone and apart from nimbot's code: the judge the Python drivers check games with.

Games that nimbot's own referee (`nimbot serve`) or nimbot's own solver judged are
judged again here, so that a rules bug shared by the two cannot pass unseen:

  * `Game` holds a game's raw state (stones, the largest take, resets, a pending
    reset, the player to move) and judges each move in the rules' order;
  * `replay_game_log` replays a referee's game log (the platform's game-log.txt)
    move by move: every move legal, the log's "Current max" and "Stones left" the
    judge's, the end exactly where the pile empties, the winner its emptier;
  * `first_wins` and `wins` give the value of small games by a plain search of
    the normalized position (s, c, a, b, f) of docs/rules.md, against which a
    driver checks the answers of nimbot's solver.
"""

import functools

# Game logs: the separator after each move's record (39 dashes).
DASHES = "-" * 39
# `wins` searches games of at most this many stones (fast enough in Python).
SMALL = 30


class Illegal(Exception):
    """A move the rules refuse, or a game log that breaks them."""


class Game:
    """One game of Expanding Nim with resets: N stones, R resets each, M."""

    def __init__(self, n, r, m):
        self.m = m
        self.s = n
        self.h = 0  # the largest take so far
        self.resets = [r, r]
        self.pending = False  # the previous move declared a reset
        self.to_move = 0  # 0: the first player
        self.winner = None
        self.plies = 0

    def limit(self):
        """L: M right after a reset, else max(M, h + 1)."""
        return self.m if self.pending else max(self.m, self.h + 1)

    def normalized(self):
        """(s, c, a, b, f) for the player to move."""
        p = self.to_move
        return (self.s, max(self.m, self.h + 1), self.resets[p], self.resets[1 - p], int(self.pending))

    def legal(self, take, reset):
        """Why the move is refused (the rules' order: the take, then the reset), or None."""
        if self.winner is not None:
            return "the game is over"
        if not 1 <= take <= self.limit():
            return f"take {take} outside 1..={self.limit()}"
        if reset and self.resets[self.to_move] == 0:
            return "reset with none left"
        return None

    def play(self, take, reset):
        """Play the mover's move; Illegal (and nothing changed) if the rules refuse it."""
        why = self.legal(take, reset)
        if why:
            raise Illegal(f"illegal move {take} {int(reset)}: {why}")
        p = self.to_move
        self.s -= min(take, self.s)
        self.h = max(self.h, take)
        if reset:
            self.resets[p] -= 1
        self.pending = reset
        self.to_move = 1 - p
        self.plies += 1
        if self.s == 0:
            self.winner = p


def move_record(line):
    """(name, take, reset) of `Player NAME took K stones[ and used reset].`, or None."""
    if not line.startswith("Player ") or " took " not in line:
        return None
    name, _, rest = line[len("Player "):].rpartition(" took ")
    for tail, reset in ((" stones and used reset.", True), (" stones.", False)):
        if rest.endswith(tail) and rest[:-len(tail)].isdigit():
            return name, int(rest[:-len(tail)]), reset
    return None


def replay_game_log(text, n, r, m, current_max="largest"):
    """Judge a referee's game log of a game (n, r, m) that ended with a win on the
    board, move by move. `current_max` is the meaning the referee spoke
    (docs/tournament.md): "largest" (the default of `nimbot serve`, the course's
    latest server: one less than the next move's limit) or "limit" (the older
    server: the next move's limit). Returns (the winner's seat, 0 first; the plies,
    the players' names by seat); Illegal on anything the rules do not allow."""
    below = {"largest": 1, "limit": 0}[current_max]
    game = Game(n, r, m)
    names = [None, None]
    lines = text.splitlines()
    i = 0
    while i < len(lines) and lines[i] != "Game over":
        record = move_record(lines[i])
        if record is None:
            raise Illegal(f"game log line {i + 1}: not a move record: {lines[i]!r}")
        name, take, reset = record
        seat = game.to_move
        if names[seat] is None:
            names[seat] = name
        elif names[seat] != name:
            raise Illegal(f"game log line {i + 1}: {name!r} moved in {names[seat]!r}'s turn")
        game.play(take, reset)
        want = [f"Current max: {game.limit() - below}", f"Stones left: {game.s}", DASHES]
        if game.winner is not None:
            want[0] = lines[i + 1] if i + 1 < len(lines) else None  # no next move to limit
        if lines[i + 1:i + 4] != want:
            raise Illegal(f"game log after move {game.plies}: {lines[i + 1:i + 4]}, the rules say {want}")
        i += 4
    if game.winner is None:
        raise Illegal(f"the game log ends at {game.s} stones without a winner")
    if lines[i:i + 2] != ["Game over", f"Player {names[game.winner]} won the game! Congrats!"]:
        raise Illegal(f"game log: the end {lines[i:i + 2]}, but the rules give the game to "
                      f"{names[game.winner]!r}")
    return game.winner, game.plies, names


@functools.lru_cache(maxsize=None)
def _wins(s, c, a, b, f, m):
    limit = m if f else c
    for k in range(1, limit + 1):
        if k >= s:
            return True  # taking the pile (without a reset) wins
        for reset in (False, True) if a else (False,):
            if not _wins(s - k, max(c, k + 1), b, a - reset, reset, m):
                return True
    return False


def wins(pos, m):
    """Whether the player to move at the normalized position `pos` = (s, c, a, b, f)
    wins, by a plain search; None when the pile is above SMALL."""
    s, c, a, b, f = pos
    return _wins(s, c, a, b, bool(f), m) if s <= SMALL else None


def first_wins(n, r, m):
    """Whether the first player wins the start of (n, r, m); None above SMALL stones."""
    return wins((n, m, r, r, 0), m)
