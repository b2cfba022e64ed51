#!/usr/bin/env bash
# Mutation testing of the code that decides and judges games: a benchmark, not a CI step.
#
# cargo-mutants changes one line at a time (a `>` into `>=`, a function body into
# `Default::default()`, ...) and runs the crate's own tests: a mutant the tests still
# pass ("missed") is a line no test checks. docs/testing.md explains the scopes and the
# survivors kept as equivalent; docs/figures.md has the measured scores and times.
#
#   tools/mutants.sh list                 the scopes: package, files, test targets
#   tools/mutants.sh run SCOPE [ARGS]     run one scope (ARGS go to cargo-mutants,
#                                         e.g. --shard 0/4 --sharding round-robin)
#   tools/mutants.sh resume SCOPE [ARGS]  go on where the last run of SCOPE stopped:
#                                         skips what it caught (cargo-mutants --iterate)
#   tools/mutants.sh changed SCOPE        only the mutants on lines changed since the
#                                         commit of docs/mutants/SCOPE.txt (--in-diff)
#   tools/mutants.sh recheck SCOPE        only the mutants docs/mutants/SCOPE.txt lists
#                                         as missed or timed out (after new tests)
#   tools/mutants.sh survivors            every missed mutant of the last results,
#                                         file:line: what was changed
#   tools/mutants.sh all                  every scope, one after the other (hours)
#   tools/mutants.sh summary SCOPE        rewrite docs/mutants/SCOPE.txt from the outputs
#
# Each run writes target/mutants/SCOPE[-shard-K-of-N]/mutants.out (cargo-mutants' full
# output, logs included) and the summary docs/mutants/SCOPE.txt (committed: the commit
# measured, the counts, the time, and the caught/missed/timeout/unviable lists).
#
# Environment: MUTANTS_TIMEOUT (seconds of tests per mutant, default 300),
# one mutant at a time (--in-place in a copy), MUTANTS_PROFILE (default `mutants`: opt-level 1,
# incremental, 256 codegen units, a few seconds a mutant where `ci` took 25 to 35), MUTANTS_NICE (default 19).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

# scope | package | files | the test targets that judge those files (cargo test
# arguments; the package's own unless the last field names more packages with
# --test-package: the game loop is judged through its hooks in nimbot-match's
# game_loop tests and through `nimbot serve` in nimbot-cli's referee and faults
# tests; the core's rules, table and policies also against the solver in
# nimbot-solve's tests; the table is its reader, the writer being the solver's; the
# protocol's tests but supernim_protocol, three minutes of Super-Nim play) | more
# cargo-mutants arguments (`legality` is the part of rules.rs that judges moves:
# limit, resets, turn, end of game; Super-Nim's tests but the values snapshot, which
# compares the solver with its own earlier output and takes most of their time).
SCOPES=(
  "legality|nimbot|src/rules.rs|--test rules_examples --test properties|--test-package nimbot --test-package nimbot-solve --re check_count --re check_resets --re check_stones --re check_init_max --re Params::new --re Game::check --re Game::play --re Game::limit --re Game::cap --re Game::position --re Position::new --re Position::check --re Position::after --re Position::limit --re Position::moves --re Moves>::"
  "rules|nimbot|src/rules.rs|--lib --test rules_examples --test properties --test minimax|--test-package nimbot --test-package nimbot-solve"
  "fibonacci|nimbot|src/fibonacci.rs|--test fibonacci|"
  "positions|nimbot|src/geometry.rs src/value.rs src/num.rs|--lib --test rules_examples --test properties --test minimax --test probe|--test-package nimbot --test-package nimbot-solve"
  "table|nimbot|src/table/bits.rs src/table/cache.rs src/table/checksum.rs src/table/error.rs src/table/format.rs src/table/index.rs src/table/layer.rs src/table/mod.rs src/table/source.rs src/probe.rs|--lib --test table --test probe --test minimax|--test-package nimbot --test-package nimbot-solve"
  "policies|nimbot|src/policy/mod.rs src/policy/win.rs src/strategy.rs src/engine.rs|--lib --test policies --test trap --test probe --test minimax --test table|--test-package nimbot --test-package nimbot-solve"
  "solver|nimbot-solve|solve/src/solver.rs solve/src/solver/base.rs solve/src/solver/scalar.rs solve/src/solver/windowed.rs solve/src/solver/windowed/shared.rs solve/src/distance.rs solve/src/engine.rs|--lib --test minimax --test probe --test trap --test table --test memory|"
  "writer|nimbot-solve|solve/src/solver/bits.rs solve/src/solver/code.rs solve/src/solver/encode.rs|--lib --test table|"
  "supernim|nimbot-supernim|supernim/src/rules.rs supernim/src/solver.rs supernim/src/search.rs supernim/src/memo.rs supernim/src/perfect.rs|--lib --test game --test exact --test greedy|--cargo-test-arg=-- --cargo-test-arg=--skip --cargo-test-arg=the_values_of_the_small_starts_are_the_snapshot"
  "protocol|nimbot-protocol|protocol/src/grammar/mod.rs protocol/src/grammar/words.rs protocol/src/grammar/response.rs protocol/src/lib.rs protocol/src/game.rs protocol/src/reply.rs protocol/src/games.rs|--lib --test grammar --test protocol --test properties --test engines --test protocol_games|"
  "referee|nimbot-platform|platform/src/referee.rs||"
  "wire|nimbot-platform|platform/src/wire/message.rs||"
  "game-loop|nimbot-match|match/src/game_loop.rs|--lib --test game_loop --test refereed_game --test referee --test faults|--test-package nimbot-match --test-package nimbot-cli"
  "stats|nimbot-tournament|tournament/src/stats.rs|--test stats|"
)

TIMEOUT="${MUTANTS_TIMEOUT:-300}"
PROFILE="${MUTANTS_PROFILE:-mutants}"
NICE="${MUTANTS_NICE:-19}"

die() {
  echo "mutants: $*" >&2
  exit 2
}

scope_line() {
  local s
  for s in "${SCOPES[@]}"; do
    if [[ "${s%%|*}" == "$1" ]]; then
      echo "$s"
      return
    fi
  done
  die "no scope '$1' (tools/mutants.sh list)"
}

# The package of a folder may be renamed by the time this runs: read it from the
# manifest of the folder holding the scope's first file.
package_of() {
  local dir="$1"
  while [[ "$dir" != "." && ! -f "$dir/Cargo.toml" ]]; do dir="$(dirname "$dir")"; done
  if [[ "$dir" == "src" || "$dir" == "." ]]; then dir="."; fi
  sed -n 's/^name = "\(.*\)"/\1/p' "$dir/Cargo.toml" | head -n 1
}

install() {
  if cargo mutants --version >/dev/null 2>&1; then return; fi
  echo "mutants: installing cargo-mutants (cargo install --locked cargo-mutants)" >&2
  if nice -n 10 cargo install --locked cargo-mutants >&2; then return; fi
  echo "mutants: the locked install failed; trying without --locked" >&2
  if nice -n 10 cargo install cargo-mutants >&2; then return; fi
  die "cannot install cargo-mutants (cargo install cargo-mutants failed: offline? see above)"
}

# The summary of the outputs under target/mutants/SCOPE* into docs/mutants/SCOPE.txt.
summarize() {
  local scope="$1" seconds="$2" note="$3" commit="$4"
  mkdir -p docs/mutants
  python3 - "$scope" "$seconds" "$note" "$commit" <<'EOF'
import glob, os, re, sys
scope, seconds, note, commit = sys.argv[1:5]
outcomes = ("caught", "missed", "timeout", "unviable")
found = {o: {} for o in outcomes}
old_path = f"docs/mutants/{scope}.txt"
# A partial run (changed lines, a shard, a resumed run) updates the old summary:
# each mutant keyed by its whole line (file, line, column and change). After a
# `changed` run, lines of the old summary in changed files keep their old numbers.
def key(line):
    return line
if note != "full" and os.path.exists(old_path):
    for line in open(old_path):
        m = re.match(r"^(caught|missed|timeout|unviable) (.*)$", line.rstrip("\n"))
        if m:
            found[m.group(1)][key(m.group(2))] = m.group(2)
outputs = glob.glob(f"target/mutants/{scope}*/mutants.out")
if note == "rechecked":
    # Every survivor was run again, wherever it moved to: its new outcome replaces it.
    found["missed"].clear()
    found["timeout"].clear()
    outputs = [f"target/mutants/{scope}-recheck/mutants.out"]
# Oldest output first, so that a later run (a recheck, a resumed run) has the last word.
for out in sorted(outputs, key=os.path.getmtime):
    # A resumed run (--iterate) lists what earlier runs caught, and the unviable
    # mutants they found, in previously_caught.txt: those keep their outcome from the
    # old summary or the previous output (mutants.out.old) when it is known.
    sources = [(o, os.path.join(out + ".old", f"{o}.txt")) for o in outcomes]
    sources += [(o, os.path.join(out, f"{o}.txt")) for o in outcomes]
    sources += [("caught", os.path.join(out, "previously_caught.txt"))]
    for o, path in sources:
        if not os.path.exists(path):
            continue
        for line in open(path):
            line = line.strip()
            if not line:
                continue
            if path.endswith("previously_caught.txt"):
                if any(key(line) in found[other] for other in outcomes):
                    continue
            for other in outcomes:
                found[other].pop(key(line), None)
            found[o][key(line)] = line
n = {o: len(found[o]) for o in outcomes}
viable = n["caught"] + n["missed"] + n["timeout"]
score = 100.0 * (n["caught"] + n["timeout"]) / viable if viable else 100.0
with open(old_path, "w") as f:
    f.write(f"# tools/mutants.sh {scope}: cargo-mutants results ({note} run), written by the script\n")
    f.write(f"commit {commit}\n")
    f.write(f"seconds {seconds}\n")
    f.write("counts " + " ".join(f"{o}={n[o]}" for o in outcomes) + f" score={score:.1f}%\n")
    for o in ("missed", "timeout", "caught", "unviable"):
        for k in sorted(found[o], key=lambda k: (k.split(":")[0], int((re.match(r"^[^:]+:(\d+)", found[o][k]) or [0, 0])[1]))):
            f.write(f"{o} {found[o][k]}\n")
print(f"{scope}: {viable} viable, caught {n['caught']}, missed {n['missed']}, "
      f"timeout {n['timeout']}, unviable {n['unviable']}: {score:.1f}% in {seconds} s")
for k in sorted(found["missed"]):
    print(f"  missed {found['missed'][k]}")
EOF
}

run() {
  local mode="$1" scope="$2"
  shift 2
  local line pkg files tests
  line="$(scope_line "$scope")"
  IFS='|' read -r _ pkg files tests extra <<<"$line"
  pkg="$(package_of "$(dirname "${files%% *}")")"
  [[ -n "$pkg" ]] || die "cannot read the package of $files"
  install
  local args=(--package "$pkg" --timeout "$TIMEOUT" --profile "$PROFILE"
    --test-workspace false --baseline skip --no-shuffle)
  local f
  for f in $files; do args+=(--file "$f"); done
  # shellcheck disable=SC2206
  [[ -z "$extra" ]] || args+=($extra)
  local out="target/mutants/$scope" note=full
  # A shard keeps its own output, so that shards can run one after the other.
  local a prev=""
  for a in "$@"; do
    if [[ "$prev" == "--shard" ]]; then out="target/mutants/$scope-shard-${a/\//-of-}"; note="shard"; fi
    if [[ "$a" == --shard=* ]]; then out="target/mutants/$scope-shard-${a#--shard=}"; out="${out/\//-of-}"; note="shard"; fi
    prev="$a"
  done
  case "$mode" in
    run) [[ "$note" == shard ]] || rm -rf "target/mutants/$scope" "target/mutants/$scope-"* ;;
    resume) args+=(--iterate); note=resumed ;;
    recheck)
      [[ -f "docs/mutants/$scope.txt" ]] || die "no docs/mutants/$scope.txt to recheck: run the scope first"
      # Each listed survivor by its whole name, as `cargo mutants --list` prints it.
      local res
      mapfile -t res < <(python3 -c '
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r"^(missed|timeout) ([^:]+):[0-9]+:[0-9]+: (.*)$", line.rstrip("\n"))
    if m:
        # At any line and column: edits above a survivor move it.
        print("--re=^" + re.escape(m.group(2)) + ":[0-9]+:[0-9]+: " + re.escape(m.group(3)) + "$")
' "docs/mutants/$scope.txt")
      [[ ${#res[@]} -gt 0 ]] || { echo "$scope: no survivors to recheck"; return; }
      args+=("${res[@]}")
      out="target/mutants/$scope-recheck"
      rm -rf "$out"
      note=rechecked
      ;;
    changed)
      local base
      base="$(sed -n 's/^commit \([0-9a-f]*\).*/\1/p' "docs/mutants/$scope.txt" 2>/dev/null || true)"
      [[ -n "$base" ]] || die "no docs/mutants/$scope.txt to compare with: run the scope first"
      mkdir -p target/mutants
      # shellcheck disable=SC2086
      git diff "$base" -- $files >"target/mutants/$scope.diff"
      if [[ ! -s "target/mutants/$scope.diff" ]]; then
        echo "$scope: nothing changed since $base"
        return
      fi
      args+=(--in-diff "target/mutants/$scope.diff")
      out="target/mutants/$scope-changed"
      rm -rf "$out"
      note=changed
      ;;
  esac
  # The scope's test targets, for the build as well as the tests (a trailing `--`
  # would only reach `cargo test`, and the build would make every test binary).
  local t
  # shellcheck disable=SC2086
  set -- "$@" $(for t in ${tests//--test /--test=}; do echo "--cargo-arg=$t"; done)
  mkdir -p "$out"
  # The mutants are made in a copy of the sources (one per scope) that stays between runs, with its
  # own target folder (target/mutants/build-SCOPE), so that a run (or a resumed one) rebuilds only
  # what changed, and two scopes can run at once.
  local tree="$ROOT/target/mutants/tree-$scope"
  mkdir -p "$tree"
  git ls-files -co --exclude-standard >"$tree.files"
  # Files gone from the sources (moved, deleted) go from the copy too.
  (cd "$tree" && find . -path ./target -prune -o -type f -print | sed 's|^\./||' | sort) |
    comm -23 - <(sort "$tree.files") | (cd "$tree" && xargs -r -d '\n' rm -f)
  tar -T "$tree.files" -cf - | tar -C "$tree" -xf -
  args+=(--in-place --dir "$tree" --output "$ROOT/$out")
  echo "mutants: $scope: cargo mutants ${args[*]} $*" >&2
  local start rc=0 commit
  start=$(date +%s)
  commit="$(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD || echo +changes)"
  # shellcheck disable=SC2086
  env "CARGO_PROFILE_${PROFILE^^}_INCREMENTAL=true" CARGO_TARGET_DIR="$ROOT/target/mutants/build-$scope" nice -n "$NICE" cargo mutants "${args[@]}" "$@" || rc=$?
  # 0: all caught; 2: some missed; 3: some timed out; others: the tool failed.
  case "$rc" in 0 | 2 | 3) ;; *) die "cargo mutants failed (exit $rc): see $out/mutants.out/debug.log" ;; esac
  summarize "$scope" "$(($(date +%s) - start))" "$note" "$commit"
}

cmd="${1:-}"
case "$cmd" in
  list)
    for s in "${SCOPES[@]}"; do
      IFS='|' read -r name pkg files tests extra <<<"$s"
      printf '%-10s %-18s %s\n%10s tests: %s\n' "$name" "$(package_of "$(dirname "${files%% *}")")" "$files" "" "${tests:-all of the package}${extra:+ (only $extra)}"
    done
    ;;
  run | resume | changed | recheck)
    [[ $# -ge 2 ]] || die "usage: tools/mutants.sh $cmd SCOPE [cargo-mutants args]"
    shift
    run "$cmd" "$@"
    ;;
  all)
    for s in "${SCOPES[@]}"; do run run "${s%%|*}"; done
    ;;
  summary)
    # Rewrite docs/mutants/SCOPE.txt from the outputs in target/mutants (no run).
    [[ $# -ge 2 ]] || die "usage: tools/mutants.sh summary SCOPE"
    old="docs/mutants/$2.txt"
    summarize "$2" "$(sed -n 's/^seconds //p' "$old" 2>/dev/null || echo 0)" full \
      "$(sed -n 's/^commit //p' "$old" 2>/dev/null || git rev-parse --short=12 HEAD)"
    ;;
  survivors)
    cat docs/mutants/*.txt 2>/dev/null | sed -n 's/^missed //p'
    ;;
  *)
    sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
    [[ -z "$cmd" || "$cmd" == -h || "$cmd" == --help ]] || exit 2
    ;;
esac
