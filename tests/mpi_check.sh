#!/bin/sh
# SPDX-License-Identifier: MIT
# sweeps over MPI ranks (docs/mpi.md): E1, E2, E3, E4, E5 and E6 at the quick tier under
# `mpirun -np 2` (and E4 under -np 3; E5 also with a fixed split, TOUCHE_MPI_SHARE=0, and as 3
# ranks on 2 machines, TOUCHE_MPI_MACHINES=2, and with a worker that leaves early) write the same
# outputs as one process, byte for byte but for the timings; a run made to diverge on
# purpose (E4's deepest-point with kp = 1e12) is recorded as failed, with its reason, in every
# case.
# usage: [MPI_CHECK_ONLY="e4 e5"] mpi_check.sh /path/to/touche MPI_BUILT (1: built with MPI, 0: without)
# (MPI_CHECK_ONLY: the experiments to check, default all six; tools/test.sh checks a few under
# the sanitizers, where the whole set would take minutes more)
set -eu
touche=$1
only=" ${MPI_CHECK_ONLY:-e1 e2 e3 e4 e5 e6} "
want() { case $only in *" $1 "*) return 0 ;; esac; return 1; }
if [ "${2:-0}" != 1 ]; then
    echo "skipped: touche was built without MPI (-Dmpi=disabled, or no libopenmpi-dev at setup)"
    exit 77
fi
if ! command -v mpirun >/dev/null 2>&1; then
    echo "skipped: no mpirun on PATH (install openmpi-bin: tools/setup.sh)"
    exit 77
fi
# E1, E2 and E4 to E6 list mujoco in their scripts (docs/building.md)
if [ "${TOUCHE_HAVE_MUJOCO:-1}" != 1 ]; then echo "skipped: this build has no MuJoCo"; exit 77; fi
out=$(pwd)/mpi-out
rm -rf "$out"
mkdir -p "$out"
export TOUCHE_NO_PROGRESS=1
# Open MPI refuses root without these, and 3 ranks on a 2-core machine need --oversubscribe
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi() { np=$1; shift; mpirun -np "$np" --oversubscribe "$touche" "$@"; }

# run NAME EXPECTED_STATUS TOUCHE_ARGS...: the exit status must be the expected one
run() {
    name=$1 want=$2
    shift 2
    st=0
    "$@" >"$out/$name.log" 2>&1 || st=$?
    [ "$st" = "$want" ] || { cat "$out/$name.log"; echo "$name: exit status $st, expected $want"; exit 1; }
}

# a file without its timings: the timing columns of a CSV (wall_s, E4's steps_s and over_lcp,
# E7's step_s, fit_s, per_contact_s, E2's step_ms and *_ms; by the header's names, quoted fields
# may hold commas), the metrics flagged `timing = true` of metrics.cfg
untimed() {
    case "$1" in
    */metrics.cfg)
        awk '/^  \{/ { blk = $0 "\n"; inblk = 1; next }
             inblk { blk = blk $0 "\n"; if (/^  \}/) { if (blk !~ /timing = true/) printf "%s", blk; inblk = 0 }; next }
             { print }' "$1" ;;
    *)
        awk 'function split_csv(line, f,   i, c, q, n, cur) {
                 n = 1; q = 0; cur = ""
                 for (i = 1; i <= length(line); i++) {
                     c = substr(line, i, 1)
                     if (c == "\"") q = !q
                     if (c == "," && !q) { f[n++] = cur; cur = ""; continue }
                     cur = cur c
                 }
                 f[n] = cur
                 return n
             }
             { n = split_csv($0, f) }
             NR == 1 { for (i = 1; i <= n; i++) drop[i] = f[i] ~ /^(# )?(wall_s|steps_s|over_lcp|step_s|fit_s|per_contact_s|[A-Za-z0-9_-]*_ms)(;.*)?$/ }
             { s = ""; for (i = 1; i <= n; i++) if (!drop[i]) s = s (s == "" ? "" : ",") f[i]; print s }' "$1" ;;
    esac
}

# same DIR1 DIR2: the same files, every CSV, .dat and metrics.cfg equal without its timings
same() {
    (cd "$1" && ls) >"$out/ls1"
    (cd "$2" && ls) >"$out/ls2"
    cmp -s "$out/ls1" "$out/ls2" || { diff "$out/ls1" "$out/ls2"; echo "$1 and $2 hold other files"; exit 1; }
    n=0
    for f in "$1"/*.csv "$1"/*.dat "$1"/metrics.cfg; do
        [ -f "$f" ] || continue
        b=$(basename "$f")
        # E4's and E6's speed studies are serial timing studies: every number in them is a timing;
        # a speed-accuracy figure's rows are ordered by step time and its front follows them
        [ "$b" = speed.csv ] || [ "$b" = fig_pareto.csv ] && continue
        untimed "$f" >"$out/a"
        untimed "$2/$b" >"$out/b"
        cmp -s "$out/a" "$out/b" || { diff "$out/a" "$out/b" | head -20; echo "$b differs: $1 vs $2"; exit 1; }
        n=$((n + 1))
    done
    [ "$n" -ge 3 ] || { echo "$1: only $n result files compared"; exit 1; }
    echo "same: $n files of $(basename "$1") ($1 vs $2)"
}

# E1: static force queries (four methods; pfc and the smoothest SCM would take minutes here),
# one process on 2 threads against 2 ranks of 1 thread
if want e1; then
e1="e1 --tier quick --methods scm-sharp,hunt-crossley,mujoco,penalty-dp"
run e1-one 0 "$touche" run $e1 --threads 2 --out "$out/one"
run e1-two 0 mpi 2 run $e1 --threads 1 --out "$out/two"
grep -q "split over 2 ranks" "$out/e1-two.log" || { cat "$out/e1-two.log"; echo "E1's sweep was not split"; exit 1; }
same "$out/one/e1_sphere_profiles" "$out/two/e1_sphere_profiles"
fi

# E4: simulations, deepest-point made to diverge (kp = 1e12 N/(m kg)); exit status 3: runs failed
if want e4; then
e4="e4 --tier quick --methods deepest-point,multi-point,multi-point-se --set deepest-point.kp=1e12"
run e4-one 3 "$touche" run $e4 --threads 2 --out "$out/one"
run e4-two 3 mpi 2 run $e4 --threads 1 --out "$out/two"
run e4-three 3 mpi 3 run $e4 --threads 1 --out "$out/three"
same "$out/one/e4_penalty" "$out/two/e4_penalty"
same "$out/one/e4_penalty" "$out/three/e4_penalty"
# deepest-point's three runs failed with the divergence as their reason, in every output set
# (whichever rank ran them)
for d in one two three; do
    f="$out/$d/e4_penalty/runs.csv"
    nf=$(grep -c '^[0-9]*,deepest-point,.*,failed,"diverged: ' "$f" || true)
    [ "$nf" = 3 ] || { cat "$f"; echo "$f: $nf failed deepest-point runs with a reason, expected 3"; exit 1; }
    grep -q '^1,deepest-point,.*"study=perturbed.*,failed,"diverged: ' "$f" || { cat "$f"; echo "$f: run 1 not failed"; exit 1; }
    nok=$(grep -c '^[0-9]*,multi-point.*,ok,' "$f" || true)
    [ "$nok" = 6 ] || { cat "$f"; echo "$f: $nok ok multi-point runs, expected 6"; exit 1; }
done
grep -q "deepest-point, study=perturbed.*diverged" "$out/e4-two.log" \
    || { cat "$out/e4-two.log"; echo "the 2-rank run's summary does not name the failed run"; exit 1; }
echo "failed runs: recorded with their reasons for 1, 2 and 3 ranks"

# rank 0 alone speaks: the plan once, not once per rank
np=$(grep -c "^touche: e4_penalty (driver" "$out/e4-three.log" || true)
[ "$np" = 1 ] || { cat "$out/e4-three.log"; echo "the plan was printed $np times by 3 ranks"; exit 1; }
fi

# E2 (rollouts), E3 (CalculiX re-solves, when ccx is there), E5 (drops), E6 (stacks and the
# tower: two studies in one sweep) at the quick tier. E5 and E6 with four methods of different
# costs (an interior-point one, the LCP, MuJoCo, velocity projection): the split is what is
# checked, and the public bilevel's finite differences and the explicit models' known failed runs
# would only add time (the whole E5 ran six times here under ASan took most of 900 s)
m56="--methods single-level,rigid,mujoco,points"
for e in e2_t_pushing e3_sinusoid e5_polytopes e6_stacking; do
    want "${e%%_*}" || continue
    case $e in e5_*|e6_*) f=$m56 ;; *) f= ;; esac
    # shellcheck disable=SC2086
    run "$e-one" 0 "$touche" run "$e" --tier quick --threads 2 $f --out "$out/one"
    # shellcheck disable=SC2086
    run "$e-two" 0 mpi 2 run "$e" --tier quick --threads 1 $f --out "$out/two"
    same "$out/one/$e" "$out/two/$e"
done

# the same bytes when the ranks of the machine share nothing (TOUCHE_MPI_SHARE=0: a fixed split
# of the items, no common queue, no lent threads; docs/mpi.md)
if want e5; then
    export TOUCHE_MPI_SHARE=0
    # shellcheck disable=SC2086
    run e5-fixed 0 mpi 2 run e5_polytopes --tier quick --threads 1 $m56 --out "$out/fixed"
    unset TOUCHE_MPI_SHARE
    same "$out/one/e5_polytopes" "$out/fixed/e5_polytopes"
    # three ranks as two machines (TOUCHE_MPI_MACHINES=2: ranks 0 and 1 share a queue, rank 2 is a
    # machine of its own): the items dealt to the machines by cost per rank, the same bytes
    export TOUCHE_MPI_MACHINES=2
    # shellcheck disable=SC2086
    run e5-machines 0 mpi 3 run e5_polytopes --tier quick --threads 1 $m56 --out "$out/machines"
    unset TOUCHE_MPI_MACHINES
    grep -q "split over 3 ranks" "$out/e5-machines.log" || { cat "$out/e5-machines.log"; echo "E5 not split over 3 ranks"; exit 1; }
    same "$out/one/e5_polytopes" "$out/machines/e5_polytopes"
fi

# a worker whose driver stops early (its scratch directory cannot be made: TMPDIR under a file)
# leaves the experiment; rank 0 runs what it did not, the outputs are whole and the same, exit 0.
# With the shared queue rank 0 takes every item; with the fixed split it runs the leaver's share
if want e5; then
    : >"$out/not-a-dir"
    for share in 1 0; do
        export TOUCHE_MPI_SHARE=$share
        st=0
        # shellcheck disable=SC2086
        mpirun -np 1 --oversubscribe "$touche" run e5_polytopes --tier quick --threads 1 $m56 --out "$out/leave$share" : \
            -np 1 -x TMPDIR="$out/not-a-dir/tmp" "$touche" run e5_polytopes --tier quick --threads 1 $m56 \
            --out "$out/leave$share" >"$out/e5-leave$share.log" 2>&1 || st=$?
        unset TOUCHE_MPI_SHARE
        log="$out/e5-leave$share.log"
        [ "$st" = 0 ] || { cat "$log"; echo "a worker that left: exit status $st, expected 0"; exit 1; }
        grep -q "rank 1 left e5_polytopes early: .*not-a-dir" "$log" || { cat "$log"; echo "the leaver is not named"; exit 1; }
        [ "$share" = 1 ] || grep -q "split over 2 ranks: [0-9]*, 0 items, and rank 0 the [0-9]* no rank ran" "$log" \
            || { cat "$log"; echo "rank 0 did not run the leaver's share"; exit 1; }
        same "$out/one/e5_polytopes" "$out/leave$share/e5_polytopes"
    done
fi
echo "mpi: ok ($only)"
