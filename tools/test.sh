#!/usr/bin/env bash
# Everything nimbot checks before a change lands: formatting, lints, the no_std
# build, the docs, every test, a 30 s fuzz run of each target (tools/fuzz.sh smoke,
# which installs cargo-fuzz when missing), the firmware in QEMU and rp2040py, and
# through the host bridge (tools/firmware.sh test, which installs its cross
# toolchain and emulators when missing) side by side with the tiny static
# binary's (tools/tiny.sh test), then the embedding examples (tools/examples.sh test:
# run on the host, built for thumbv6m-none-eabi), then the site in headless Chromium
# (tools/web.sh check and test, which install the wasm target, chromium,
# chromium-driver and python3-selenium when missing); between them, the tiny
# binaries and the boards' images built again from a clone at another path must
# have the same bytes (tools/release.sh twice, docs/release.md). Run from anywhere:
# tools/test.sh
#
# What it needs is installed when missing (tools/toolchain.sh): rustfmt and clippy,
# the firmware's target through rustup (or Debian's Rust as a fallback), QEMU,
# python3, file, bubblewrap and binutils from Debian, cargo-fuzz from crates.io.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tools/toolchain.sh
. tools/toolchain.sh
# The commit every build names (build.rs), the same for the tests' builds and the
# release's below, so that the release reuses what the tests built.
export_commit

# Before any test: the host tests' Python peers need python3; the firmware steps
# need the cross target and QEMU; the tiny binary's checks use file.
step "tools: rustfmt, clippy, python3, file, bwrap; the firmware's toolchains and QEMU in the background"
ensure_rust_components
ensure_cmd python3 python3
ensure_cmd file file
# The tournament confines bots with bubblewrap (cli/tests/sandbox.rs, and every
# tournament test as root).
ensure_cmd bwrap bubblewrap
# The cross toolchains, QEMU and the Pico's emulator are mostly downloads: they are
# fetched while the host crates build and test (which need none of them), and
# waited for before the first step that does.
mkdir -p target
INSTALL_LOG=target/test-install.log
{ tools/firmware.sh install --board all && tools/tiny.sh install; } >"$INSTALL_LOG" 2>&1 &
INSTALL_PID=$!
wait_for_installs() {
  [ -z "${INSTALL_PID:-}" ] && return 0
  step "waiting for the background installs ($INSTALL_LOG)"
  if ! wait "$INSTALL_PID"; then
    cat "$INSTALL_LOG" >&2
    die "installing the firmware's toolchains failed (log above)"
  fi
  INSTALL_PID=
  cat "$INSTALL_LOG"
}

step "format (cargo fmt --check)"
cargo fmt --all -- --check
for board in firmware/boards/*/; do
  cargo fmt --manifest-path "$board/Cargo.toml" --all -- --check
done
cargo fmt --manifest-path tiny/Cargo.toml -- --check

step "lock files: every Cargo.lock matches its manifests (a stale one fails --locked builds late)"
for manifest in Cargo.toml examples/Cargo.toml tiny/Cargo.toml fuzz/Cargo.toml firmware/boards/*/Cargo.toml; do
  if ! cargo metadata --locked --offline --format-version 1 --manifest-path "$manifest" >/dev/null 2>&1 &&
     ! cargo metadata --locked --format-version 1 --manifest-path "$manifest" >/dev/null; then
    echo "$(dirname "$manifest")/Cargo.lock is out of date: run cargo update -w in $(dirname "$manifest") and commit it" >&2
    exit 1
  fi
done

step "lints (cargo clippy, warnings denied)"
cargo clippy --workspace --all-targets -- -D warnings

step "the core, the solver, Super-Nim and the line protocol build with no features, and with each optional feature alone (all are no_std in every build)"
cargo rustc -p nimbot --lib --no-default-features -- -D warnings
for feature in default-table related-games serde; do
  cargo rustc -p nimbot --lib --no-default-features --features "$feature" -- -D warnings
done
cargo rustc -p nimbot-solve --lib -- -D warnings
for feature in default-table small-solver encode; do
  cargo rustc -p nimbot-solve --lib --features "$feature" -- -D warnings
done
cargo rustc -p nimbot-supernim --lib -- -D warnings
cargo rustc -p nimbot-supernim --lib --features alloc -- -D warnings
cargo rustc -p nimbot-protocol --lib -- -D warnings
for feature in related-games async alloc; do
  cargo rustc -p nimbot-protocol --lib --features "$feature" -- -D warnings
done
cargo rustc -p nimbot-platform --lib -- -D warnings

step "docs build without warnings"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

step "tests (profile ci: optimized like release, without LTO; the exhaustive checks are heavy)"
cargo test --workspace --profile ci

wait_for_installs

step "fuzz smoke run: every cargo-fuzz target for 30 s (tools/fuzz.sh smoke)"
tools/fuzz.sh smoke

# The firmware's emulators and the tiny binary's games each keep about one core
# busy: they run side by side (the tiny binary's log is printed when both are done).
TINY_LOG=target/test-tiny.log
step "tiny static binary, beside the firmware: build, static-ness and size, games against the full binary (log: $TINY_LOG)"
# Its own process group (setsid), so that a failing firmware step stops all of it.
setsid tools/tiny.sh test >"$TINY_LOG" 2>&1 </dev/null &
TINY_PID=$!
trap '[ -n "${TINY_PID:-}" ] && kill -- "-$TINY_PID" 2>/dev/null; true' EXIT

step "firmware, every board: build, no reachable panic, games in QEMU (the Pico in rp2040py), games and faults through the host bridge"
tools/firmware.sh test --board all

step "firmware through the fallback toolchain (Debian's rustc, core from source): the LM3S6965"
NIMBOT_TOOLCHAIN=source tools/firmware.sh test

step "tiny static binary: waiting for it, then its log"
tiny_status=0
wait "$TINY_PID" || tiny_status=$?
TINY_PID=
cat "$TINY_LOG"
[ "$tiny_status" -eq 0 ] || die "the tiny binary's tests failed (exit $tiny_status, log above)"

step "reproducible release: the tiny binaries and every board's image built here and again from a clone at another path, same SHA-256 (tools/release.sh twice)"
tools/release.sh twice --only tiny,firmware

step "embedding examples (examples/): their dialogue on the host, built for a Cortex-M0"
tools/examples.sh test

step "the site (web/): nimbot.wasm compiled afresh with the compiler web/site/BUILD names (a stale committed one fails), headless Chromium against nimbot web, every game clicked to the end on its board, axe-core on every view (screenshots in target/ci-artifacts/web/)"
tools/web.sh check
tools/web.sh test
