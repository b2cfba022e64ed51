#!/usr/bin/env bash
# Fuzz the core with cargo-fuzz (libFuzzer) and report executions and crashes.
#
#   tools/fuzz.sh [SECONDS]   every target for SECONDS (default 600), two at a time
#   tools/fuzz.sh smoke       every target for 30 s: what tools/test.sh (CI) runs
#   tools/fuzz.sh merge       minimize the local corpus and the new inputs of
#                             earlier runs into fuzz/corpus/<target> (set cover)
#
# Every run reads the hand-written seeds (fuzz/seeds/<target>: protocol scripts, the
# default table, platform messages; the only inputs git keeps) and the local corpus
# (fuzz/corpus/<target>, not in git: it grows from the seeds with
# `tools/fuzz.sh 600 && tools/fuzz.sh merge`).
# Uses a nightly toolchain (`cargo +nightly`, no extra components): when there is
# none it tries `rustup toolchain install nightly`, and when that cannot download it
# builds with the stable toolchain and RUSTC_BOOTSTRAP=1 (cargo-fuzz's -Z flags and
# the AddressSanitizer runtime work there too). Installs cargo-fuzz when missing. New inputs go to fuzz/target/new-corpus/<target> (not
# committed); crashes to fuzz/artifacts/<target>/ and fail the script. Environment:
# FUZZ_JOBS (targets at a time, default 2), FUZZ_TARGETS (a subset, space-separated).
# Logs: fuzz/target/logs/<SECONDS|smoke|merge>/<target>.log.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=${FUZZ_TARGETS:-"protocol_session table_load json_splitter referee_messages wire_messages"}
JOBS=${FUZZ_JOBS:-2}
ARG=${1:-600}
case "$ARG" in
smoke) SECONDS_EACH=30 ;;
merge) SECONDS_EACH=0 ;;
*[!0-9]* | "")
    echo "usage: tools/fuzz.sh [SECONDS|smoke|merge]" >&2
    exit 2
    ;;
*) SECONDS_EACH=$ARG ;;
esac

FUZZ_CARGO=(cargo +nightly)
if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "== no nightly toolchain: trying rustup toolchain install nightly --profile minimal"
    if ! rustup toolchain install nightly --profile minimal >/dev/null 2>&1 ||
        ! cargo +nightly --version >/dev/null 2>&1; then
        echo "== nightly unavailable: building with stable and RUSTC_BOOTSTRAP=1"
        export RUSTC_BOOTSTRAP=1
        FUZZ_CARGO=(cargo)
    fi
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz (about a minute)"
    install_log=$(mktemp)
    cargo install cargo-fuzz --locked >"$install_log" 2>&1 || {
        tail -5 "$install_log" >&2
        echo "fuzz.sh: cargo install cargo-fuzz failed (log: $install_log); install it by hand: cargo install cargo-fuzz" >&2
        exit 1
    }
    rm -f "$install_log"
fi

echo "== building the fuzz targets (${FUZZ_CARGO[*]} fuzz build)"
"${FUZZ_CARGO[@]}" fuzz build
BIN=fuzz/target/x86_64-unknown-linux-gnu/release
NEW=fuzz/target/new-corpus
LOGS=fuzz/target/logs/$ARG
mkdir -p "$LOGS"

if [ "$ARG" = merge ]; then
    for t in $TARGETS; do
        mkdir -p "$NEW/$t" "fuzz/corpus/$t"
        before=$(find "fuzz/corpus/$t" "$NEW/$t" -type f | wc -l)
        merged=fuzz/target/merged/$t
        rm -rf "$merged"
        mkdir -p "$merged"
        "$BIN/$t" -set_cover_merge=1 -rss_limit_mb=1024 -malloc_limit_mb=256 \
            "$merged" fuzz/seeds/"$t" "fuzz/corpus/$t" "$NEW/$t" >"$LOGS/$t.log" 2>&1
        rm -rf "fuzz/corpus/$t"
        mv "$merged" "fuzz/corpus/$t"
        after=$(find "fuzz/corpus/$t" -type f | wc -l)
        bytes=$(cat "fuzz/corpus/$t"/* | wc -c)
        echo "$t: $before inputs -> $after ($bytes bytes)"
    done
    exit 0
fi

run_one() {
    local t=$1
    mkdir -p "$NEW/$t" "fuzz/artifacts/$t" "fuzz/corpus/$t"
    # The first directory receives new inputs; seeds and corpus are read only.
    "$BIN/$t" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=1024 \
        -malloc_limit_mb=256 -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" \
        "$NEW/$t" "fuzz/seeds/$t" "fuzz/corpus/$t" >"$LOGS/$t.log" 2>&1 || true
}

echo "== fuzzing $TARGETS for ${SECONDS_EACH}s each, $JOBS at a time (logs in $LOGS)"
running=0
for t in $TARGETS; do
    run_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

status=0
printf '\n%-18s %14s %8s %8s %8s\n' target executions seconds corpus crashes
for t in $TARGETS; do
    log="$LOGS/$t.log"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    corpus=$(find "fuzz/seeds/$t" "fuzz/corpus/$t" "$NEW/$t" -type f | wc -l)
    crashes=$(find "fuzz/artifacts/$t" -type f | wc -l)
    if grep -q -E 'ERROR: libFuzzer|panicked|SUMMARY: ' "$log" || [ -z "$secs" ]; then
        crashes=$((crashes > 0 ? crashes : 1))
    fi
    printf '%-18s %14s %8s %8s %8s\n' "$t" "${runs:-?}" "${secs:-?}" "$corpus" "$crashes"
    if [ "$crashes" -ne 0 ]; then
        status=1
        grep -m 5 -E 'panicked|ERROR|SUMMARY|Test unit written' "$log" | sed "s/^/  $t: /" || true
    fi
done
exit $status
