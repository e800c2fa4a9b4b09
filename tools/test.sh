#!/bin/sh
# SPDX-License-Identifier: MIT
# the tests: set up, build with warnings as errors, run `meson test` (unit tests, the CLI on bad
# input, every experiment's quick tier and the reference check), then the unit and CLI tests again
# under AddressSanitizer and UndefinedBehaviorSanitizer, then the file readers under libFuzzer for
# 30 s each (tools/fuzz.sh, docs/fuzzing.md).
set -eu
cd "$(dirname "$0")/.."
sh tools/setup.sh
meson test -C build --print-errorlogs
[ -d build-asan ] || meson setup build-asan -Dwerror=true -Dbuildtype=debugoptimized \
    -Db_sanitize=address,undefined -Db_lundef=false
ninja -C build-asan
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    meson test -C build-asan --suite unit --suite cli --print-errorlogs
sh tools/fuzz.sh 30
