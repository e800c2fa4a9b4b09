# SPDX-License-Identifier: MIT
# E4 (d): steps per second against the LCP's contacts on settled piles of growing size (same run,
# one thread), one line per method.
# variables: datafile (csv blocks, one per method: bodies, touching_pairs, lcp_contacts,
# method_contacts, steps_s, over_lcp, ...), labels (methods in block order)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c); the
# script's methods in colour, any that joined on their own thin and grey behind them
# (plots/methods.gp)
set datafile separator ','
# the paper's methods in colour, the others grey behind them
load plots.'methods.gp'
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set grid
# the key right of the axes, clear of every point
set key outside right top Left reverse font ',8' samplen 3
set xlabel 'LCP contacts (count, 4 or fewer per touching pair)'
set ylabel 'steps per second (1/s, one thread)'
set title 'E4 (d): penalty vs LCP speed'
n = words(labels)
# two passes: the grey methods first, the coloured on top
plot for [p=1:2] for [k=0:n-1] datafile index k using 3:(drawn(p, k + 1) ? $5 : NaN) with linespoints lw width(k + 1) pt 7 lc rgb colour(k + 1, word(colors, k + 1)) dt int(word(dashes, k + 1)) title (drawn(p, k + 1) ? word(labels, k + 1) : '')
