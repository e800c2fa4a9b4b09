# SPDX-License-Identifier: MIT
# E1: force field of one method over the x-y plane: log10 |F| as colour, direction as arrows.
# variables: datafile (csv: x, y, fx, fy, |F|, blank line between rows), label, bigr, touch (m)
set datafile separator ','
set size ratio -1
set xlabel 'x (m)'
set ylabel 'y (m)'
set cblabel 'log_{10} |F| (N)'
set palette rgbformulae 33,13,10
set cbrange [-6:*]
set title sprintf('E1 force field: %s (solid: big sphere, dashed: first touch)', label)
set object 1 circle at 0,0 size real(bigr) front fs empty border lc rgb 'white' lw 1.5
set object 2 circle at 0,0 size real(touch) front fs empty border lc rgb 'white' dt 2
L = 0.008
plot datafile using 1:2:(log10($5 + 1e-12)) with image notitle, \
     datafile every 3:3 using 1:2:(L*$3/($5 + 1e-300)):(L*$4/($5 + 1e-300)) with vectors \
     head size 0.004,20 lc rgb 'black' notitle
