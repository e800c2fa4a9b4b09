#!/bin/sh
# SPDX-License-Identifier: MIT
# the tests: set up, build with warnings as errors, run `meson test` (unit tests, the CLI on bad
# input, the installed library, every experiment's quick tier and the reference check, the style
# check), then the unit, CLI, install and MPI tests again under AddressSanitizer and
# UndefinedBehaviorSanitizer, then the file readers under libFuzzer for 15 s each (tools/fuzz.sh,
# docs/fuzzing.md).
set -eu
cd "$(dirname "$0")/.."
sh tools/setup.sh
# the MPI sweeps of E4, E5 and E6 are checked once, under the sanitizers below (the plain run of
# all six took 177 s of a fresh clone's 1684 s); E1, E2 and E3 here
MPI_CHECK_ONLY="e1 e2 e3" meson test -C build --print-errorlogs
[ -d build-asan ] || meson setup build-asan -Dwerror=true -Dbuildtype=debugoptimized \
    -Db_sanitize=address,undefined -Db_lundef=false
ninja -C build-asan
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    meson test -C build-asan --suite unit --suite cli --suite install --print-errorlogs
# the sweeps over MPI ranks under the sanitizers too (E4 with its failed runs on 1, 2 and 3 ranks,
# E5, E6; the test `mpi`, skipped without MPI). `bench_ranks` runs in the plain build only: it
# times the same sweeps, and under the sanitizers it took 281 s of a fresh clone's 1551 s.
# Open MPI's own allocations that live until exit are not ours (tools/lsan-mpi.supp); its
# plug-ins stay loaded and the slow unwinder runs, so the leak stacks name the libraries
OMPI_MCA_mca_base_component_disable_dlclose=1 MPI_CHECK_ONLY="e4 e5 e6" \
    LSAN_OPTIONS=suppressions=$(pwd)/tools/lsan-mpi.supp:print_suppressions=0 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
    meson test -C build-asan --print-errorlogs mpi
# Criterion runs each test in a worker whose sanitizer report at exit does not fail the test:
# the log decides (a leak, a memory error or undefined behaviour anywhere fails the suite)
if grep -n "ERROR: LeakSanitizer\|ERROR: AddressSanitizer\|runtime error:" \
        build-asan/meson-logs/testlog.txt; then
    echo "test: the sanitizers reported the problems above (build-asan/meson-logs/testlog.txt)"
    exit 1
fi
# 15 s per target: 8 targets at 30 s took 262 s of a fresh clone's 1582 s (tools/fuzz.sh 600 runs
# longer, docs/fuzzing.md)
sh tools/fuzz.sh 15
