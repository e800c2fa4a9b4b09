# SPDX-License-Identifier: MIT
# E1: F_y on the small sphere along y, every method overlaid (left), and a zoom on first touch
# (right), where SCM's force starts before contact (the paper's point: a few newtons against the
# hundreds of the profile).
# variables: datafile (csv: y_m, one column per method), ncols, touch (y of first contact, m),
# labels (the methods in column order)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
set datafile separator ','
set grid
touchv = real(touch)
set arrow 1 from touchv, graph 0 to touchv, graph 1 nohead dt 2 lc rgb 'gray40'
set arrow 2 from -touchv, graph 0 to -touchv, graph 1 nohead dt 2 lc rgb 'gray40'
set multiplot title 'E1: contact force along y (dashed: first touch)' font ',11'
set origin 0, 0
set size 0.62, 0.95
set key top left font ',8' autotitle columnhead
set xlabel 'y of the small sphere (m)'
set ylabel 'F_y on the small sphere (N)'
plot for [i=2:int(ncols)] datafile using 1:i with lines lw 2 lc rgb word(colors, i-1) dt int(word(dashes, i-1))
# the zoom: from 4 cm inside first touch to 2 cm outside, a few newtons
set origin 0.62, 0
set size 0.38, 0.95
set title 'near first touch (zoom)' font ',9'
set xrange [touchv - 0.04 : touchv + 0.02]
set yrange [-5 : 40]
unset key
set ylabel ''
plot for [i=2:int(ncols)] datafile using 1:i with lines lw 2 lc rgb word(colors, i-1) dt int(word(dashes, i-1))
unset multiplot
