#!/bin/sh
# SPDX-License-Identifier: MIT
# touche bench ranks (docs/benchmarks.md): bad options exit 2 naming the option; E2 and E5 at the
# quick tier as one process of 2 threads and as 2 ranks of 1 thread give a CSV row for each, with
# the same items, positive sweep times, the efficiency their ratio, and equal result digests.
# usage: bench_ranks_check.sh /path/to/touche MPI_BUILT (1: built with MPI, 0: without)
set -eu
touche=$1
out=$(pwd)/bench-ranks-out
rm -rf "$out"
mkdir -p "$out"

# expect STATUS PATTERN ARGS...: the exit status and a message matching the pattern on stderr
expect() {
    want=$1 pat=$2
    shift 2
    st=0
    "$touche" bench ranks "$@" >"$out/cmd.out" 2>"$out/cmd.err" || st=$?
    [ "$st" = "$want" ] || { cat "$out/cmd.err"; echo "bench ranks $*: exit status $st, expected $want"; exit 1; }
    grep -q -- "$pat" "$out/cmd.err" || { cat "$out/cmd.err"; echo "bench ranks $*: no message naming '$pat'"; exit 1; }
}
expect 2 "--ranks" --ranks 0
expect 2 "--ranks" --ranks 1,two
expect 2 "--ranks: 2 ranks do not divide the 3 workers" --ranks 1,2 --threads 3
expect 2 "--experiments: no experiment called 'e99'" --experiments e99
expect 2 "--tier must be quick or full" --tier medium
expect 2 "--repeat" --repeat 0
expect 2 "unknown option '--bogus'" --bogus
expect 2 "--out needs a value" --out
echo "bad options: exit 2, each naming its option"

if [ "${2:-0}" != 1 ]; then
    # without MPI the bench says so and fails rather than time something else
    expect 1 "built without MPI" --experiments e5 --ranks 1,2 --out "$out/b"
    echo "skipped: touche was built without MPI (-Dmpi=disabled, or no libopenmpi-dev at setup)"
    exit 77
fi
if ! command -v mpirun >/dev/null 2>&1; then
    expect 1 "no mpirun on PATH" --experiments e5 --ranks 1,2 --out "$out/b"
    echo "skipped: no mpirun on PATH (install openmpi-bin: tools/setup.sh)"
    exit 77
fi
# E2's and E5's scripts list mujoco (docs/building.md)
if [ "${TOUCHE_HAVE_MUJOCO:-1}" != 1 ]; then echo "skipped: this build has no MuJoCo"; exit 77; fi

# the bench itself: every row there, the efficiency the ratio of the sweep times, digests equal
"$touche" bench ranks --experiments e2,e5 --ranks 1,2 --out "$out/b" >"$out/bench.out" 2>"$out/bench.err" \
    || { cat "$out/bench.err"; echo "bench ranks: exit status non-zero"; exit 1; }
csv=$out/b/bench_ranks.csv
[ -f "$out/b/bench_ranks.md" ] || { echo "no bench_ranks.md"; exit 1; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { e = $col["experiment"]; r = $col["ranks"]; n[e]++
      items[e, r] = $col["items"]; sweep[e, r] = $col["sweep_wall_s"]; eff[e, r] = $col["efficiency"]
      if ($col["digests_equal"] != "yes" || $col["digests_compared"] < 1) { print e " on " r " ranks: digests " $col["digests_equal"] " (" $col["digests_compared"] " compared)"; bad = 1 }
      if ($col["ranks"] * $col["threads"] != 2) { print e ": " $col["ranks"] " x " $col["threads"] " is not 2 workers"; bad = 1 } }
    END {
      split("e2_t_pushing e5_polytopes", ex, " ")
      for (k = 1; k <= 2; k++) {
          e = ex[k]
          if (n[e] != 2 || !((e, 1) in items) || !((e, 2) in items)) { print e ": rows for 1 and 2 ranks expected, got " n[e]; bad = 1; continue }
          if (items[e, 1] < 1 || items[e, 1] != items[e, 2]) { print e ": items " items[e, 1] " and " items[e, 2]; bad = 1 }
          if (!(sweep[e, 1] > 0 && sweep[e, 2] > 0)) { print e ": sweep times " sweep[e, 1] ", " sweep[e, 2]; bad = 1; continue }
          want = sweep[e, 1] / sweep[e, 2]; d = eff[e, 2] - want; if (d < 0) d = -d
          if (eff[e, 1] != 1 || d > 1e-3 * want + 1e-3) { print e ": efficiency " eff[e, 1] ", " eff[e, 2] " (sweeps give " want ")"; bad = 1 }
          printf "ok: %s: %d items, %.2f s on 1 x 2, %.2f s on 2 x 1, efficiency %.2f, digests equal\n", e, items[e, 1], sweep[e, 1], sweep[e, 2], eff[e, 2]
      }
      exit bad }' "$csv" || { cat "$csv"; echo "bench_ranks.csv is wrong"; exit 1; }
# the 2-rank children really ran as one job of 2 ranks (their timing files say so)
for e in e2_t_pushing e5_polytopes; do
    t="$out/b/ranks/$e/2x1/timings.csv"
    awk -F, 'NR == 2 && $3 == 2 && $4 == 1 { ok = 1 } END { exit !ok }' "$t" || { cat "$t"; echo "$t: not 2 ranks of 1 thread"; exit 1; }
done
grep -q "split over 2 ranks" "$out/b/ranks/e5_polytopes/2x1/run.log" || { echo "E5's sweep was not split over the ranks"; exit 1; }
echo "bench ranks: ok"
