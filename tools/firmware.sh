#!/usr/bin/env bash
# The Cortex-M firmware (firmware/): install what is missing, build, test in QEMU.
#
#   tools/firmware.sh build    build target/thumbv7m-none-eabi/release/nimbot-lm3s6965
#                              and print its flash and RAM use
#   tools/firmware.sh test     build, check the link-time panic guard, then boot the
#                              image in QEMU and play games against it (firmware/qemu_test.py)
#   tools/firmware.sh install  only install the missing pieces
#
# Toolchain: a rustup toolchain that already has the thumbv7m-none-eabi target is
# used as it is. Otherwise (rustup cannot download targets on every machine) the
# script uses Debian's rustc-web, cargo-web and rust-web-src, building `core` from
# source (-Zbuild-std=core, RUSTC_BOOTSTRAP=1), linked with rust-lld from the rustup
# toolchain or Debian's lld. QEMU comes from Debian's qemu-system-arm. Packages are
# installed with apt-get (through sudo when not root) only when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=thumbv7m-none-eabi
ELF=$ROOT/target/$TARGET/release/nimbot-lm3s6965
FLASH_BUDGET=65536
RAM_BUDGET=8192
PANIC_SYMBOL=nimbot_firmware_has_a_reachable_panic

step() { printf '\n== %s\n' "$*"; }
die() { echo "firmware.sh: $*" >&2; exit 1; }

[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$PATH:$HOME/.cargo/bin"

apt_install() {
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "installing Debian packages: $*"
  if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "$@" >/tmp/nimbot-apt.log 2>&1; then
    # The package lists may be missing or stale: refresh once and retry.
    "${sudo[@]}" apt-get update -q >>/tmp/nimbot-apt.log 2>&1 || true
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "$@" >>/tmp/nimbot-apt.log 2>&1 \
      || { tail -20 /tmp/nimbot-apt.log >&2; die "apt-get install $* failed (log: /tmp/nimbot-apt.log)"; }
  fi
}

# A rustup toolchain whose rustc already has the target's core library.
rustup_has_target() {
  command -v rustc >/dev/null 2>&1 || return 1
  local libdir
  libdir=$(rustc --print target-libdir --target "$TARGET" 2>/dev/null) || return 1
  compgen -G "$libdir/libcore-*.rlib" >/dev/null
}

# Debian's cargo and rustc: /usr/bin/cargo, or a versioned name (cargo-1.NN).
debian_tool() {
  local name=$1 c
  for c in "/usr/bin/$name" $(ls -1 /usr/bin/"$name"-1.* 2>/dev/null | sort -rV); do
    [ -x "$c" ] && { echo "$c"; return 0; }
  done
  return 1
}

has_rust_src() { [ -d "$("$1" --print sysroot)/lib/rustlib/src/rust/library/core" ]; }

# Sets CARGO, ZFLAGS (array: what every cargo command needs after the subcommand),
# CLIPPY_PATH and the environment for the cross build.
setup_toolchain() {
  if rustup_has_target; then
    CARGO=cargo
    ZFLAGS=()
    CLIPPY_PATH=$PATH
    TOOLCHAIN="rustup ($(rustc --version)) with the $TARGET target"
    return
  fi
  local cargo rustc
  cargo=$(debian_tool cargo || true)
  rustc=$(debian_tool rustc || true)
  if [ -z "$cargo" ] || [ -z "$rustc" ] || ! has_rust_src "$rustc"; then
    apt_install rustc-web cargo-web rust-web-src
    cargo=$(debian_tool cargo) || die "Debian's cargo is not in /usr/bin after installing cargo-web"
    rustc=$(debian_tool rustc) || die "Debian's rustc is not in /usr/bin after installing rustc-web"
    has_rust_src "$rustc" || die "$rustc has no library source (rust-web-src)"
  fi
  [ -x "$(dirname "$cargo")/cargo-clippy" ] || apt_install rust-web-clippy
  # Debian's rustc ships no rust-lld; the rustup toolchain does, or Debian's lld.
  local lld="" r
  for r in $(type -aP rustc); do
    [ "$r" = "$rustc" ] && continue
    r=$("$r" --print sysroot 2>/dev/null)/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld || continue
    [ -x "$r" ] && { lld=$r; break; }
  done
  if [ -z "$lld" ]; then
    command -v ld.lld >/dev/null 2>&1 || apt_install lld
    lld=$(command -v ld.lld) || die "no ld.lld after installing lld"
  fi
  export RUSTC=$rustc RUSTDOC=${rustc%rustc}rustdoc RUSTC_BOOTSTRAP=1
  export CARGO_TARGET_THUMBV7M_NONE_EABI_LINKER=$lld
  CARGO=$cargo
  ZFLAGS=(-Zbuild-std=core)
  # Debian's cargo-clippy first, so that clippy matches Debian's rustc.
  CLIPPY_PATH=$(dirname "$cargo"):$PATH
  TOOLCHAIN="Debian $("$rustc" --version) building core from source, linker $lld"
}

ensure_qemu() {
  command -v qemu-system-arm >/dev/null 2>&1 || apt_install qemu-system-arm
  command -v qemu-system-arm >/dev/null 2>&1 || die "no qemu-system-arm after installing it"
}

ensure_binutils() {
  command -v size >/dev/null 2>&1 || apt_install binutils
}

# The QEMU driver, the host tests' peers and the tiny binary's test are Python.
ensure_python() {
  command -v python3 >/dev/null 2>&1 || apt_install python3
}

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
  (cd firmware/boards/lm3s6965 && "$CARGO" build "${ZFLAGS[@]}" --release)
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
  if (cd firmware/boards/lm3s6965 && "$CARGO" build "${ZFLAGS[@]}" --release --features panic-canary) >"$log" 2>&1; then
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
  (unset RUSTC RUSTDOC RUSTC_BOOTSTRAP; "$host_cargo" build --release --quiet --bin nimbot)
}

test_fw() {
  setup_toolchain
  ensure_binutils
  ensure_qemu
  ensure_python
  step "firmware lints (clippy, warnings denied)"
  (cd firmware/boards/lm3s6965 && PATH=$CLIPPY_PATH "$CARGO" clippy "${ZFLAGS[@]}" --release -- -D warnings)
  check_panic_guard
  build
  host_nimbot
  step "QEMU lm3s6965evb: complete games and bad input over UART0"
  local status=0
  # The driver times out every read and kills QEMU itself; the outer timeout is the
  # last resort if the driver itself hangs.
  timeout --kill-after=10 600 python3 firmware/qemu_test.py \
    --elf "$ELF" --oracle "$ROOT/target/release/nimbot" \
    --qemu "qemu-system-arm -cpu cortex-m3 -machine lm3s6965evb -display none -monitor none -serial stdio" \
    --static-ram "$STATIC_RAM" --ram-budget "$RAM_BUDGET" || status=$?
  return "$status"
}

case "${1:-}" in
  build) build ;;
  test) test_fw ;;
  install) setup_toolchain; ensure_binutils; ensure_qemu; ensure_python; echo "toolchain: $TOOLCHAIN" ;;
  *) echo "usage: tools/firmware.sh build|test|install" >&2; exit 2 ;;
esac
