# SPDX-License-Identifier: MIT
# E2: wall time per step (2 ms) against the number of AOPC points on the T, beside the reference.
# variables: datafile (csv: points, timed method's ms, reference's ms), labels (reference, timed
# method), colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
set datafile separator ','
set logscale xy
set format x '10^{%T}'
set format y '10^{%T}'
set xlabel 'AOPC points on the T'
set ylabel 'wall time per step (µs)'
set grid
set key left top
set title 'E2: step time against AOPC points (same run)'
plot datafile skip 1 using 1:($2*1e3) with linespoints lw 2 pt 7 lc rgb word(colors, 2) \
         dt int(word(dashes, 2)) title word(labels, 2), \
     datafile skip 1 using 1:($3*1e3) with lines lw 2 lc rgb word(colors, 1) dt int(word(dashes, 1)) \
         title word(labels, 1).' (no AOPC)'
