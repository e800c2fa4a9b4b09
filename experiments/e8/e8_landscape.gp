# SPDX-License-Identifier: MIT
# E8 (b): one landscape, one panel per method: the loss (grey, right axis) and its derivative
# (the method's colour: central differences of the rollout; black circles: the chained analytic
# one-step Jacobians, where the method has them) against the swept initial coordinate
# variables: datafile (blocks per method: x0 loss dloss_fd dloss_chain), labels (the methods in
# block order), sweep (its name), unit (x0's unit), lo, hi (the sweep's ends)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 22 cm
n = words(labels)
cols = 3
rows = int(ceil(n / real(cols)))
set multiplot layout rows, cols title sprintf('E8 (b): the %s landscape, loss and dL/dx_0 per method', sweep) font ',10'
set grid
set tics font ',7'
set ytics nomirror
set y2tics font ',7' textcolor rgb 'gray50'
set format y '%.4g'
set xtics real(lo), (real(hi) - real(lo)) / 2, real(hi)
set format x '%.3g'
set xrange [real(lo):real(hi)]
set format y2 '%.4g'
set key off
set xlabel sprintf('x_0 (%s)', unit) font ',7' offset 0, 0.5
do for [k=0:n-1] {
  set title word(labels, k + 1) font ',8' offset 0, -0.6 noenhanced
  plot datafile index k using 1:2 axes x1y2 with lines lw 1 lc rgb 'gray60', \
       datafile index k using 1:3 with lines lw 2 lc rgb word(colors, k + 1), \
       datafile index k using 1:4 with points pt 6 ps 0.5 lc rgb 'black'
}
unset multiplot
