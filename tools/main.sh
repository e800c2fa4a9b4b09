#!/bin/sh
# SPDX-License-Identifier: MIT
# the main job: set up, build, run every experiment (tier: $TIER, default quick), check the
# metrics against data/reference/, and write tables, figures and the report under $OUT (./out).
set -eu
cd "$(dirname "$0")/.."
sh tools/setup.sh
out=${OUT:-out}
./build/touche run all --tier "${TIER:-quick}" --out "$out"
./build/touche check --out "$out" || echo "main: the reference check reported differences (see above)"
echo "main: done: report in $out/report.md, per-experiment outputs in $out/<experiment>/"
