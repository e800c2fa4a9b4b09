# SPDX-License-Identifier: MIT
# E9 onset: |onset error| of the ramped push against the step, one line per method (log-log);
# dashed black: an exact Coulomb box's lag behind mu m g at the speed threshold.
# variables: datafile (csv blocks, one per method: dt_s, onset_error), labels (methods in block
# order), lag (the exact lag, fraction; errors below 1e-4 drawn at 1e-4)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 9 cm
set datafile separator ','
n = words(labels)
L = real(lag)
set logscale xy
set format y '10^{%L}'
set grid
set key outside right top Left reverse font ',8' samplen 2.5
set xlabel 'step (s)' font ',8'
set ylabel '|onset force - mu m g| / mu m g' font ',8'
set title 'E9 onset of sliding under a slow ramp (truth: mu m g)' font ',10'
set yrange [1e-4:2]
plot for [k=0:n-1] datafile index k using 1:(abs($2) > 1e-4 ? abs($2) : 1e-4) with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) title word(labels, k + 1), \
     L with lines lw 1.5 lc rgb 'black' dt 2 title 'exact lag'
