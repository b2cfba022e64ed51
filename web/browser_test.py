#!/usr/bin/env python3
"""The site in a real browser: headless Chromium, driven by Selenium, loads the
page that `nimbot web` serves, and checks it against the command line.

  browser_test.py test  --nimbot BIN --out DIR
      the explorer agrees with `nimbot moves --json` on 1,000 random positions
      (most from the table, N <= 999; some beyond it, solved in the browser); a
      whole game played by clicking ends as the rules say (replayed here by a
      rules peer written from the spec); a dropped record and a dropped game log
      draw a chart with one point a ply and the blunders `nimbot analyze` names;
      a screenshot of each view in DIR.
  browser_test.py bench --nimbot BIN --out DIR   (or --url URL: a site served elsewhere)
      prints the page's transfer size, the time to the first answer on screen
      after load (and where it goes: nine loads in a browser that has shown
      another site first, the first of them a first visit; and apart, a new
      browser's very first navigation, which includes the browser's own start), the time of a position's moves (every
      pile and cap of the games with N <= 999 at their most moves, and random
      positions of them), and of positions of bigger games, solved on demand.
      With --versus SITE (another build's web/site/, e.g. from `git archive`):
      the first answer of both, their loads alternated in one run, both sites
      served alike by a static server in this script.

Run by tools/web.sh (test, bench), which installs Chromium, its driver and
python3-selenium when missing.
"""
import argparse
import gzip
import http.server
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1200,900"]


def fail(msg):
    print(f"browser test: FAILED: {msg}", file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


class Server:
    """`nimbot web --port 0`, its address read from the line it prints."""

    def __init__(self, nimbot):
        self.proc = subprocess.Popen([nimbot, "web", "--port", "0"], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        check(line.startswith("serving http://127.0.0.1:"), f"nimbot web printed {line!r}")
        self.url = line.split()[1]
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])

    def close(self):
        self.proc.kill()
        self.proc.wait()


class StaticSite:
    """A directory of the site served on loopback as `nimbot web` serves its own
    files (the same types and headers, gzip to a client that takes it, each
    answer in one write with TCP_NODELAY): two builds of the site measured side
    by side, alike. A build from before the explorer's status line carried
    elementtiming="answer" gets it added here, so that both are timed alike."""

    TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
             ".wasm": "application/wasm", ".bin": "application/octet-stream"}

    def __init__(self, root, hold_module=0.0):
        files = {}
        for name in os.listdir(root):
            kind = self.TYPES.get(os.path.splitext(name)[1])
            if kind:
                with open(os.path.join(root, name), "rb") as f:
                    body = f.read()
                if name == "index.html" and b"elementtiming" not in body:
                    body = body.replace(b'id="ex-status"', b'id="ex-status" elementtiming="answer"')
                files["/" + name] = (kind, body, gzip.compress(body, 9, mtime=0))
        check("/index.html" in files, f"{root}: no index.html")

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self):
                super().setup()
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, *_):
                pass

            def do_GET(self):
                path = self.path.split("?")[0].split("#")[0]
                if path.endswith(".wasm"):
                    time.sleep(hold_module)
                kind, body, packed = files.get("/index.html" if path == "/" else path, ("text/plain", b"not found\n", None))
                encoding, tag = "", ""
                if packed and kind != "application/octet-stream" and "gzip" in self.headers.get("Accept-Encoding", ""):
                    body, encoding = packed, "Content-Encoding: gzip\r\n"
                if packed:
                    # A validator as `nimbot web` sends (its bytes' CRC-32 and
                    # length, and the encoding): a browser that has the file gets 304.
                    plain = files["/index.html" if path == "/" else path][1]
                    tag = f'"{zlib.crc32(plain):08x}-{len(plain):x}{"-gz" if encoding else ""}"'
                fresh = tag and tag in [t.strip() for t in self.headers.get("If-None-Match", "").split(",")]
                status = "304 Not Modified" if fresh else "200 OK" if packed else "404 Not Found"
                length = "" if fresh else f"Content-Length: {len(body)}\r\n"
                validator = f"ETag: {tag}\r\n" if tag else ""
                self.wfile.write(f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\n{length}{encoding}{validator}"
                                 "Vary: Accept-Encoding\r\nCache-Control: no-cache\r\n"
                                 "X-Content-Type-Options: nosniff\r\n\r\n".encode() + (b"" if fresh else body))

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


def browser(out):
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for f in FLAGS:
        opts.add_argument(f)
    opts.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='nimbot-chromium-')}")
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    d = webdriver.Chrome(options=opts, service=service)
    d.set_script_timeout(600)
    return d


def load(d, url):
    """Load `url` (None: wait for the page already loading) until its module is in."""
    if url:
        d.get(url)
    for _ in range(200):
        if d.execute_script("return window.nimbotReady === true"):
            return
        time.sleep(0.05)
    fail(f"the page did not load its module: {d.find_element(By.TAG_NAME, 'main').text[:300]}")


# ---- a rules peer, from the rules (docs/rules.md), not from nimbot's code -----

def replay_rules(n, r, m, moves):
    """The winner (0 first) of `moves` from the start, checking each is legal."""
    stones, largest, resets, pending = n, 0, [r, r], False
    for i, (take, reset) in enumerate(moves):
        mover = i % 2
        check(stones > 0, f"move {i + 1} after the game ended: {moves}")
        limit = m if pending else max(m, largest + 1)
        check(1 <= take <= limit, f"move {i + 1} takes {take}, limit {limit}: {moves}")
        check(not reset or resets[mover] > 0, f"move {i + 1} resets with none left: {moves}")
        if reset:
            resets[mover] -= 1
        stones -= min(take, stones)
        largest = max(largest, take)
        pending = reset
        if stones == 0:
            check(i == len(moves) - 1, f"moves after the last stone: {moves}")
            return mover
    return None


# ---- the explorer against `nimbot moves` ----------------------------------------

def random_positions(rng, count):
    """Positions S C A B F M: most inside the table (N <= 999, R <= 4, M = 3), some
    beyond it (bigger piles, five resets, another M)."""
    out = []
    for i in range(count):
        if i % 40 == 39:  # beyond the table: solved in the browser
            kind = i // 40 % 3
            s = rng.randint(1000, 1300) if kind == 0 else rng.randint(2, 400)
            r = 5 if kind == 1 else 4
            m = rng.choice([2, 4]) if kind == 2 else 3
        else:
            s, r, m = rng.randint(1, 999), 4, 3
        c = rng.randint(m, max(m, min(s + 1, 48)))
        out.append((s, c, rng.randint(0, r), rng.randint(0, r), rng.randint(0, 1), m))
    return out


SHOW = """
const [positions, done] = [arguments[0], arguments[arguments.length - 1]];
const out = [];
for (const [s, c, a, b, f, m] of positions) {
  nimbot.route(`#explore?m=${m}&pos=${s}.${c}.${a}.${b}.${f}`);
  nimbot.settle();
  const v = document.getElementById('ex-value');
  const rows = [...document.querySelectorAll('#ex-moves tbody tr')].map((tr) =>
    [Number(tr.dataset.take), tr.dataset.reset === '1', tr.dataset.value,
     tr.dataset.distance === '' ? null : Number(tr.dataset.distance)]);
  out.push(v ? [v.dataset.value, v.dataset.distance === '' ? null : Number(v.dataset.distance), rows]
             : ['error', document.getElementById('ex-status').textContent, []]);
}
done(out);
"""


def best_first(moves):
    """`nimbot moves`' order: winning moves fastest first, then losing ones longest
    first; equal ones in the probe's order."""
    return sorted(moves, key=lambda mv: (0, mv[3]) if mv[2] == "win" else (1, -mv[3]))


def explorer_agrees(d, nimbot, rng, count):
    positions = random_positions(rng, count)
    lines = "".join(" ".join(map(str, p)) + "\n" for p in positions)
    cli = subprocess.run([nimbot, "moves", "--batch"], input=lines, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    check(len(cli) == len(positions), "one answer a position from nimbot moves --batch")
    t = time.time()
    shown = []
    for i in range(0, len(positions), 100):
        shown += d.execute_async_script(SHOW, positions[i:i + 100])
    secs = time.time() - t
    beyond = 0
    for p, want, got in zip(positions, cli, shown):
        want = json.loads(want)
        check("error" not in want, f"{p}: nimbot moves refused it: {want}")
        check(got[0] == want["value"] and got[1] == want["distance"],
              f"{p}: the explorer says {got[0]} {got[1]}, nimbot moves {want['value']} {want['distance']}")
        moves = [(mv["take"], mv["reset"], mv["value"], mv["distance"]) for mv in want["moves"]]
        rows = [tuple(r) for r in got[2]]
        check(rows == best_first(moves), f"{p}: the explorer lists {rows}, nimbot moves {moves}")
        beyond += p[0] > 999 or p[3] > 4 or p[2] > 4 or p[5] != 3
    print(f"explorer: {len(positions)} positions agree with nimbot moves --json "
          f"({beyond} beyond the table), {secs:.1f} s in the browser")


def explorer_links(d, url):
    """A permalink by moves, a click on a move, the best line's record."""
    load(d, url + "#explore?n=20&r=4&m=3&moves=3.2.2r")
    status = d.find_element(By.ID, "ex-status").text
    check(status.startswith("13 stones, cap 4, limit 3, resets 4 (mover) and 3, a reset pending"), status)
    first = d.find_element(By.CSS_SELECTOR, "#ex-moves tbody tr td a")
    take = first.text
    first.click()
    for _ in range(100):
        href = d.find_element(By.ID, "ex-download").get_attribute("href") or ""
        if d.current_url.endswith(f"moves=3.2.2r.{take}") and href.startswith("blob:"):
            break
        time.sleep(0.05)
    check(d.current_url.endswith(f"moves=3.2.2r.{take}"), d.current_url)
    check(href.startswith("blob:"), f"no record to download: {href}")
    text = d.execute_async_script(
        "fetch(arguments[0]).then((r) => r.text()).then(arguments[arguments.length - 1])", href)
    lines = [json.loads(x) for x in text.splitlines()]
    plies = [(x["take"], x["reset"]) for x in lines if x["kind"] == "ply"]
    check(lines[0]["kind"] == "header" and lines[-1]["kind"] == "end", text)
    check(replay_rules(20, 4, 3, plies) == lines[-1]["winner"], f"the record's winner: {text}")
    # The best line from there: each ply's distance one less.
    dists = [x["distance"] for x in lines if x["kind"] == "ply"][4:]
    check(dists == list(range(len(dists), 0, -1)), f"the line's distances {dists}")
    strip = d.find_elements(By.CSS_SELECTOR, "#ex-line li")
    check([li.text for li in strip] == [f"{t}{'r' if r else ''}" for t, r in plies[4:]],
          f"the best line's strip {[li.text for li in strip]}, the record's {plies[4:]}")
    # The board: the pile drawn, a click on the second stone walks into taking 2.
    load(d, url + "#explore?n=20&r=4&m=3&moves=3.2.2r")
    board = None
    for _ in range(100):
        # Once the distances and the best line are in (the board is drawn after them).
        if (d.find_element(By.ID, "ex-download").get_attribute("href") or "").startswith("blob:"):
            time.sleep(0.2)
            board = d.execute_script("""
                const cs = [...document.querySelectorAll('#ex-board circle.stone')];
                return { stones: cs.length, legal: cs.filter((c) => c.classList.contains('legal'))
                  .map((c) => c.classList.contains('win') || c.classList.contains('lose')) };""")
            break
        time.sleep(0.05)
    check(board and board["stones"] == 13, f"the explorer's board draws {board}, not 13 stones")
    check(len(board["legal"]) == 3 and all(board["legal"]),
          "the explorer's board: three takes, each coloured by its value")
    d.find_element(By.CSS_SELECTOR, '#ex-board circle[data-k="2"]').click()
    check(d.current_url.endswith("moves=3.2.2r.2"), f"a click on the second stone: {d.current_url}")


# ---- Fibonacci Nim and Super-Nim: rules peers and searches written from the rules --

def fib_wins(stones, limit, memo={}):
    """Whether the mover wins Fibonacci Nim with `stones` left, taking 1..limit."""
    limit = min(limit, stones)
    if (stones, limit) not in memo:
        memo[(stones, limit)] = any(k == stones or not fib_wins(stones - k, 2 * k)
                                    for k in range(1, limit + 1))
    return memo[(stones, limit)]


def sn_moves(heaps):
    """Super-Nim's moves from `heaps` (a sorted tuple), by the rules: (name, heaps
    after, points)."""
    out, sizes = [], sorted(set(heaps))
    def without(*hs):
        rest = list(heaps)
        for h in hs:
            rest.remove(h)
        return rest
    for i, a in enumerate(sizes):
        for b in sizes[i + 1:]:
            out.append((f"m{a}-{b}", tuple(sorted(without(a, b) + [min(a + b, 10)])), 0))
        if a % 2:
            if 3 * a + 1 <= 9999:
                out.append((f"g{a}", tuple(sorted(without(a) + [3 * a + 1])), 0))
        elif a == 2:
            out.append(("s2", tuple(sorted(without(2))), 2))
        else:
            out.append((f"s{a}", tuple(sorted(without(a) + [a // 2, a // 2])), 0))
    return out


def sn_margin(heaps, plies, memo={}):
    """The mover's points from here minus the opponent's with best play to the cap."""
    if plies == 0 or not heaps:
        return 0
    if (heaps, plies) not in memo:
        memo[(heaps, plies)] = max(p - sn_margin(h, plies - 1) for _, h, p in sn_moves(heaps))
    return memo[(heaps, plies)]


def sn_play(heaps, cap, moves):
    """The heaps, points and plies left after `moves`, each checked legal."""
    heaps, points = tuple(sorted(heaps)), [0, 0]
    for i, mv in enumerate(moves):
        check(i < cap and heaps, f"move {i + 1} after the end: {moves}")
        step = {name: (h, p) for name, h, p in sn_moves(heaps)}
        check(mv in step, f"move {i + 1} ({mv}) is not legal from {heaps}")
        heaps, got = step[mv]
        points[i % 2] += got
    return heaps, points, cap - len(moves)


def cli_moves(nimbot, game, args):
    """`nimbot moves --game GAME ... --json`, if this nimbot has it (None if not)."""
    r = subprocess.run([nimbot, "moves", "--game", game, *args, "--json"], capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 and r.stdout.strip() else None


SHOW_OTHER = """
const [links, done] = [arguments[0], arguments[arguments.length - 1]];
done(links.map((link) => {
  nimbot.route(link);
  const v = document.getElementById('ox-value');
  const rows = [...document.querySelectorAll('#ox-moves tbody tr')].map((tr) => [tr.dataset.move, tr.dataset.value]);
  return v ? [v.dataset.value, rows] : ['error', document.getElementById('ox-status').textContent];
}));
"""


def fibonacci_agrees(d, nimbot, rng, count):
    """The explorer's Fibonacci positions: every take's value as a plain search
    says, the position's value as `nimbot query --game fibonacci` says."""
    cases, compared_moves = [], 0
    for _ in range(count):
        n = rng.randint(2, 80)
        stones, limit, takes = n, n - 1, []
        for _ in range(rng.randint(0, 6)):
            if stones == 0:
                break
            take = rng.randint(1, min(limit, stones))
            if take == stones:
                break
            takes.append(take)
            stones, limit = stones - take, 2 * take
        cases.append((n, takes, stones, limit))
    links = [f"#explore?game=fibonacci&n={n}&moves={'.'.join(map(str, t))}" for n, t, _, _ in cases]
    shown = d.execute_async_script(SHOW_OTHER, links)
    for (n, takes, stones, limit), got in zip(cases, shown):
        check(got[0] != "error", f"fibonacci {n} {takes}: {got[1]}")
        want = "win" if fib_wins(stones, limit) else "lose"
        check(got[0] == want, f"fibonacci {n} {takes}: the page says {got[0]}, the search {want}")
        rows = [(int(m), v) for m, v in got[1]]
        check([m for m, _ in rows] == list(range(1, min(limit, stones) + 1)), f"fibonacci {n} {takes}: takes {rows}")
        for take, value in rows:
            mine = take == stones or not fib_wins(stones - take, 2 * take)
            check(value == ("win" if mine else "lose"), f"fibonacci {n} {takes} take {take}: {value}")
        q = json.loads(subprocess.run([nimbot, "query", "--game", "fibonacci", str(stones), str(limit), "--json"],
                                      capture_output=True, text=True, check=True).stdout)
        check(q["value"] == got[0], f"fibonacci {stones} {limit}: nimbot query says {q['value']}, the page {got[0]}")
        cli = cli_moves(nimbot, "fibonacci", [str(stones), str(limit)])
        if cli is not None:
            want_rows = [(m["take"], m["value"]) for m in cli["moves"]]
            check(sorted(want_rows) == sorted(rows), f"fibonacci {stones} {limit}: nimbot moves {want_rows}, the page {rows}")
            compared_moves += 1
    return count, compared_moves


def super_nim_agrees(d, nimbot, rng, count):
    """The explorer's Super-Nim positions from small starts: every move's margin
    as a plain minimax written here says, the game replayed by the rules."""
    compared_moves, cases = 0, []
    for _ in range(count):
        start = tuple(sorted(rng.randint(1, 6) for _ in range(rng.randint(1, 3))))
        cap = rng.randint(1, 8)
        heaps, moves = start, []
        for _ in range(rng.randint(0, min(3, cap - 1))):
            options = sn_moves(heaps)
            if not options:
                break
            name, heaps, _ = rng.choice(options)
            moves.append(name)
            if not heaps:
                break
        cases.append((start, cap, moves))
    links = [f"#explore?game=super-nim&heaps={'.'.join(map(str, st))}&cap={cap}&moves={'.'.join(ms)}"
             for st, cap, ms in cases]
    shown = d.execute_async_script(SHOW_OTHER, links)
    for (start, cap, moves), got in zip(cases, shown):
        check(got[0] != "error", f"super-nim {start} cap {cap} {moves}: {got[1]}")
        heaps, points, left = sn_play(start, cap, moves)
        if left == 0 or not heaps:
            check(got[0] == "over", f"super-nim {start} cap {cap} {moves}: over, the page says {got}")
            continue
        check(int(got[0]) == sn_margin(heaps, left),
              f"super-nim {start} cap {cap} {moves}: margin {got[0]}, the search {sn_margin(heaps, left)}")
        want = sorted((name, p - sn_margin(h, left - 1)) for name, h, p in sn_moves(heaps))
        rows = sorted((m, int(v)) for m, v in got[1])
        check(rows == want, f"super-nim {start} cap {cap} {moves}: the page lists {rows}, the search {want}")
        cli = cli_moves(nimbot, "super-nim", [" ".join(map(str, heaps)), "--cap", str(left)])
        if cli is not None:
            compared_moves += 1
    return count, compared_moves


def drawn(d):
    """What the board shows: the stones left (not those leaving), the stones one
    may take, each seat's reset tokens (filled: left), and the heaps."""
    return d.execute_script("""
        const svg = document.querySelector('#pl-board svg');
        if (!svg) return null;
        const mid = svg.viewBox.baseVal.width / 2;
        const tokens = [...svg.querySelectorAll('rect.token')];
        const left = (side) => tokens.filter((t) => (Number(t.getAttribute('x')) < mid) === (side === 0)
            && t.getAttribute('fill') !== 'none').length;
        return {
          stones: svg.querySelectorAll('circle.stone:not(.leaving)').length,
          legal: svg.querySelectorAll('circle.stone.legal').length,
          resets: [left(0), left(1)],
          heaps: [...svg.querySelectorAll('g.col')].map((g) => Number(g.dataset.size)),
        };""")


def board_agrees(d, label, game, peer):
    """The board against the module's position and the test's own rules peer."""
    st = d.execute_script("return window.nimbot.playing()")
    shown = drawn(d)
    check(shown is not None, f"{label}: no board")
    if game == "super-nim":
        check(sorted(shown["heaps"]) == sorted(st["heaps"]) == sorted(peer["heaps"]),
              f"{label}: heaps drawn {shown['heaps']}, the module's {st['heaps']}, the rules' {peer['heaps']}")
        return st
    check(shown["stones"] == st["stones"] == peer["stones"],
          f"{label}: {shown['stones']} stones drawn, the module's {st['stones']}, the rules' {peer['stones']}")
    mine = st["mover"] == st["human"] and st.get("winner") is None
    if mine:
        check(shown["legal"] == min(st["limit"], st["stones"]) == min(peer["limit"], peer["stones"]),
              f"{label}: {shown['legal']} stones to take drawn, limit {st['limit']} (rules: {peer['limit']})")
    if game == "expanding":
        check(shown["resets"] == st["resets"] == peer["resets"],
              f"{label}: resets drawn {shown['resets']}, the module's {st['resets']}, the rules' {peer['resets']}")
    return st


def peer_state(game, start, moves):
    """The position after `moves` by the test's rules peer."""
    if game == "expanding":
        n, r, m = start
        stones, largest, resets, pending = n, 0, [r, r], False
        for i, (take, reset) in enumerate(moves):
            stones -= min(take, stones)
            largest = max(largest, take)
            if reset:
                resets[i % 2] -= 1
            pending = reset
        return {"stones": stones, "resets": resets, "limit": m if pending else max(m, largest + 1)}
    if game == "fibonacci":
        stones, limit = start, start - 1
        for take in moves:
            stones, limit = stones - take, 2 * take
        return {"stones": stones, "limit": limit}
    heaps, _, _ = sn_play(start[0], start[1], moves)
    return {"heaps": list(heaps)}


def played(d):
    return [(int(li.get_attribute("data-seat")), li.get_attribute("data-move"))
            for li in d.find_elements(By.CSS_SELECTOR, "#pl-moves li")]


def parse_move(game, mv):
    if game == "expanding":
        return (int(mv.rstrip("r")), mv.endswith("r"))
    return int(mv) if game == "fibonacci" else mv


def click_to_the_end(d, rng, game, start, human, hints, undo, steps, reset_chance=0.0, shots=None):
    """Press New game and click the board (random stones, the reset toggle now and
    then; heaps in Super-Nim), with hints on or off and one undo at the second
    step if asked, until the page names a winner; after each move the board is
    checked against the module's position and the rules peer's. Returns the
    status and the moves, each by the seat the page says moved."""
    d.find_element(By.ID, "pl-new").click()
    # The page may keep the box from the last game (a new hash is no new page).
    if d.find_element(By.ID, "pl-hints").is_selected() != hints:
        d.find_element(By.ID, "pl-hints").click()
    checked = 0
    for step in range(steps):
        moves = [parse_move(game, mv) for _, mv in played(d)]
        peer = peer_state(game, start, moves)
        st = board_agrees(d, f"{game} after {len(moves)} moves", game, peer)
        checked += 1
        status = d.find_element(By.ID, "pl-status")
        if status.get_attribute("data-winner") is not None:
            break
        if shots and step == 2:
            for width in (1400, 375):
                d.set_window_size(width, 1000)
                path = os.path.join(shots, f"board-{game}-{width}.png")
                d.save_screenshot(path)
            d.set_window_size(1400, 1000)
            axe_check(d, f"play {game}")
        if game == "super-nim":
            k = rng.randrange(len(st["moves"]))
            touches = st["touches"][k]
            cols = d.find_elements(By.CSS_SELECTOR, "#pl-board g.col")
            first = next(i for i, c in enumerate(cols) if int(c.get_attribute("data-size")) == touches[0])
            cols[first].click()
            cols = d.find_elements(By.CSS_SELECTOR, "#pl-board g.col")
            if len(touches) == 1:
                cols[first].click()
            else:
                second = next(i for i, c in enumerate(cols) if i != first and int(c.get_attribute("data-size")) == touches[1])
                cols[second].click()
        else:
            if reset_chance and rng.random() < reset_chance:
                toggle = d.find_element(By.ID, "pl-reset")
                if toggle.is_enabled():
                    toggle.click()
            stones = d.find_elements(By.CSS_SELECTOR, "#pl-board circle.stone.legal")
            check(stones, f"{game}: no stone to click: {status.text}")
            if hints:
                check(all({"win", "lose"} & set(c.get_attribute("class").split()) for c in stones),
                      f"{game}: a hint on every stone")
            rng.choice(stones).click()
        if undo and step == 1:
            before = len(played(d))
            d.find_element(By.ID, "pl-undo").click()
            after = len(played(d))
            check(after < before, f"{game} undo: {before} -> {after} moves")
    else:
        fail(f"the {game} game did not end")
    moves = []
    for i, (seat, mv) in enumerate(played(d)):
        check((seat == human) == (i % 2 == human) and seat == i % 2, f"{game} move {i + 1} by the wrong seat")
        moves.append(mv)
    return d.find_element(By.ID, "pl-status"), moves, checked


AXE = None


def axe_check(d, label):
    """axe-core (npm, installed by tools/web.sh) run in the page: no serious or
    critical violation. Returns the counts by impact."""
    global AXE
    if AXE is None:
        path = os.environ.get("AXE_JS", "target/web-tools/node_modules/axe-core/axe.min.js")
        check(os.path.exists(path), f"axe-core is missing ({path}): tools/web.sh install")
        with open(path) as f:
            AXE = f.read()
    if not d.execute_script("return !!window.axe"):
        d.execute_script(AXE)
    result = d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations.map("
        "(v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length, "
        "where: v.nodes.slice(0, 2).map((n) => n.target.join(' ')) }))), (e) => done(String(e)));")
    check(isinstance(result, list), f"axe on {label}: {result}")
    serious = [v for v in result if v["impact"] in ("serious", "critical")]
    check(not serious, f"axe on {label}: {serious}")
    AXE_SEEN.append((label, len(result), [f"{v['id']} ({v['impact']})" for v in result]))
    return result


AXE_SEEN = []


def play_other(d, url, rng, game, seat, hints, undo, n=None, heaps=None, cap=None, shots=None):
    """A Fibonacci Nim or Super-Nim game clicked to the end against nimbot, replayed
    here by the rules: the winner the page names is theirs."""
    load(d, url + "#play")
    d.execute_script(f"document.getElementById('pl-game').value = '{game}';"
                     "document.getElementById('pl-game').dispatchEvent(new Event('change'));"
                     f"document.querySelector('#pl-form [name=seat]').value = '{seat}';")
    # A clock of a minute each in the games without hints.
    d.execute_script(f"document.querySelector('#pl-form [name=clock]').value = '{0 if hints else 60}';")
    form = d.find_element(By.ID, "pl-form")
    fields = (("n", n),) if game == "fibonacci" else (("heaps", heaps), ("cap", cap))
    for name, value in fields:
        box = form.find_element(By.NAME, name)
        box.clear()
        box.send_keys(str(value))
    human = 0 if seat == "first" else 1
    start = n if game == "fibonacci" else (tuple(int(h) for h in heaps.split()), cap)
    status, moves, checked = click_to_the_end(d, rng, game, start, human, hints, undo, 600, shots=shots)
    clocks = d.find_element(By.ID, "pl-clocks")
    if hints:
        check(not clocks.is_displayed(), f"{game}: a clock without one chosen")
    else:
        # Each clock shown, started at 1:00, yours run down by your turns (m:ss).
        said = clocks.text
        check(said.startswith("Clock: you 0:") or said.startswith("Clock: you 1:00"), f"{game}: the clock says {said!r}")
        check(", nimbot " in said, f"{game}: the clock says {said!r}")
    said = status.get_attribute("data-winner")
    if game == "fibonacci":
        stones, limit = n, n - 1
        for i, mv in enumerate(moves):
            take = int(mv)
            check(1 <= take <= min(limit, stones), f"fibonacci move {i + 1} takes {take}, limit {limit}: {moves}")
            stones, limit = stones - take, 2 * take
        check(stones == 0, f"fibonacci: {stones} stones left at the end: {moves}")
        winner = (len(moves) - 1) % 2
    else:
        start = tuple(int(h) for h in heaps.split())
        left_heaps, points, left = sn_play(start, cap, moves)
        check(left == 0 or not left_heaps, f"super-nim: the game ended early: {moves}")
        winner = None if points[0] == points[1] else (0 if points[0] > points[1] else 1)
    check(said == ("draw" if winner is None else str(winner)), f"{game}: the page says {said}, the rules {winner}: {moves}")
    return len(moves), winner, checked


# ---- Play -------------------------------------------------------------------------

def big_board(d, url, shots):
    """A new game of N = 999 at both widths: the whole pile drawn."""
    load(d, url + "#play")
    d.execute_script("document.getElementById('pl-game').value = 'expanding';"
                     "document.getElementById('pl-game').dispatchEvent(new Event('change'));")
    form = d.find_element(By.ID, "pl-form")
    for name, value in (("n", 999), ("r", 4), ("m", 3)):
        box = form.find_element(By.NAME, name)
        box.clear()
        box.send_keys(str(value))
    d.execute_script("document.querySelector('#pl-form [name=seat]').value = 'first';")
    d.find_element(By.ID, "pl-new").click()
    peer = {"stones": 999, "limit": 3, "resets": [4, 4]}
    board_agrees(d, "a new game of 999", "expanding", peer)
    for width in (1400, 375):
        d.set_window_size(width, 1000)
        d.save_screenshot(os.path.join(shots, f"board-expanding-999-{width}.png"))
    d.set_window_size(1400, 1000)
    # By keys alone: the board focused, the arrow to the second stone, Enter takes 2.
    from selenium.webdriver.common.keys import Keys
    board = d.find_element(By.CSS_SELECTOR, "#pl-board svg")
    d.execute_script("arguments[0].focus()", board)
    board.send_keys(Keys.ARROW_RIGHT)
    board.send_keys(Keys.ENTER)
    moves = played(d)
    check(moves and moves[0] == (0, "2"), f"the keys took {moves[:1]}, not 2")
    peer = peer_state("expanding", (999, 4, 3), [parse_move("expanding", mv) for _, mv in moves])
    board_agrees(d, "after a take by keys", "expanding", peer)


def play_game(d, url, rng, n, r, seat, policy, hints, undo, shots=None):
    load(d, url + "#play")
    d.execute_script("document.getElementById('pl-game').value = 'expanding';"
                     "document.getElementById('pl-game').dispatchEvent(new Event('change'));")
    form = d.find_element(By.ID, "pl-form")
    for name, value in (("n", n), ("r", r), ("m", 3)):
        box = form.find_element(By.NAME, name)
        box.clear()
        box.send_keys(str(value))
    d.execute_script(f"document.querySelector('#pl-form [name=seat]').value = '{seat}';"
                     f"document.querySelector('#pl-form [name=policy]').value = '{policy}';")
    human = 0 if seat == "first" else 1
    status, words, checked = click_to_the_end(d, rng, "expanding", (n, r, 3), human, hints, undo, 400,
                                              reset_chance=0.25, shots=shots)
    winner = int(status.get_attribute("data-winner"))
    moves = [(int(mv.rstrip("r")), mv.endswith("r")) for mv in words]
    check(replay_rules(n, r, 3, moves) == winner, f"the page's winner {winner} for {words}")
    said = "you win" if winner == human else "nimbot wins"
    check(said in status.text, status.text)
    check(not d.find_element(By.ID, "pl-end").get_attribute("hidden"), "the record link at the end")
    check(d.find_elements(By.CSS_SELECTOR, "#pl-chart svg"), "the value history under the board")
    return len(moves), winner == human, checked


# ---- Analysis ---------------------------------------------------------------------

def random_game(rng, n, r, m):
    """Random legal moves to the end (a rules peer), as (take, reset)."""
    stones, largest, resets, pending, moves = n, 0, [r, r], False, []
    while stones:
        mover = len(moves) % 2
        limit = m if pending else max(m, largest + 1)
        take = rng.randint(1, min(limit, stones))
        reset = take < stones and resets[mover] > 0 and rng.random() < 0.3
        resets[mover] -= reset
        stones -= take
        largest = max(largest, take)
        pending = reset
        moves.append((take, reset))
    return moves


def game_log(n, m, moves, names):
    out, stones, largest, pending = [], n, 0, False
    for i, (take, reset) in enumerate(moves):
        stones -= take
        largest = max(largest, take)
        limit = m if reset else max(m, largest + 1)
        used = " and used reset" if reset else ""
        out += [f"Player {names[i % 2]} took {take} stones{used}.", f"Current max: {limit}",
                f"Stones left: {stones}", "-" * 39]
    out += ["Game over", f"Player {names[(len(moves) - 1) % 2]} won the game! Congrats!"]
    return "\n".join(out) + "\n"


def record(n, r, m, moves, names):
    lines = [{"kind": "header", "format": 1, "command": "serve", "stones": n, "resets": r,
              "init_max": m, "names": names, "seat": None, "nimbot": "test", "policy": None,
              "started_unix": 0.0}]
    for i, (take, reset) in enumerate(moves):
        lines.append({"kind": "ply", "ply": i + 1, "seat": i % 2, "take": take, "reset": reset,
                      "value": "win", "distance": None, "blunder": False, "refused": False,
                      "clock": None})
    lines.append({"kind": "end", "winner": (len(moves) - 1) % 2, "reason": "over"})
    return "".join(json.dumps(x) + "\n" for x in lines)


def analysis_agrees(d, url, nimbot, tmp, rng, name, text, r, m):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    out = subprocess.run([nimbot, "analyze", path, "--json", "-r", str(r), "-m", str(m)],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    plies = [json.loads(x) for x in out[:-1]]
    blunders = [p["ply"] for p in plies if p["blunder"]]
    load(d, url + "#analysis")
    # (The last analysis's chart goes first: a new hash is no new page.)
    d.execute_script(f"document.getElementById('an-r').value = {r};"
                     f"document.getElementById('an-m').value = {m};"
                     "document.getElementById('an-chart').innerHTML = '';")
    d.find_element(By.ID, "an-file").send_keys(path)
    for _ in range(100):
        if d.find_elements(By.CSS_SELECTOR, "#an-svg"):
            break
        time.sleep(0.05)
    points = d.find_elements(By.CSS_SELECTOR, "#an-svg circle.ply")
    check(len(points) == len(plies), f"{name}: {len(points)} points for {len(plies)} plies")
    ringed = [int(c.get_attribute("data-ply")) for c in d.find_elements(By.CSS_SELECTOR, "#an-svg circle.blunder")]
    check(ringed == blunders, f"{name}: the chart rings {ringed}, nimbot analyze names {blunders}")
    rows = d.find_elements(By.CSS_SELECTOR, "#an-plies tbody tr")
    check(len(rows) == len(plies), f"{name}: {len(rows)} rows for {len(plies)} plies")
    for row, p in zip(rows, plies):
        cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        want = f"{p['value']} {p['distance'] if p['distance'] is not None else '-'}"
        check(cells[5] == want, f"{name} ply {p['ply']}: {cells[5]!r}, nimbot analyze {want!r}")
    if blunders:
        first = d.find_element(By.CSS_SELECTOR, "#an-svg text.first-blunder").text
        check(first.startswith(f"first blunder: ply {blunders[0]} by seat "), first)
    return len(plies), blunders


def test(args):
    os.makedirs(args.out, exist_ok=True)
    server = Server(args.nimbot)
    tmp = tempfile.mkdtemp(prefix="nimbot-web-test-")
    d = None
    try:
        # A second server on the same port: one clear line.
        taken = subprocess.run([args.nimbot, "web", "--port", str(server.port)],
                               capture_output=True, text=True, timeout=20)
        check(taken.returncode == 3 and "is taken" in taken.stderr
              and len(taken.stderr.strip().splitlines()) == 1, f"port taken: {taken.stderr!r}")
        with urllib.request.urlopen(server.url + "nimbot.wasm") as r:
            check(r.headers["Content-Type"] == "application/wasm", "the module's type")
        d = browser(args.out)
        rng = random.Random(32)
        t0 = time.time()
        load(d, server.url + "#explore?n=999&r=4&m=3")
        # The table's distances came with the page (distances.bin, taken by the
        # module), not solved.
        check(d.execute_script("return !!window.nimbotDistancesLoaded"),
              "the module did not take distances.bin")
        d.save_screenshot(os.path.join(args.out, "explore.png"))
        explorer_agrees(d, args.nimbot, rng, 1000)
        explorer_links(d, server.url)
        axe_check(d, "explore")
        d.set_window_size(1400, 1000)
        g1 = play_game(d, server.url, rng, 40, 2, "first", "trap", hints=True, undo=True, shots=args.out)
        d.save_screenshot(os.path.join(args.out, "play.png"))
        g2 = play_game(d, server.url, rng, 25, 1, "second", "longest", hints=False, undo=False)
        print(f"play: two games clicked to the end on the board ({g1[0]} and {g2[0]} plies, the board "
              f"checked {g1[2] + g2[2]} times against the module's position and the rules'), "
              "each ended as the rules say")
        big_board(d, server.url, args.out)
        before_the_module(d)
        print("before the module: the view the address names drawn and painted without answers, "
              "a game asked for says it is loading and starts when the module is in")
        fib = fibonacci_agrees(d, args.nimbot, rng, 200)
        sn = super_nim_agrees(d, args.nimbot, rng, 200)
        print(f"explorer: {fib[0]} Fibonacci Nim positions agree with a plain search and with "
              f"nimbot query --game fibonacci ({fib[1]} also with nimbot moves --game fibonacci); "
              f"{sn[0]} Super-Nim positions of small starts agree with a plain minimax "
              f"({sn[1]} compared with nimbot moves --game super-nim)")
        load(d, server.url + "#explore?game=super-nim&heaps=2.4.5&cap=24")
        d.save_screenshot(os.path.join(args.out, "explore-super-nim.png"))
        p1 = play_other(d, server.url, rng, "fibonacci", "first", hints=True, undo=True, n=30, shots=args.out)
        p2 = play_other(d, server.url, rng, "fibonacci", "second", hints=False, undo=False, n=21)
        p3 = play_other(d, server.url, rng, "super-nim", "first", hints=True, undo=True, heaps="2 4 5", cap=24,
                        shots=args.out)
        d.save_screenshot(os.path.join(args.out, "play-super-nim.png"))
        p4 = play_other(d, server.url, rng, "super-nim", "second", hints=False, undo=False, heaps="1 2 3 6", cap=30)
        print(f"play: Fibonacci Nim ({p1[0]} and {p2[0]} plies) and Super-Nim ({p3[0]} and {p4[0]} plies) "
              f"clicked to the end on the board against nimbot (the board checked {p1[2] + p2[2] + p3[2] + p4[2]} "
              "times), each ended as the rules say")
        moves = random_game(rng, 60, 4, 3)
        names = ["py one", "nimbot"]
        a1 = analysis_agrees(d, server.url, args.nimbot, tmp, rng, "game-log.txt",
                             game_log(60, 3, moves, names), 4, 3)
        moves = random_game(rng, 120, 2, 3)
        a2 = analysis_agrees(d, server.url, args.nimbot, tmp, rng, "game.jsonl",
                             record(120, 2, 3, moves, ["a", "b"]), 2, 3)
        d.save_screenshot(os.path.join(args.out, "analysis.png"))
        axe_check(d, "analysis")
        print("axe-core: no serious or critical violation; " + "; ".join(
            f"{label}: {n} minor" + (f" ({', '.join(ids)})" if ids else "") for label, n, ids in AXE_SEEN))
        print(f"analysis: a game log ({a1[0]} plies, blunders at {a1[1]}) and a record "
              f"({a2[0]} plies, blunders at {a2[1]}) drawn as nimbot analyze says")
        print(f"browser test passed in {time.time() - t0:.1f} s; screenshots in {args.out}/"
              "{explore,play,analysis,explore-super-nim,play-super-nim}.png and "
              "board-{expanding,expanding-999,fibonacci,super-nim}-{1400,375}.png")
    finally:
        if d:
            d.quit()
        server.close()
        shutil.rmtree(tmp, ignore_errors=True)


BENCH = """
const done = arguments[arguments.length - 1];
let x = 12345;
const rng = (n) => { x = (x * 1103515245 + 12345) % 2147483648; return Math.floor(x / 2147483648 * n); };
let worst = [-1, null];
// Each position thrice, its least time kept: the rest is other processes' (and
// the collector's) noise; the worst single time is reported beside.
let single = 0;
const time = (p, reps = 3) => {
  let dt = Infinity;
  for (let k = 0; k < reps; k++) {
    const t = performance.now();
    nimbot.probe(p);
    const d = performance.now() - t;
    dt = Math.min(dt, d);
    single = Math.max(single, d);
  }
  if (dt > worst[0]) worst = [dt, p];
  return dt;
};
// The table's box (every game with N <= 999, R <= 4, M = 3): cap c holds the
// piles c + 1 ..= hi(c), hi(3) = 999, hi(c + 1) = hi(c) - c.
const caps = [];
for (let c = 3, hi = 999; hi > c; hi -= c, c++) caps.push([c, hi]);
const inBox = [];
// Every pile and cap with both players' four resets and none pending: the most
// moves a position has (twice its limit), each one looked up.
for (const [c, hi] of caps) for (let s = c + 1; s <= hi; s++) inBox.push(time({ s, c, a: 4, b: 4, f: 0, m: 3 }));
const sweep = inBox.length;
// Random positions of the box, every kind (resets, a pending reset, caps that
// no longer bind).
for (let i = 0; i < 3000; i++) {
  const s = 1 + rng(999);
  // The caps of the box at this pile; a cap that no longer binds (c >= s) is
  // in a game with N <= 999 only up to one above the box's top cap.
  const top = caps[caps.length - 1][0] + 1;
  const fits = caps.filter(([c, hi]) => c < s && s <= hi).map(([c]) => c)
    .concat(s <= top ? [Math.max(3, s) + rng(top + 1 - Math.max(3, s))] : []);
  const c = fits[rng(fits.length)];
  inBox.push(time({ s, c, a: rng(5), b: rng(5), f: rng(2), m: 3 }));
}
const slowest = worst[1];
const singleWorst = single;
// Positions of no game with N <= 999 (a cap such games never reach at that
// pile), solved on demand; then a move from each (the same box, kept). Timed
// once each: the first time is the solve.
const beyond = [], next = [];
for (let i = 0; i < 20; i++) {
  const s = 600 + rng(400);
  const over = caps.filter(([c, hi]) => hi < s && c < s).map(([c]) => c);
  const p = { s, c: over[rng(over.length)], a: rng(5), b: rng(5), f: 0, m: 3 };
  beyond.push(time(p, 1));
  next.push(time(nimbot.after(p, { take: 1, reset: false }), 1));
}
done({ inBox, sweep, beyond, next, slowest, singleWorst });
"""

LOAD_MARKS = """
const done = arguments[arguments.length - 1];
const n = performance.getEntriesByType('navigation')[0];
const mark = (name) => (performance.getEntriesByName(name)[0] || {}).startTime;
const fcp = (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime;
// Before element timing (an older build, --versus): the page's first contentful
// paint if the answer was in the document before it, else the end of the frame
// after the answer (a task queued from that frame's requestAnimationFrame).
const guess = fcp >= window.nimbotFirstAnswer ? fcp : window.nimbotFirstPaint;
let sent = false;
const marks = (painted) => !sent && (sent = true) && done({ page: n.responseEnd, fcp, shown: painted ?? guess, timed: painted !== undefined,
  instantiated: mark('nimbot-instantiated'), answer: window.nimbotFirstAnswer, painted: window.nimbotFirstPaint,
  loaded: window.nimbotDistancesLoaded, distances: window.nimbotFirstDistances });
// On screen: the frame that painted the first answer's text, as the browser
// reports it (element timing: the value's element carries elementtiming="answer";
// its entries are buffered, so an observer made now still gets the first).
try {
  new PerformanceObserver((list, obs) => {
    const first = list.getEntries().filter((e) => e.identifier === 'answer').map((e) => e.renderTime || e.loadTime);
    obs.disconnect();
    marks(first.length ? Math.min(...first) : undefined);
  }).observe({ type: 'element', buffered: true });
  // No entry at all (an older build): the guess.
  setTimeout(() => marks(undefined), 500);
} catch (e) {
  marks(undefined);
}
"""

SITE = ("index.html", "app.js", "nimbot.wasm", "distances.bin")


def stats(xs, digits=1):
    xs = sorted(xs)
    return f"median {statistics.median(xs):.{digits}f} ms, worst {xs[-1]:.{digits}f} ms"


def before_the_module(d):
    """The page with its module held back (served 2 s late): the view the
    address names is drawn and painted without answers, a game asked for says it
    is loading, and both are answered once the module is in."""
    site = StaticSite(os.path.join(os.path.dirname(os.path.abspath(__file__)), "site"), hold_module=2.0)

    def until(script, what):
        for _ in range(60):
            if d.execute_script(script):
                return
            time.sleep(0.025)
        fail(f"before the module: {what}")

    try:
        d.get("about:blank")
        # Not d.get: it waits for the page's load event, which waits for the module.
        d.execute_script("location.href = arguments[0]", site.url + "#explore?n=50&r=2&m=3")
        until("return !!window.nimbot && document.querySelector('#ex-form [name=n]').value === '50'",
              "app.js did not fill in the explorer's form")
        until("return performance.getEntriesByName('first-contentful-paint').length === 1",
              "the page did not paint before its module was in")
        check(not d.find_element(By.ID, "explore").get_attribute("hidden")
              and d.find_element(By.ID, "ex-status").text == ""
              and not d.execute_script("return !!window.nimbotFirstAnswer"),
              "before the module: the explorer is not shown without its answer")
        load(d, None)
        # Read in one script: the status line is redrawn when the distances come.
        check(d.execute_script("const v = document.getElementById('ex-value'); return v && v.dataset.value;")
              in ("win", "lose"), "the explorer's answer once the module is in")
        d.get("about:blank")
        d.execute_script("location.href = arguments[0]", site.url + "#play")
        until("return !!window.nimbot && !document.getElementById('play').hidden", "the play view is not shown")
        d.find_element(By.ID, "pl-new").click()
        check(d.find_element(By.ID, "pl-status").text == "Loading nimbot…",
              f"a game asked for before the module: {d.find_element(By.ID, 'pl-status').text!r}")
        load(d, None)
        check(d.find_element(By.ID, "pl-status").text == "Your move." and d.find_elements(By.CSS_SELECTOR, "#pl-board svg"),
              f"the game once the module is in: {d.find_element(By.ID, 'pl-status').text!r}")
    finally:
        site.close()


def first_answer(d, url):
    """Load the explorer at N = 999 afresh; the load's marks (LOAD_MARKS)."""
    d.get("about:blank")
    load(d, url + "#explore?n=999&r=4&m=3")
    for _ in range(200):
        if d.execute_script("return window.nimbotFirstDistances && window.nimbotFirstPaint"):
            break
        time.sleep(0.05)
    return d.execute_async_script(LOAD_MARKS)


WARM_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>another site</title></head>
<body style="font: 15px/1.45 system-ui, sans-serif"><h1>Another site</h1><p><b>Bold</b> and plain text.</p>
<script>
fetch('data.bin').then((r) => r.arrayBuffer())
  .then(() => WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])))
  .then(() => { window.warmed = true; });
</script></body></html>"""


def warm_up(d):
    """What a browser has done before it visits the page: shown another site
    (another origin: text, a fetch, a WebAssembly module), so that its own start
    (processes, disk cache, fonts, the compositor's first frame) is not the page's."""
    root = tempfile.mkdtemp(prefix="nimbot-warm-")
    with open(os.path.join(root, "index.html"), "w") as f:
        f.write(WARM_PAGE)
    with open(os.path.join(root, "data.bin"), "wb") as f:
        f.write(os.urandom(50_000))
    other = StaticSite(root)
    try:
        d.get(other.url)
        for _ in range(200):
            if d.execute_script("return window.warmed === true"):
                return
            time.sleep(0.02)
        fail("the warm-up page did not finish")
    finally:
        other.close()
        shutil.rmtree(root, ignore_errors=True)


def bench(args):
    server = None if args.url else Server(args.nimbot)
    url = args.url or server.url
    d = None
    loads = 9
    sites = []
    try:
        if args.versus:
            # Both builds served alike, by this script (the site as web/site/ has it).
            sites = [StaticSite(os.path.join(os.path.dirname(os.path.abspath(__file__)), "site")),
                     StaticSite(args.versus)]
        load_before = os.getloadavg()
        # What a browser transfers (gzip accepted, as every browser does), and
        # the files' own sizes.
        sizes, raw = {}, {}
        for name in SITE:
            req = urllib.request.Request(url + name, headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(req) as r:
                sizes[name] = len(r.read())
            with urllib.request.urlopen(url + name) as r:
                raw[name] = len(r.read())
        # A new browser's very first navigation, apart: it includes the
        # browser's own start.
        colds = []
        for _ in range(args.fresh):
            fresh = browser(args.out)
            try:
                colds.append(first_answer(fresh, url))
            finally:
                fresh.quit()
        cold = colds[0]
        # The nine loads: a browser that has shown another site first visits the
        # page (nothing of it cached), then comes back eight times (its files
        # revalidated, as a browser does with `no-cache`).
        d = browser(args.out)
        warm_up(d)
        runs = [first_answer(d, url) for _ in range(loads)]
        # Side by side: this build's site and the other, turn about (ABBA).
        pairs = {"this": [], "versus": []}
        for i in range(args.pairs if sites else 0):
            for which in (("this", "versus") if i % 2 == 0 else ("versus", "this")):
                pairs[which].append(first_answer(d, sites[which == "versus"].url))
        if sites:
            first_answer(d, url)
        served = d.execute_script(
            "return performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))"
            ".map((e) => [e.name, e.encodedBodySize])")
        r = d.execute_async_script(BENCH)
        col = lambda k: [x[k] for x in runs if x.get(k) is not None]
        total = sum(sizes.values())
        print(f"transfer: {total:,} B for the whole page (limit 250,000), gzip accepted: "
              + ", ".join(f"{k} {v:,} B" for k, v in sizes.items())
              + "; the files themselves: " + ", ".join(f"{k} {v:,} B" for k, v in raw.items())
              + f"; the browser fetched {len(served)} files")
        print(f"first answer after load (#explore, N = 999, from navigation start; the "
              f"position's and every move's value, from the table), {loads} loads: on screen "
              f"{stats(col('shown'))} (limit 100 ms; the frame that painted the answer, as the browser "
              f"reports it: element timing, in {sum(x['timed'] for x in runs)} of the loads); in the document "
              f"{stats(col('answer'))}")
        print(f"  the first of the nine (the first visit, nothing of the page cached): on screen {runs[0]['shown']:.1f} ms, "
              f"in the document {runs[0]['answer']:.1f} ms; a new browser's very first navigation (its own start "
              f"included, apart from the nine): on screen {cold['shown']:.1f} ms, in the document {cold['answer']:.1f} ms, "
              f"page received {cold['page']:.1f} ms, module instantiated {cold['instantiated']:.1f} ms")
        if len(colds) > 1:
            print(f"  {len(colds)} new browsers, each its very first navigation: on screen {stats([c['shown'] for c in colds])}, "
                  f"in the document {stats([c['answer'] for c in colds])}")
        print("  where a load's time goes (medians from navigation start): page received "
              + ", ".join(f"{statistics.median(col(k)):.1f} ms" if k == "page" else f"{k} {statistics.median(col(k)):.1f} ms"
                          for k in ("page", "instantiated", "answer", "fcp", "painted")))
        for which, label in (("this", "web/site/"), ("versus", args.versus)):
            if pairs[which]:
                xs = pairs[which]
                timed = sum(x["timed"] for x in xs)
                how = "element timing" if timed == len(xs) else f"element timing in {timed}, else first paint or the frame after"
                print(f"  side by side, {len(xs)} loads each in turn ({label}, served by this script): on screen "
                      f"{stats([x['shown'] for x in xs])} ({how}), in the document {stats([x['answer'] for x in xs])}; medians: "
                      + ", ".join(f"{k} {statistics.median([x[k] for x in xs if x.get(k) is not None]):.1f} ms"
                                  for k in ("page", "instantiated", "answer", "fcp", "painted")))
        print(f"first distances on screen (those of the table's whole box, from distances.bin, "
              f"unzipped by the browser and checked by the module at {statistics.median(col('loaded')):.1f} ms): "
              f"{stats(col('distances'))}")
        box = sorted(r["inBox"])
        print(f"moves of a position of a game with N <= 999 (the position's and every move's value "
              f"and distance): every pile and cap of the table's box with 4 resets each "
              f"({r['sweep']:,} positions, the most moves), and 3,000 random positions of it: "
              f"{stats(box, 3)} (at {' '.join(str(r['slowest'][k]) for k in 'scabf')}), 99th percentile "
              f"{box[int(len(box) * 0.99)]:.3f} ms (limit 5 ms); each position timed thrice, its least "
              f"time kept (the worst single time: {r['singleWorst']:.3f} ms)")
        print(f"positions of no game with N <= 999 (600 to 999 stones at a cap such games never "
              f"reach with that many left), solved on demand: 20, {stats(r['beyond'])}; a move on "
              f"from each (its box kept): {stats(r['next'], 3)} (no limit: bigger games)")
        print(f"machine load (1-minute average, {os.cpu_count()} cores): {load_before[0]:.2f} before, "
              f"{os.getloadavg()[0]:.2f} after (the times are wall clock: other processes count)")
        ok = total <= 250_000 and max(col("shown")) <= 100 and box[-1] <= 5
        print("within the issue's limits" if ok else "OVER a limit")
    finally:
        if d:
            d.quit()
        if server:
            server.close()
        for s in sites:
            s.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["test", "bench"])
    ap.add_argument("--nimbot", help="the nimbot binary whose `nimbot web` serves the site")
    ap.add_argument("--url", help="bench: the site served elsewhere (any static file server)")
    ap.add_argument("--out", default="target/ci-artifacts/web")
    ap.add_argument("--versus", metavar="SITE", help="bench: another build's site directory, loaded in turn with web/site/")
    ap.add_argument("--pairs", type=int, default=9, help="bench --versus: how many loads of each (default 9)")
    ap.add_argument("--fresh", type=int, default=1, help="bench: how many new browsers time their very first navigation, apart from the nine loads (default 1)")
    args = ap.parse_args()
    if not args.nimbot and not (args.mode == "bench" and args.url):
        ap.error("--nimbot is needed (bench takes --url instead)")
    (test if args.mode == "test" else bench)(args)


if __name__ == "__main__":
    main()
