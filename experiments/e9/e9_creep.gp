# SPDX-License-Identifier: MIT
# E9 creep: drift against the load's ratio to the threshold, one line per method, log y; left the
# incline (tan theta / mu), right the push (F / mu m g); truth 0 (drawn at the floor).
# variables: datafile (csv blocks, one per method: load_ratio, incline_drift_m, push_ratio,
# push_drift_m), labels (methods in block order), step (the step, words)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 9 cm
set datafile separator ','
n = words(labels)
fl = 1e-12
set logscale y
set format y '10^{%L}'
set grid
set key at screen 0.995, screen 0.86 right top Left reverse font ',8' samplen 2.5
set xlabel 'load / threshold' font ',8'
set ylabel sprintf('drift after settling (m), step %s', step) font ',8'
set xrange [0.45:1.02]
set yrange [fl / 2:*]
set multiplot layout 1, 2 margins screen 0.1, 0.78, 0.13, 0.85 spacing screen 0.06, 0 \
    title 'E9 creep below the Coulomb threshold (truth: no drift)' font ',10'
set title 'incline (gravity tilted)' font ',9'
plot for [k=0:n-1] datafile index k using 1:($2 > fl ? $2 : fl) with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) title word(labels, k + 1)
set key off
unset ylabel
set title 'push on the flat plane' font ',9'
plot for [k=0:n-1] datafile index k using 3:($4 > fl ? $4 : fl) with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) notitle
unset multiplot
