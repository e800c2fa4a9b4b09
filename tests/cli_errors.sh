#!/bin/sh
# SPDX-License-Identifier: MIT
# the CLI on bad input: clear message naming file, line and parameter; non-zero exit; earlier
# outputs untouched. usage: cli_errors.sh /path/to/touche
set -u
touche=$1
src=${TOUCHE_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d /tmp/touche-cli-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # description, expected exit status class (nonzero), grep pattern, command...
    desc=$1 pat=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" -eq 0 ]; then echo "FAIL: $desc: exit 0"; fail=$((fail+1)); return; fi
    if ! grep -q -- "$pat" "$tmp/err"; then
        echo "FAIL: $desc: stderr lacks '$pat':"; cat "$tmp/err"; fail=$((fail+1)); return
    fi
    echo "ok: $desc"
}
export TOUCHE_NO_PROGRESS=1
check "no command" "usage" "$touche"
check "unknown command" "unknown command" "$touche" frobnicate
check "unknown experiment" "unknown experiment 'e9'" "$touche" run e9
check "bad tier" "tier must be" "$touche" run e1 --tier huge
check "bad threads" "threads must be" "$touche" run e1 --threads zero
check "unknown method filter" "no method of this experiment matches" "$touche" run e1 --methods nope --out "$tmp/o"

# a good run, then a broken script: the error names file:line:parameter and the outputs survive
mkdir -p "$tmp/src/experiments"
ln -s "$src/plots" "$tmp/src/plots"
ln -s "$src/data" "$tmp/src/data"
cp "$src/experiments/e1_sphere_profiles.cfg" "$tmp/src/experiments/"
TOUCHE_SOURCE_DIR=$tmp/src "$touche" run e1 --methods hunt-crossley --out "$tmp/o" >/dev/null 2>&1 \
    || { echo "FAIL: the reference run failed"; fail=$((fail+1)); }
before=$(cksum < "$tmp/o/e1_sphere_profiles/profile_1d.csv")
sed -i 's/big_radius   = 0.1;/big_radius   = -0.1;/' "$tmp/src/experiments/e1_sphere_profiles.cfg"
line=$(grep -n "big_radius   = -0.1" "$tmp/src/experiments/e1_sphere_profiles.cfg" | cut -d: -f1)
check "negative radius" "e1_sphere_profiles.cfg:$line: parameter 'big_radius'" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e1 --out "$tmp/o"
cp "$src/experiments/e1_sphere_profiles.cfg" "$tmp/src/experiments/"
sed -i 's/eps1_rel = 1.0;/eps1_rel = 1.0; epsilon9 = 2.0;/' "$tmp/src/experiments/e1_sphere_profiles.cfg"
check "unknown parameter" "parameter 'epsilon9': method 'scm/semi-euler' has no such parameter" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e1 --out "$tmp/o"
printf 'scene = { big_radius = ;\n' > "$tmp/src/experiments/e1_sphere_profiles.cfg"
check "malformed script" "e1_sphere_profiles.cfg:1: syntax error" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e1 --out "$tmp/o"
after=$(cksum < "$tmp/o/e1_sphere_profiles/profile_1d.csv")
if [ "$before" = "$after" ]; then echo "ok: earlier outputs untouched"; else echo "FAIL: outputs changed"; fail=$((fail+1)); fi
if ls "$tmp/o/e1_sphere_profiles" | grep -q '\.tmp\.'; then echo "FAIL: temp files left"; fail=$((fail+1)); fi
# E4: a bad number and a bad speed-study setting fail before any simulation, naming file:line
cp "$src/experiments/e4_penalty.cfg" "$tmp/src/experiments/"
sed -i 's/^  mass = 10.0;/  mass = -10.0;/' "$tmp/src/experiments/e4_penalty.cfg"
line=$(grep -n "^  mass = -10.0;" "$tmp/src/experiments/e4_penalty.cfg" | cut -d: -f1)
check "negative mass (e4)" "e4_penalty.cfg:$line: parameter 'perturbed.mass'" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e4 --out "$tmp/o"
cp "$src/experiments/e4_penalty.cfg" "$tmp/src/experiments/"
sed -i 's/^  penalty = \[.*\];/  penalty = "multi-point";/' "$tmp/src/experiments/e4_penalty.cfg"
line=$(grep -n '^  penalty = "multi-point";' "$tmp/src/experiments/e4_penalty.cfg" | cut -d: -f1)
check "speed study labels (e4)" "e4_penalty.cfg:$line: parameter 'speed.penalty'" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e4 --out "$tmp/o"
passed=$(( 13 - fail ))
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
