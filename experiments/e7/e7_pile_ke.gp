# SPDX-License-Identifier: MIT
# E7 (d): kinetic energy of the piles against time, one panel per pile size, one line per
# method (log scale).
# variables: datafile (csv blocks, size by size, one per method: t_s, kinetic_J, energy_J, ...;
# a method that did not run a size has a block of NaN), labels (the methods of one size, in
# block order), sizes (bodies per pile, in block order), panels (the indexes, from 0, of the sizes
# to draw: those some method ran)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c); the
# script's methods in colour, those that joined on their own thin and grey behind them
# (plots/methods.gp)
# height: 9 cm
set datafile separator ','
n = words(labels)
np = words(panels)
# the paper's methods in colour, the others grey behind them
load plots.'methods.gp'
set logscale y
set format y '10^{%L}'
set grid
# one key for the figure, right of the panels (the first panel's titles)
set key at screen 0.995, screen 0.86 right top Left reverse font ',8' samplen 2.5
set xlabel 'time (s)' font ',8'
set ylabel 'kinetic energy (J)' font ',8'
set xtics 0.5
set multiplot layout 1, np margins screen 0.09, 0.84, 0.13, 0.85 spacing screen 0.07, 0 \
    title 'E7 (d): piles settling' font ',10'
# a panel per size, the grey lines drawn first, the coloured on top
do for [q=1:np] {
  i = int(word(panels, q))
  set title sprintf('%s bodies', word(sizes, i + 1)) font ',9'
  if (q > 1) { set key off; unset ylabel }
  plot for [p=1:2] for [k=0:n-1] datafile index i * n + k using 1:($2 > 0 && drawn(p, k + 1) ? $2 : NaN) with lines lw width(k + 1) lc rgb colour(k + 1, word(colors, k + 1)) dt int(word(dashes, k + 1)) title (drawn(p, k + 1) ? word(labels, k + 1) : '')
}
unset multiplot
