#!/usr/bin/env bash
# A release: every file nimbot's users download, built reproducibly into dist/, with
# SHA256SUMS and manifest.json. docs/release.md says what each file is for and how
# anyone checks that a file came from a commit.
#
#   tools/release.sh [build] [--out DIR] [--only PARTS]
#                     build into DIR (default dist/, emptied first). PARTS, comma
#                     separated, picks what to build (default all): host (nimbot
#                     for Linux x86_64, static, musl), tiny (both tiny binaries),
#                     firmware (every board's image as its owner flashes it, and
#                     its ELF), tables (the default one and N <= 99,999), site
#                     (web/site/ as one archive). RELEASE_BOARDS=lm3s6965,uno
#                     (comma separated) builds those boards only (default all)
#   tools/release.sh compare DIR_A DIR_B
#                     the files both SHA256SUMS name must have the same checksum:
#                     prints each differing file and fails if there is one
#   tools/release.sh twice [--only PARTS]
#                     what CI runs: build into dist/ here, and again from a clone of
#                     this commit at another path (target/repro/elsewhere/nimbot,
#                     its own target directory, the same cargo and rustup homes),
#                     then compare the two
#
# Reproducible: the bytes depend on the commit and the pinned toolchains only (the
# rustup toolchain this repository builds with, its llvm-objcopy; for the Uno the
# nightly its rust-toolchain.toml pins and Debian's gcc-avr and avr-libc), never on
# the checkout's path, the user, the clock or the order a directory lists its files
# in: NIMBOT_COMMIT names the commit for build.rs (the version lines), paths of the
# checkout, cargo's home and rustup's home are remapped in the host binary, the
# archive is sorted with fixed times and owners, and the crates built outside the
# root workspace (tiny/, the boards) reach the repository through their `repo`
# links (tiny/Cargo.toml says why).
#
# Installs what is missing: the musl and cross targets and llvm-tools through rustup,
# the boards' toolchains (tools/firmware.sh), python3.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=tools/toolchain.sh
. "$ROOT/tools/toolchain.sh"

ALL_PARTS=host,tiny,firmware,tables,site
HOST_TARGET=x86_64-unknown-linux-musl
BIG_STONES=99999

usage() { die "usage: tools/release.sh [build] [--out DIR] [--only $ALL_PARTS] | compare DIR_A DIR_B | twice [--only PARTS]"; }

# MANIFEST lines: name, target, toolchain (tab separated), one per file.
record() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$LIST"; }

rustc_line() { rustc --version | cut -d' ' -f1-2; }

build_host() {
  step "release: nimbot for Linux x86_64, one static file ($HOST_TARGET)"
  rustup_provides "$HOST_TARGET" >/dev/null || die "rustup cannot provide $HOST_TARGET"
  # Registry sources and the checkout appear in panic messages' file names: remap
  # them to fixed names. Only the target's crates see these flags (not the build
  # scripts, not the host's other builds).
  local home=${CARGO_HOME:-$HOME/.cargo} rustup_home=${RUSTUP_HOME:-$HOME/.rustup}
  CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS="--remap-path-prefix=$ROOT=/nimbot --remap-path-prefix=$home=/cargo --remap-path-prefix=$rustup_home=/rustup -C link-arg=-Wl,--build-id=none" \
    cargo build --release --locked --quiet -p nimbot-cli --bin nimbot --target "$HOST_TARGET"
  local bin=$ROOT/target/$HOST_TARGET/release/nimbot
  file "$bin" | grep -q "statically linked\|static-pie linked" || die "$bin is not statically linked: $(file -b "$bin")"
  cp "$bin" "$OUT/nimbot-x86_64-linux"
  record nimbot-x86_64-linux "$HOST_TARGET" "$(rustc_line)"
  "$OUT/nimbot-x86_64-linux" --version
}

build_tiny() {
  step "release: the tiny binaries (tools/tiny.sh build)"
  local dir=$OUT/.tiny
  OUT_DIR=$dir tools/tiny.sh build
  mv "$dir/nimbot" "$OUT/nimbot-tiny-x86_64"
  mv "$dir/nimbot-aarch64" "$OUT/nimbot-tiny-aarch64"
  rmdir "$dir"
  record nimbot-tiny-x86_64 x86_64-unknown-linux-gnu "$(rustc_line) (no libc, static)"
  record nimbot-tiny-aarch64 aarch64-unknown-linux-gnu "$(rustc_line) (no libc, static)"
}

build_firmware() {
  local objcopy board elf dir facts image name toolchain
  objcopy=$(llvm_tool llvm-objcopy)
  (cd "$ROOT" && cargo build -q -p nimbot-boards --bin nimbot-board-facts) >&2
  for board in "$ROOT"/firmware/boards/*/; do
    board=$(basename "$board")
    case ",${RELEASE_BOARDS:-all}," in *",all,"* | *",$board,"*) ;; *) continue ;; esac
    step "release: firmware, $board (tools/firmware.sh build)"
    elf=$(tools/firmware.sh build --board "$board" | tail -1)
    [ -f "$elf" ] || die "firmware.sh build --board $board gave no ELF ($elf)"
    dir=$(dirname "$elf")
    facts=$("$ROOT/target/debug/nimbot-board-facts" "$ROOT/firmware/boards/$board")
    local TARGET IMAGES UF2 EXE_SUFFIX TOOLCHAIN_NEED
    eval "$facts"
    toolchain=$(cd "firmware/boards/$board" && rustc_line)
    [ "$TOOLCHAIN_NEED" = avr ] && toolchain="$toolchain (core from source), avr-gcc $(avr-gcc -dumpversion)"
    for image in "${IMAGES[@]}"; do
      name=${image%% *}
      # The ELF for probe-rs, with its symbols but without the debug information,
      # which names the files by the checkout's absolute paths (the loaded bytes
      # are the same from any path: the .hex and .uf2 files).
      "$objcopy" --strip-debug "$dir/$name$EXE_SUFFIX" "$OUT/$name.elf"
      record "$name.elf" "$TARGET" "$toolchain; llvm-objcopy --strip-debug"
      if [ -n "$UF2" ]; then
        # The Pico's USB drive takes UF2 (made by tools/firmware.sh build with the
        # board's elf2uf2.py).
        cp "$dir/$name.uf2" "$OUT/$name.uf2"
        record "$name.uf2" "$TARGET" "$toolchain; firmware/boards/$board/elf2uf2.py"
      else
        # Drag-and-drop drives (micro:bit, HiFive1), programmers' tools and avrdude
        # take Intel HEX: the loadable sections at their load addresses.
        "$objcopy" -O ihex "$OUT/$name.elf" "$OUT/$name.hex"
        record "$name.hex" "$TARGET" "$toolchain; llvm-objcopy -O ihex"
      fi
    done
  done
}

build_tables() {
  local tool
  step "release: the tables (nimbot-table generate)"
  tool=$(NIMBOT_HOST_PROFILE=release host_bin nimbot-tools nimbot-table)
  "$tool" generate --stones 999 --resets 4 --init-max 3 -q -o "$OUT/table-default.nimt"
  cmp -s "$OUT/table-default.nimt" table/default.nimt ||
    die "the generated default table differs from table/default.nimt (regenerate and commit it: docs/table.md)"
  record table-default.nimt "N <= 999, R <= 4, M = 3" "nimbot-table generate ($(rustc_line))"
  "$tool" generate --stones "$BIG_STONES" --resets 4 --init-max 3 -q -o "$OUT/table-$BIG_STONES.nimt"
  record "table-$BIG_STONES.nimt" "N <= $BIG_STONES, R <= 4, M = 3" "nimbot-table generate ($(rustc_line))"
}

build_site() {
  step "release: the site, web/site/ as one archive (tools/web.sh check: the committed module is the sources')"
  tools/web.sh check
  # Sorted names, the commit's time, owner 0, no gzip time stamp or name: the same
  # bytes from any checkout.
  tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
    --mode=u+rwX,go+rX,go-w --format=gnu -C web -cf - site | gzip -9 -n >"$OUT/nimbot-site.tar.gz"
  record nimbot-site.tar.gz "wasm32-unknown-unknown (web/site/)" "$(cut -d' ' -f1-2 web/site/BUILD); tar, gzip -n"
}

write_sums_and_manifest() {
  step "release: manifest.json and SHA256SUMS"
  local crc
  crc=$(tail -c 4 table/default.nimt | od -An -tx4 | tr -d ' \n')
  python3 - "$OUT" "$LIST" "$NIMBOT_COMMIT" "$SOURCE_DATE_EPOCH" "$crc" <<'EOF'
import hashlib, json, os, sys
out, listing, commit, epoch, crc = sys.argv[1:]
files = []
with open(listing) as f:
    for line in f:
        name, target, toolchain = line.rstrip("\n").split("\t")
        data = open(os.path.join(out, name), "rb").read()
        files.append({"name": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                      "target": target, "toolchain": toolchain})
files.sort(key=lambda f: f["name"])
manifest = {"commit": commit, "source_date_epoch": int(epoch), "table_crc32": crc,
            "files": files}
with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=2)
    f.write("\n")
EOF
  (cd "$OUT" && LC_ALL=C ls | grep -vx SHA256SUMS | LC_ALL=C sort | xargs sha256sum >SHA256SUMS)
  (cd "$OUT" && LC_ALL=C ls -l | grep -v '^total' | awk '{ printf "%9d  %s\n", $5, $9 }')
}

build() {
  local parts=$ALL_PARTS
  OUT=$ROOT/dist
  while [ $# -gt 0 ]; do
    case $1 in
      --out) OUT=$2; shift 2 ;;
      --only) parts=$2; shift 2 ;;
      *) usage ;;
    esac
  done
  ensure_cmd python3 python3
  ensure_cmd file file
  export_commit
  mkdir -p "$OUT"
  OUT=$(cd "$OUT" && pwd)
  rm -rf "${OUT:?}"/* "$OUT/.tiny"
  LIST=$(mktemp)
  echo "release of $NIMBOT_COMMIT (commit time $SOURCE_DATE_EPOCH) into $OUT: $parts"
  local part
  for part in ${parts//,/ }; do
    case $part in
      host) build_host ;;
      tiny) build_tiny ;;
      firmware) build_firmware ;;
      tables) build_tables ;;
      site) build_site ;;
      *) die "unknown part '$part' (parts: $ALL_PARTS)" ;;
    esac
  done
  write_sums_and_manifest
  rm -f "$LIST"
}

compare() {
  [ $# -eq 2 ] || usage
  local name sum other differ=0 same=0
  while read -r sum name; do
    other=$(awk -v n="$name" '$2 == n { print $1 }' "$2/SHA256SUMS")
    [ -n "$other" ] || continue
    # The manifests name the same files only when both builds built the same parts.
    if [ "$sum" = "$other" ]; then
      same=$((same + 1))
    else
      echo "differs: $name ($1: $sum, $2: $other)"
      differ=$((differ + 1))
    fi
  done <"$1/SHA256SUMS"
  echo "$same files the same, $differ differing"
  [ "$differ" -eq 0 ] || die "the two builds differ in $differ files (above)"
  [ "$same" -gt 0 ] || die "the two builds have no file in common"
}

twice() {
  local only=()
  [ $# -eq 0 ] || { [ "$1" = --only ] && [ $# -eq 2 ] || usage; only=(--only "$2"); }
  local elsewhere=$ROOT/target/repro/elsewhere/nimbot
  step "release twice: here, and from a clone at ${elsewhere#"$ROOT"/}"
  "$0" build "${only[@]}"
  rm -rf "$ROOT/target/repro"
  git clone -q --no-hardlinks "$ROOT" "$elsewhere"
  git -C "$elsewhere" checkout -q "$(git -C "$ROOT" rev-parse HEAD)"
  # Its own target directory; the same cargo registry and toolchains.
  "$elsewhere/tools/release.sh" build --out "$ROOT/target/repro/dist" "${only[@]}"
  step "release twice: compare"
  compare "$ROOT/dist" "$ROOT/target/repro/dist"
}

case "${1:-build}" in
  build) shift || true; build "$@" ;;
  --*) build "$@" ;;
  compare) shift; compare "$@" ;;
  twice) shift; twice "$@" ;;
  *) usage ;;
esac
