#!/bin/sh
# SPDX-License-Identifier: MIT
# layers one way: a file under src/L/ (and experiments/) may include only its own layer and the
# layers listed before L (docs/architecture.md); and no file of the tree cites the design notes
# that live outside the repository (a reader could not follow it). usage: layers.sh SOURCE_DIR
set -u
src=$1
order="core math geom collide dyn scenes models solvers engines fem sim report exp cli"
fail=0
allowed=""
for layer in $order; do
    allowed="$allowed $layer"
    for f in "$src/src/$layer"/*.c "$src/src/$layer"/*.h; do
        [ -e "$f" ] || continue
        for inc in $(grep -ho '^#include "[a-z_]*/' "$f" | sed 's/#include "//; s/\///'); do
            case " $allowed " in
                *" $inc "*) ;;
                *) echo "FAIL: ${f#$src/} includes $inc/, a layer after $layer"; fail=$((fail+1)) ;;
            esac
        done
    done
done
# drivers use the runner and the layers below it, never the CLI
for f in "$src"/experiments/*.c "$src"/experiments/*.h; do
    if grep -q '^#include "cli/' "$f"; then echo "FAIL: ${f#$src/} includes cli/"; fail=$((fail+1)); fi
done
# the CLI reaches experiments only through the registry (no driver headers)
for f in "$src"/src/cli/*.c "$src"/src/cli/*.h; do
    if grep -q '^#include "experiments/' "$f"; then echo "FAIL: ${f#$src/} includes a driver header"; fail=$((fail+1)); fi
done
[ "$fail" -eq 0 ] && echo "ok: every include follows the layer order: $order"
# no file cites the design notes kept outside the repository: docs/ restates what each place needs
# the tracked files; without git metadata (a release tarball) every file but the build trees
notes='\b(MODELS|EXPERIMENTS|DESIGN)\.md|papers/[a-z0-9_]+\.txt'
cites=$(cd "$src" && {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then git ls-files -z
    else find . -path ./.git -prune -o -path './build*' -prune -o -type f -print0; fi
} | xargs -0 grep -nsIE "$notes" --)
if [ -n "$cites" ]; then
    echo "$cites" | sed 's|^\./||' | while IFS= read -r l; do
        echo "FAIL: ${l%%:*}:$(echo "$l" | cut -d: -f2) cites a design note outside the repository;" \
             "cite the docs/ page that restates it"
    done
    fail=$((fail+1))
else
    echo "ok: no file cites the design notes outside the repository"
fi
[ "$fail" -eq 0 ]
