# SPDX-License-Identifier: MIT
# E2: the T's centre-of-mass path in every rollout, one panel each: the reference (MuJoCo) and
# the timed method (SCM) in their styles, the start (circle) and the end (triangle) of each, and
# the T's orientation as a short tick every twentieth sample; centimetres.
# variables: datafile (blocks: rollout k reference = index 2k, timed = index 2k+1; t, x, y,
# theta), nroll, labels (reference, timed method), column (the grid cell shown, "2-RK4-4k")
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
set datafile separator ','
n = int(nroll)
cols = n <= 3 ? n : 3
rows = int(ceil(real(n) / cols))
set grid
# centimetres: the paths are a few cm long
set format x '%g'
set format y '%g'
set tics font ',8'
set key bottom right font ',8' spacing 0.9
set size ratio -1
T = 0.6
set multiplot layout rows, cols title sprintf('E2: the T pushed open loop, centre-of-mass paths at %s (%s against %s)', column, word(labels, 2), word(labels, 1)) font ',10'
do for [k=0:n-1] {
  set title sprintf('rollout %d', k) font ',9'
  set xlabel 'x (cm)' font ',8'
  set ylabel 'y (cm)' font ',8'
  plot for [m=0:1] datafile index 2*k+m using (100*$2):(100*$3) with lines lw 2 lc rgb word(colors, m+1) dt int(word(dashes, m+1)) title word(labels, m+1), \
       for [m=0:1] datafile index 2*k+m every 20 using (100*$2):(100*$3):(T*cos($4)):(T*sin($4)) with vectors nohead lw 1 lc rgb word(colors, m+1) notitle, \
       for [m=0:1] datafile index 2*k+m every ::0::0 using (100*$2):(100*$3) with points pt 6 ps 1.5 lc rgb word(colors, m+1) notitle, \
       for [m=0:1] datafile index 2*k+m every ::100::100 using (100*$2):(100*$3) with points pt 9 ps 1.5 lc rgb word(colors, m+1) notitle
}
unset multiplot
