# SPDX-License-Identifier: MIT
# E2: wall time per step (2 ms) against the number of AOPC points on the T, beside the reference.
# variables: datafile (csv: points, timed method's ms, reference's ms), labels (reference, timed
# method), colors, dashes: each method's colour and dash type, set by touche (src/report/style.c);
# ppoints, ptimed, pref (optional): the paper's columns' AOPC points and its step times there
# (ms) of the timed method and of the reference (MJX), space separated
set datafile separator ','
set logscale xy
set format x '10^{%T}'
set format y '10^{%T}'
set xlabel 'AOPC points on the T'
set ylabel 'wall time per step (µs)'
set grid
# the key below the plot: the paper's MJX line runs across its top
set key outside bottom center horizontal maxrows 2
set title 'E2: step time against AOPC points (same run)'
# the paper's step times as a datablock (empty without them): black reference marks
if (!exists('ppoints')) { ppoints = '' }
set print $paper
do for [i=1:words(ppoints)] { print sprintf('%s,%s,%s', word(ppoints, i), word(ptimed, i), word(pref, i)) }
unset print
np = words(ppoints)
plot datafile skip 1 using 1:($2*1e3) with linespoints lw 2 pt 7 lc rgb word(colors, 2) \
         dt int(word(dashes, 2)) title word(labels, 2), \
     datafile skip 1 using 1:($3*1e3) with lines lw 2 lc rgb word(colors, 1) dt int(word(dashes, 1)) \
         title word(labels, 1).' (no AOPC)', \
     for [i=1:(np > 0)] $paper using 1:($2*1e3) with points pt 12 ps 2 lw 1.5 lc rgb 'black' \
         title 'paper: '.word(labels, 2).' (GPU)', \
     for [i=1:(np > 0)] $paper using 1:($3*1e3) with lines lw 1.5 dt 2 lc rgb 'black' \
         title 'paper: MJX (GPU)'
