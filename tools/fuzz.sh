#!/bin/sh
# SPDX-License-Identifier: MIT
# the libFuzzer harnesses of tests/fuzz (docs/fuzzing.md): sh tools/fuzz.sh [SECONDS] [TARGET...]
# sets up build-fuzz (clang, ASan+UBSan, coverage) when missing, builds the targets, replays each
# target's saved reproducers (tests/fuzz/regressions/TARGET/), then fuzzes each for SECONDS
# (default 30) from a copy of its seed corpus with its dictionary. Prints per target the
# executions reached and whether something was found; exits 1 on any finding (the input is saved
# under build-fuzz/fuzz-artifacts/). Without clang or libFuzzer it fails, or with
# TOUCHE_FUZZ_OPTIONAL=1 says "skipped" and exits 0.
set -eu
cd "$(dirname "$0")/.."
all="fuzz_script fuzz_trajectories fuzz_fem_cache fuzz_metrics fuzz_history fuzz_claims fuzz_tetgen fuzz_args fuzz_fclib"

# arguments: the seconds per target when the first is a number, then the targets (default all)
secs=30
case "${1:-}" in
    '' | *[!0-9]*) ;;
    *) secs=$1; shift ;;
esac
targets=${*:-$all}
for t in $targets; do
    case " $all " in
        *" $t "*) ;;
        *) echo "fuzz: unknown target '$t' (targets: $all)" >&2; exit 2 ;;
    esac
done

# clang that links libFuzzer, else fail (or skip when optional)
missing() {
    echo "fuzz: $1" >&2
    if [ "${TOUCHE_FUZZ_OPTIONAL:-0}" = 1 ]; then
        echo "fuzz: skipped (TOUCHE_FUZZ_OPTIONAL=1)"
        exit 0
    fi
    echo "fuzz: install clang and libclang-rt-14-dev (sh tools/setup.sh does), or set TOUCHE_FUZZ_OPTIONAL=1 to skip" >&2
    exit 1
}
command -v clang >/dev/null 2>&1 || missing "clang not found"
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
    >"$probe/probe.c"
clang -fsanitize=fuzzer,address,undefined "$probe/probe.c" -o "$probe/probe" 2>"$probe/log" ||
    missing "clang cannot link -fsanitize=fuzzer,address,undefined: $(head -n 3 "$probe/log")"

# the build: the library with coverage and sanitizers, warnings as errors (see docs/fuzzing.md)
[ -d build-fuzz ] || CC=clang CXX=clang++ meson setup build-fuzz -Dfuzz=true -Dwerror=true \
    -Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false
ninja -C build-fuzz $(for t in $targets; do printf 'tests/fuzz/%s ' "$t"; done)

# each target: its reproducers replayed, then fuzzing in a scratch dir (the repo corpus stays)
art=build-fuzz/fuzz-artifacts
work=build-fuzz/fuzz-work
mkdir -p "$art"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
# a known leak of Debian 12's libconfig on syntax errors is not ours (tests/fuzz/lsan.supp)
export LSAN_OPTIONS="suppressions=$(pwd)/tests/fuzz/lsan.supp"
found=0
summary=""
for t in $targets; do
    exe=build-fuzz/tests/fuzz/$t
    w=$work/$t
    rm -rf "$w"
    mkdir -p "$w/corpus" "$w/tmp"
    cp tests/fuzz/corpus/"$t"/* "$w/corpus/"
    status="no finding"
    rc=0
    set -- tests/fuzz/regressions/"$t"/*
    if [ -e "$1" ]; then
        TMPDIR=$w/tmp "$exe" -artifact_prefix="$art/$t-" "$@" \
            >"$w/regressions.log" 2>&1 || rc=$?
        if [ "$rc" -ne 0 ]; then
            status="FINDING: a saved reproducer fails again ($w/regressions.log)"
            tail -n 40 "$w/regressions.log" >&2
        fi
    fi
    if [ "$rc" -eq 0 ]; then
        echo "fuzz: $t for ${secs} s ..."
        TMPDIR=$w/tmp "$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
            -print_final_stats=1 -dict=tests/fuzz/"$t".dict -artifact_prefix="$art/$t-" \
            "$w/corpus" >"$w/fuzz.log" 2>&1 || rc=$?
        if [ "$rc" -ne 0 ]; then
            unit=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$w/fuzz.log" | tail -n 1)
            status="FINDING: exit $rc, input ${unit:-not saved} (log $w/fuzz.log)"
            tail -n 60 "$w/fuzz.log" >&2
        fi
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/fuzz.log" 2>/dev/null | tail -n 1)
    [ "$rc" -eq 0 ] || found=1
    summary="$summary$(printf '%-18s %10s executions  %s' "$t" "${execs:-?}" "$status")
"
done
printf 'fuzz: %s s per target\n%s' "$secs" "$summary"
[ "$found" -eq 0 ] || { echo "fuzz: findings; inputs under $art/ (docs/fuzzing.md: turning one into a regression)" >&2; exit 1; }
