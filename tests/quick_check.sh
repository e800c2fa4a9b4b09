#!/bin/sh
# SPDX-License-Identifier: MIT
# every experiment at its quick tier, then the reference check (non-zero exit on a regression).
# usage: quick_check.sh /path/to/touche
set -eu
touche=$1
out=$(pwd)/quick-out
rm -rf "$out"
export TOUCHE_NO_PROGRESS=1
"$touche" run all --tier quick --out "$out"
"$touche" check --out "$out"
