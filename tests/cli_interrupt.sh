#!/bin/sh
# SPDX-License-Identifier: MIT
# killing `touche run` at any moment leaves the previous output set complete and no temp files:
# SIGTERM and SIGINT at several moments (the run stops, removes its staging directory, exits 130
# and the old set stays), SIGKILL (nothing can clean up: the old set stays, and the next run
# removes the staging directory left behind). usage: cli_interrupt.sh /path/to/touche
set -u
touche=$1
tmp=$(mktemp -d /tmp/touche-kill-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export TOUCHE_NO_PROGRESS=1
o=$tmp/out
fail=0
run() { "$touche" run e1 --methods scm-smooth,pfc --threads 2 --out "$o" >"$tmp/log" 2>&1; }

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
echo "$fail failed"
[ "$fail" -eq 0 ]
