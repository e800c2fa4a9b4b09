# SPDX-License-Identifier: MIT
# E7 (d): kinetic energy of the piles against time, one panel per pile size, one line per
# method (log scale).
# variables: datafile (csv blocks, size by size, one per method: t_s, kinetic_J, energy_J, ...;
# a method that did not run a size has a block of NaN), labels (the methods of one size, in
# block order), sizes (bodies per pile, in block order)
set datafile separator ','
n = words(labels)
ns = words(sizes)
set logscale y
set grid
set key top right font ',8'
set xlabel 'time (s)' font ',8'
set ylabel 'kinetic energy (J)' font ',8'
set multiplot layout 1, ns title 'E7 (d): piles settling'
do for [i=1:ns] {
  set title sprintf('%s bodies', word(sizes, i)) font ',9'
  plot for [k=0:n-1] datafile index (i - 1) * n + k using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 lc (k % 7) + 1 title word(labels, k+1)
}
unset multiplot
