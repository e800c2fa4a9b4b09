# SPDX-License-Identifier: MIT
# E1: F_y on the small sphere along y, every method overlaid, the paper's in colour (left), and a zoom on first touch
# (right), where SCM's force starts before contact (the paper's point: a few newtons against the
# hundreds of the profile).
# variables: datafile (csv: y_m, one column per method), ncols, touch (y of first contact, m),
# labels (the methods in column order), ymax (the left panel's |F_y| range, N; 0: automatic),
# clipped (the methods whose peak lies beyond it, with their peaks; empty: none), impulse (the
# methods whose numbers are a step's impulse over dt, space-separated with a space at each end),
# joined (the methods that joined on their own rather than from the paper's list in the script,
# the same way: drawn thin and grey, behind the paper's) and plots: set by tc_exp_figure
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 9.5 cm
set datafile separator ','
set grid
touchv = real(touch)
set arrow 1 from touchv, graph 0 to touchv, graph 1 nohead dt 2 lc rgb 'gray40'
set arrow 2 from -touchv, graph 0 to -touchv, graph 1 nohead dt 2 lc rgb 'gray40'
set multiplot title 'E1: contact force along y (dashed: first touch)' font ',10'
set origin 0, 0
set size 0.5, 0.95
# the key right of both panels, clear of every curve
set key at screen 0.995, screen 0.8 right top Left reverse font ',8' samplen 2.5 spacing 1.05 autotitle columnhead
# a per-step correction impulse over dt is no force law: its key says so
key(i) = word(labels, i).(strstrt(impulse, ' '.word(labels, i).' ') > 0 ? ' (impulse/dt)' : '')
# the paper's methods in their colours; those that joined grey and thin (their dash types kept)
load plots.'methods.gp'
set xlabel 'y of the small sphere (m)'
set ylabel 'F_y on the small sphere (N)'
set xtics 0.1
# a method whose peak dwarfs the median one's is clipped, and named, so the others stay readable
if (real(ymax) > 0) set yrange [-1.15 * real(ymax) : 1.15 * real(ymax)]
if (strlen(clipped) > 0) set label 1 'clipped: '.clipped at graph 0.98, graph 0.04 right font ',8' front
# two passes, so the grey curves lie behind the coloured ones: the joined methods, then the paper's
plot for [i=2:int(ncols)] datafile using 1:(grey(i-1) ? column(i) : NaN) with lines lw width(i-1) lc rgb colour(i-1, word(colors, i-1)) dt int(word(dashes, i-1)) title (grey(i-1) ? key(i-1) : ''), \
     for [i=2:int(ncols)] datafile using 1:(grey(i-1) ? NaN : column(i)) with lines lw width(i-1) lc rgb colour(i-1, word(colors, i-1)) dt int(word(dashes, i-1)) title (grey(i-1) ? '' : key(i-1))
unset label 1
# the zoom: from 4 cm inside first touch to 2 cm outside, a few newtons
set origin 0.5, 0
set size 0.29, 0.95
set xtics 0.02
set title 'near first touch (zoom)' font ',9'
set xrange [touchv - 0.04 : touchv + 0.02]
set yrange [-5 : 40]
unset key
set ylabel ''
plot for [i=2:int(ncols)] datafile using 1:(grey(i-1) ? column(i) : NaN) with lines lw width(i-1) lc rgb colour(i-1, word(colors, i-1)) dt int(word(dashes, i-1)) notitle, \
     for [i=2:int(ncols)] datafile using 1:(grey(i-1) ? NaN : column(i)) with lines lw width(i-1) lc rgb colour(i-1, word(colors, i-1)) dt int(word(dashes, i-1)) notitle
unset multiplot
