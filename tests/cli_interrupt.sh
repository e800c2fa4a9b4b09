#!/bin/sh
# SPDX-License-Identifier: MIT
# killing `touche run` at any moment leaves the previous output set complete and no temp files:
# SIGTERM and SIGINT at several moments (the run stops, removes its staging directory, exits 130
# and the old set stays), SIGKILL (nothing can clean up: the old set stays, and the next run
# removes the staging directory left behind); and SIGINT while an external program runs (a figure
# made slow) stops the run within 5 s. usage: cli_interrupt.sh /path/to/touche
set -u
touche=$1
tmp=$(mktemp -d /tmp/touche-kill-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# E1's script lists mujoco: a build without MuJoCo (TOUCHE_HAVE_MUJOCO=0, docs/building.md)
# cannot plan it
if [ "${TOUCHE_HAVE_MUJOCO:-1}" != 1 ]; then echo "SKIP: runs E1, which needs MuJoCo"; exit 77; fi
export TOUCHE_NO_PROGRESS=1
o=$tmp/out
fail=0
# the set to protect comes from a short run (Hunt-Crossley alone: 3 s under the sanitizers); the
# runs that are killed are long ones (SCM and PFC: 74 s under the sanitizers), so every signal
# lands mid-run, and a set they left half-replaced would differ from the protected one
run() { "$touche" run e1 --methods hunt-crossley --threads 2 --out "$o" >"$tmp/log" 2>&1; }

# the listing and checksums of an output set (every file; results byte for byte)
snapshot() { (cd "$o/e1_sphere_profiles" && ls | sort && cksum profile_1d.csv field_*.csv metrics.cfg); }
leftovers() { find "$o" -name '.touche-*' -o -name '*.tmp.*' | head -5; }

# a complete set to protect
run || { echo "FAIL: the first run failed"; cat "$tmp/log"; exit 1; }
snapshot > "$tmp/before"
echo "ok: a complete output set ($(wc -l < "$tmp/before") lines of listing and checksums)"

for sig in TERM INT; do
    for delay in 0.3 1 2.5 5; do
        "$touche" run e1 --methods scm-smooth,pfc --threads 2 --out "$o" >"$tmp/log" 2>&1 &
        pid=$!
        sleep "$delay"
        kill -s "$sig" "$pid" 2>/dev/null
        wait "$pid"; rc=$?
        snapshot > "$tmp/after"
        left=$(leftovers)
        if ! cmp -s "$tmp/before" "$tmp/after"; then
            echo "FAIL: SIG$sig after ${delay}s (exit $rc): the output set changed"; diff "$tmp/before" "$tmp/after" | head
            fail=$((fail+1))
        elif [ -n "$left" ]; then
            echo "FAIL: SIG$sig after ${delay}s: temp files left: $left"; fail=$((fail+1))
        elif [ "$rc" -ne 130 ] && [ "$rc" -ne 0 ] && [ "$rc" -ne 143 ]; then
            echo "FAIL: SIG$sig after ${delay}s: exit $rc"; cat "$tmp/log"; fail=$((fail+1))
        else
            echo "ok: SIG$sig after ${delay}s (exit $rc): the set is the complete one, no temp files"
        fi
    done
done

# SIGKILL: the staging directory stays behind until the next run in the same output root
for delay in 1 3; do
    "$touche" run e1 --methods scm-smooth,pfc --threads 2 --out "$o" >"$tmp/log" 2>&1 &
    pid=$!
    sleep "$delay"
    kill -s KILL "$pid" 2>/dev/null
    wait "$pid"
    snapshot > "$tmp/after"
    if cmp -s "$tmp/before" "$tmp/after"; then
        echo "ok: SIGKILL after ${delay}s: the set is the complete one"
    else
        echo "FAIL: SIGKILL after ${delay}s: the output set changed"; fail=$((fail+1))
    fi
done
"$touche" run e1 --methods hunt-crossley --threads 2 --out "$o" >"$tmp/log" 2>&1
left=$(leftovers)
if [ -z "$left" ]; then echo "ok: the next run removed what SIGKILL left"; else
    echo "FAIL: left behind after the next run: $left"; fail=$((fail+1)); fi
# how soon an interrupt acts in the slowest phase found: an external program running (gnuplot
# drawing a figure; pdflatex and CalculiX alike), here one made slow (every template pauses 30 s).
# The run must stop it and exit 130 within 5 s of SIGINT (a bound on responsiveness, not speed),
# say at once what it does, and leave no staging directory
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$tmp/src/experiments/e1"
for d in data paper plots; do ln -s "$src/$d" "$tmp/src/$d"; done
for e in "$src"/experiments/*; do
    [ "${e##*/}" = e1 ] || ln -s "$e" "$tmp/src/experiments/${e##*/}"
done
for f in "$src"/experiments/e1/*; do
    case "$f" in *.gp) { echo 'pause 30'; cat "$f"; } > "$tmp/src/experiments/e1/${f##*/}" ;;
                 *) cp "$f" "$tmp/src/experiments/e1/" ;; esac
done
o2=$tmp/slow
TOUCHE_SOURCE_DIR=$tmp/src "$touche" run e1 --methods hunt-crossley --threads 2 --out "$o2" >"$tmp/log" 2>&1 &
pid=$!
# wait for the first figure's temp file: gnuplot is running
n=0
while [ -z "$(find "$o2" -name 'fig_*.tmp.*' 2>/dev/null | head -1)" ] && [ "$n" -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
    sleep 0.1; n=$((n+1))
done
t0=$(date +%s.%N)
kill -s INT "$pid" 2>/dev/null
# at most 15 s: past that the run is killed (and the test fails)
t1=$t0
while kill -0 "$pid" 2>/dev/null && awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 15) }'; do
    sleep 0.05; t1=$(date +%s.%N)
done
t1=$(date +%s.%N)
kill -s KILL "$pid" 2>/dev/null
wait "$pid"; rc=$?
delay=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
left=$(find "$o2" -name '.touche-*' 2>/dev/null | head -3)
if awk -v d="$delay" 'BEGIN { exit !(d > 5) }'; then
    echo "FAIL: SIGINT while gnuplot draws a figure: the run took ${delay}s to stop (bound 5 s)"; fail=$((fail+1))
elif [ "$rc" -ne 130 ] || [ -n "$left" ]; then
    echo "FAIL: SIGINT while gnuplot draws a figure: exit $rc, left: $left"; cat "$tmp/log"; fail=$((fail+1))
elif ! grep -q "touche: interrupted: finishing the current step" "$tmp/log"; then
    echo "FAIL: SIGINT while gnuplot draws: no word of what the run does"; cat "$tmp/log"; fail=$((fail+1))
else
    echo "ok: SIGINT while gnuplot draws a figure: stopped in ${delay}s (bound 5 s), exit 130, said so at once"
fi
echo "$fail failed"
[ "$fail" -eq 0 ]
