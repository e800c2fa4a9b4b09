# SPDX-License-Identifier: MIT
# speed against accuracy (tc_exp_pareto, src/exp/pareto.c): every method's wall time per step
# over its finished runs against the magnitude of one of its accuracy metrics, both log scales;
# the methods no cheaper one matches in accuracy (the Pareto front) joined by a dashed line.
# variables: datafile (csv: method, step_s, error, front; sorted by cost; then the front's
# rows again as a second block), labels (the methods
# in row order), what (the error's name and unit); colors: each method's colour (src/report/style.c)
# height: 9 cm
set datafile separator ','
set logscale xy
set format x '10^{%T}'
set format y '10^{%T}'
set grid lc rgb 'gray85'
set xlabel 'wall time per step (s, one thread; machine-dependent)'
set ylabel what
set key off
set offsets graph 0.08, graph 0.25, graph 0.1, graph 0.1
plot datafile index 1 using 2:3 with steps dt 2 lc rgb 'gray50' notitle, \
     for [i=1:words(labels)] datafile index 0 skip 1 every ::i-1::i-1 using 2:3 with points pt 7 ps 1 \
         lc rgb word(colors, i) notitle, \
     for [i=1:words(labels)] datafile index 0 skip 1 every ::i-1::i-1 using 2:3:(word(labels, i)) \
         with labels left offset 0.8, 0 font ',8' notitle
