# SPDX-License-Identifier: MIT
# E1: F_y on the small sphere along y, every method overlaid.
# variables: datafile (csv: y_m, one column per method), ncols, touch (y of first contact, m)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
set datafile separator ','
set key autotitle columnhead outside right top
set xlabel 'y of the small sphere (m)'
set ylabel 'F_y on the small sphere (N)'
set grid
touchv = real(touch)
set arrow from touchv, graph 0 to touchv, graph 1 nohead dt 2 lc rgb 'gray40'
set arrow from -touchv, graph 0 to -touchv, graph 1 nohead dt 2 lc rgb 'gray40'
set title 'E1: contact force along y (dashed: first touch)'
plot for [i=2:int(ncols)] datafile using 1:i with lines lw 2 lc rgb word(colors, i-1) dt int(word(dashes, i-1))
