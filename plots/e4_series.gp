# SPDX-License-Identifier: MIT
# E4 (a)-(c): kinetic energy (above 1e-12 J) and penetration against the step, log scale, one
# line per method.
# variables: datafile (csv blocks, one per method: step, kinetic_J, penetration_m), labels (the
# methods in block order, space separated)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
set datafile separator ','
set multiplot layout 2,1
set logscale y
set format y '10^{%L}'
set grid
set key outside right top
set xlabel 'step'
set ylabel 'kinetic energy (J)'
# below 1e-12 J a body is at rest to rounding: the axis stops there
set yrange [1e-12:*]
n = words(labels)
plot for [k=0:n-1] datafile index k using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 lc rgb word(colors, k+1) dt int(word(dashes, k+1)) title word(labels, k+1)
set ylabel 'penetration (m)'
set yrange [*:*]
plot for [k=0:n-1] datafile index k using 1:($3 > 0 ? $3 : 1/0) with lines lw 2 lc rgb word(colors, k+1) dt int(word(dashes, k+1)) title word(labels, k+1)
unset multiplot
