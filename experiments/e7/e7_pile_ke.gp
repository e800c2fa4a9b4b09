# SPDX-License-Identifier: MIT
# E7 (d): kinetic energy of the piles against time, one panel per pile size, one line per
# method (log scale).
# variables: datafile (csv blocks, size by size, one per method: t_s, kinetic_J, energy_J, ...;
# a method that did not run a size has a block of NaN), labels (the methods of one size, in
# block order), sizes (bodies per pile, in block order), panels (the indexes, from 0, of the sizes
# to draw: those some method ran)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 9 cm
set datafile separator ','
n = words(labels)
np = words(panels)
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
do for [p=1:np] {
  i = int(word(panels, p))
  set title sprintf('%s bodies', word(sizes, i + 1)) font ',9'
  if (p > 1) { set key off; unset ylabel }
  plot for [k=0:n-1] datafile index i * n + k using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) title word(labels, k+1)
}
unset multiplot
