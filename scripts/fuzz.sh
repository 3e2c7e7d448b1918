#!/usr/bin/env bash
# `make fuzz`: builds the cargo-fuzz targets in fuzz/ and runs each for
# FUZZ_SECONDS (default 60), then prints executions, exec/s, corpus size and
# crashes per target. Every crashing input is copied to
# tests/fixtures/fuzz-regressions/<target>/, where the normal test suite
# (core/tests/fuzz_regressions.rs, ffi/tests/fuzz_regressions.rs) replays it.
#
# Environment: FUZZ_SECONDS, FUZZ_TARGETS (space-separated subset),
# FUZZ_SANITIZER (address, the default, or none), CARGO.
set -uo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
CARGO=${CARGO:-cargo}
SECONDS_PER_TARGET=${FUZZ_SECONDS:-60}
SANITIZER=${FUZZ_SANITIZER:-address}
ALL_TARGETS="aria_parse fingerprint_json expectation_json detector ffi_json"
TARGETS=${FUZZ_TARGETS:-$ALL_TARGETS}
LOGS=$ROOT/target/fuzz-logs
REGRESSIONS=$ROOT/tests/fixtures/fuzz-regressions

# Largest input per target: the seeds' sizes with room to grow.
max_len() {
    case $1 in
        aria_parse) echo 8192 ;;
        expectation_json) echo 4096 ;;
        *) echo 24576 ;;
    esac
}

# Only a stable toolchain exists here; cargo-fuzz passes -Z flags
# (-Zsanitizer, sancov), which RUSTC_BOOTSTRAP=1 lets stable accept.
export RUSTC_BOOTSTRAP=1

if ! "$CARGO" fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz (cargo install cargo-fuzz --locked)" >&2
    "$CARGO" install cargo-fuzz --locked || exit 1
fi

# One build of every target (`cargo fuzz build` takes at most one name).
"$CARGO" fuzz build --release --sanitizer "$SANITIZER" || exit 1

mkdir -p "$LOGS"
summary=()
found=0
for t in $TARGETS; do
    corpus=fuzz/corpus/$t
    artifacts=fuzz/artifacts/$t
    mkdir -p "$corpus" "$artifacts"
    before=$(ls "$artifacts" | sort)
    args=(-max_total_time="$SECONDS_PER_TARGET" -max_len="$(max_len "$t")"
          -print_final_stats=1 -timeout=10 -rss_limit_mb=2048
          -artifact_prefix="$artifacts/")
    [ -f "fuzz/dict/$t.dict" ] && args+=(-dict="fuzz/dict/$t.dict")
    echo "fuzz: $t for ${SECONDS_PER_TARGET}s (log: target/fuzz-logs/$t.log)" >&2
    # New inputs go to the first (scratch, gitignored) corpus directory;
    # the committed seeds are read only.
    "$CARGO" fuzz run --release --sanitizer "$SANITIZER" "$t" "$corpus" "fuzz/seeds/$t" \
        -- "${args[@]}" >"$LOGS/$t.log" 2>&1
    rc=$?

    execs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$LOGS/$t.log" | grep -ao '[0-9]*$' | tail -1)
    rate=$(grep -ao 'stat::average_exec_per_sec: *[0-9]*' "$LOGS/$t.log" | grep -ao '[0-9]*$' | tail -1)
    if [ -z "$execs" ]; then
        # A crash stops the run before the final stats: take the last
        # progress line (#N ... exec/s: R).
        execs=$(grep -ao '^#[0-9]*' "$LOGS/$t.log" | tr -d '#' | tail -1)
        rate=$(grep -ao 'exec/s: [0-9]*' "$LOGS/$t.log" | grep -ao '[0-9]*$' | tail -1)
    fi
    corpus_size=$(find "$corpus" -type f | wc -l)

    new=$(comm -13 <(echo "$before") <(ls "$artifacts" | sort) | grep -v '^$' || true)
    crashes=0
    for f in $new; do
        mkdir -p "$REGRESSIONS/$t"
        cp "$artifacts/$f" "$REGRESSIONS/$t/$f"
        echo "fuzz: $t: finding saved as tests/fixtures/fuzz-regressions/$t/$f" >&2
        crashes=$((crashes + 1))
    done
    if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then
        echo "fuzz: $t exited with $rc and no artifact; see $LOGS/$t.log" >&2
        crashes="error(rc=$rc)"
        found=1
    fi
    [ "$crashes" != 0 ] && found=1
    summary+=("$(printf '%-18s %12s %10s %8s %s' "$t" "${execs:-?}" "${rate:-?}" "$corpus_size" "$crashes")")
done

echo
printf '%-18s %12s %10s %8s %s\n' target executions exec/s corpus crashes
for line in "${summary[@]}"; do echo "$line"; done
if [ "$found" -ne 0 ]; then
    echo "fuzz: findings above; they are now regression inputs (tests/fixtures/fuzz-regressions)" >&2
    exit 1
fi
