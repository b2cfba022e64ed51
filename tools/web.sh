#!/usr/bin/env bash
# nimbot in the browser (web/, docs/web.md): build, check, test and measure the site.
#
#   tools/web.sh build   compile web/ to web/site/nimbot.wasm, and write
#                        web/site/distances.bin (the table box's distances, gzip);
#                        index.html and app.js are written by hand
#   tools/web.sh check   rebuild into a scratch file and compare with the committed
#                        web/site/nimbot.wasm (the binary `nimbot web` embeds); a
#                        stale one is replaced in place, with a note, so that the
#                        browser test runs what the sources compile to
#   tools/web.sh test    the site in headless Chromium, served by `nimbot web`
#                        (web/browser_test.py); screenshots in target/ci-artifacts/web/
#   tools/web.sh bench   transfer size, first answer, moves per position, in the browser
#                        (--url URL: a copy of web/site/ served elsewhere)
#   tools/web.sh install what test and bench need (the wasm target; chromium,
#                        chromium-driver, python3-selenium)
#
# The built site is committed so that `cargo build` of the CLI needs no wasm
# target; web/site/BUILD names the compiler that built it. `check` says whether it
# is still what the sources compile to (a change to the core, or another compiler,
# gives other bytes) and refreshes it for the tests. distances.bin depends on the
# rules alone: a unit test of web/ (cargo test -p nimbot-web) checks it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SITE=web/site
TARGET=wasm32-unknown-unknown

install_target() {
  if rustc --print target-libdir --target "$TARGET" >/dev/null 2>&1 &&
     [ -d "$(rustc --print target-libdir --target "$TARGET")" ] &&
     ls "$(rustc --print target-libdir --target "$TARGET")" | grep -q libstd; then
    return
  fi
  if command -v rustup >/dev/null && rustup target add "$TARGET"; then return; fi
  # Debian's Rust: its wasm32 standard library.
  if command -v apt-get >/dev/null && apt-get install -y libstd-rust-dev-wasm32 >/dev/null; then return; fi
  echo "tools/web.sh: no $TARGET standard library: run 'rustup target add $TARGET' (or apt-get install libstd-rust-dev-wasm32)" >&2
  exit 1
}

# Compile the module to $1, with paths remapped so the bytes do not depend on
# where the repository or the registry is.
compile() {
  install_target
  local cargo_home=${CARGO_HOME:-$HOME/.cargo}
  RUSTFLAGS="--remap-path-prefix=$ROOT=/nimbot --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$(rustc --print sysroot)=/rust" \
    cargo build --quiet -p nimbot-web --target "$TARGET" --profile web
  cp "target/$TARGET/web/nimbot_web.wasm" "$1"
}

install_browser() {
  if command -v chromium >/dev/null && command -v chromedriver >/dev/null &&
     python3 -c 'import selenium' 2>/dev/null; then
    return
  fi
  # Debian's packages: the browser, its driver and the Python binding.
  if command -v apt-get >/dev/null; then
    (apt-get update -qq && apt-get install -y -qq chromium chromium-driver python3-selenium) >/dev/null 2>&1 || true
  fi
  if ! python3 -c 'import selenium' 2>/dev/null && [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import selenium' 2>/dev/null; then
    return
  fi
  if ! python3 -c 'import selenium' 2>/dev/null; then
    python3 -m pip install --quiet selenium >/dev/null 2>&1 || true
  fi
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    echo "tools/web.sh: no headless Chromium: apt-get install chromium chromium-driver python3-selenium" >&2
    exit 1
  fi
}

# The Python that has selenium (Debian's, when another python3 comes first).
python_with_selenium() {
  for p in python3 /usr/bin/python3; do
    if "$p" -c 'import selenium' 2>/dev/null; then echo "$p"; return; fi
  done
  echo "tools/web.sh: python3-selenium is missing: apt-get install python3-selenium" >&2
  exit 1
}

case "${1:-}" in
  build)
    compile "$SITE/nimbot.wasm"
    cargo run --quiet --release -p nimbot-web --example distances -- "$SITE/distances.bin"
    rustc --version > "$SITE/BUILD"
    ls -l "$SITE"
    ;;
  check)
    tmp=$(mktemp)
    trap 'rm -f "$tmp"' EXIT
    compile "$tmp"
    if cmp -s "$tmp" "$SITE/nimbot.wasm"; then
      echo "web/site/nimbot.wasm is what web/ compiles to"
    else
      # Any change to the core moves the panic locations the module carries, so a
      # stale module is common and not an error: the tests run the fresh one.
      cp "$tmp" "$SITE/nimbot.wasm"
      echo "note: web/site/nimbot.wasm was stale (built by $(cat "$SITE/BUILD"), this is $(rustc --version)): rebuilt in place for the tests; run tools/web.sh build and commit web/site/"
    fi
    ;;
  install)
    install_target
    install_browser
    ;;
  test|bench)
    install_browser
    # The test reuses what tools/test.sh's tests built (profile ci); the figures
    # are measured with the binary users run (release).
    profile=release
    [ "$1" = test ] && profile=ci
    cargo build --quiet --profile "$profile" -p nimbot-cli
    py=$(python_with_selenium)
    mode=$1
    shift
    "$py" web/browser_test.py "$mode" --nimbot "target/$profile/nimbot" --out target/ci-artifacts/web "$@"
    ;;
  *)
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
