#!/usr/bin/env bash
# The figures that change with every build, measured and written to docs/figures.md
# (the only file that holds them). Sections measured by hand (mutation testing, the
# tiny binary's bytes) say how; a full run keeps them after the ones it writes.
#
#   tools/figures.sh          sizes (firmware flash and RAM, tiny binary, table, the
#                             embedding examples) and the benchmarks (solver: nimbot
#                             bench; table: nimbot bench table; the tournament's
#                             load: nimbot bench tournament; every board's
#                             footprint with its stack, tools/firmware.sh test --board
#                             all; the firmware's decisions in QEMU: tools/firmware.sh
#                             bench; --win on the referee's clock, tools/win_clock.sh),
#                             a quarter of an hour on a loaded machine
#   tools/figures.sh sizes    the sizes only (builds the firmware, the tiny binary and
#                             the examples), each section replaced in place
#   tools/figures.sh supernim the Super-Nim sections only (the arena against random and
#                             greedy, the host's player audited against the exact
#                             solver, the same over the line protocol, the exact
#                             solver's speed; about an hour of CPU, nine runs side
#                             by side), put in place of the page's Super-Nim sections
#   tools/figures.sh tournament  the tournament's load benchmark only, its section of
#                             the page replaced in place (a few seconds)
#   tools/figures.sh web      the browser section only (tools/web.sh bench), replaced
#                             in place (a minute)
#   tools/figures.sh solvers  the windowed solver against the full one (time and peak
#                             memory of nimbot-table generate, /usr/bin/time), its
#                             section replaced in place (half an hour: N up to 10^7)
#
# Each figure is printed as its command printed it, under the command itself, so a
# reader can repeat any one of them.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=docs/figures.md
MODE=${1:-all}
case "$MODE" in
  all | sizes | supernim | tournament | web | solvers) ;;
  *) echo "usage: tools/figures.sh [sizes|supernim|tournament|web|solvers]" >&2; exit 2 ;;
esac

step() { printf '\n== %s\n' "$*" >&2; }

body=$(mktemp)
trap 'rm -f "$body"' EXIT

# Runs a command, keeps the lines matching a pattern (all lines if none is given) and
# appends them to the page under the command.
record() {
  local title=$1 pattern=$2
  shift 2
  step "$title: $*"
  local log
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1; then
    tail -20 "$log" >&2
    rm -f "$log"
    echo "figures.sh: '$*' failed" >&2
    exit 1
  fi
  {
    printf '## %s\n\n`%s`\n\n```\n' "$title" "$*"
    if [ -n "$pattern" ]; then grep -E "$pattern" "$log" || true; else cat "$log"; fi
    printf '```\n\n'
  } >>"$body"
  rm -f "$log"
}

# Super-Nim (docs/other-games.md): what the rules reach, the host's games against
# random (none may stall), the boards' search against greedy, and the host's player
# against greedy without and with its model of greedy, audited in the last 24 plies
# of every game (the moves that lose value against the exact solver). The five runs
# go side by side (each is one thread) and are written in order.
supernim() {
  cargo build --release --quiet -p nimbot-cli --bin nimbot
  local arena=(target/release/nimbot arena --game super-nim --cap 200)
  local titles=() cmds=() logs=() pids=() i
  # A run: its title, then its command.
  job() { titles+=("$1"); cmds+=("$2"); }
  job "Super-Nim: what the rules reach (random against random)" \
    "${arena[*]} --player random --opponent random --games 10000"
  job "Super-Nim: 1,000 host games against random (the boards' search)" \
    "${arena[*]} --player search --opponent random --games 1000"
  job "Super-Nim: the boards' search against greedy" \
    "${arena[*]} --player search --opponent greedy --games 200"
  job "Super-Nim: the host's player against greedy, no model of it" \
    "${arena[*]} --player perfect --model none --opponent greedy --games 200 --audit 24"
  job "Super-Nim: the host's player against greedy, with its model" \
    "${arena[*]} --player perfect --model greedy --opponent greedy --games 200 --audit 24"
  # Over the line protocol (docs/protocol.md), as a tournament plays: nimbot's
  # `serial` against opponents written from the seed's rules.
  local wire=(python3 tools/supernim_protocol.py target/release/nimbot --cap 200)
  job "Super-Nim over the line protocol: the host's player against greedy" \
    "${wire[*]} --opponent greedy --games 200"
  job "Super-Nim over the line protocol: the boards' search against greedy" \
    "${wire[*]} --opponent greedy --games 200 --player search"
  job "Super-Nim over the line protocol: the host's player against random" \
    "${wire[*]} --opponent random --games 200"
  job "Super-Nim: the exact solver's speed (the small starts at cap 20)" \
    "target/release/nimbot bench --supernim 20 --runs 3"
  local commit load0
  commit=$(git rev-parse --short HEAD)
  load0=$(cut -d' ' -f1 /proc/loadavg)
  for i in "${!cmds[@]}"; do
    step "${titles[$i]}: ${cmds[$i]}"
    logs+=("$(mktemp)")
    # The commands are plain words (no quoting needed).
    # shellcheck disable=SC2086
    nice ${cmds[$i]} >"${logs[$i]}" 2>&1 &
    pids+=($!)
  done
  for i in "${!cmds[@]}"; do
    if ! wait "${pids[$i]}"; then
      tail -20 "${logs[$i]}" >&2
      echo "figures.sh: '${cmds[$i]}' failed" >&2
      exit 1
    fi
    printf '## %s\n\n`%s`\n\n(At commit %s, the %s runs side by side under nice on %s cores; load average %s at the start, %s at this one'"'"'s end: reply times and speeds are wall clock.)\n\n```\n%s\n```\n\n' \
      "${titles[$i]}" "${cmds[$i]}" "$commit" "${#cmds[@]}" "$(nproc)" "$load0" \
      "$(cut -d' ' -f1 /proc/loadavg)" "$(cat "${logs[$i]}")" >>"$body"
    rm -f "${logs[$i]}"
  done
}

if [ "$MODE" = supernim ]; then
  supernim
  # The page as it is, less its Super-Nim sections, then the new ones.
  kept=$(mktemp)
  awk '/^## /{skip = ($0 ~ /^## Super-Nim/)} !skip' "$OUT" >"$kept"
  cat "$kept" "$body" >"$OUT"
  rm -f "$kept"
  step "wrote the Super-Nim sections of $OUT"
  exit 0
fi

# One section anew ($1: its mode), where it was (or after the section titled $2,
# or at the end); the rest of the page stays as the last full run wrote it.
replace_section() {
  python3 - "$OUT" "$body" "$(git rev-parse --short HEAD)" "$1" "$2" <<'PY'
import sys
page, body, commit = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
mode, anchor = sys.argv[4], sys.argv[5]
title = body.split("\n", 1)[0]
body = body.replace("\n\n", f"\n\n(`tools/figures.sh {mode}` at commit {commit}.)\n\n", 1)
parts = page.split("\n## ")
head, sections = parts[0], ["## " + p for p in parts[1:]]
sections = [s.rstrip("\n") + "\n\n" for s in sections]
new = body.rstrip("\n") + "\n\n"
at = [i for i, s in enumerate(sections) if s.startswith(title)]
if at:
    sections[at[0]] = new
else:
    after = [i for i, s in enumerate(sections) if anchor and s.startswith("## " + anchor)]
    sections.insert(after[0] + 1 if after else len(sections), new)
open(sys.argv[1], "w").write(head.rstrip("\n") + "\n\n" + "".join(sections))
PY
  step "wrote the $1 section of $OUT"
}

TOURNAMENT_TITLE="Tournament load: 1,000 quick games at concurrency 8"
if [ "$MODE" = tournament ]; then
  cargo build --release --quiet -p nimbot-cli --bin nimbot
  record "$TOURNAMENT_TITLE" '' target/release/nimbot bench tournament 1000
  replace_section tournament "Table benchmark"
  exit 0
fi
WEB_TITLE="The site in the browser (headless Chromium)"
WEB_PATTERN='^(machine|transfer|first|  where|moves of a position|positions of no game|within|OVER)'
if [ "$MODE" = web ]; then
  record "$WEB_TITLE" "$WEB_PATTERN" tools/web.sh bench
  replace_section web ""
  exit 0
fi

# The windowed solver against the full one: `nimbot-table generate` under
# /usr/bin/time for each box (N,R,M): on every core, on one core where
# ONE_THREAD_BOXES lists the box (the parallel speedup), and the full solver where
# its bit array fits (FULL_UP_TO stored positions). Each line gives the wall time,
# the CPU time (user + sys), the peak memory, the table and the load average as the
# run ended: other work on the machine stretches the wall time, not the CPU time.
# Every windowed table is checked by `verify` (the fresh-solve comparison covers
# every position; the one-ply pass one pile a cap). N = 10^7 runs only with
# SOLVERS_BIG=1 (a quarter of an hour or more on 2 cores); without it the page's
# last measured 10^7 lines are kept. Then the tiny binary's solve of N = 10^6
# beyond its table (`new` on the line protocol, within its 64 MiB default).
SOLVERS_TITLE="Solvers: time and peak memory of nimbot-table generate"
SOLVER_BOXES=${SOLVER_BOXES:-"100000,4,3 1000000,4,3 100000,16,3 100000,4,100"}
BIG_BOX="10000000,4,3"
[ "${SOLVERS_BIG:-0}" = 1 ] && SOLVER_BOXES="$SOLVER_BOXES $BIG_BOX"
ONE_THREAD_BOXES=${ONE_THREAD_BOXES:-"1000000,4,3"}
FULL_UP_TO=${FULL_UP_TO:-50000000000}
solver_run() {
  local label=$1 n=$2 r=$3 m=$4 tmp=$5 out positions
  shift 5
  out=$( { /usr/bin/time -f 'TIME %e %U %S %M' target/release/nimbot-table generate \
    -n "$n" -r "$r" -m "$m" -o "$tmp/t.nimt" "$@"; } 2>&1 </dev/null)
  positions=$(grep -oE 'for [0-9,]+ positions' <<<"$out" | tr -dc 0-9)
  grep '^TIME' <<<"$out" | awk -v what="N=$n R=$r M=$m $label" -v table="$(stat -c %s "$tmp/t.nimt")" \
    -v load="$(cut -d' ' -f1-3 /proc/loadavg)" -v cmd="generate -n $n -r $r -m $m${*:+ $*}" \
    '{ printf "%s: wall %.1f s, CPU %.1f s, peak %.0f MB, table %s bytes, load %s (%s)\n", what, $2, $3 + $4, $5 / 1024, table, load, cmd }'
  echo "${positions:-0}" >"$tmp/positions"
}
solvers() {
  cargo build --release --quiet -p nimbot-tools
  local tmp b n r m positions
  tmp=$(mktemp -d)
  echo "machine: $(nproc) cores, load average at the start $(cut -d' ' -f1-3 /proc/loadavg)"
  for b in $SOLVER_BOXES; do
    IFS=, read -r n r m <<<"$b"
    solver_run "windowed, $(nproc) threads" "$n" "$r" "$m" "$tmp"
    positions=$(cat "$tmp/positions")
    target/release/nimbot-table verify -q --every "$n" "$tmp/t.nimt" | sed "s|$tmp/t.nimt|the table|"
    if [[ " $ONE_THREAD_BOXES " == *" $b "* ]]; then
      solver_run "windowed, 1 thread" "$n" "$r" "$m" "$tmp" --threads 1
    fi
    if [ "$positions" -le "$FULL_UP_TO" ]; then
      solver_run "full" "$n" "$r" "$m" "$tmp" --solver full
    else
      echo "N=$n R=$r M=$m full: not run ($positions stored positions, one bit each)"
    fi
  done
  if [[ " $SOLVER_BOXES " != *" $BIG_BOX "* ]]; then
    echo "N = 10^7 not run this time (SOLVERS_BIG=1 runs it); its last lines on the page:"
    awk '/^## /{on = ($0 ~ /^## Solvers/)} on && /^N=10000000 |N <= 10000000,/' "$OUT"
  fi
  tools/tiny.sh build >/dev/null 2>&1
  printf 'new 1000000 4 3 second\nend\n' | { /usr/bin/time -f 'TIME %e %U %S %M' target/tiny/nimbot serial >/dev/null; } 2>&1 |
    awk -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '/^TIME/ { printf "tiny binary, new 1000000 4 3 second (a solve beyond its table, 64 MiB default): wall %.1f s, CPU %.1f s, peak %.0f MB, load %s\n", $2, $3 + $4, $5 / 1024, load }'
  rm -rf "$tmp"
}
if [ "$MODE" = solvers ]; then
  record "$SOLVERS_TITLE" '' solvers
  {
    printf 'Before issue 40 (measured by hand, one thread, one bit a position in the full\n'
    printf 'solver): N = 1,000,000 took 32.7 s and 7.7 GB with the full solver; the first\n'
    printf 'windowed solver with its token writer 49.0 s of CPU and 20 MB (commit e6f3dba),\n'
    printf 'and N = 10,000,000 with its runs writer 684 s of CPU and 704 MB (7ce6c73). The\n'
    printf 'tiny binary'"'"'s solve of N = 1,000,000 took 68.7 s of CPU before (main at\n'
    printf '4c6fda9, measured beside this run'"'"'s commit at the same load).\n\n'
  } >>"$body"
  replace_section solvers "Table benchmark"
  exit 0
fi

# The sizes: (title, pattern, command...) each.
sizes() {
  local each=$1
  "$each" "Firmware size" '^(flash|static RAM):' tools/firmware.sh build
  "$each" "Tiny binary size" '^target/tiny/nimbot(-aarch64)?: [0-9]' tools/tiny.sh build
  "$each" "Embedded table" '' stat -c '%n: %s bytes' table/default.nimt
  "$each" "Embedding examples on a Cortex-M0 (thumbv6m, no board code)" '^serial' tools/examples.sh build
}
if [ "$MODE" = sizes ]; then
  # Each size section anew where it is; the rest of the page stays.
  in_place() { : >"$body"; record "$@"; replace_section sizes ""; }
  sizes in_place
  exit 0
fi
sizes record
if [ "$MODE" = all ]; then
  cargo build --release --quiet -p nimbot-cli --bin nimbot
  cargo build --release --quiet -p nimbot-tools
  record "Solver benchmark" '' target/release/nimbot bench
  record "Table benchmark" '' target/release/nimbot bench table --json --runs 9
  record "$TOURNAMENT_TITLE" '' target/release/nimbot bench tournament 1000
  # The big table's solve: its time and peak memory (docs/table.md, solving.md and
  # firmware.md link here).
  record "The solver at N <= 99,999" '^wrote' \
    target/release/nimbot-table generate -n 99999 -r 4 -m 3 -o target/figures-big.nimt
  # The full CI run is too long to measure here (tools/test.sh on a fresh machine);
  # its last measured time stays as written (docs/tasks.md links here).
  {
    printf '## The full CI run\n\n'
    printf '`.ci/run` (that is `tools/test.sh`) on a fresh machine with 2 cores, every\n'
    printf 'toolchain, emulator and tool installed by the scripts themselves: 21.5 minutes\n'
    printf '(measured in the review of issue 38, 2026-11; CI'"'"'s budget is 35 minutes).\n\n'
  } >>"$body"
  # The previous generation's code is gone; its last figures stay as history.
  {
    printf '## The previous generation (historical)\n\n'
    printf 'Measured by `nimbot-table bench --json --runs 9` at commit 4bd9ec2, the last\n'
    printf 'that carried the per-position solver and format version 1 (N <= 999, R = 4, M = 3\n'
    printf 'unless said): the mask solver 0.485 ms against 4.101 ms (8.45x); table sizes v1\n'
    printf 'against v2: 19,239 against 3,562 bytes (5.40x) at N <= 999, 44,766 against 5,394\n'
    printf '(8.30x) at N <= 2000, 435,595 against 14,213 (30.65x) at N <= 9999.\n\n'
  } >>"$body"
  record "Winning moves on the referee's clock (--win)" '^\{' tools/win_clock.sh
  record "Firmware footprint, every board (stack: high-water mark in QEMU)" '^\|' \
    tools/firmware.sh test --board all
  record "Firmware decisions in QEMU (LM3S6965, instructions)" \
    '^(calibration|trace check|[0-9]+ decisions|instructions per|  (median|worst|won|lost)|at [0-9.]+ MHz)' \
    tools/firmware.sh bench --trace-check
  record "$WEB_TITLE" "$WEB_PATTERN" tools/web.sh bench
  supernim
fi

# The sections no command above writes (measured by hand, each saying how) stay, in
# their order, after the ones written anew: a full run loses nothing.
python3 - "$OUT" "$body" <<'PY'
import sys
page, body = open(sys.argv[1]).read(), open(sys.argv[2]).read()
titles = {line for line in body.splitlines() if line.startswith("## ")}
kept = ["## " + p.rstrip("\n") + "\n\n" for p in page.split("\n## ")[1:]]
kept = [s for s in kept if s.splitlines()[0] not in titles]
open(sys.argv[2], "a").write("".join(kept))
PY

{
  printf '# Figures\n\n'
  printf 'Written by `tools/figures.sh%s` at commit %s (%s), on %s with %s cores;\n' \
    "$([ "$MODE" = sizes ] && echo ' sizes')" \
    "$(git rev-parse --short HEAD)" \
    "$(git diff --quiet HEAD -- src firmware tiny table tools 2>/dev/null && echo clean || echo 'with local changes')" \
    "$(date -u +%Y-%m-%d)" "$(nproc)"
  printf 'sections that give no command were measured by hand and say how (a full run keeps\n'
  printf 'them). [benchmarks.md](benchmarks.md) says how to read them.\n\n'
  cat "$body"
} >"$OUT"
step "wrote $OUT"
