#!/bin/sh
# SPDX-License-Identifier: MIT
# the project's .clang-format holds for every C file of the tree (src/, experiments/, tests/,
# examples/): applied once over the tree and kept (docs/architecture.md, Style). Comma-operator
# statements are refused by clang's -Wcomma in the clang build (meson.build, tools/fuzz.sh).
# usage: format_check.sh SOURCE_DIR
set -u
src=$1
cd "$src" || exit 1
if ! command -v clang-format >/dev/null 2>&1; then
    echo "SKIP: clang-format is not installed (sh tools/setup.sh installs it)"; exit 77
fi
files=$(git ls-files '*.c' '*.h' '*.cc' 2>/dev/null || find src experiments tests examples -name '*.[ch]' -o -name '*.cc')
fail=0
# two at a time (CI has two cores): a file's name on its own line when it is not formatted
bad=$(printf '%s\n' $files | xargs -P 2 -I{} sh -c 'clang-format --dry-run -Werror "$1" >/dev/null 2>&1 || echo "$1"' - {} | sort)
if [ -n "$bad" ]; then
    n=$(echo "$bad" | wc -l)
    echo "FAIL: $n file(s) not formatted with .clang-format (clang-format -i FILE):"
    echo "$bad" | sed 's/^/    /'
    fail=1
else
    echo "ok: every C file is formatted with .clang-format"
fi
exit $fail
