# SPDX-License-Identifier: MIT
# E8 (c): bias and standard deviation of the two gradient estimates of the smoothed loss against
# the sample count M, log-log, one panel per method: first-order (blue) and zeroth-order (red),
# bias solid, standard deviation dashed; a zero is not drawn (log axes)
# variables: datafile (blocks per method: M first_bias first_std zeroth_bias zeroth_std), labels
# (the methods in block order), sweep (the landscape's name)
# height: 22 cm
n = words(labels)
cols = 3
rows = int(ceil(n / real(cols)))
set multiplot layout rows, cols title sprintf('E8 (c): the %s landscape, bias and std of dF/dx against M', sweep) font ',10'
set grid
set tics font ',7'
set logscale xy
set autoscale xfix
set offsets graph 0.05, graph 0.05, 0, 0
set format y '10^{%L}'
set format x '%g'
set key off
set xlabel 'M (samples)' font ',7' offset 0, 0.5
pos(v) = (v > 0 ? v : 1/0)
do for [k=0:n-1] {
  if (k == 0) { set key top right font ',7' samplen 2 } else { set key off }
  set title word(labels, k + 1) font ',8' offset 0, -0.6 noenhanced textcolor rgb word(colors, k + 1)
  plot datafile index k using 1:(pos($2)) with linespoints lw 2 pt 7 ps 0.5 lc rgb '#1f77b4' title '1st bias', \
       datafile index k using 1:(pos($3)) with linespoints lw 2 dt 2 pt 6 ps 0.5 lc rgb '#1f77b4' title '1st std', \
       datafile index k using 1:(pos($4)) with linespoints lw 2 pt 7 ps 0.5 lc rgb '#d62728' title '0th bias', \
       datafile index k using 1:(pos($5)) with linespoints lw 2 dt 2 pt 6 ps 0.5 lc rgb '#d62728' title '0th std'
}
unset multiplot
