# SPDX-License-Identifier: MIT
# E4 (a)-(c): kinetic energy and penetration against the step, log scale, one line per method.
# variables: datafile (csv blocks, one per method: step, kinetic_J, penetration_m), labels (the
# methods in block order, space separated)
set datafile separator ','
set multiplot layout 2,1
set logscale y
set grid
set key outside right top
set xlabel 'step'
set ylabel 'kinetic energy (J)'
n = words(labels)
plot for [k=0:n-1] datafile index k using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 lc k+1 title word(labels, k+1)
set ylabel 'penetration (m)'
plot for [k=0:n-1] datafile index k using 1:($3 > 0 ? $3 : 1/0) with lines lw 2 lc k+1 title word(labels, k+1)
unset multiplot
