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
total=0
check() { # description, grep pattern, command... (expects a non-zero exit)
    desc=$1 pat=$2; shift 2
    total=$((total+1))
    "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" -eq 0 ]; then echo "FAIL: $desc: exit 0"; fail=$((fail+1)); return; fi
    if ! grep -q -- "$pat" "$tmp/err"; then
        echo "FAIL: $desc: stderr lacks '$pat':"; cat "$tmp/err"; fail=$((fail+1)); return
    fi
    echo "ok: $desc"
}
# MuJoCo: the scripts of E1, E2 and E4 to E7 list it, so a build without it (TOUCHE_HAVE_MUJOCO=0
# from meson, docs/building.md) refuses to plan them; the checks that need such a plan are skipped
have_mujoco=${TOUCHE_HAVE_MUJOCO:-1}
check_mj() { # as check, in a build with MuJoCo
    if [ "$have_mujoco" = 1 ]; then check "$@"; else echo "skipped: $1 (this build has no MuJoCo)"; fi
}
export TOUCHE_NO_PROGRESS=1
check "no command" "usage" "$touche"
check "unknown command" "unknown command" "$touche" frobnicate
check "unknown experiment" "'e99' is neither an experiment" "$touche" run e99
check "bad tier" "tier must be" "$touche" run e1 --tier huge
check "bad threads" "run: --threads: expected a whole number in 1 .. 1024" "$touche" run e1 --threads zero
# run --threads as generate reads it: whole, in 1 .. 1024, nothing after (exit 2, a message)
for n in 99999999999 4x; do
    check "run --threads $n" "touche run: --threads: expected a whole number in 1 .. 1024 (got '$n')" \
        "$touche" run e1 --threads "$n" --out "$tmp/o"
    total=$((total+1))
    if [ "$rc" -eq 2 ]; then echo "ok: run --threads $n exits 2"; else echo "FAIL: run --threads $n: exit $rc"; fail=$((fail+1)); fi
done
check "generate --threads beyond 1024" "expected a whole number in 1 .. 1024" "$touche" generate e2 --threads 99999999999 --out "$tmp/g.csv"
sets=$(i=0; while [ $i -lt 65 ]; do printf ' --set e1.k=%d' $i; i=$((i+1)); done)
# shellcheck disable=SC2086
check "65 --set options" "at most 64 --set options" "$touche" run e1 $sets
long=$(printf 'scm,%.0s' $(seq 1 260))
check "a --methods filter over 1 kB" "--methods: at most 1023 characters" "$touche" run e1 --methods "$long"
check "--timings onto a device" "--timings '/dev/null' is not a regular file" "$touche" run e1 --timings /dev/null
[ -c /dev/null ] || { echo "FAIL: /dev/null is no longer a device"; fail=$((fail+1)); }
check_mj "unknown method filter" "no method called 'nope'. Valid are the labels" "$touche" run e1 --methods nope --out "$tmp/o"
check_mj "a typo lists the valid names" "scm-medium" "$touche" run e1 --methods scm-mediun --out "$tmp/o"
check_mj "--set unknown parameter" "has no such parameter (it has: k, spacing" "$touche" run e1 --set scm-medium.epsilon2=0.003 --out "$tmp/o"
check_mj "--set out of range" "must lie in" "$touche" run e1 --set scm-medium.eps2=-1 --out "$tmp/o"
check "--set not a number" "must be a finite number" "$touche" run e1 --set scm-medium.eps2=nan --out "$tmp/o"
check_mj "--set unknown method" "no method labelled or named 'scm-huge'" "$touche" run e1 --set scm-huge.eps2=0.1 --out "$tmp/o"
check "--set malformed" "LABEL.PARAMETER=VALUE" "$touche" run e1 --set eps2=0.1 --out "$tmp/o"
label80=$(printf 'x%.0s' $(seq 1 80))
check "--set label too long" "the label is longer than 79 characters" "$touche" run e1 --set "$label80.k=1" --out "$tmp/o"
check "history: no file" "cannot read the history file" "$touche" history --file "$tmp/nope.tsv" --out "$tmp/o"
check "bench piles: bad sizes" "bench piles: --bodies" "$touche" bench piles --bodies 0,-1 --out "$tmp/o"
check "bench piles: junk sizes" "bench piles: --bodies" "$touche" bench piles --bodies 30,abc --out "$tmp/o"
check "bench piles: bad steps" "bench piles: --steps: expected a whole number" "$touche" bench piles --steps 5x --out "$tmp/o"
check "bench piles: no budget" "bench piles: --budget: expected a number" "$touche" bench piles --budget 0 --out "$tmp/o"
# every benchmark's lists and numbers: whole, in range, nothing else (exit 2, nothing written)
check "bench scm: bad points" "bench scm: --points: expected" "$touche" bench scm --points 0,-5,abc --out "$tmp/o"
check "bench pfc: bad levels" "bench pfc: --levels: expected" "$touche" bench pfc --levels 9,x --out "$tmp/o"
check "bench pfc: bad shells" "bench pfc: --shells: expected" "$touche" bench pfc --shells -1 --out "$tmp/o"
check "bench points: bad bodies" "bench points: --bodies: expected" "$touche" bench points --bodies 0,-1 --out "$tmp/o"
check "bench scm: bad seconds" "bench scm: --seconds: expected" "$touche" bench scm --seconds -1 --out "$tmp/o"
check "bench penalty: bad bodies" "bench penalty: --bodies: expected" "$touche" bench penalty --bodies 5,x --out "$tmp/o"
check "bench penalty: bad steps" "bench penalty: --steps: expected" "$touche" bench penalty --steps 0 --out "$tmp/o"
check "bench penalty: bad tier" "bench penalty: --tier must be quick or full" "$touche" bench penalty --tier medium --out "$tmp/o"
check "bench e2: bad seconds" "bench e2: --seconds: expected" "$touche" bench e2 --seconds abc --out "$tmp/o"
check "bench contact-ip: bad rate" "bench contact-ip: --rate: expected" "$touche" bench contact-ip --rate nan --out "$tmp/o"
check "bench piles: empty size" "bench piles: --bodies: expected" "$touche" bench piles --bodies 30,,40 --out "$tmp/o"
# the harness: an option a benchmark lacks, a missing value, an unknown benchmark (exit 2 each)
check "bench penalty: no --seconds" "bench penalty: unknown option '--seconds'" "$touche" bench penalty --seconds 1 --out "$tmp/o"
check "bench e2: --out without a value" "bench e2: --out needs a value" "$touche" bench e2 --out
check "bench: an unknown benchmark" "unknown benchmark 'nope'" "$touche" bench nope --out "$tmp/o"
for args in "penalty --seconds 1" "e2 --out" "nope"; do
    # shellcheck disable=SC2086
    "$touche" bench $args >/dev/null 2>&1; rc=$?
    total=$((total+1))
    if [ "$rc" -eq 2 ]; then echo "ok: bench $args exits 2"; else echo "FAIL: bench $args exited $rc"; fail=$((fail+1)); fi
done
# --help: every benchmark listed, each one's options with their defaults, exit 0
total=$((total+1))
if "$touche" bench --help >"$tmp/out" 2>&1 && grep -q "^  piles " "$tmp/out" && grep -q "^  scm " "$tmp/out" &&
   "$touche" bench piles --help >"$tmp/out" 2>&1 && grep -q "usage: touche bench piles" "$tmp/out" &&
   grep -q -- "--steps.*(default 20)" "$tmp/out"; then
    echo "ok: bench --help and bench piles --help"
else
    echo "FAIL: bench --help"; cat "$tmp/out"; fail=$((fail+1))
fi
if [ -e "$tmp/o" ]; then echo "FAIL: bad command lines wrote outputs"; fail=$((fail+1)); fi
total=$((total+1))
# touche list NAME: one experiment with the methods it runs (and their parameters), or one
# method part; a name of nothing is an error listing what exists (exit 2)
check "list: an unknown name" "'nope' is not an experiment.*these exist" "$touche" list nope
check "list: the names that exist" "experiments: e1_sphere_profiles.*e7_frictional" "$touche" list nope
check "list: a bad tier" "tier must be quick or full" "$touche" list e1 --tier huge
"$touche" list nope >/dev/null 2>&1; rc=$?
total=$((total+1))
if [ "$rc" -eq 2 ]; then echo "ok: list: an unknown name exits 2"; else echo "FAIL: list nope: exit $rc"; fail=$((fail+1)); fi
all=$("$touche" list | wc -l)
total=$((total+1))
if [ "$have_mujoco" != 1 ]; then
    echo "skipped: list e1 (this build has no MuJoCo)"; total=$((total-1))
elif "$touche" list e1 >"$tmp/list" 2>"$tmp/err" && grep -q "^  e1_sphere_profiles " "$tmp/list" &&
   grep -q "^  scm-medium .*scm/semi-euler .*e1_sphere_profiles.cfg:[0-9]" "$tmp/list" &&
   grep -q "eps2=0.002 m" "$tmp/list" && ! grep -q "e4_penalty\|^  rk4 " "$tmp/list" &&
   [ "$(wc -l < "$tmp/list")" -lt "$all" ]; then
    echo "ok: list e1: E1 and its methods with parameters ($(wc -l < "$tmp/list") of $all lines)"
else echo "FAIL: list e1 (exit $?):"; head -20 "$tmp/list"; cat "$tmp/err"; fail=$((fail+1)); fi
total=$((total+1))
if "$touche" list rk4 >"$tmp/list" 2>&1 && grep -q "^  rk4 " "$tmp/list" && [ "$(wc -l < "$tmp/list")" -lt 10 ] &&
   { [ "$have_mujoco" != 1 ] || "$touche" list mujoco | grep -q "solref_timeconst"; } &&
   "$touche" list scm/rk4 | grep -q "^  rk4 "; then
    echo "ok: list rk4, mujoco, scm/rk4: that one"
else echo "FAIL: list rk4:"; head "$tmp/list"; fail=$((fail+1)); fi
# touche report on a mistyped or empty output root: an error naming it, exit 2, nothing written
mkdir "$tmp/empty"
check "report: no such output root" "--out '$tmp/typo': no such directory" "$touche" report --out "$tmp/typo"
check "report: an empty output root" "--out '$tmp/empty' holds no experiment outputs" "$touche" report --out "$tmp/empty"
"$touche" report --out "$tmp/empty" >/dev/null 2>&1; rc=$?
total=$((total+1))
if [ "$rc" -eq 2 ] && [ ! -e "$tmp/typo" ] && [ -z "$(ls -A "$tmp/empty")" ]; then
    echo "ok: report: exit 2, nothing written"
else echo "FAIL: report on an empty root: exit $rc, wrote: $(ls -A "$tmp/empty")"; fail=$((fail+1)); fi

# a good run, then a broken script: the error names file:line:parameter and the outputs survive
mkdir -p "$tmp/src"
cp -r "$src/experiments" "$tmp/src/experiments"
ln -s "$src/plots" "$tmp/src/plots"
ln -s "$src/data" "$tmp/src/data"
ln -s "$src/paper" "$tmp/src/paper"
cp "$src/experiments/e1/e1_sphere_profiles.cfg" "$tmp/src/experiments/e1/"
if [ "$have_mujoco" = 1 ]; then
    TOUCHE_SOURCE_DIR=$tmp/src "$touche" run e1 --methods hunt-crossley --out "$tmp/o" >/dev/null 2>&1 \
        || { echo "FAIL: the reference run failed"; fail=$((fail+1)); }
fi
before=$(cksum < "$tmp/o/e1_sphere_profiles/profile_1d.csv" 2>/dev/null)
sed -i 's/big_radius   = 0.1;/big_radius   = -0.1;/' "$tmp/src/experiments/e1/e1_sphere_profiles.cfg"
line=$(grep -n "big_radius   = -0.1" "$tmp/src/experiments/e1/e1_sphere_profiles.cfg" | cut -d: -f1)
check "negative radius" "e1_sphere_profiles.cfg:$line: parameter 'big_radius'" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e1 --out "$tmp/o"
cp "$src/experiments/e1/e1_sphere_profiles.cfg" "$tmp/src/experiments/e1/"
sed -i 's/eps1_rel = 1.0;/eps1_rel = 1.0; epsilon9 = 2.0;/' "$tmp/src/experiments/e1/e1_sphere_profiles.cfg"
check "unknown parameter" "parameter 'epsilon9': method 'scm/semi-euler' has no such parameter" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e1 --out "$tmp/o"
printf 'scene = { big_radius = ;\n' > "$tmp/src/experiments/e1/e1_sphere_profiles.cfg"
check "malformed script" "e1_sphere_profiles.cfg:1: syntax error" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e1 --out "$tmp/o"
after=$(cksum < "$tmp/o/e1_sphere_profiles/profile_1d.csv" 2>/dev/null)
if [ "$have_mujoco" != 1 ]; then echo "skipped: earlier outputs untouched (no earlier run: this build has no MuJoCo)"
elif [ "$before" = "$after" ]; then echo "ok: earlier outputs untouched"; else echo "FAIL: outputs changed"; fail=$((fail+1)); fi
if ls "$tmp/o/e1_sphere_profiles" 2>/dev/null | grep -q '\.tmp\.'; then echo "FAIL: temp files left"; fail=$((fail+1)); fi
# E4: a bad number and a bad speed-study setting fail before any simulation, naming file:line
cp "$src/experiments/e4/e4_penalty.cfg" "$tmp/src/experiments/e4/"
sed -i 's/^  mass = 10.0;/  mass = -10.0;/' "$tmp/src/experiments/e4/e4_penalty.cfg"
line=$(grep -n "^  mass = -10.0;" "$tmp/src/experiments/e4/e4_penalty.cfg" | cut -d: -f1)
check "negative mass (e4)" "e4_penalty.cfg:$line: parameter 'perturbed.mass'" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e4 --out "$tmp/o"
cp "$src/experiments/e4/e4_penalty.cfg" "$tmp/src/experiments/e4/"
sed -i 's/^  methods = \[.*\];/  methods = "multi-point";/' "$tmp/src/experiments/e4/e4_penalty.cfg"
line=$(grep -n '^  methods = "multi-point";' "$tmp/src/experiments/e4/e4_penalty.cfg" | cut -d: -f1)
check "speed study labels (e4)" "e4_penalty.cfg:$line: parameter 'speed.methods'" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e4 --out "$tmp/o"
# a run whose estimated work is above the limits is refused before anything is written (the
# estimate grows with every registered engine: 1e+10, 1.1e+10, ...)
cp "$src/experiments/e4/e4_penalty.cfg" "$tmp/src/experiments/e4/"
sed -i 's/^  dt       = 0.001;/  dt = 1e-6;/; s/pile = { bodies = 8; seconds = 1.5; };/pile = { bodies = 8; seconds = 1000; };/' "$tmp/src/experiments/e4/e4_penalty.cfg"
check_mj "work above the limits (e4)" "e4_penalty: about 1[.0-9]*e+10 steps.*above the limit.*pass --force" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e4 --out "$tmp/o-big"
if [ -e "$tmp/o-big" ]; then echo "FAIL: a refused run wrote outputs"; fail=$((fail+1)); fi
# an output directory that cannot take files stops the run before any work
echo keep > "$tmp/not-a-dir"
check_mj "output root not writable" "cannot create directory .*not-a-dir" "$touche" run e3 e5 --out "$tmp/not-a-dir"
[ "$(cat "$tmp/not-a-dir")" = keep ] || { echo "FAIL: the file in the way was changed"; fail=$((fail+1)); }
# a misspelt label in a driver's setting fails at planning instead of skipping a study
cp "$src/experiments/e5/e5_polytopes.cfg" "$tmp/src/experiments/e5/"
sed -i 's/^tolerance_methods = \["single-level"/tolerance_methods = ["single-levl"/' "$tmp/src/experiments/e5/e5_polytopes.cfg"
line=$(grep -n '^tolerance_methods = \["single-levl"' "$tmp/src/experiments/e5/e5_polytopes.cfg" | cut -d: -f1)
check_mj "misspelt label (e5)" "e5_polytopes.cfg:$line: parameter 'tolerance_methods': 'single-levl' names no method" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e5 --out "$tmp/o"
# a group no driver reads
cp "$src/experiments/e6/e6_stacking.cfg" "$tmp/src/experiments/e6/"
echo 'stakcs = { count = 3; };' >> "$tmp/src/experiments/e6/e6_stacking.cfg"
line=$(grep -n '^stakcs' "$tmp/src/experiments/e6/e6_stacking.cfg" | cut -d: -f1)
check_mj "unknown group (e6)" "e6_stacking.cfg:$line: parameter 'stakcs': unknown setting" \
    env TOUCHE_SOURCE_DIR="$tmp/src" "$touche" run e6 --out "$tmp/o"
# E2's trajectory file: a broken one names its line and column; fewer trajectories than rollouts
mkdir -p "$tmp/mine"
sed "s#\"data/e2_trajectories.csv\"#\"$tmp/mine/traj.csv\"#" "$src/experiments/e2/e2_t_pushing.cfg" > "$tmp/mine/e2_mine.cfg"
sed 's/^0,0.400000,/0,nan,/' "$src/data/e2_trajectories.csv" > "$tmp/mine/traj.csv"
line=$(grep -n '^0,nan,' "$tmp/mine/traj.csv" | cut -d: -f1)
check "trajectory with a NaN time (e2)" "traj.csv:$line: column 't_s': 'nan' is not finite" \
    "$touche" run "$tmp/mine/e2_mine.cfg" --out "$tmp/o"
awk -F, '/^#/ || /^traj/ || $1 < 1' "$src/data/e2_trajectories.csv" > "$tmp/mine/traj.csv"
check "fewer trajectories than rollouts (e2)" "parameter 'rollouts': [0-9]* rollouts, but .* holds 1 trajectories" \
    "$touche" run "$tmp/mine/e2_mine.cfg" --out "$tmp/o"

# a script of one's own, outside the tree: it names its driver and runs like a built-in one
sed 's/^  n1d = 201;/  n1d = 21;/; s/^  n2d = 41;/  n2d = 5;/' "$src/experiments/e1/e1_sphere_profiles.cfg" > "$tmp/mine/my_spheres.cfg"
if [ "$have_mujoco" = 1 ]; then
total=$((total+1))
if "$touche" run "$tmp/mine/my_spheres.cfg" --methods hunt-crossley,mujoco --out "$tmp/o2" >"$tmp/out" 2>"$tmp/err" &&
   [ -s "$tmp/o2/my_spheres/profile_1d.csv" ] && [ -s "$tmp/o2/my_spheres/runs.csv" ] &&
   grep -q "<!-- my_spheres -->" "$tmp/o2/report.md"; then
    echo "ok: a script outside the tree runs (outputs in my_spheres/, in the report)"
else
    echo "FAIL: a script outside the tree"; cat "$tmp/err"; fail=$((fail+1))
fi
# the PDF takes each section from its own folder only: an older run's section.tex in a subfolder
# does not stand in for an experiment that did not run (issue 33, finding 7)
if command -v pdflatex >/dev/null && command -v pdftotext >/dev/null; then
    mkdir -p "$tmp/o2/old-run/e2_t_pushing"
    printf '\\section{STALEMARKER}\nold text\n' > "$tmp/o2/old-run/e2_t_pushing/section.tex"
    "$touche" report --out "$tmp/o2" >/dev/null 2>&1
    if pdftotext "$tmp/o2/paper/touche.pdf" - 2>/dev/null | grep -q STALEMARKER; then
        echo "FAIL: the PDF printed a stale section from a subfolder"; fail=$((fail+1))
    else
        echo "ok: the PDF takes no section from a subfolder of the output root"
    fi
    total=$((total+1))
fi
else
    echo "skipped: a script outside the tree, the PDF's sections (this build has no MuJoCo)"
fi
sed -i 's/^driver = .*$/driver = "e9_nothing";/' "$tmp/mine/my_spheres.cfg"
check "a script naming an unknown driver" "driver 'e9_nothing' is not a registered experiment" \
    "$touche" run "$tmp/mine/my_spheres.cfg" --out "$tmp/o2"
sed -i '/^driver = .*$/d' "$tmp/mine/my_spheres.cfg"
check "a script without a driver" "must name the experiment driver" \
    "$touche" run "$tmp/mine/my_spheres.cfg" --out "$tmp/o2"
# an integrator's name becomes part of metric names and CSV rows: a label's characters, once
# (issue 33, finding 10)
cp "$src/experiments/e2/e2_t_pushing.cfg" "$tmp/mine/e2_integ.cfg"
sed -i 's/{ name = "RK4";/{ name = "RK4,evil";/' "$tmp/mine/e2_integ.cfg"
check "an integrator named with a comma" "parameter 'name': integrator 'RK4,evil' may hold only" \
    "$touche" run "$tmp/mine/e2_integ.cfg" --out "$tmp/o2"
cp "$src/experiments/e2/e2_t_pushing.cfg" "$tmp/mine/e2_integ.cfg"
sed -i 's/{ name = "Euler";/{ name = "RK4";/' "$tmp/mine/e2_integ.cfg"
check "an integrator named twice" "integrator 'RK4' is named twice" \
    "$touche" run "$tmp/mine/e2_integ.cfg" --out "$tmp/o2"
# a rate that gives no step in the run's time (issue 33, finding 13: a zero-step run was "ok")
cp "$src/experiments/e5/e5_polytopes.cfg" "$tmp/mine/e5_rate.cfg"
sed -i 's/^rates = \[10.0,/rates = [1e-300,/' "$tmp/mine/e5_rate.cfg"
check "a rate of no step" "parameter 'rates': entry 1 (1e-300 Hz) gives no step" \
    "$touche" run "$tmp/mine/e5_rate.cfg" --tier full --out "$tmp/o2"
# a script's name is its output folder's: paper/ is the PDF's, and two scripts of one name would
# share one folder (issue 33, finding 6)
mkdir -p "$tmp/mine2"
cp "$src/experiments/e3/e3_sinusoid.cfg" "$tmp/mine/paper.cfg"
check "a script called paper.cfg" "may not be called paper.cfg" "$touche" run "$tmp/mine/paper.cfg" --out "$tmp/o2"
cp "$src/experiments/e3/e3_sinusoid.cfg" "$tmp/mine/twin.cfg"
cp "$src/experiments/e3/e3_sinusoid.cfg" "$tmp/mine2/twin.cfg"
check "two scripts of one name" "would both write to the folder twin/" \
    "$touche" run "$tmp/mine/twin.cfg" "$tmp/mine2/twin.cfg" --out "$tmp/o2"
cp "$src/experiments/e1/e1_sphere_profiles.cfg" "$tmp/mine/no_tier.cfg"
check "a script without the tier" "no tier 'full' in this script (it has: quick, fast)" \
    sh -c "sed -i 's/^  full = {/  fast = {/' '$tmp/mine/no_tier.cfg' && '$touche' run '$tmp/mine/no_tier.cfg' --tier full --out '$tmp/o2'"

# exit status 2 (nothing ran) for bad input
"$touche" run e1 --methods nope --out "$tmp/o3" >/dev/null 2>&1; rc=$?
total=$((total+1))
if [ "$rc" -eq 2 ]; then echo "ok: bad input exits 2"; else echo "FAIL: bad input exited $rc"; fail=$((fail+1)); fi
# failed runs: every output still written, a summary with the reasons, exit status 3
"$touche" run e2 --methods scm --set scm.k=2e9 --out "$tmp/o4" >"$tmp/out" 2>"$tmp/err"; rc=$?
total=$((total+1))
if [ "$have_mujoco" != 1 ]; then
    echo "skipped: failed runs (this build has no MuJoCo)"; total=$((total-1))
elif [ "$rc" -eq 3 ] && grep -q "runs FAILED" "$tmp/err" && grep -q "diverged" "$tmp/err" &&
   grep -q ",failed," "$tmp/o4/e2_t_pushing/runs.csv" && grep -q "Failed runs" "$tmp/o4/e2_t_pushing/section.md" &&
   [ -s "$tmp/o4/e2_t_pushing/metrics.cfg" ] && grep -q "scm.k=2e9\|k=2e+09" "$tmp/o4/e2_t_pushing/section.md"; then
    echo "ok: failed runs: exit 3, the summary, runs.csv and the section say why; outputs written"
else
    echo "FAIL: failed runs (exit $rc)"; tail -5 "$tmp/err"; fail=$((fail+1))
fi
# bench all: bad options exit 2 naming the option, nothing written
for args in "--seconds abc" "--seconds 0" "--threads 0" "--methods nope" "--scenes e99" "--bogus"; do
    opt=${args%% *}
    check "bench all: $args" "bench all: .*$opt\|bench all: unknown option '$opt'" "$touche" bench all $args --out "$tmp/ba"
    "$touche" bench all $args --out "$tmp/ba" >/dev/null 2>&1; rc=$?
    total=$((total+1))
    if [ "$rc" -eq 2 ] && [ ! -e "$tmp/ba" ]; then echo "ok: bench all: $args exits 2, writes nothing"
    else echo "FAIL: bench all: $args exited $rc"; fail=$((fail+1)); fi
done
echo "$((total - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
