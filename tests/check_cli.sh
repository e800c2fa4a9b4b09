#!/bin/sh
# SPDX-License-Identifier: MIT
# `touche check` end to end on real runs: a method whose runs failed is refused by an update and
# fails the check; a parameter that differs from the reference's is named as the likely cause.
# usage: check_cli.sh /path/to/touche
set -eu
touche=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# E4's script lists mujoco: a build without MuJoCo (TOUCHE_HAVE_MUJOCO=0, docs/building.md)
# cannot plan it
if [ "${TOUCHE_HAVE_MUJOCO:-1}" != 1 ]; then echo "SKIP: runs E4, which needs MuJoCo"; exit 77; fi
export TOUCHE_NO_PROGRESS=1
fail() { echo "FAIL: $*"; exit 1; }
# expect RC LOG what... : run what, its output into LOG, and fail unless it exits RC
expect() {
    want=$1 log=$2
    shift 2
    rc=0
    "$@" >"$log" 2>&1 || rc=$?
    [ "$rc" -eq "$want" ] || { cat "$log"; fail "$* exited $rc, expected $want"; }
}

# a method whose runs all fail: E4's deepest-point with kp = 1e12 diverges (exit 3: runs failed)
expect 3 "$tmp/run.txt" "$touche" run e4 --tier quick --methods deepest-point \
    --set deepest-point.kp=1e12 --out "$tmp/f"

# against the references: it fails, and the failed runs come first with their reason
expect 1 "$tmp/c.txt" "$touche" check --out "$tmp/f" --history "$tmp/h.tsv"
first=$(grep -m1 '^  [A-Z]' "$tmp/c.txt")
case "$first" in
*"runs of deepest-point: 3 of 3 failed (first: diverged"*) ;;
*) cat "$tmp/c.txt"; fail "the first entry is not the failed runs: $first" ;;
esac
echo "ok: failed runs fail the check, first: $first"

# --update-new into empty references records nothing of the method, says why, and fails
mkdir "$tmp/ref"
expect 1 "$tmp/u.txt" "$touche" check --out "$tmp/f" --ref "$tmp/ref" --history "$tmp/h.tsv" \
    --update-new
grep -q "refused  e4_penalty: method deepest-point: 3 of 3 runs failed" "$tmp/u.txt" \
    || { cat "$tmp/u.txt"; fail "the refusal does not name the method and why"; }
if [ -f "$tmp/ref/e4_penalty.quick.cfg" ] && grep -Eq '(label|method) = "deepest-point"' "$tmp/ref/e4_penalty.quick.cfg"; then
    cat "$tmp/ref/e4_penalty.quick.cfg"
    fail "the failed method was recorded as a reference"
fi
echo "ok: --update-new recorded nothing of the failed method"

# --update-new --accept-failed (the run left methods out) records the failures as known (loudly), leaving out the failed runs'
# non-finite metrics; the same run then passes, and the main command would call them known
mkdir "$tmp/ref2"
expect 0 "$tmp/a.txt" "$touche" check --out "$tmp/f" --ref "$tmp/ref2" --history "$tmp/h.tsv" \
    --update-new --accept-failed
grep -q "WARNING  e4_penalty: recording method deepest-point although 3 of 3 runs failed" "$tmp/a.txt" \
    || { cat "$tmp/a.txt"; fail "the accepted failures are not announced"; }
grep -Eiq 'value = -?nan' "$tmp/ref2/e4_penalty.quick.cfg" && { cat "$tmp/ref2/e4_penalty.quick.cfg"; fail "a NaN was recorded"; }
expect 0 "$tmp/k.txt" "$touche" check --out "$tmp/f" --ref "$tmp/ref2" --history "$tmp/h.tsv"
grep -q "runs: 3, 3 failed (no more than the reference records)" "$tmp/k.txt" \
    || { cat "$tmp/k.txt"; fail "the known failures are not named as such"; }
echo "ok: --accept-failed records known failures; the same run then passes the check"

# a parameter that differs from the reference's (as a changed default would) is named
expect 0 "$tmp/run2.txt" "$touche" run e4 --tier quick --methods hunt-crossley \
    --set hunt-crossley.k=120000 --out "$tmp/p"
expect 1 "$tmp/p.txt" "$touche" check --out "$tmp/p" --history "$tmp/h.tsv"
grep -q "likely cause: hunt-crossley.k changed from 100000 to 120000" "$tmp/p.txt" \
    || { cat "$tmp/p.txt"; fail "the changed parameter is not named"; }
echo "ok: the changed parameter is named as the likely cause"

# the program pins OpenBLAS's kernels (src/cli/main.c): without OPENBLAS_CORETYPE, an LCP method's
# results belong to the SSE3 kernels on any x86-64 CPU and match the reference bit for bit; a
# kernel the caller chose is kept (the check then lets the metrics decide)
if [ "$(uname -m)" = x86_64 ]; then
    expect 0 "$tmp/pin.txt" env -u OPENBLAS_CORETYPE "$touche" run e9 --tier quick --methods rigid \
        --out "$tmp/pin"
    grep -q 'cpu_kind = "OpenBLAS Prescott"' "$tmp/pin/e9_static_friction/metrics.cfg" \
        || fail "an LCP run without OPENBLAS_CORETYPE did not run on the pinned kernels"
    expect 0 "$tmp/pinc.txt" "$touche" check --out "$tmp/pin" --history "$tmp/h.tsv"
    grep -q "result digests: [1-9][0-9]* equal, 0 failed, 0 new, 0 on another CPU kind" "$tmp/pinc.txt" \
        || { cat "$tmp/pinc.txt"; fail "the pinned LCP run's digest is not the reference's"; }
    expect 0 "$tmp/own.txt" env OPENBLAS_CORETYPE=Core2 "$touche" run e9 --tier quick \
        --methods rigid --out "$tmp/own"
    grep -q 'cpu_kind = "OpenBLAS Core2"' "$tmp/own/e9_static_friction/metrics.cfg" \
        || fail "OPENBLAS_CORETYPE set by the caller was not kept"
    echo "ok: OpenBLAS pinned to Prescott unless the caller chose its kernels"
fi
