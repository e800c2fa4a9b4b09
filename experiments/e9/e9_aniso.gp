# SPDX-License-Identifier: MIT
# E9 anisotropy: the onset force over mu m g against the push's angle in the plane, one line per
# method; black: the circular cone (1), dotted: the sub-threshold push (below it a method slides
# under that push).
# variables: datafile (csv blocks, one per method: angle_deg, onset_ratio), labels (methods in
# block order)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 9 cm
set datafile separator ','
n = words(labels)
set grid
set key outside right top Left reverse font ',8' samplen 2.5
set xlabel 'push angle from the +x face normal (deg)' font ',8'
set ylabel 'onset force / mu m g' font ',8'
set title 'E9 anisotropy of the friction cone (truth: 1 in every direction)' font ',10'
set xrange [-2:47]
set yrange [0:1.6]
plot for [k=0:n-1] datafile index k using 1:2 with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) title word(labels, k + 1), \
     1 with lines lw 1.5 lc rgb 'black' title 'Coulomb cone', \
     0.9 with lines lw 1 lc rgb 'black' dt 3 title 'the push'
