#!/bin/sh
# SPDX-License-Identifier: MIT
# layers one way: a file under src/L/ (and experiments/) may include only its own layer and the
# layers listed before L (docs/architecture.md). usage: layers.sh SOURCE_DIR
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
[ "$fail" -eq 0 ]
