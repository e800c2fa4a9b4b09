#!/bin/sh
# SPDX-License-Identifier: MIT
# the paper: every experiment at the full tier into <build>/tests/paper-out, the reference check
# of what has references, and the PDF report (paper-out/paper/touche.pdf). Not in the default
# test run or CI (about half an hour on 2 cores): `meson test -C build --setup paper --suite paper`.
# usage: paper.sh /path/to/touche
set -eu
touche=$1
out=$(pwd)/paper-out
"$touche" run all --tier full --out "$out"
# references exist for the quick tier only: a full-tier check has nothing to compare, so none
pages=$(pdfinfo "$out/paper/touche.pdf" 2>/dev/null | awk '/^Pages:/ {print $2}')
[ "${pages:-0}" -ge 7 ] || { echo "the PDF report has ${pages:-no} pages"; exit 1; }
echo "paper: $out/paper/touche.pdf ($pages pages), report $out/report.md"
