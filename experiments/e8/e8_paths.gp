# SPDX-License-Identifier: MIT
# E8 (d): the T's path along each method's best plan (one column per planner): its centre of
# mass (top) and orientation against time (bottom), in the planner itself (black) and replayed
# open loop in each engine (the engine's colour); the cross marks the goal
# variables: datafile (blocks: planner 0 in itself, then in each engine, planner 1 ...: t x y
# theta), planners (their labels), labels (the engines, in block order), nsrc (blocks per
# planner: 1 + engines), gx, gy, gth (the goal pose: m, m, rad)
# colors, dashes: each engine's colour and dash type, set by touche (src/report/style.c)
# height: 14 cm
np = words(planners)
ne = words(labels)
ns = int(nsrc)
set multiplot layout 2, np title 'E8 (d): the T along the best plans, planned and replayed' font ',10'
set grid
set tics font ',7'
set key top left font ',7' noenhanced
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
do for [k=0:np-1] {
  set title word(planners, k + 1) font ',8' noenhanced
  set xlabel 'x (m)' font ',7'
  set ylabel 'y (m)' font ',7'
  set size ratio -1
  set format x '%.2f'
  set xtics 0.02
  plot datafile index k*ns using 2:3 with lines lw 3 lc rgb 'black' title 'planned', \
       for [e=1:ne] datafile index k*ns+e using 2:3 with lines lw 1.5 lc rgb word(colors, e) \
         dt int(word(dashes, e)) title word(labels, e), \
       '+' using (real(gx)):(real(gy)) every ::0::0 with points pt 2 ps 2 lc rgb 'red' notitle
}
do for [k=0:np-1] {
  unset title
  set size noratio
  set format x '%g'
  set xtics 0.5
  set autoscale xfix
  set offsets 0, 0, graph 0.05, graph 0.05
  set xlabel 't (s)' font ',7'
  set ylabel 'theta (deg)' font ',7'
  plot datafile index k*ns using 1:($4*180/pi) with lines lw 3 lc rgb 'black' notitle, \
       for [e=1:ne] datafile index k*ns+e using 1:($4*180/pi) with lines lw 1.5 \
         lc rgb word(colors, e) dt int(word(dashes, e)) notitle, \
       real(gth)*180/pi with lines dt 2 lc rgb 'red' notitle
}
unset multiplot
