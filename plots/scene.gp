# SPDX-License-Identifier: MIT
# a picture of an experiment's scene (tc_exp_scene_figure, src/exp/scene_figure.c): every body's
# outline in two world axes, drawn to scale; fixed bodies (the ground, walls) grey, moving ones
# blue. variables: datafile (blocks of a, b, fixed), axes (the two axis names, "x z")
# height: 8 cm
set size ratio -1
unset key
set grid lc rgb 'gray90'
set xlabel word(axes, 1).' (m)'
set ylabel word(axes, 2).' (m)'
set tics font ',8'
# about four tics across however narrow the drawing is (a tall stack is narrow at equal scale)
stats datafile using 1 nooutput
span = STATS_max - STATS_min > 0 ? STATS_max - STATS_min : 1
step = 10**floor(log10(span / 2.0))
if (span / step > 8) step = step * 5; else if (span / step > 4) step = step * 2
set xtics step
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
plot datafile using 1:2:($3 > 0 ? 0xb0b0b0 : 0x9ecae1) with filledcurves closed lc rgb variable \
         fs solid 0.6 noborder, \
     '' using 1:2:($3 > 0 ? 0x606060 : 0x2171b5) with lines lw 1.5 lc rgb variable
