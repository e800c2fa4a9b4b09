# SPDX-License-Identifier: MIT
# E7 (d): CPU time per step against touching parts (log-log), one point per pile size and the
# least-squares line per method, its slope in the key (the paper: linear, slope 1).
# variables: datafile (csv blocks, one per method: bodies, touching_parts, own_contacts, step_s,
# fit_s), labels (methods in block order), slopes (each method's slope, "nan" without a fit)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c); the
# script's methods in colour, those that joined on their own grey behind them (plots/methods.gp)
# height: 9 cm
set datafile separator ','
n = words(labels)
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
# the paper's methods in colour, the others grey behind them
load plots.'methods.gp'
set grid
# the key right of the axes, clear of every point
set key outside right top Left reverse font ',8' samplen 2.5
set xlabel 'touching parts (count, mean over the measured window)'
set ylabel 'CPU time per step (s, median of the cost study)'
set title 'E7 (d): step time against contacts'
# each method's key: its slope, or why it has none
key(k) = word(slopes, k) eq 'nan' ? sprintf('%s (one pile size: no slope)', word(labels, k)) \
                                  : sprintf('%s (slope %s)', word(labels, k), word(slopes, k))
# the grey methods first, then the coloured on top: each method's fitted line, then its points
plot for [p=1:2] for [k=0:n-1] datafile index k using 2:(drawn(p, k + 1) ? $5 : NaN) with lines lw width(k + 1) lc rgb colour(k + 1, word(colors, k + 1)) dt int(word(dashes, k + 1)) notitle, \
     for [p=1:2] for [k=0:n-1] datafile index k using 2:(drawn(p, k + 1) ? $4 : NaN) with points pt 7 ps (grey(k + 1) ? 1 : 1.5) lc rgb colour(k + 1, word(colors, k + 1)) title (drawn(p, k + 1) ? key(k + 1) : '')
