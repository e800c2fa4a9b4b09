# SPDX-License-Identifier: MIT
# E4 (d): steps per second of the multi-point penalty and the LCP against the penalty's contact
# points on settled piles of growing size (same run, one thread).
# variables: datafile (csv: bodies, touching_pairs, contacts_penalty, contacts_lcp_model,
# penalty_steps_s, lcp_steps_s, ratio, ...)
set datafile separator ','
set logscale xy
set grid
set key left bottom
set xlabel 'penalty contact points'
set ylabel 'steps per second'
set title 'E4 (d): penalty vs LCP speed'
plot datafile skip 1 using 3:5 with linespoints lw 2 pt 7 title 'multi-point penalty (RK4)', \
     datafile skip 1 using 3:6 with linespoints lw 2 pt 5 title 'LCP (Lemke) + deepest-point drift'
