#!/usr/bin/env bash
# --win smallest against --win fastest on the referee's clock: nimbot plays nimbot
# through `nimbot serve` (which charges each player the time from sending a state to
# receiving the move, as the platform's server does), both seats with the same
# --win, and the referee's game record (--record) gives the plies and each seat's
# clock. Prints one JSON line per (N, --win): the median over RUNS games of the plies
# and of the winner's and the loser's clocks in seconds.
#
#   tools/win_clock.sh [RUNS]     RUNS games per line (default 5); N = 300, 500, 999,
#                                 R = 4, M = 3
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
cargo build --release --quiet -p nimbot-cli --bin nimbot
BIN=target/release/nimbot
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# One game of N stones with --win $2: its record in $dir/N-WIN-I.jsonl.
game() {
  local n=$1 win=$2 i=$3 rec="$dir/$1-$2-$3.jsonl" addr_file="$dir/addr"
  : >"$addr_file"
  "$BIN" serve "$n" 4 -p 0 -a 127.0.0.1 -t 120 --record "$rec" >"$addr_file" 2>/dev/null &
  local server=$!
  for _ in $(seq 100); do grep -q listening "$addr_file" && break; sleep 0.05; done
  local addr
  addr=$(sed -n 's/^listening on //p' "$addr_file")
  "$BIN" connect "$addr" --first --name a --win "$win" 2>/dev/null &
  local first=$!
  sleep 0.05
  "$BIN" connect "$addr" --second --name b --win "$win" 2>/dev/null || true
  wait "$first" || true
  wait "$server"
}

for n in 300 500 999; do
  for win in smallest fastest; do
    for i in $(seq "$RUNS"); do game "$n" "$win" "$i"; done
    python3 - "$n" "$win" "$dir"/"$n-$win"-*.jsonl <<'PY'
import json, statistics, sys
n, win, files = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
plies, winner, loser = [], [], []
for f in files:
    lines = [json.loads(l) for l in open(f)]
    w = lines[-1]["winner"]
    ps = [l for l in lines if l["kind"] == "ply"]
    plies.append(len(ps))
    winner.append(sum(p["clock"] or 0 for p in ps if p["seat"] == w))
    loser.append(sum(p["clock"] or 0 for p in ps if p["seat"] != w))
med = statistics.median
print(json.dumps({"bench": "win", "stones": n, "resets": 4, "init_max": 3, "win": win,
                  "games": len(files), "plies_median": med(plies),
                  "winner_clock_s_median": round(med(winner), 4),
                  "loser_clock_s_median": round(med(loser), 4)}))
PY
  done
done
