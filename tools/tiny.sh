#!/usr/bin/env bash
# The tiny static binary (tiny/): one file for locked-down tournament machines.
#
#   tools/tiny.sh          build target/tiny/nimbot and check it: fully static (file,
#   tools/tiny.sh build    ldd), at most 128 KB; prints its size and the table's share
#   tools/tiny.sh test     clippy on tiny/, the panic guard, the build and checks above, then complete
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
  if command -v file >/dev/null; then
    file "$OUT"
    file "$OUT" | grep -q "statically linked" || die "file does not say statically linked"
  else
    echo "file: not installed; checked the program headers instead (no INTERP, no DYNAMIC)"
    ! readelf -lW "$OUT" | grep -qE "INTERP|DYNAMIC" || die "the program headers ask for a dynamic loader"
  fi
  if command -v ldd >/dev/null; then
    # ldd exits non-zero for a static executable.
    local ldd_out
    ldd_out=$(ldd "$OUT" 2>&1 || true)
    echo "ldd: $(echo "$ldd_out" | sed 's/^[[:space:]]*//')"
    echo "$ldd_out" | grep -q "not a dynamic executable" || die "ldd does not say not a dynamic executable"
  fi
  [ "$size" -le "$SIZE_LIMIT" ] || die "target/tiny/nimbot is $size bytes, over the $SIZE_LIMIT-byte limit"
}

# The panic handler calls a symbol defined nowhere (tiny/src/sys.rs), so a build
# with a reachable panic must fail to link; prove it with a deliberate one.
panic_guard() {
  step "tiny: the link-time panic guard rejects a build with a reachable panic"
  local log=/tmp/nimbot-tiny-canary.log
  if (cd tiny && cargo build --release --quiet --features panic-canary) >"$log" 2>&1; then
    die "the panic-canary build linked: the panic guard does not work"
  fi
  grep -q nimbot_tiny_has_a_reachable_panic "$log" || { tail -20 "$log" >&2; die "the panic-canary build failed for another reason (log: $log)"; }
  echo "ok: the canary build fails to link on nimbot_tiny_has_a_reachable_panic"
}

lint() {
  step "tiny: format and clippy (warnings denied)"
  (cd tiny && cargo fmt -- --check && cargo clippy --release --quiet -- -D warnings)
}

case "${1:-build}" in
  build) build ;;
  test)
    lint
    panic_guard
    build
    step "tiny: complete games (line protocol, query, connect, exp-nim)"
    cargo build --release --quiet --bin nimbot
    timeout 300 python3 tools/tiny_test.py "$OUT" "$ROOT/target/release/nimbot"
    ;;
  *) die "usage: tools/tiny.sh [build|test]" ;;
esac
