#!/usr/bin/env bash
# The embedding examples (examples/: nimbot over any embedded-io serial port,
# blocking and async; docs/embedding.md): build them for a Cortex-M0, run them on
# the host.
#
#   tools/examples.sh build   build both programs for thumbv6m-none-eabi and print
#                             what each takes of the chip (flash, static RAM)
#   tools/examples.sh test    format and lint checks, both programs on the host (each
#                             plays its scripted dialogue and fails on a wrong
#                             reply), then the thumbv6m build
#
# Toolchain (tools/toolchain.sh): rustup with `rustup target add thumbv6m-none-eabi`
# first; when rustup cannot provide the target, Debian's rustc building core from
# source, into target/fallback/. NIMBOT_TOOLCHAIN=source forces that fallback.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=tools/toolchain.sh
. "$ROOT/tools/toolchain.sh"

TARGET=thumbv6m-none-eabi
PROGRAMS=(serial serial-async)
MODE=${1:-}
case "$MODE" in
  build | test) ;;
  *) echo "usage: tools/examples.sh build|test" >&2; exit 2 ;;
esac

# Both programs for the Cortex-M0, then one footprint line each.
build_for_target() {
  ensure_cmd size binutils
  ensure_cmd readelf binutils
  setup_cross "$TARGET"
  local out=$ROOT/target
  if [ "$TOOLCHAIN_KIND" = source ]; then
    out=$ROOT/target/fallback
    export CARGO_TARGET_DIR=$out
  fi
  step "examples: build for $TARGET ($TOOLCHAIN)"
  (cd examples && "$CARGO" build "${ZFLAGS[@]}" --release --target "$TARGET" --locked)
  local name
  for name in "${PROGRAMS[@]}"; do
    elf_footprint "$out/$TARGET/release/$name"
    echo "$name: flash $FLASH bytes, static RAM $STATIC_RAM bytes (.data $ELF_DATA + .bss $ELF_BSS + .uninit $ELF_UNINIT)"
  done
}

if [ "$MODE" = test ]; then
  step "examples: format and lints"
  (cd examples && cargo fmt -- --check && cargo clippy --locked --all-targets -- -D warnings)
  step "examples: the scripted dialogue on the host"
  for name in "${PROGRAMS[@]}"; do
    (cd examples && cargo run --quiet --locked --bin "$name")
  done
fi
build_for_target
