#!/usr/bin/env bash
# The tiny static binary (tiny/): one file for locked-down tournament machines.
#
#   tools/tiny.sh          build target/tiny/nimbot and check it: fully static (file,
#   tools/tiny.sh build    ldd), at most 128 KB; prints its size and the table's share
#   tools/tiny.sh test     clippy on tiny/, the build and checks above, then complete
#                          games through it (tools/tiny_test.py): the line protocol
#                          and query against the full binary, connect through the
#                          referee, exp-nim through a named pipe
#
# Needs only the stable toolchain for x86_64-unknown-linux-gnu (core is enough: no
# std, no C library, no musl target); tiny/.cargo/config.toml has the link flags.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/target/tiny/nimbot
BUILT=$ROOT/target/tiny-build/x86_64-unknown-linux-gnu/release/nimbot-tiny
SIZE_LIMIT=131072
TABLE=$ROOT/table/default.nimt

step() { printf '\n== %s\n' "$*"; }
die() { echo "tiny.sh: $*" >&2; exit 1; }

[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$PATH:$HOME/.cargo/bin"

build() {
  step "tiny: build target/tiny/nimbot (no_std, no libc, static)"
  # Cargo reads tiny/.cargo/config.toml only when run inside tiny/.
  (cd tiny && cargo build --release --quiet)
  mkdir -p "$(dirname "$OUT")"
  cp "$BUILT" "$OUT"
  local size table
  size=$(stat -c %s "$OUT")
  table=$(stat -c %s "$TABLE")
  echo "target/tiny/nimbot: $size bytes ($((size * 100 / SIZE_LIMIT)) % of the $SIZE_LIMIT-byte limit), of which the table is $table bytes"
  file "$OUT"
  file "$OUT" | grep -q "statically linked" || die "file does not say statically linked"
  local ldd_out
  ldd_out=$(ldd "$OUT" 2>&1 || true)
  echo "ldd: $ldd_out"
  echo "$ldd_out" | grep -q "not a dynamic executable" || die "ldd does not say not a dynamic executable"
  [ "$size" -le "$SIZE_LIMIT" ] || die "target/tiny/nimbot is $size bytes, over the $SIZE_LIMIT-byte limit"
}

lint() {
  step "tiny: format and clippy (warnings denied)"
  (cd tiny && cargo fmt -- --check && cargo clippy --release --quiet -- -D warnings)
}

case "${1:-build}" in
  build) build ;;
  test)
    lint
    build
    step "tiny: complete games (line protocol, query, connect, exp-nim)"
    cargo build --release --quiet --bin nimbot
    timeout 300 python3 tools/tiny_test.py "$OUT" "$ROOT/target/release/nimbot"
    ;;
  *) die "usage: tools/tiny.sh [build|test]" ;;
esac
