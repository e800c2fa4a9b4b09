# SPDX-License-Identifier: MIT
# E4 (paper fig. 6): the penalty's integral term I (eq. 2, m) for a penetration depth held
# constant from step 0, one line per depth, one panel per forgetting factor, log scale; dashed:
# the bound d / (1 - lambda) where lambda < 1.
# variables: datafile (csv blocks, one per forgetting factor: step, then I for each depth),
# depths (m, space separated, in column order), forgets (the factors, in block order)
# height: 9 cm
set datafile separator ','
nd = words(depths)
nf = words(forgets)
# one colour per depth, light to dark as the depth grows (viridis' anchors, no yellow)
array pal[5] = ['#5ec962', '#21918c', '#3b528b', '#472d7b', '#440154']
col(k) = pal[(k - 1) % 5 + 1]
# one y range for every panel: from the smallest depth to the largest sum of all
ymin = real(word(depths, 1))
ymax = 0
do for [l=1:nf] {
  stats datafile index l-1 using (column(nd + 1)) nooutput
  ymax = STATS_max > ymax ? STATS_max : ymax
}
set logscale y
set format y '10^{%L}'
set yrange [ymin / 2 : ymax * 2]
set xrange [0:*]
set grid lc rgb '#d0d0d0' dt 1 lw 0.5
set xlabel 'step (count; the update is once a step)'
# one key for the panels, right of them
set key at screen 0.995, screen 0.8 right top Left reverse font ',8' spacing 1.1 title 'depth d (m)'
set multiplot layout 1, nf margins screen 0.1, 0.84, 0.14, 0.85 spacing screen 0.07, 0 \
    title 'E4: the integral term of eq. 2 for a constant penetration (dashed: the bound)' font ',10'
do for [l=1:nf] {
  lam = real(word(forgets, l))
  if (lam < 1) {
    set title sprintf('λ = %g: I levels off at d / (1 − λ)', lam) font ',9'
  } else {
    set title 'λ = 1, no forgetting: I = d·t grows' font ',9'
  }
  if (l == 1) { set ylabel 'integral term I (m)' } else { unset ylabel; unset key }
  # the bounds first (only where lambda < 1), so the series are drawn over them
  nb = lam < 1 ? nd : 0
  plot for [k=1:nb] real(word(depths, k)) / (1 - lam) with lines lw 1.2 dt 2 lc rgb col(k) notitle, \
       for [k=1:nd] datafile index l-1 using 1:(column(k + 1) > 0 ? column(k + 1) : 1/0) with lines lw 2 lc rgb col(k) title word(depths, k)
}
unset multiplot
