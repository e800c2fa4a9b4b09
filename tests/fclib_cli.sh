#!/bin/sh
# SPDX-License-Identifier: MIT
# FCLIB exchange end to end (docs/fclib.md): E7's quick box scenes under the LCP step and
# velocity projection (--methods rigid: rigid/lcp-lemke beside rigid/vp) write their steps'
# friction-contact problems with --dump-problems; touche solve reads them, prints a merit per
# solver and solves them to its tolerance; a garbage file and an unwritable folder fail naming
# themselves. usage: fclib_cli.sh /path/to/touche
set -u
touche=$1
tmp=$(mktemp -d /tmp/touche-fclib-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export TOUCHE_NO_PROGRESS=1
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=$((fail+1)); }
# E7's script lists MuJoCo: a build without it cannot plan E7 (docs/building.md)
if [ "${TOUCHE_HAVE_MUJOCO:-1}" != 1 ]; then echo "skipped: this build has no MuJoCo"; exit 77; fi

# run with --dump-problems: every 100th step, at most 2 a simulation
"$touche" run e7 --tier quick --methods rigid --threads 2 --out "$tmp/o" \
    --dump-problems "$tmp/d" --dump-every 100 >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
[ "$rc" -eq 0 ] && ok "run --dump-problems exits 0" || { bad "run --dump-problems: exit $rc"; cat "$tmp/run.err"; }
lcp=$(ls "$tmp/d" 2>/dev/null | grep 'rigid_lcp-lemke-sim0-step0000100.hdf5$' | head -1)
vp=$(ls "$tmp/d" 2>/dev/null | grep 'rigid_vp-sim0-step0000100.hdf5$' | head -1)
n=$(ls "$tmp/d" 2>/dev/null | wc -l)
# ten runs (five scenes a method) of at most 2 files each
if [ -n "$lcp" ] && [ -n "$vp" ] && [ "$n" -le 20 ]; then ok "$n problems written, named by run, method, step"
else bad "problems written: '$lcp', '$vp', $n files"; ls "$tmp/d"; fi
ls "$tmp/d" | grep -q 'step0000300' && bad "--dump-max 2 exceeded"

# solve them: a table with the stored solution and both solvers, vp-nsgs converged
"$touche" solve --warm "$tmp/d/$lcp" "$tmp/d/$vp" >"$tmp/solve.out" 2>"$tmp/solve.err"
rc=$?
[ "$rc" -eq 0 ] && ok "solve exits 0" || { bad "solve: exit $rc"; cat "$tmp/solve.err"; }
rows=$(grep -c 'vp-nsgs .* converged$' "$tmp/solve.out")
[ "$rows" -eq 2 ] && ok "vp-nsgs converged on both" || { bad "vp-nsgs rows: $rows"; cat "$tmp/solve.out"; }
rows=$(grep -c 'vp-nsgs-warm .* converged$' "$tmp/solve.out")
[ "$rows" -eq 2 ] && ok "--warm: vp-nsgs from the stored solution converged on both" || { bad "vp-nsgs-warm rows: $rows"; cat "$tmp/solve.out"; }
# the merits (fourth column) of the stored solutions and vp-nsgs's are at most 1e-9
worst=$(awk '$3 == "stored" || $3 ~ /^vp-nsgs/ { if ($4 + 0 > w) w = $4 + 0 } END { print w + 0 }' "$tmp/solve.out")
awk -v w="$worst" 'BEGIN { exit !(w <= 1e-9) }' && ok "merits at most 1e-9 (worst $worst)" \
    || { bad "a merit above 1e-9: $worst"; cat "$tmp/solve.out"; }
"$touche" solve --csv "$tmp/d/$lcp" >"$tmp/solve.csv" 2>&1
head -1 "$tmp/solve.csv" | grep -q '^file,contacts,solver,fclib_merit,siconos_error,iterations,seconds,status$' \
    && [ "$(wc -l <"$tmp/solve.csv")" -eq 4 ] && ok "solve --csv: header and three rows" \
    || { bad "solve --csv"; cat "$tmp/solve.csv"; }

# garbage, missing, and a good file beside them: non-zero, each bad one named, the good one solved
echo "no HDF5 here" >"$tmp/garbage.hdf5"
"$touche" solve "$tmp/garbage.hdf5" "$tmp/d/$lcp" "$tmp/missing.hdf5" >"$tmp/g.out" 2>"$tmp/g.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "garbage.hdf5.*not an HDF5 file" "$tmp/g.err" \
    && grep -q "missing.hdf5.*cannot read" "$tmp/g.err" && grep -q 'vp-nsgs' "$tmp/g.out"; then
    ok "solve on garbage and missing files: exit $rc, both named"
else bad "solve on garbage: exit $rc"; cat "$tmp/g.err"; fi
"$touche" solve >/dev/null 2>"$tmp/e.err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "no FCLIB file" "$tmp/e.err" && ok "solve without files: exit 2" || bad "solve without files: exit $rc"
"$touche" solve --help | grep -q "usage: touche solve" && ok "solve --help" || bad "solve --help"

# an unwritable folder (a file in its way) and --dump-every alone: exit 2 before anything runs
"$touche" run e7 --tier quick --methods rigid --out "$tmp/o2" --dump-problems "$tmp/garbage.hdf5/d" \
    >/dev/null 2>"$tmp/u.err"; rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--dump-problems:.*garbage.hdf5" "$tmp/u.err" && [ ! -e "$tmp/o2/e7_frictional" ] \
    && ok "unwritable --dump-problems folder: exit 2, named, nothing run" \
    || { bad "unwritable folder: exit $rc"; cat "$tmp/u.err"; }
"$touche" run e7 --tier quick --methods rigid --out "$tmp/o3" --dump-every 5 >/dev/null 2>"$tmp/v.err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "need --dump-problems" "$tmp/v.err" && ok "--dump-every alone: exit 2" || bad "--dump-every alone: exit $rc"
"$touche" run --help | grep -q -- "--dump-problems DIR" && ok "run --help names --dump-problems" || bad "run --help"

[ "$fail" -eq 0 ] && echo "all FCLIB CLI checks passed" || echo "$fail FCLIB CLI checks failed"
[ "$fail" -eq 0 ]
