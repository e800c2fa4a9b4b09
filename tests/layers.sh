#!/bin/sh
# SPDX-License-Identifier: MIT
# layers one way: a file under src/L/ (and experiments/) may include only its own layer and the
# layers listed before L (docs/architecture.md); and no file of the tree cites the design notes
# that live outside the repository (a reader could not follow it); with BUILD_DIR, the built
# objects' calls follow the same order. usage: layers.sh SOURCE_DIR [BUILD_DIR]
set -u
src=$1
build=${2:-}
order="core math geom collide dyn scenes models solvers engines fem sim report exp experiments cli"
fail=0
allowed=""
for layer in $order; do
    allowed="$allowed $layer"
    dir="$src/src/$layer"
    [ "$layer" = experiments ] && dir="$src/experiments"
    for f in $(find "$dir" -name '*.c' -o -name '*.h' | sort); do
        for inc in $(grep -ho '^#include "[a-z_]*/' "$f" | sed 's/#include "//; s/\///'); do
            case " $allowed " in
                *" $inc "*) ;;
                *) echo "FAIL: ${f#$src/} includes $inc/, a layer after $layer"; fail=$((fail+1)) ;;
            esac
        done
    done
done
# the CLI reaches experiments only through their table (no driver headers)
for f in "$src"/src/cli/*.c "$src"/src/cli/*.h; do
    if grep '^#include "experiments/' "$f" | grep -qv '"experiments/tc_experiments.h"'; then
        echo "FAIL: ${f#$src/} includes a driver header"; fail=$((fail+1))
    fi
done
[ "$fail" -eq 0 ] && echo "ok: every include follows the layer order: $order"
# calls and link dependencies one way too (an include test cannot see a call through a
# declaration written by hand): every symbol an object of layer L needs that the tree defines is
# defined in L or a layer before it (the experiments library is the layer "experiments"); so
# libtouche (core..exp) links without the experiments library and neither needs the CLI
if [ -n "$build" ]; then
    libs="$build/libtouche.a $build/libtouche_experiments.a"
    objs=$(ls "$build"/touche.p/*.o 2>/dev/null)
    for l in $libs; do
        [ -e "$l" ] || { echo "FAIL: $l is missing: build the tree first"; fail=$((fail+1)); }
    done
    if [ -e "$build/libtouche.a" ] && [ -e "$build/libtouche_experiments.a" ] && [ -n "$objs" ]; then
        bad=$(nm -A -P $libs $objs 2>/dev/null | awk -v order="$order" '
            BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) rank[o[i]] = i }
            # "lib.a[member.o]: sym T addr size" or "x.o: sym U": the source from the object name
            { obj = $1; sub(/\]?:$/, "", obj); sub(/.*[[\/]/, "", obj); sub(/\.o$/, "", obj)
              if (obj ~ /^src_/) { layer = obj; sub(/^src_/, "", layer); sub(/_.*/, "", layer)
                                   src = obj; sub(/^src_[a-z]+_/, "src/" layer "/", src) }
              else if (obj ~ /^experiments_/) { layer = "experiments"; src = obj
                                                sub(/^experiments_/, "experiments/", src) }
              else next
              if (!(layer in rank)) next
              if ($3 == "U") { need[src] = need[src] " " $2; lay[src] = layer }
              else if ($3 ~ /^[TDRBCGSVW]$/) { def[$2] = src; deflay[$2] = layer } }
            END { for (s in need) { m = split(need[s], u, " ")
                    for (i = 1; i <= m; i++) if ((u[i] in def) && rank[deflay[u[i]]] > rank[lay[s]])
                        printf "FAIL: %s (layer %s) calls %s, defined in %s (layer %s, above it)\n",
                               s, lay[s], u[i], def[u[i]], deflay[u[i]] } }' | sort -u)
        if [ -n "$bad" ]; then
            echo "$bad"; fail=$((fail+$(echo "$bad" | wc -l)))
        else
            echo "ok: every call and link dependency follows the layer order (libtouche needs neither the experiments library nor the CLI)"
        fi
    fi
fi
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
