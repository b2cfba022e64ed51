#!/usr/bin/env bash
# nimbot in the browser (web/, docs/web.md): build, check, test and measure the site.
#
#   tools/web.sh build   compile web/ to web/site/nimbot.wasm with the pinned
#                        compiler, and write web/site/distances.bin (the table
#                        box's distances, gzip); index.html and app.js are
#                        written by hand
#   tools/web.sh check   rebuild into a scratch file with the pinned compiler and
#                        compare with the committed web/site/nimbot.wasm (the
#                        binary `nimbot web` embeds): a stale one fails, saying
#                        to run tools/web.sh build and commit web/site/
#   tools/web.sh test    the site in headless Chromium, served by `nimbot web`
#                        (web/browser_test.py); screenshots in target/ci-artifacts/web/
#   tools/web.sh bench   transfer size, first answer, moves per position, in the browser
#                        (--url URL: a copy of web/site/ served elsewhere;
#                        --versus DIR [--pairs N]: another build's site, its first
#                        answer loaded in turn with this one's; --fresh N: N new
#                        browsers time their very first navigation, default 1)
#   tools/web.sh install what check, test and bench need (the pinned compiler
#                        with the wasm target; chromium, chromium-driver,
#                        python3-selenium; axe-core from npm into target/web-tools/)
#
# The built site is committed so that `cargo build` of the CLI (and `nimbot web`)
# needs no wasm target. The module's bytes depend on the sources, Cargo.lock and
# the compiler: web/site/BUILD names the compiler (`rustc 1.95.0 (...)`), and
# build and check use exactly that one (rustup installs it with the wasm target
# when missing: a minimal profile, about 100 MB), with the paths remapped, so
# that any machine compiles the same bytes and `check` can fail on a stale
# module. To move to another compiler: WEB_RUSTC=1.96.0 tools/web.sh build.
# distances.bin depends on the rules alone: a unit test of web/ (cargo test -p
# nimbot-web) checks it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SITE=web/site
TARGET=wasm32-unknown-unknown

# The compiler the committed module was built with (web/site/BUILD), or
# WEB_RUSTC's.
pinned() {
  if [ -n "${WEB_RUSTC:-}" ]; then echo "$WEB_RUSTC"; return; fi
  cut -d' ' -f2 "$SITE/BUILD"
}

# The pinned compiler with the wasm target: `+VERSION` for cargo and rustc.
install_target() {
  local version
  version=$(pinned)
  if ! command -v rustup >/dev/null; then
    echo "tools/web.sh: rustup is needed to compile the site with rustc $version (web/site/BUILD): see https://rustup.rs" >&2
    exit 1
  fi
  if ! rustc "+$version" --print target-libdir --target "$TARGET" >/dev/null 2>&1 ||
     ! ls "$(rustc "+$version" --print target-libdir --target "$TARGET")" 2>/dev/null | grep -q libstd; then
    rustup toolchain install "$version" --profile minimal --target "$TARGET" >&2
  fi
  TOOLCHAIN="+$version"
}

# Compile the module to $1 with the pinned compiler, with paths remapped so the
# bytes do not depend on where the repository, the registry or the compiler is.
compile() {
  install_target
  local cargo_home=${CARGO_HOME:-$HOME/.cargo}
  RUSTFLAGS="--remap-path-prefix=$ROOT=/nimbot --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$(rustc "$TOOLCHAIN" --print sysroot)=/rust" \
    CARGO_TARGET_DIR="$ROOT/target/web-build" \
    cargo "$TOOLCHAIN" build --quiet --locked -p nimbot-web --target "$TARGET" --profile web
  cp "target/web-build/$TARGET/web/nimbot_web.wasm" "$1"
  chmod 644 "$1"
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

# axe-core, the accessibility checker the browser test injects into the page
# (from npm, pinned; into target/web-tools/, never into the site).
AXE_VERSION=4.14.1
AXE_SHA256=e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745
AXE_DIR=target/web-tools
install_axe() {
  if [ -f "$AXE_DIR/node_modules/axe-core/axe.min.js" ] &&
     grep -q "\"version\": \"$AXE_VERSION\"" "$AXE_DIR/node_modules/axe-core/package.json"; then
    return
  fi
  mkdir -p "$AXE_DIR"
  if command -v npm >/dev/null; then
    npm install --silent --no-save --no-audit --no-fund --prefix "$AXE_DIR" "axe-core@$AXE_VERSION" >&2
    return
  fi
  # Without npm: the same package from the npm registry, its checksum pinned.
  local tgz="$AXE_DIR/axe-core-$AXE_VERSION.tgz"
  curl -fsSL "https://registry.npmjs.org/axe-core/-/axe-core-$AXE_VERSION.tgz" -o "$tgz"
  if ! echo "$AXE_SHA256  $tgz" | sha256sum -c --quiet -; then
    echo "tools/web.sh: axe-core-$AXE_VERSION.tgz does not have the pinned checksum" >&2
    exit 1
  fi
  mkdir -p "$AXE_DIR/node_modules/axe-core"
  tar -xzf "$tgz" -C "$AXE_DIR/node_modules/axe-core" --strip-components=1
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
    rustc "$TOOLCHAIN" --version > "$SITE/BUILD"
    ls -l "$SITE"
    ;;
  check)
    tmp=$(mktemp)
    trap 'rm -f "$tmp"' EXIT
    compile "$tmp"
    if cmp -s "$tmp" "$SITE/nimbot.wasm"; then
      echo "web/site/nimbot.wasm is what web/ compiles to with $(cat "$SITE/BUILD")"
    else
      # Any change to the core, the analysis crate or web/ gives other bytes: the
      # committed module (what `nimbot web` serves) must be rebuilt with them.
      echo "tools/web.sh check: web/site/nimbot.wasm is stale ($(wc -c < "$SITE/nimbot.wasm") B committed, $(wc -c < "$tmp") B compiled from the sources with $(cat "$SITE/BUILD")): run tools/web.sh build and commit web/site/" >&2
      exit 1
    fi
    ;;
  install)
    install_target
    install_browser
    install_axe
    ;;
  test|bench)
    install_browser
    [ "$1" = test ] && install_axe
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
    sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
