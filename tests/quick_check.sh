#!/bin/sh
# SPDX-License-Identifier: MIT
# every experiment at its quick tier with another process keeping a core busy, then the
# reference check (non-zero exit on a regression).
# usage: quick_check.sh /path/to/touche
set -eu
touche=$1
out=$(pwd)/quick-out
rm -rf "$out"
# the reference results hold the runs of all three engines (docs/building.md)
if [ "${TOUCHE_ALL_ENGINES:-1}" != 1 ]; then
    echo "SKIP: this build lacks an engine, whose runs the reference results hold"; exit 77
fi
export TOUCHE_NO_PROGRESS=1
# a busy loop keeps one core busy the whole time, as another job on a CI machine or a
# newcomer's laptop would: no timing may fail the check or move a verdict because of it
sh -c 'while :; do :; done' &
busy=$!
# (the trap's status must not become the script's: a loop already stopped makes kill fail)
trap 'kill $busy 2>/dev/null || true' EXIT INT TERM
# exit 3 (runs failed) passes when the check passes: no method fails more often than the
# reference records (the known failures, README); anything else fails here
rc=0
"$touche" run all --tier quick --out "$out" || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { echo "touche run all: exit $rc"; exit 1; }
"$touche" check --out "$out"
kill $busy 2>/dev/null || true
# the PDF report built from the quick tier (the run's exit status already failed without it)
pages=$(pdfinfo "$out/paper/touche.pdf" 2>/dev/null | awk '/^Pages:/ {print $2}')
[ "${pages:-0}" -ge 7 ] || { echo "the PDF report has ${pages:-no} pages (expected a section per experiment)"; exit 1; }
echo "PDF report: $pages pages"
# every experiment's section opens with its verdicts; the report's table has a row per claim
src=${TOUCHE_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
for sec in "$out"/*/section.md; do
    sed -n 3p "$sec" | grep -q '^\*\*Verdicts\*\*' || { echo "no verdicts under the heading of $sec"; exit 1; }
done
claims=$(cat "$src"/experiments/*/claims.cfg | grep -c '{ id = "E')
rows=$(grep -c '^| E[0-9]*\.[0-9]* |' "$out/report.md")
[ "$claims" -eq "$rows" ] || { echo "report.md: $rows claim rows, the claims files have $claims"; exit 1; }
echo "verdicts: in every section; $rows claims in the report's table"
# the PDF's log, the setup chapter's library versions, the deviations list
sh "$src/tests/report/print_check.sh" "$out" "$src" "$(dirname "$touche")"
# the piles benchmark on two small piles: a row per size and method, each timed or saying why not
"$touche" bench piles --bodies 8,12 --land 0.6 --steps 2 --budget 2 --out "$out/bench" >/dev/null
rows=$(tail -n +2 "$out/bench/bench_piles.csv" | wc -l)
[ "$rows" -eq 6 ] || { echo "bench piles: $rows rows, expected 6 (2 sizes, 3 methods)"; exit 1; }
if tail -n +2 "$out/bench/bench_piles.csv" | grep -q ',0,nan,'; then
    grep ',0,nan,' "$out/bench/bench_piles.csv" | grep -q '"skipped\|"cannot' \
        || { echo "bench piles: an untimed row without a reason"; exit 1; }
fi
echo "bench piles: $rows rows"
# the gradients benchmark at a tiny budget: four states a method, the box's FD Jacobian 2n + 1 =
# 19 steps (n: 6 states and 3 forces; no servo columns)
"$touche" bench gradients --seconds 0.001 --out "$out/bench" >/dev/null 2>&1
rows=$(tail -n +2 "$out/bench/bench_gradients.csv" | wc -l)
[ "$rows" -gt 0 ] && [ $((rows % 4)) -eq 0 ] || { echo "bench gradients: $rows rows"; exit 1; }
[ "$(tail -n +2 "$out/bench/bench_gradients.csv" | awk -F, '$NF != 19' | wc -l)" -eq 0 ] \
    || { echo "bench gradients: an FD Jacobian of other than 19 steps"; exit 1; }
echo "bench gradients: $rows rows"
