#!/usr/bin/env bash
# The sandbox's two figures (docs/tournament.md, "Running untrusted bots"; the
# figures in docs/figures.md). Needs root and bubblewrap. Run from anywhere:
#
#   tools/sandbox_bench.sh cost [GAMES]   the cost of confinement per game: a
#       tournament of command bots (`nimbot connect` as a shell command) played
#       confined and unconfined in alternating blocks of 10 games, one at a time;
#       the median and worst game wall time of each, and their difference.
#   tools/sandbox_bench.sh clock [ROUNDS]  clock inflation: a clock probe (fixed
#       work before each move) against a quiet bot and against a CPU hog (8
#       spinning processes, in the probe's turns too), confined and unconfined, the
#       four in turn for ROUNDS rounds (default 5, two games each); the probe's
#       median seconds a move in each and the hog's inflation of it.
#
# NIMBOT=PATH measures that binary (else the release build, built when missing).
# Both print the load average before and after: the machine's other work shares
# its cores.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-cost}
games=${2:-}
# NIMBOT=PATH runs that binary instead of the release build.
bin=${NIMBOT:-target/release/nimbot}
[ -n "${NIMBOT:-}" ] || cargo build --release -q -p nimbot-cli
bin=$(realpath "$bin")
hostile=$(pwd)/tools/bots/hostile/hostile.py
scratch=$(mktemp -d /tmp/nimbot-sandbox-bench.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "cores: $(nproc), load average before: $(load)"

# Game wall times (results.jsonl's "seconds") of DIR, one a line.
seconds() { python3 -c 'import json,sys; [print(json.loads(l)["seconds"]) for l in open(sys.argv[1])]' "$1/results.jsonl"; }

# median and worst of the numbers on stdin, in ms.
stats() { python3 -c 'import sys,statistics as s; v=[float(x)*1000 for x in sys.stdin]; print(f"{len(v)} games, median {s.median(v):.1f} ms, worst {max(v):.1f} ms")'; }

case $what in
cost)
  blocks=$(( ${games:-40} / 10 ))
  bots=(--bot "a=$bin connect {addr} --{seat} --name {name} --policy trap"
        --bot "b=$bin connect {addr} --{seat} --name {name} --policy longest")
  : >"$scratch/on.txt"
  : >"$scratch/off.txt"
  for i in $(seq 1 "$blocks"); do
    for mode in on off; do
      flag=()
      [ $mode = off ] && flag=(--no-sandbox)
      out="$scratch/$mode-$i"
      "$bin" tournament -q --no-check -c 1 --out "$out" --stones 20,25,30,35,40 "${bots[@]}" "${flag[@]}" >/dev/null
      seconds "$out" >>"$scratch/$mode.txt"
    done
  done
  echo "confined:   $(stats <"$scratch/on.txt")"
  echo "unconfined: $(stats <"$scratch/off.txt")"
  python3 - "$scratch/on.txt" "$scratch/off.txt" <<'EOF'
import statistics as s, sys
on, off = ([float(x) * 1000 for x in open(p)] for p in sys.argv[1:3])
print(f"cost of confinement: {s.median(on) - s.median(off):+.1f} ms a game (medians)")
EOF
  ;;
clock)
  # Rounds of the four pairings in turn (confined and not, a quiet opponent and a
  # hog), so that the machine's other work falls on all four alike.
  rounds=${games:-5}
  work=3000000
  probe="probe=python3 $hostile probe {host} {port} {order} {name} $work"
  : >"$scratch/clock.txt"
  for r in $(seq 1 "$rounds"); do
    for mode in on off; do
      flag=()
      [ $mode = off ] && flag=(--no-sandbox)
      for opp in none cpuhog; do
        out="$scratch/$mode-$opp-$r"
        "$bin" tournament -q --no-check -c 1 -t 120 --out "$out" --stones 20 --gauntlet \
          --bot "$probe" --bot "$opp=python3 $hostile $opp {host} {port} {order} {name}" "${flag[@]}" >/dev/null || true
        # The probe's seconds a move in each game (its clock over its moves).
        python3 - "$out/results.jsonl" "$mode" "$opp" >>"$scratch/clock.txt" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    g = json.loads(line)
    seat = g["names"].index("probe")
    moves = sum(1 for r in g["record"] if r.get("kind") == "ply" and r.get("seat") == seat)
    if moves:
        print(sys.argv[2], sys.argv[3], g["clocks"][seat] / moves)
EOF
      done
    done
  done
  python3 - "$scratch/clock.txt" <<'EOF'
import statistics as s, sys
v = {}
for line in open(sys.argv[1]):
    mode, opp, sec = line.split()
    v.setdefault((mode, opp), []).append(float(sec))
for mode, word in (("on", "confined"), ("off", "unconfined")):
    quiet, hog = v.get((mode, "none"), [0.0]), v.get((mode, "cpuhog"), [0.0])
    q, h = s.median(quiet), s.median(hog)
    print(f"{word:10}: the probe's median move {q * 1000:.0f} ms against a quiet bot ({len(quiet)} games, worst {max(quiet) * 1000:.0f}), "
          f"{h * 1000:.0f} ms against a CPU hog ({len(hog)} games, worst {max(hog) * 1000:.0f}): {100 * (h / q - 1):+.1f} %")
EOF
  ;;
*)
  echo "usage: tools/sandbox_bench.sh cost|clock [GAMES]" >&2
  exit 2
  ;;
esac
echo "load average after: $(load)"
