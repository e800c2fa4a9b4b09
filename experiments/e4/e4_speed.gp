# SPDX-License-Identifier: MIT
# E4 (d): steps per second against the LCP's contacts on settled piles of growing size (same run,
# one thread), one line per method.
# variables: datafile (csv blocks, one per method: bodies, touching_pairs, lcp_contacts,
# method_contacts, steps_s, over_lcp, ...), labels (methods in block order)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
set datafile separator ','
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set grid
set key left bottom
set xlabel 'LCP contacts (4 or fewer per touching pair)'
set ylabel 'steps per second'
set title 'E4 (d): penalty vs LCP speed'
n = words(labels)
plot for [k=0:n-1] datafile index k using 3:5 with linespoints lw 2 pt 7 lc rgb word(colors, k+1) dt int(word(dashes, k+1)) title word(labels, k+1)
