#!/usr/bin/env bash
# The tiny static binary (tiny/): one file for locked-down tournament machines, for
# x86_64 and aarch64 Linux. docs/tiny.md says what it runs on and needs.
#
#   tools/tiny.sh [build]  build target/tiny/nimbot (x86_64) and target/tiny/nimbot-aarch64
#                          and check them: fully static, x86_64 at most 60 KB (61,440 bytes);
#                          prints their sizes and the table's share
#   tools/tiny.sh test     format and clippy on tiny/, the panic guard (both targets), the
#                          build, then complete games through each binary (tools/tiny_test.py:
#                          line protocol and query against the full binary, connect through
#                          the referee, exp-nim through a named pipe), the aarch64 one under
#                          qemu-aarch64; then the syscall allowlist test (x86_64, seccomp,
#                          empty root, env -i, low ulimit -v); last, both built with the
#                          fallback toolchain (guard on) and games beyond the table on it
#   tools/tiny.sh install  install what `test` needs (toolchains, qemu-user, python3-seccomp)
#   tools/tiny.sh size     where the bytes go: an unstripped build per target, its sections
#                          and its largest symbols grouped by module
#   tools/tiny.sh lines    the x86_64 code's bytes by source file and by source line (a
#                          build with line tables; inlined code counts where it was
#                          written, not where it landed): where to look for smaller code
#   tools/tiny.sh panics   which functions still call the panic machinery (a build that
#                          links in spite of them), when the panic guard refuses a build
#
# Toolchain, per target (tools/toolchain.sh): rustup, with `rustup target add` when
# the target is missing, and a plain cargo build inside tiny/ (whose
# .cargo/config.toml has the link flags); when rustup cannot provide it, Debian's
# rustc (1.85 or newer), with `core` built from source for aarch64 and linked by
# Debian's lld (x86_64, the host, has Debian's prebuilt core and links through cc).
# NIMBOT_TOOLCHAIN=source forces that fallback. qemu-user and python3-seccomp come
# from apt when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SIZE_LIMIT=61440
TABLE=$ROOT/table/default.nimt
PANIC_SYMBOL=nimbot_tiny_has_a_reachable_panic
# Extra cargo features (TINY_FEATURES=...), e.g. for `size` experiments; the
# shipped binaries use none.
FEATURES=${TINY_FEATURES:-}
TARGETS=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu)
# What the fallback toolchain builds from source for a cross target: the solver
# needs alloc as well as core.
BUILD_STD=core,alloc

# shellcheck source=tools/toolchain.sh
. "$ROOT/tools/toolchain.sh"

# target -> the shipped file (under OUT_DIR), and cargo's output (under TARGET_DIR).
out_of() {
  case $1 in
    x86_64-*) echo "${OUT_DIR:-$ROOT/target/tiny}/nimbot" ;;
    *) echo "${OUT_DIR:-$ROOT/target/tiny}/nimbot-${1%%-*}" ;;
  esac
}
built_of() { echo "$ROOT/target/${TARGET_DIR:-tiny-build}/$1/release/nimbot-tiny"; }

# Sets CARGO, ZFLAGS, CLIPPY_PATH, TOOLCHAIN, TOOLCHAIN_KIND and the environment for
# building `$1`.
setup_target() {
  local target=$1 mode=${NIMBOT_TOOLCHAIN:-auto} rustc cargo
  if [ "${target%%-*}" != x86_64 ]; then
    setup_cross "$target"
    return 0
  fi
  # x86_64 is the host: rustup's toolchain, else Debian's rustc with its prebuilt
  # core (no build-std), linking through cc as with rustup.
  if [ "$mode" != source ] && rustup_provides "$target"; then
    use_rustup "$target"
    # rustup's rustc links x86_64 with its own lld, which folds identical
    # functions (tiny/.cargo/config.toml).
    export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C link-arg=-Wl,--icf=all"
    return 0
  fi
  [ "$mode" = rustup ] && die "rustup cannot provide $target (NIMBOT_TOOLCHAIN=rustup forbids the fallback)"
  rustc=$(debian_tool rustc || true)
  cargo=$(debian_tool cargo || true)
  if [ -z "$rustc" ] || [ -z "$cargo" ]; then
    apt_install rustc-web cargo-web
    rustc=$(debian_tool rustc) || die "no Debian rustc after installing rustc-web"
    cargo=$(debian_tool cargo) || die "no Debian cargo after installing cargo-web"
  fi
  [ -x "$(dirname "$cargo")/cargo-clippy" ] || apt_install rust-web-clippy
  export RUSTC=$rustc RUSTDOC=${rustc%rustc}rustdoc
  CARGO=$cargo
  ZFLAGS=()
  CLIPPY_PATH=$(dirname "$cargo"):$PATH
  TOOLCHAIN_KIND=source
  TOOLCHAIN="Debian $("$rustc" --version | cut -d' ' -f2), its prebuilt core"
}

# cargo inside tiny/ (where .cargo/config.toml is read) for one target.
tiny_cargo() {
  local target=$1 sub=$2
  shift 2
  (
    setup_target "$target" >&2
    [ "$sub" = build ] && echo "toolchain: $TOOLCHAIN" >&2
    cd tiny && PATH=$CLIPPY_PATH "$CARGO" "$sub" "${ZFLAGS[@]}" --release --quiet --target "$target" "$@"
  )
}

with_features() {
  local f=$FEATURES
  [ -n "${1:-}" ] && f=${f:+$f,}$1
  [ -n "$f" ] && echo "--features=$f"
  return 0
}

build_one() {
  local target=$1 out built size table
  out=$(out_of "$target")
  built=$(built_of "$target")
  step "tiny: build ${out#"$ROOT"/} ($target: no_std, no libc, static${FEATURES:+; features $FEATURES})"
  tiny_cargo "$target" build --target-dir "../target/${TARGET_DIR:-tiny-build}" $(with_features)
  mkdir -p "$(dirname "$out")"
  # No section headers: the kernel reads program headers only, and a stripped
  # binary's section table is about 500 bytes (docs/figures.md). Needs rustup's
  # llvm-objcopy; the fallback toolchain's build keeps them.
  if [ "$(setup_target "$target" >/dev/null 2>&1; echo "${TOOLCHAIN_KIND:-}")" = rustup ]; then
    "$(llvm_tool llvm-objcopy)" --strip-sections "$built" "$out"
  else
    cp "$built" "$out"
  fi
  size=$(stat -c %s "$out")
  table=$(stat -c %s "$TABLE")
  echo "${out#"$ROOT"/}: $size bytes, of which the table is $table bytes"
  if command -v file >/dev/null; then
    file "$out" | sed "s|$ROOT/||"
    file "$out" | grep -q "statically linked" || die "file does not say statically linked"
  fi
  ! readelf -lW "$out" | grep -qE "INTERP|DYNAMIC" || die "$out asks for a dynamic loader"
  if [ "${target%%-*}" = x86_64 ]; then
    if command -v ldd >/dev/null; then
      local ldd_out
      ldd_out=$(ldd "$out" 2>&1 || true)
      echo "ldd: $(echo "$ldd_out" | sed 's/^[[:space:]]*//')"
      echo "$ldd_out" | grep -q "not a dynamic executable" || die "ldd does not say not a dynamic executable"
    fi
    # The limit holds for the standard toolchain; older compilers make larger code.
    if [ "$(setup_target "$target" >/dev/null 2>&1; echo "${TOOLCHAIN_KIND:-}")" = rustup ]; then
      [ "$size" -le "$SIZE_LIMIT" ] || die "$out is $size bytes, over the $SIZE_LIMIT-byte limit"
      echo "within the $SIZE_LIMIT-byte limit"
    else
      echo "fallback toolchain: the $SIZE_LIMIT-byte limit is checked with rustup's"
    fi
  fi
}

build() {
  local t
  for t in "${TARGETS[@]}"; do build_one "$t"; done
}

# The panic handler calls a symbol defined nowhere (tiny/src/sys.rs), so a build
# with a reachable panic must fail to link; prove it with a deliberate one.
panic_guard() {
  local target=$1 log
  log=$(mktemp)
  step "tiny: the link-time panic guard rejects a build with a reachable panic ($target)"
  if tiny_cargo "$target" build $(with_features panic-canary) >"$log" 2>&1; then
    die "the panic-canary build linked: the panic guard does not work"
  fi
  grep -q $PANIC_SYMBOL "$log" || { tail -20 "$log" >&2; die "the panic-canary build failed for another reason (log: $log)"; }
  rm -f "$log"
  echo "ok: the canary build fails to link on $PANIC_SYMBOL"
}

lint() {
  step "tiny: format and clippy (warnings denied)"
  ensure_rust_components
  (cd tiny && cargo fmt -- --check)
  local t
  for t in "${TARGETS[@]}"; do
    tiny_cargo "$t" clippy -- -D warnings
  done
}

# Sections of an unstripped binary and its code by module (largest first).
symbol_sizes() {
  size -A "$1" | awk 'NR > 2 && $2 > 0 { printf "  section %-16s %7d bytes\n", $1, $2 }'
  echo "  table (in .rodata): $(stat -c %s "$TABLE") bytes; code by module (top 25):"
  nm -S -C "$1" | python3 -c '
import re, sys, collections
by = collections.Counter()
for line in sys.stdin:
    p = line.split(None, 3)
    if len(p) < 4 or p[2] not in "tT":
        continue
    m = re.search(r"(nimbot(?:_tiny)?::\w+(?:::\w+)?)", p[3])
    by[m.group(1) if m else p[3].split("::")[0].split("<")[0][:40]] += int(p[1], 16)
for name, n in by.most_common(25):
    print(f"  {n:7d} {name}")
print(f"  {sum(by.values()):7d} all code")'
}

# Largest symbols of an unstripped build, grouped by module.
size_report() {
  local t
  for t in "${TARGETS[@]}"; do
    step "tiny: where the bytes go ($t, unstripped build${FEATURES:+, features $FEATURES})"
    CARGO_PROFILE_RELEASE_STRIP=false TARGET_DIR=tiny-syms tiny_cargo "$t" build --target-dir ../target/tiny-syms $(with_features "${1:-}")
    symbol_sizes "$(TARGET_DIR=tiny-syms built_of "$t")"
  done
}

# Code bytes per source file and line, from a build with line tables: each
# instruction counts for the innermost inlined frame in this repository's source
# (the library's, core's and alloc's, count for the frame that called them).
lines_report() {
  local t=x86_64-unknown-linux-gnu bin
  step "tiny: code bytes by source file and line ($t, a build with line tables)"
  CARGO_PROFILE_RELEASE_STRIP=false CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \
    TARGET_DIR=tiny-lines tiny_cargo "$t" build --target-dir ../target/tiny-lines $(with_features)
  bin=$(TARGET_DIR=tiny-lines built_of "$t")
  objdump -d --no-show-raw-insn -w "$bin" | python3 -c '
import collections, re, subprocess, sys
bin = sys.argv[1]
addrs = sorted(int(m.group(1), 16) for m in
               (re.match(r"^\s+([0-9a-f]+):\s", l) for l in sys.stdin) if m)
size = {a: min(b - a, 15) for a, b in zip(addrs, addrs[1:] + [addrs[-1] + 1])}
out = subprocess.run(["addr2line", "-i", "-a", "-e", bin], capture_output=True, text=True,
                     input="\n".join(map(hex, addrs))).stdout.split("\n")
files, lines, here = collections.Counter(), collections.Counter(), None
# Paths under the repository (the crates through tiny/repo, and tiny/ itself);
# anything else (core, alloc, crates.io) counts for the frame that called it.
own = re.compile("^" + re.escape(sys.argv[2]) + r"/(?:tiny/repo/)?(\S+?:(?:\d+|\?))")
for l in out:
    if re.fullmatch(r"0x[0-9a-f]+", l):
        here = int(l, 16)
        continue
    m = own.match(l) if here is not None else None
    if m:
        where = m.group(1)
        files[where.rsplit(":", 1)[0]] += size[here]
        lines[where] += size[here]
        here = None
print(f"  {sum(size.values()):7d} bytes of code, {sum(files.values())} of them in this repository:")
for name, n in files.most_common(25):
    print(f"  {n:7d} {name}")
print("  largest lines (\"?\": code the compiler made without a line):")
for name, n in lines.most_common(25):
    print(f"  {n:7d} {name}")' "$bin" "$ROOT"
}

panics() {
  local t=${1:-x86_64-unknown-linux-gnu} bin
  [ "${t%%-*}" = x86_64 ] || die "panics reads x86_64 code only (the host's objdump); the source is the same for aarch64"
  step "tiny: functions that call the panic machinery ($t${FEATURES:+, features $FEATURES})"
  CARGO_PROFILE_RELEASE_STRIP=false tiny_cargo "$t" build --target-dir ../target/tiny-syms $(with_features find-panics)
  bin=$(TARGET_DIR=tiny-syms built_of "$t")
  # Every function from which a panic is reachable through calls and jumps; print
  # the crate functions (not core's or alloc's) that call into such a function.
  objdump -d --no-show-raw-insn -C "$bin" | python3 -c '
import re, sys, collections
calls, fn = collections.defaultdict(set), None
for line in sys.stdin:
    m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
    if m:
        fn = m.group(1)
        continue
    m = re.search(r"\s(?:call|jmp|j[a-z]+|bl?|b\.[a-z]+|cbn?z|tbn?z)\s+(?:[^<]*,\s*)?[0-9a-f]+ <(.*?)(?:\+0x[0-9a-f]+)?>$", line.rstrip())
    if fn and m and m.group(1) != fn:
        calls[fn].add(m.group(1))
reach = {f for f in calls if "rust_begin_unwind" in calls[f]} | {"__rustc::rust_begin_unwind"}
while True:
    more = {f for f, cs in calls.items() if f not in reach and cs & reach}
    if not more:
        break
    reach |= more
library = re.compile(r"^<?(core|alloc)::|^__rustc::|^<(core|alloc)::")
found = sorted(f"{f}  ->  {c}" for f in reach if not library.search(f)
               for c in calls[f] & reach if library.search(c))
print("\n".join(found) if found else "no crate function reaches a panic")'
}

qemu_runner() {
  ensure_cmd qemu-aarch64 qemu-user
  # tiny_test.py runs this wrapper wherever it would run the binary.
  local wrap=$ROOT/target/tiny/run-aarch64
  printf '#!/bin/sh\nexec qemu-aarch64 %s "$@"\n' "$(out_of aarch64-unknown-linux-gnu)" >"$wrap"
  chmod +x "$wrap"
  echo "$wrap"
}

case "${1:-build}" in
  build) build ;;
  install)
    # What `test` needs, and nothing built: both targets' toolchains (rustup's, then
    # the fallback's Debian rustc), qemu-user and python3-seccomp. tools/test.sh runs
    # it with the other installs, so that no apt-get runs while suites run side by side.
    for t in "${TARGETS[@]}"; do (setup_target "$t"); done
    for t in "${TARGETS[@]}"; do (NIMBOT_TOOLCHAIN=source setup_target "$t"); done
    ensure_cmd qemu-aarch64 qemu-user
    /usr/bin/python3 -c 'import seccomp' 2>/dev/null || apt_install python3-seccomp
    echo "tiny: toolchains, qemu-user and python3-seccomp present"
    ;;
  size) size_report "${2:-}" ;;
  lines) lines_report ;;
  panics) panics "${2:-}" ;;
  test)
    lint
    for t in "${TARGETS[@]}"; do panic_guard "$t"; done
    build
    FULL=$(host_bin nimbot-cli nimbot)
    step "tiny: complete games, x86_64 (line protocol, query, connect, exp-nim, games beyond the table)"
    timeout 900 python3 tools/tiny_test.py "$(out_of x86_64-unknown-linux-gnu)" "$FULL"
    # Emulated, the same checks on fewer random positions (--quick): the solver's
    # games beyond the table run about twenty times slower under qemu-aarch64.
    step "tiny: complete games, aarch64 under qemu-aarch64 (--quick: fewer random positions)"
    timeout 1200 python3 tools/tiny_test.py --quick "$(qemu_runner)" "$FULL"
    step "tiny: the syscall allowlist (seccomp, empty root, env -i, ulimit -v), x86_64"
    /usr/bin/python3 -c 'import seccomp' 2>/dev/null || apt_install python3-seccomp
    timeout 300 python3 tools/tiny_test.py --jail "$(out_of x86_64-unknown-linux-gnu)" "$FULL"
    # The fallback toolchain compiles other code (an older compiler; core and alloc
    # built from source for aarch64), and the panic guard must hold there too.
    # Its own cargo output and files (target/tiny/fallback/), so that the shipped
    # binaries stay the standard build's.
    step "tiny: both binaries with the fallback toolchain (Debian's rustc), panic guard on"
    (
      export NIMBOT_TOOLCHAIN=source TARGET_DIR=tiny-fallback OUT_DIR=$ROOT/target/tiny/fallback
      build
      timeout 600 python3 tools/tiny_test.py --beyond-only "$(out_of x86_64-unknown-linux-gnu)" "$FULL"
    )
    ;;
  *) die "usage: tools/tiny.sh [build|install|test|size [FEATURES]|lines|panics [TARGET]]" ;;
esac
