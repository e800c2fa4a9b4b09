#!/bin/sh
# SPDX-License-Identifier: MIT
# OpenMP scaling of every experiment's sweep: `touche run all` at each thread count, the sweep wall
# times from each experiment's done line, efficiency T1 / (N TN) against the one-thread run, and
# the reference check of every run's result digests (equal digests: the same outputs for any count).
# usage: [TIER=quick] [TOUCHE=./build/touche] sh tools/sweep_scaling.sh OUTDIR [THREADS...]
#        (THREADS defaults to 1 2; the first count is the baseline, normally 1)
set -eu
out=${1:?usage: sh tools/sweep_scaling.sh OUTDIR [THREADS...]}
shift
[ $# -gt 0 ] || set -- 1 2
touche=${TOUCHE:-./build/touche}
tier=${TIER:-quick}
mkdir -p "$out"
csv="$out/sweep_scaling.csv"
echo "experiment,tier,threads,sweep_wall_s,run_wall_s,cpu_s,efficiency,digests" > "$csv.tmp"
base=""
for n in "$@"; do
    dir="$out/t$n"
    rm -rf "$dir"
    # exit 3 (a figure or run failed) still times the sweeps; the digests below say if results moved
    TOUCHE_NO_PROGRESS=1 "$touche" run all --tier "$tier" --threads "$n" --out "$dir" 2> "$out/t$n.log" || true
    digests=$("$touche" check --out "$dir" 2>&1 | awk '/result digests:/ {print $1 "/" $4 " equal"}')
    grep ' done in ' "$out/t$n.log" | sed 's/^touche: //' | while read -r name _ _ run _ rest; do
        sweep=$(echo "$rest" | sed -n 's/.* items in \([0-9.]*\) s on.*/\1/p')
        cpu=$(echo "$rest" | sed -n 's/.* \([0-9.]*\) s of CPU.*/\1/p')
        echo "$name,$tier,$n,$sweep,$run,$cpu,,\"$digests\""
    done >> "$csv.tmp"
    [ -n "$base" ] || base=$n
done
# efficiency of each row against the same experiment's baseline row
awk -F, -v OFS=, -v b="$base" 'NR == 1 {print; next} {row[NR] = $0; key[NR] = $1; n[NR] = $3; w[NR] = $4;
    if ($3 == b) t1[$1] = $4} END {for (i = 2; i <= NR; i++) {split(row[i], f, ",");
    e = (t1[key[i]] > 0 && w[i] > 0) ? sprintf("%.3f", t1[key[i]] * b / (n[i] * w[i])) : "";
    sub(/,,"/, "," e ",\"", row[i]); print row[i]}}' "$csv.tmp" > "$csv"
rm -f "$csv.tmp"
cat "$csv"
