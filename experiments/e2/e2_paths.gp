# SPDX-License-Identifier: MIT
# E2: the T's centre-of-mass path in every rollout, one panel each: the reference (MuJoCo) and
# the timed method (SCM) in their styles, the start (circle) and the end (triangle) of each, and
# the T's orientation as a short tick every twentieth sample; centimetres.
# variables: datafile (blocks: rollout k reference = index 2k, timed = index 2k+1; t, x, y,
# theta), nroll, labels (reference, timed method), column (the grid cell shown, "2-RK4-4k")
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 13 cm
set datafile separator ','
n = int(nroll)
cols = n <= 3 ? n : 3
rows = int(ceil(real(n) / cols))
set grid
# centimetres: the paths are a few cm long. Every panel on one square range (all rollouts' paths),
# so the panels are equal, their axes comparable and their tics few
stats datafile using (100*$2) nooutput
x0 = STATS_min; x1 = STATS_max
stats datafile using (100*$3) nooutput
y0 = STATS_min; y1 = STATS_max
span = (x1 - x0 > y1 - y0 ? x1 - x0 : y1 - y0) * 1.15 + 1
set xrange [(x0 + x1) / 2 - span / 2 : (x0 + x1) / 2 + span / 2]
set yrange [(y0 + y1) / 2 - span / 2 : (y0 + y1) / 2 + span / 2]
step = span > 16 ? 5 : (span > 8 ? 2 : 1)
set xtics step
set ytics step
set format x '%g'
set format y '%g'
set tics font ',8'
set size ratio -1
T = 0.6
# one key for the figure, at its bottom (the methods' styles, then what the marks are)
set key at screen 0.5, screen 0.01 center bottom horizontal maxrows 1 Left reverse font ',8' samplen 2.5 width 2
set multiplot layout rows, cols margins screen 0.07, 0.97, 0.14, 0.87 spacing screen 0.06, 0.1 \
    title sprintf("E2: the T pushed open loop, centre-of-mass paths at %s\n%s against %s; circle: start, triangle: end, ticks: the T's heading", column, word(labels, 2), word(labels, 1)) font ',10'
do for [k=0:n-1] {
  set title sprintf('rollout %d', k) font ',9' offset 0,-0.5
  if (k % cols == 0) { set ylabel 'y (cm)' font ',8' offset 1,0 } else { unset ylabel }
  if (k >= n - cols) { set xlabel 'x (cm)' font ',8' offset 0,0.5 } else { unset xlabel }
  if (k > 0) { unset key }
  plot for [m=0:1] datafile index 2*k+m using (100*$2):(100*$3) with lines lw 2 lc rgb word(colors, m+1) dt int(word(dashes, m+1)) title word(labels, m+1), \
       for [m=0:1] datafile index 2*k+m every 20 using (100*$2):(100*$3):(T*cos($4)):(T*sin($4)) with vectors nohead lw 1 lc rgb word(colors, m+1) notitle, \
       for [m=0:1] datafile index 2*k+m every ::0::0 using (100*$2):(100*$3) with points pt 6 ps 1.5 lc rgb word(colors, m+1) notitle, \
       for [m=0:1] datafile index 2*k+m every ::100::100 using (100*$2):(100*$3) with points pt 9 ps 1.5 lc rgb word(colors, m+1) notitle
}
unset multiplot
