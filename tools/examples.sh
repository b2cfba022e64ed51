#!/usr/bin/env bash
# The embedding examples (examples/: nimbot over any embedded-io serial port,
# blocking and async; docs/embedding.md): build them for a Cortex-M0, run them on
# the host.
#
#   tools/examples.sh build   build both programs for thumbv6m-none-eabi and print
#                             what each takes of the chip (flash, static RAM)
#   tools/examples.sh test    format and lint checks, both programs on the host (each
#                             plays its scripted dialogue and fails on a wrong
#                             reply), the thumbv6m build, then `package`
#   tools/examples.sh package the crates a board needs (nimbot-progmem, nimbot,
#                             nimbot-supernim, nimbot-protocol), and nimbot-solve
#                             (the protocol's tests use it), packaged as
#                             crates.io would take them (`cargo package`, each
#                             built alone from its .crate),
#                             and docs/embedding.md's snippet built as written by a
#                             project outside the repository against those packages
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
  build | test | package) ;;
  *) echo "usage: tools/examples.sh build|test|package" >&2; exit 2 ;;
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

# The board crates packaged, and docs/embedding.md's snippet built from a project in
# a temporary folder outside the repository: its [dependencies] are the page's toml
# block verbatim (crates.io versions), which [patch.crates-io] resolves to the
# unpacked .crate files; its src/lib.rs is the page's Rust block without the
# board's entry point (`#![no_main]` and the `#[cortex_m_rt::entry]` function,
# whose UART is "your HAL"), with the table at the path the page names. Built for
# the host, then checked for the Cortex-M0 (no std anywhere).
package_and_embed() {
  local crates=(nimbot-progmem nimbot nimbot-solve nimbot-supernim nimbot-protocol) pkg=$ROOT/target/package c
  step "examples: cargo package ${crates[*]}"
  local args=()
  for c in "${crates[@]}"; do args+=(-p "$c"); done
  local version
  version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
  # cargo verifies each package against the others through a registry of its own
  # (target/package/tmp-registry), whose crates it unpacks once per path and version
  # under ~/.cargo/registry/src/-HASH/ and then reuses: a copy from an earlier run of
  # the same version would be compiled instead of this tree. Those copies go first.
  for c in "${crates[@]}"; do rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$c-$version"; done
  # --allow-dirty: the check is of the tree as it is, committed or not.
  cargo package --locked --allow-dirty "${args[@]}"
  local outside
  outside=$(mktemp -d /tmp/nimbot-embedding.XXXXXX)
  trap 'rm -rf "$outside"' RETURN
  mkdir -p "$outside/src" "$outside/crates"
  for c in "${crates[@]}"; do
    tar xzf "$pkg/$c-$version.crate" -C "$outside/crates"
  done
  local toml rust
  toml=$(awk '/^```toml/ { f = 1; next } /^```/ { if (f) exit } f' docs/embedding.md)
  rust=$(awk '/^```rust/ { f = 1; next } /^```/ { if (f) exit } f' docs/embedding.md)
  [ -n "$toml" ] && [ -n "$rust" ] || die "docs/embedding.md: no toml or rust block"
  {
    printf '[package]\nname = "my-board"\nversion = "0.1.0"\nedition = "2021"\n\n%s\n\n' "$toml"
    printf '[patch.crates-io]\n'
    for c in "${crates[@]}"; do
      printf '%s = { path = "crates/%s-%s" }\n' "$c" "$c" "$version"
    done
  } >"$outside/Cargo.toml"
  printf '%s\n' "$rust" | sed '/^#!\[no_main\]/d; /^#\[cortex_m_rt::entry\]/,$d' >"$outside/src/lib.rs"
  grep -q 'fn play' "$outside/src/lib.rs" || die "docs/embedding.md's snippet has no fn play"
  cp table/default.nimt "$outside/nimbot.nimt"
  step "examples: docs/embedding.md's snippet, outside the repository ($outside)"
  (cd "$outside" && cargo build --quiet)
  if [ "${TOOLCHAIN_KIND:-}" = rustup ]; then
    (cd "$outside" && cargo check --quiet --target "$TARGET")
  else
    echo "(the $TARGET check needs rustup's target; the fallback toolchain skips it)"
  fi
  echo "docs/embedding.md's snippet builds against the packaged ${crates[*]}"
}

if [ "$MODE" = package ]; then
  setup_cross "$TARGET"
  package_and_embed
  exit 0
fi

if [ "$MODE" = test ]; then
  step "examples: format and lints"
  (cd examples && cargo fmt -- --check && cargo clippy --locked --all-targets -- -D warnings)
  step "examples: the scripted dialogue on the host"
  for name in "${PROGRAMS[@]}"; do
    (cd examples && cargo run --quiet --locked --bin "$name")
  done
fi
build_for_target
if [ "$MODE" = test ]; then
  package_and_embed
fi
