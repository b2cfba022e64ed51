#!/usr/bin/env bash
# The Cortex-M firmware (firmware/): install what is missing, build, test in QEMU.
#
#   tools/firmware.sh build    build target/thumbv7m-none-eabi/release/nimbot-firmware
#                              and print its flash and RAM use
#   tools/firmware.sh test     build, check the link-time panic guard, then boot the
#                              image in QEMU and play games against it (firmware/qemu_test.py)
#   tools/firmware.sh install  only install the missing pieces
#
# Toolchain (tools/toolchain.sh): rustup with `rustup target add thumbv7m-none-eabi`
# and a plain `cargo build --release` inside firmware/ first; when rustup cannot
# provide the target, Debian's rustc (1.85 or newer) building core from source, into
# target/fallback/ so that the two builds never overwrite each other.
# NIMBOT_TOOLCHAIN=source forces that fallback. QEMU comes from Debian's
# qemu-system-arm, installed when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=thumbv7m-none-eabi
ELF=$ROOT/target/$TARGET/release/nimbot-firmware
FLASH_BUDGET=65536
RAM_BUDGET=8192
PANIC_SYMBOL=nimbot_firmware_has_a_reachable_panic

# shellcheck source=tools/toolchain.sh
. "$ROOT/tools/toolchain.sh"

setup_toolchain() {
  setup_cross "$TARGET"
  if [ "$TOOLCHAIN_KIND" = source ]; then
    export CARGO_TARGET_DIR=$ROOT/target/fallback
    ELF=$CARGO_TARGET_DIR/$TARGET/release/nimbot-firmware
  fi
}

ensure_qemu() { ensure_cmd qemu-system-arm qemu-system-arm; }
ensure_binutils() { ensure_cmd size binutils; }
# The QEMU driver, the host tests' peers and the tiny binary's test are Python.
ensure_python() { ensure_cmd python3 python3; }

# Section sizes of the ELF: "name size" lines.
sections() { size -A "$ELF" | awk 'NF == 3 && $1 ~ /^\./ { print $1, $2 }'; }
section() { sections | awk -v s="$1" '$1 == s { print $2; f = 1 } END { if (!f) print 0 }'; }

footprint() {
  local vt text rodata data bss uninit
  vt=$(section .vector_table); text=$(section .text); rodata=$(section .rodata)
  data=$(section .data); bss=$(section .bss); uninit=$(section .uninit)
  FLASH=$((vt + text + rodata + data))
  STATIC_RAM=$((data + bss + uninit))
  echo "flash: $FLASH bytes (.vector_table $vt + .text $text + .rodata $rodata + .data $data; budget $FLASH_BUDGET)"
  echo "static RAM: $STATIC_RAM bytes (.data $data + .bss $bss + .uninit $uninit); the stack comes on top (tools/firmware.sh test measures it; budget $RAM_BUDGET in all)"
  [ "$FLASH" -le "$FLASH_BUDGET" ] || die "flash use $FLASH is over the budget of $FLASH_BUDGET bytes"
}

build() {
  setup_toolchain
  ensure_binutils
  step "firmware build: $TOOLCHAIN"
  (cd firmware && "$CARGO" build "${ZFLAGS[@]}" --release)
  [ -f "$ELF" ] || die "no ELF at $ELF"
  echo "$ELF"
  footprint
}

# The release build links only if no panic is reachable (the panic handler calls
# an undefined symbol). Prove the guard is alive: a build with one deliberate,
# input-dependent panic must fail to link, naming that symbol.
check_panic_guard() {
  step "the panic guard rejects a reachable panic"
  local log
  log=$(mktemp)
  if (cd firmware && "$CARGO" build "${ZFLAGS[@]}" --release --features panic-canary) >"$log" 2>&1; then
    rm -f "$log"
    die "a firmware with a reachable panic linked: the link-time panic check is not working"
  fi
  if ! grep -q "$PANIC_SYMBOL" "$log"; then
    tail -30 "$log" >&2
    rm -f "$log"
    die "the panic-canary build failed for another reason than the panic guard"
  fi
  rm -f "$log"
  echo "ok: the panic-canary build does not link (undefined $PANIC_SYMBOL)"
}

host_nimbot() {
  local host_cargo
  host_cargo=$(command -v cargo || debian_tool cargo) || die "no cargo for the host binary"
  step "host nimbot (the test's oracle)"
  # The Debian toolchain variables are for the cross build only.
  (unset RUSTC RUSTDOC RUSTC_BOOTSTRAP CARGO_TARGET_DIR; "$host_cargo" build --release --quiet --bin nimbot)
}

test_fw() {
  setup_toolchain
  ensure_binutils
  ensure_qemu
  ensure_python
  step "firmware lints (clippy, warnings denied)"
  (cd firmware && PATH=$CLIPPY_PATH "$CARGO" clippy "${ZFLAGS[@]}" --release -- -D warnings)
  check_panic_guard
  build
  host_nimbot
  step "QEMU lm3s6965evb: complete games and bad input over UART0"
  local status=0
  # The driver times out every read and kills QEMU itself; the outer timeout is the
  # last resort if the driver itself hangs.
  timeout --kill-after=10 600 python3 firmware/qemu_test.py \
    --elf "$ELF" --oracle "$ROOT/target/release/nimbot" \
    --static-ram "$STATIC_RAM" --ram-budget "$RAM_BUDGET" || status=$?
  return "$status"
}

case "${1:-}" in
  build) build ;;
  test) test_fw ;;
  install) setup_toolchain; ensure_binutils; ensure_qemu; ensure_python; echo "toolchain: $TOOLCHAIN" ;;
  *) echo "usage: tools/firmware.sh build|test|install" >&2; exit 2 ;;
esac
