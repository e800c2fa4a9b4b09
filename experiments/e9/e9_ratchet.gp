# SPDX-License-Identifier: MIT
# E9 ratcheting: |net drift per cycle| of the oscillating push against the step, one line per
# method (log-log), left the symmetric load, right the one-sided one; truth 0 (drawn at the floor).
# variables: datafile (csv blocks, one per method: dt_s, symmetric_per_cycle_m,
# one_sided_per_cycle_m), labels (methods in block order); drifts below 1e-12 m drawn at 1e-12 m
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 9 cm
set datafile separator ','
n = words(labels)
fl = 1e-12
set logscale xy
set format y '10^{%L}'
set grid
set key at screen 0.995, screen 0.86 right top Left reverse font ',8' samplen 2.5
set xlabel 'step (s)' font ',8'
set ylabel '|drift per cycle| (m)' font ',8'
set yrange [fl / 2:*]
set multiplot layout 1, 2 margins screen 0.1, 0.78, 0.13, 0.85 spacing screen 0.06, 0 \
    title 'E9 ratcheting under an oscillating push below the threshold (truth: 0)' font ',10'
set title 'first load (script order)' font ',9'
plot for [k=0:n-1] datafile index k using 1:(abs($2) > fl ? abs($2) : fl) with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) title word(labels, k + 1)
set key off
unset ylabel
set title 'second load' font ',9'
plot for [k=0:n-1] datafile index k using 1:(abs($3) > fl ? abs($3) : fl) with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) notitle
unset multiplot
