# Shared by the build scripts (source it, don't run it): install what is missing and
# pick a Rust toolchain for a cross target.
#
# Standard path first: the rustup toolchain, with `rustup target add TARGET` when the
# target is missing; then a plain `cargo build` inside the crate's folder, whose
# .cargo/config.toml chooses target, linker and runner.
#
# Fallback, only when rustup cannot provide the target (no rustup, or it cannot
# download): Debian's compiler (rustc-web, cargo-web) and its library source
# (rust-web-src), building `core` from source (-Zbuild-std=core, RUSTC_BOOTSTRAP=1).
# Every crate that the firmware and the tiny binary compile declares rust-version 1.85,
# the compiler Debian bookworm offers. When neither path works, the script stops at
# once with one line that says what is missing and what would fix it.
#
# NIMBOT_TOOLCHAIN=source forces the fallback (CI does, so that it cannot rot);
# NIMBOT_TOOLCHAIN=rustup forbids it.
#
# The AVR (the Arduino Uno) has no fallback: setup_avr installs the nightly its
# board pins, with rust-src, and Debian's gcc-avr and avr-libc.

# The oldest compiler the no_std crates build with (their rust-version).
NIMBOT_MIN_RUSTC=1.85

# A step's heading, with the minutes and seconds since the script started (so a
# CI log shows where the time goes).
step() { printf '\n== [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
die() { echo "${0##*/}: $*" >&2; exit 1; }

# The host's own binaries that the scripts' tests run (the oracle `nimbot`,
# `nimbot-table`): built in the `ci` profile that tools/test.sh's tests already
# built them in (optimized like release, no whole-program LTO), so a test run
# compiles the host crates once. NIMBOT_HOST_PROFILE=release tests the shipped build.
HOST_PROFILE=${NIMBOT_HOST_PROFILE:-ci}
# host_bin PACKAGE BINARY: build BINARY of PACKAGE for the host in HOST_PROFILE and
# print its path. The cross toolchain's variables (RUSTC, RUSTDOC, RUSTC_BOOTSTRAP,
# CARGO_TARGET_DIR) are for cross builds only and are dropped here.
host_bin() {
  local host_cargo root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  host_cargo=$(command -v cargo || debian_tool cargo) || die "no cargo for the host's $2"
  (cd "$root" && unset RUSTC RUSTDOC RUSTC_BOOTSTRAP CARGO_TARGET_DIR &&
    "$host_cargo" build --profile "$HOST_PROFILE" --quiet -p "$1" --bin "$2") >&2 ||
    die "building the host's $2 failed"
  echo "$root/target/$HOST_PROFILE/$2"
}

[ -x "$HOME/.cargo/bin/cargo" ] && case ":$PATH:" in
  *":$HOME/.cargo/bin:"*) ;;
  *) export PATH="$HOME/.cargo/bin:$PATH" ;;
esac

# apt-get install, through sudo when not root; refreshes stale package lists once.
apt_install() {
  local sudo=() log
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  command -v apt-get >/dev/null 2>&1 || die "$* missing and there is no apt-get to install it: install $* by hand"
  log=$(mktemp)
  echo "installing Debian packages: $*" >&2
  if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "$@" >"$log" 2>&1; then
    "${sudo[@]}" apt-get update -q >>"$log" 2>&1 || true
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "$@" >>"$log" 2>&1 ||
      { tail -5 "$log" >&2; die "apt-get install $* failed (log: $log)"; }
  fi
  rm -f "$log"
}

# ensure_cmd COMMAND PACKAGE: install PACKAGE when COMMAND is not on the PATH.
ensure_cmd() {
  command -v "$1" >/dev/null 2>&1 && return 0
  apt_install "$2"
  command -v "$1" >/dev/null 2>&1 || die "no $1 after installing the Debian package $2"
}

# rustfmt and clippy for the rustup toolchain (no-ops when present or without rustup).
ensure_rust_components() {
  cargo fmt --version >/dev/null 2>&1 && cargo clippy --version >/dev/null 2>&1 && return 0
  command -v rustup >/dev/null 2>&1 && rustup component add rustfmt clippy >/dev/null 2>&1
  cargo fmt --version >/dev/null 2>&1 || die "cargo fmt is missing: run rustup component add rustfmt"
  cargo clippy --version >/dev/null 2>&1 || die "cargo clippy is missing: run rustup component add clippy"
}

# True when the rustc on the PATH has TARGET's core library.
rustc_has_target() {
  local libdir
  command -v rustc >/dev/null 2>&1 || return 1
  libdir=$(rustc --print target-libdir --target "$1" 2>/dev/null) || return 1
  compgen -G "$libdir/libcore-*.rlib" >/dev/null
}

# True when rustup provides TARGET, adding it if it is missing.
rustup_provides() {
  rustc_has_target "$1" && return 0
  command -v rustup >/dev/null 2>&1 || return 1
  echo "rustup target add $1"
  local log
  log=$(mktemp)
  timeout 300 rustup target add "$1" >"$log" 2>&1 || {
    echo "rustup could not add $1: $(grep -m1 -i 'error' "$log" || tail -1 "$log")"
    rm -f "$log"
    return 1
  }
  rm -f "$log"
  rustc_has_target "$1"
}

# Debian's cargo or rustc: /usr/bin/NAME or a versioned /usr/bin/NAME-1.NN.
debian_tool() {
  local name=$1 c
  for c in "/usr/bin/$name" $(ls -1 /usr/bin/"$name"-1.* 2>/dev/null | sort -rV); do
    [ -x "$c" ] && { echo "$c"; return 0; }
  done
  return 1
}

# elf_footprint ELF: what an image takes of a chip. Sets FLASH (the bytes of its
# loadable segments: vector table, code, constants, the initial values of .data, a
# bootloader where the board has one), ELF_DATA, ELF_BSS, ELF_UNINIT and STATIC_RAM
# (their sum). Needs readelf and size (binutils).
elf_footprint() {
  local type _offset _vaddr _paddr filesz _rest
  FLASH=0
  while read -r type _offset _vaddr _paddr filesz _rest; do
    [ "$type" = LOAD ] && FLASH=$((FLASH + filesz))
  done < <(readelf -lW "$1")
  read -r ELF_DATA ELF_BSS ELF_UNINIT < <(size -A "$1" | awk '
    $1 == ".data" { d = $2 } $1 == ".bss" { b = $2 } $1 == ".uninit" { u = $2 }
    END { print d + 0, b + 0, u + 0 }')
  STATIC_RAM=$((ELF_DATA + ELF_BSS + ELF_UNINIT))
}

# export_commit: NIMBOT_COMMIT (the commit, 12 hex digits, `-dirty` when tracked
# files differ from it) and SOURCE_DATE_EPOCH (its time), for build.rs's version
# lines and tools/release.sh. Kept when already set; `unknown` and 0 without git.
# tools/test.sh exports them too, so that its builds and the release's share one
# build-script output (a changed NIMBOT_COMMIT rebuilds the core and all above it).
export_commit() {
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  if [ -z "${NIMBOT_COMMIT:-}" ]; then
    if NIMBOT_COMMIT=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null); then
      [ -z "$(git -C "$root" status --porcelain --untracked-files=no)" ] || NIMBOT_COMMIT=$NIMBOT_COMMIT-dirty
    else
      NIMBOT_COMMIT=unknown
    fi
  fi
  if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git -C "$root" log -1 --format=%ct HEAD 2>/dev/null) || SOURCE_DATE_EPOCH=0
  fi
  export NIMBOT_COMMIT SOURCE_DATE_EPOCH
}

# llvm_tool NAME: the path of a tool of rustup's llvm-tools component (llvm-objcopy:
# the release's .hex files, the tiny binary's section headers), installed when missing.
llvm_tool() {
  local bin
  bin=$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/$1
  if [ ! -x "$bin" ]; then
    command -v rustup >/dev/null 2>&1 || die "$1 missing: a release needs rustup's llvm-tools component"
    rustup component add llvm-tools >&2 || die "rustup component add llvm-tools failed"
  fi
  [ -x "$bin" ] || die "no $bin after rustup component add llvm-tools"
  echo "$bin"
}

version_at_least() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1)" = "$2" ]; }

# use_rustup TARGET: the standard path's settings (see setup_cross).
use_rustup() {
  CARGO=cargo
  ZFLAGS=()
  CLIPPY_PATH=$PATH
  TOOLCHAIN_KIND=rustup
  TOOLCHAIN="rustup $(rustc --version | cut -d' ' -f2) with the $1 target"
}

# setup_cross TARGET: sets CARGO (the cargo to run), ZFLAGS (an array of what every
# cargo command needs after the subcommand), CLIPPY_PATH (PATH for cargo clippy),
# TOOLCHAIN (one line for logs), TOOLCHAIN_KIND (rustup|source), and for the fallback
# the environment (RUSTC, RUSTDOC, RUSTC_BOOTSTRAP, the target's linker).
setup_cross() {
  local target=$1 mode=${NIMBOT_TOOLCHAIN:-auto}
  case "$mode" in auto | rustup | source) ;; *) die "NIMBOT_TOOLCHAIN must be auto, rustup or source, not '$mode'" ;; esac
  if [ "$mode" != source ] && rustup_provides "$target"; then
    use_rustup "$target"
    return 0
  fi
  [ "$mode" = rustup ] && die "rustup cannot provide $target (NIMBOT_TOOLCHAIN=rustup forbids the fallback): run rustup target add $target"
  [ "$mode" = source ] || echo "falling back to Debian's Rust, building core from source"

  local cargo rustc version
  cargo=$(debian_tool cargo || true)
  rustc=$(debian_tool rustc || true)
  if [ -z "$cargo" ] || [ -z "$rustc" ] || [ ! -d "$("$rustc" --print sysroot)/lib/rustlib/src/rust/library/core" ]; then
    apt_install rustc-web cargo-web rust-web-src
    cargo=$(debian_tool cargo) || die "no Debian cargo after installing cargo-web"
    rustc=$(debian_tool rustc) || die "no Debian rustc after installing rustc-web"
  fi
  [ -d "$("$rustc" --print sysroot)/lib/rustlib/src/rust/library/core" ] ||
    die "$rustc has no library source: apt-get install rust-web-src, or rustup target add $target"
  version=$("$rustc" --version | cut -d' ' -f2)
  version_at_least "$version" "$NIMBOT_MIN_RUSTC" ||
    die "Debian's rustc is $version, older than the $NIMBOT_MIN_RUSTC the no_std crates need: run rustup target add $target on a machine that can download"
  [ -x "$(dirname "$cargo")/cargo-clippy" ] || apt_install rust-web-clippy

  # Debian's rustc ships no rust-lld: take the one of a rustup toolchain, or Debian's lld.
  local lld="" r sysroot
  for r in $(type -aP rustc); do
    [ "$r" -ef "$rustc" ] && continue
    sysroot=$("$r" --print sysroot 2>/dev/null) || continue
    [ -x "$sysroot/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld" ] &&
      { lld=$sysroot/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld; break; }
  done
  if [ -z "$lld" ]; then
    ensure_cmd ld.lld lld
    lld=$(command -v ld.lld)
  fi
  local var
  var=CARGO_TARGET_$(echo "$target" | tr 'a-z.-' 'A-Z__')_LINKER
  export RUSTC=$rustc RUSTDOC=${rustc%rustc}rustdoc RUSTC_BOOTSTRAP=1 "$var=$lld"
  CARGO=$cargo
  # The caller's BUILD_STD names the library crates to build (the tiny binary's
  # solver also needs alloc).
  ZFLAGS=(-Zbuild-std="${BUILD_STD:-core}")
  CLIPPY_PATH=$(dirname "$cargo"):$PATH
  TOOLCHAIN_KIND=source
  TOOLCHAIN="Debian rustc $version building ${BUILD_STD:-core} from source, linker $lld"
}

# setup_avr BOARD_DIR: the toolchain of an AVR board (the Arduino Uno), which has no
# fallback: core must be built from source for the AVR (-Zbuild-std=core, set in the
# board's .cargo/config.toml) and the board reads flash with inline assembly, both
# nightly-only, so rustup installs the nightly that the board's rust-toolchain.toml
# pins (minimal profile, with rust-src and clippy); Debian's gcc-avr and avr-libc
# link the image (avr-gcc, avr-libc's start-up code and linker script). Cargo run
# in the board's folder then picks the pinned nightly by itself. Sets what
# setup_cross sets. Under NIMBOT_TOOLCHAIN=source (Debian's rustc only) it returns
# 1 after one line; when the nightly cannot be installed it stops with one line.
setup_avr() {
  local dir=$1 channel sysroot
  channel=$(sed -n 's/^channel *= *"\(.*\)"/\1/p' "$dir/rust-toolchain.toml")
  [ -n "$channel" ] || die "no channel in $dir/rust-toolchain.toml"
  if [ "${NIMBOT_TOOLCHAIN:-auto}" = source ]; then
    echo "${dir##*/}: needs rustup's $channel with rust-src (Debian's rustc cannot build for the AVR); NIMBOT_TOOLCHAIN=source skips it"
    return 1
  fi
  command -v rustup >/dev/null 2>&1 ||
    die "${dir##*/} needs rustup to install $channel with rust-src (the AVR's core is built from source): install rustup from rustup.rs"
  sysroot=$(cd "$dir" && timeout 900 rustc --print sysroot 2>/dev/null) || sysroot=""
  if [ -z "$sysroot" ] || [ ! -d "$sysroot/lib/rustlib/src/rust/library/core" ] ||
    ! (cd "$dir" && cargo clippy --version >/dev/null 2>&1); then
    echo "rustup toolchain install $channel (with rust-src and clippy)"
    timeout 900 rustup toolchain install "$channel" --profile minimal --component rust-src --component clippy \
      >/tmp/nimbot-rustup.log 2>&1 ||
      die "rustup could not install $channel with rust-src for ${dir##*/}: $(grep -m1 -i 'error' /tmp/nimbot-rustup.log || tail -1 /tmp/nimbot-rustup.log)"
  fi
  ensure_cmd avr-gcc gcc-avr
  # avr-libc: the start-up code and device library the linker needs.
  [ -f "$(avr-gcc -mmcu=atmega328p -print-file-name=crtatmega328p.o)" ] || apt_install avr-libc
  [ -f "$(avr-gcc -mmcu=atmega328p -print-file-name=crtatmega328p.o)" ] ||
    die "no crtatmega328p.o after installing avr-libc"
  CARGO=cargo
  ZFLAGS=()
  CLIPPY_PATH=$PATH
  TOOLCHAIN_KIND=rustup
  TOOLCHAIN="rustup $(cd "$dir" && rustc --version | cut -d' ' -f2-3) building core from source, avr-gcc $(avr-gcc -dumpversion)"
}
