#!/bin/sh
# SPDX-License-Identifier: MIT
# the report as a reader gets it, after a run of every experiment (quick_check.sh calls this):
# the PDF set without a float too large for its page or a line more than 10 pt too wide; the
# setup chapter naming the version of every library the build links; and the deviations list
# holding every documented choice of the scripts (docs/report.md).
# usage: print_check.sh OUT_DIR SOURCE_DIR BUILD_DIR
set -eu
out=$1
src=$2
build=$3
fail=0

# the LaTeX log of the PDF's build
log=$out/paper/touche.log
[ -f "$log" ] || { echo "no LaTeX log $log"; exit 1; }
# a log that does not end with the PDF written is not the whole log (it once came back garbled)
grep -q '^Output written on' "$log" || { echo "LaTeX log $log does not say the PDF was written"; exit 1; }
floats=$(grep -c 'Float too large' "$log" || true)
[ "$floats" -eq 0 ] || { echo "LaTeX: $floats floats too large for the page"; fail=1; }
wide=$(grep -o 'Overfull \\[hv]box ([0-9.]*pt' "$log" | sed 's/.*(//; s/pt//' |
    awk '$1 > 10 {n++} END {print n + 0}')
worst=$(grep -o 'Overfull \\[hv]box ([0-9.]*pt' "$log" | sed 's/.*(//; s/pt//' | sort -g | tail -1)
[ "$wide" -eq 0 ] || { echo "LaTeX: $wide overfull boxes over 10 pt (worst ${worst}pt):"
    awk '/Overfull \\[hv]box/ { v = $0; sub(/.*\(/, "", v); sub(/pt.*/, "", v)
        if (v + 0 > 10) { print; getline; print } }' "$log" | head -20; fail=1; }
echo "LaTeX log: $floats floats too large, $wide overfull boxes over 10 pt (worst ${worst:-0}pt)"
# every table's text as printed (table.c writes it to the log): never below 7 pt
small=$(sed -n 's/^touche table \(.*\) printed at \([0-9.]*\)pt$/\2 \1/p' "$log" | sort -g | head -1)
tables=$(grep -c '^touche table .* printed at' "$log" || true)
[ "$tables" -gt 0 ] || { echo "LaTeX log: no table's printed size (table.c writes one per table)"; fail=1; }
case ${small:-7} in
    [0-6].*|[0-6]) echo "a table printed below 7 pt: $small"; fail=1 ;;
esac
echo "tables: $tables, the smallest printed at ${small%% *} pt (${small#* })"

# every dependency the build found with a version (the test framework aside) in the setup chapter
libs=$(meson introspect --dependencies "$build" | python3 -c '
import json, sys
for d in json.load(sys.stdin):
    if d.get("version") not in (None, "unknown") and d["name"] != "criterion":
        print(d["name"], d["version"])')
n=0
for pair in $(echo "$libs" | tr ' ' '='); do
    name=${pair%%=*}
    version=${pair#*=}
    n=$((n + 1))
    grep -q "^| library $name | $version |" "$out/report.md" ||
        { echo "setup chapter: no row 'library $name | $version'"; fail=1; }
done
# and the libraries linked without pkg-config (ldd names them)
for lib in mujoco siconos; do
    if ldd "$build/touche" | grep -qi "lib$lib"; then
        n=$((n + 1))
        grep -qi "^| library $lib" "$out/report.md" || { echo "setup chapter: no row for $lib"; fail=1; }
    fi
done
echo "setup chapter: $n library versions named"
# the stiffness each method was given, grouped per experiment: a line per experiment that has
# methods with a stiffness, no label in two groups of one line
st=$(sed -n '/^Stiffness per experiment/,/^###/p' "$out/report.md" | grep '^- \*\*' || true)
[ -n "$st" ] || { echo "setup chapter: no stiffness groups"; fail=1; }
dup=$(echo "$st" | while read -r line; do
    echo "$line" | sed 's/^- \*\*[^*]*\*\*: //; s/ ([^)]*)//g' | tr ';,' '\n\n' | sed 's/^ *//' |
        grep . | sort | uniq -d
done)
[ -z "$dup" ] || { echo "setup chapter: a label in two stiffness groups: $dup"; fail=1; }
echo "stiffness groups: $(echo "$st" | grep -c .) experiments"

# every script line that documents a choice, found in the deviations list (a sentence that quotes
# "choice" states the convention and is not one)
dev=$(mktemp)
trap 'rm -f "$dev"' EXIT
sed -n '/^### Deviations from the papers/,/documented choices in all/p' "$out/report.md" |
    tr -s ' ' > "$dev"
count=0
for cfg in "$src"/experiments/*/e*.cfg; do
    grep -n -i -E 'choices?([^a-z]|$)' "$cfg" | grep -v '"choice"' | while IFS= read -r hit; do
        text=$(printf '%s\n' "$hit" | sed 's/^[0-9]*://; s/^[^#]*#[ ]*//' | tr -s ' ')
        grep -qF -- "$text" "$dev" ||
            { echo "deviations list lacks ${cfg##*/}:${hit%%:*}: $text"; echo x >> "$dev.miss"; }
    done
    count=$((count + $(grep -c -i -E 'choices?([^a-z]|$)' "$cfg" | tr -d ' ') -
        $(grep -i -E 'choices?([^a-z]|$)' "$cfg" | grep -c '"choice"' || true)))
done
listed=$(sed -n 's/^\([0-9]*\) documented choices in all.*/\1/p' "$out/report.md")
if [ -f "$dev.miss" ]; then
    echo "deviations: $(wc -l < "$dev.miss") of $count script lines marked choice missing from the list"
    rm -f "$dev.miss"
    fail=1
else
    echo "deviations: $count script lines marked choice, all in the list of ${listed:-0} choices"
fi
exit $fail
