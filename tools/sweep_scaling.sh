#!/bin/sh
# SPDX-License-Identifier: MIT
# OpenMP scaling of every experiment's sweep: `touche run all` at each thread count, the sweep wall
# times from each experiment's done line, efficiency T1 / (N TN) against the one-thread run, and
# the reference check of every run's result digests (equal digests: the same outputs for any count).
# A count RxT runs R MPI ranks of T threads each (mpirun -np R --bind-to none, so that waiting
# ranks can lend their cores; docs/mpi.md), N = R T workers.
# usage: [TIER=quick] [TOUCHE=./build/touche] sh tools/sweep_scaling.sh OUTDIR [COUNT...]
#        (COUNT is N threads or RxT; defaults to 1 2; the first is the baseline, normally 1)
set -eu
out=${1:?usage: sh tools/sweep_scaling.sh OUTDIR [THREADS...]}
shift
[ $# -gt 0 ] || set -- 1 2
touche=${TOUCHE:-./build/touche}
tier=${TIER:-quick}
mkdir -p "$out"
csv="$out/sweep_scaling.csv"
echo "experiment,tier,workers,sweep_wall_s,run_wall_s,cpu_s,efficiency,digests,ranks" > "$csv.tmp"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
base=""
for spec in "$@"; do
    ranks=1 threads=$spec
    case $spec in *x*) ranks=${spec%x*} threads=${spec#*x} ;; esac
    n=$((ranks * threads))
    dir="$out/t$spec"
    rm -rf "$dir"
    launch=""
    [ "$ranks" -eq 1 ] || launch="mpirun -np $ranks --oversubscribe --bind-to none"
    # exit 3 (a figure or run failed) still times the sweeps; the digests below say if results moved
    TOUCHE_NO_PROGRESS=1 $launch "$touche" run all --tier "$tier" --threads "$threads" --out "$dir" \
        2> "$out/t$spec.log" || true
    digests=$("$touche" check --out "$dir" 2>&1 | awk '/result digests:/ {print $1 "/" $4 " equal"}')
    grep ' done in ' "$out/t$spec.log" | sed 's/^touche: //' | while read -r name _ _ run _ rest; do
        sweep=$(echo "$rest" | sed -n 's/.* items in \([0-9.]*\) s on.*/\1/p')
        cpu=$(echo "$rest" | sed -n 's/.* \([0-9.]*\) s of CPU.*/\1/p')
        echo "$name,$tier,$n,$sweep,$run,$cpu,,\"$digests\",$ranks"
    done >> "$csv.tmp"
    [ -n "$base" ] || base=$n
done
# efficiency of each row against the same experiment's baseline row (the first count: its workers
# and ranks): T_base N_base / (N T)
br=1
case $1 in *x*) br=${1%x*} ;; esac
awk -F, -v OFS=, -v b="$base" -v br="$br" 'NR == 1 {print; next} {row[NR] = $0; key[NR] = $1;
    n[NR] = $3; w[NR] = $4; if ($3 == b && $9 == br && !($1 in t1)) t1[$1] = $4}
    END {for (i = 2; i <= NR; i++) {
    e = (t1[key[i]] > 0 && w[i] > 0) ? sprintf("%.3f", t1[key[i]] * b / (n[i] * w[i])) : "";
    sub(/,,"/, "," e ",\"", row[i]); print row[i]}}' "$csv.tmp" > "$csv"
rm -f "$csv.tmp"
cat "$csv"
