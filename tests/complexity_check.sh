#!/bin/sh
# SPDX-License-Identifier: MIT
# the upper half stays readable (docs/architecture.md, Style): no function of src/exp, src/cli,
# src/report or experiments/ over 100 lines or with a cyclomatic complexity over 25 (pmccabe's
# McCabe count, every case of a switch a branch). usage: complexity_check.sh SOURCE_DIR
set -u
src=$1
cd "$src" || exit 1
if ! command -v pmccabe >/dev/null 2>&1; then
    echo "SKIP: pmccabe is not installed (sh tools/setup.sh installs it)"; exit 77
fi
files=$(git ls-files 'src/exp/*.c' 'src/cli/*.c' 'src/report/*.c' 'experiments/*.c' 2>/dev/null ||
        find src/exp src/cli src/report experiments -name '*.c')
# pmccabe's columns: modified McCabe, McCabe, statements, first line, lines, file(line): name
bad=$(pmccabe $files 2>/dev/null | awk '$2 > 25 || $5 > 100 {
    printf "    %s: complexity %d, %d lines\n", $6 " " $7, $2, $5 }')
n=$(printf '%s\n' $files | wc -l)
if [ -n "$bad" ]; then
    echo "FAIL: functions over complexity 25 or 100 lines (split them along their steps):"
    echo "$bad"
    exit 1
fi
echo "ok: no function over complexity 25 or 100 lines in $n files of the upper half"
