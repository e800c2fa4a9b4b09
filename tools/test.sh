#!/bin/sh
# SPDX-License-Identifier: MIT
# the tests: set up, build with warnings as errors, run `meson test` (unit tests, the CLI on bad
# input, the installed library, every experiment's quick tier and the reference check), then the
# unit, CLI and install tests again under AddressSanitizer and UndefinedBehaviorSanitizer, then
# the file readers under libFuzzer for 30 s each (tools/fuzz.sh, docs/fuzzing.md).
set -eu
cd "$(dirname "$0")/.."
sh tools/setup.sh
meson test -C build --print-errorlogs
[ -d build-asan ] || meson setup build-asan -Dwerror=true -Dbuildtype=debugoptimized \
    -Db_sanitize=address,undefined -Db_lundef=false
ninja -C build-asan
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    meson test -C build-asan --suite unit --suite cli --suite install --print-errorlogs
# Criterion runs each test in a worker whose sanitizer report at exit does not fail the test:
# the log decides (a leak, a memory error or undefined behaviour anywhere fails the suite)
if grep -n "ERROR: LeakSanitizer\|ERROR: AddressSanitizer\|runtime error:" \
        build-asan/meson-logs/testlog.txt; then
    echo "test: the sanitizers reported the problems above (build-asan/meson-logs/testlog.txt)"
    exit 1
fi
sh tools/fuzz.sh 30
