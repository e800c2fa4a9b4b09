# SPDX-License-Identifier: MIT
# E4 (b) (paper fig. 12): the downward pushes on the resting cube. Left, 3-D: the cube's outline
# and one arrow per push ending at its point on the top face, its length the magnitude (a side of
# the cube = 100 N); right, the top face from above, each push numbered by its cycle.
# variables: datafile (csv: x_m, y_m, z_m, magnitude_N, one line per cycle), half (the cube's
# half side, m; its centre at z = half), cycles (a line for the title)
# height: 11 cm
set datafile separator ','
h = real(half)
top = 2 * h
# metres of arrow per newton: a side of the cube (2 h) is 100 N
mpn = 2 * h / 100.0
# the cube's 12 edges: bottom and top squares, then the four verticals (two blank lines apart)
set print $cube
do for [z=0:1] {
  print sprintf("%g,%g,%g\n%g,%g,%g\n%g,%g,%g\n%g,%g,%g\n%g,%g,%g\n\n", -h,-h,z*top, h,-h,z*top, h,h,z*top, -h,h,z*top, -h,-h,z*top)
}
do for [sx=-1:1:2] {
  do for [sy=-1:1:2] {
    print sprintf("%g,%g,0\n%g,%g,%g\n\n", sx*h, sy*h, sx*h, sy*h, top)
  }
}
unset print
stats datafile using 4 nooutput
fmax = STATS_max
set multiplot title sprintf("E4 (b): the forces on the cube (%s)\n{/*0.9 left: each arrow ends at its point, its length the magnitude (1 m = 100 N)}\n{/*0.9 right: the top face from above, each push as cycle: magnitude (N)}", cycles) font ',10'
# left: 3-D, right: the top face, filling the page below the title
set origin 0, 0.02
set size 0.56, 0.84
# left: 3-D, equal axes, arrows ending on the top face
set view 60, 30, 0.9
set view equal xyz
set xyplane at 0
set xrange [-1.1 * h : 1.1 * h]
set yrange [-1.1 * h : 1.1 * h]
set zrange [0 : top + fmax * mpn * 1.05]
set xtics h font ',8'
set ytics h font ',8'
set ztics 0.5 font ',8'
set xlabel 'x (m)' font ',9' offset 0, -0.5
set ylabel 'y (m)' font ',9' offset 1, -0.5
set zlabel 'z (m)' font ',9' rotate parallel offset 1, 0
unset title
set grid lc rgb '#d0d0d0' dt 1 lw 0.5
unset key
splot $cube using 1:2:3 with lines lw 1.5 lc rgb '#555555', \
      datafile using 1:2:($3 + $4 * mpn):(0):(0):(-$4 * mpn) with vectors head filled size 0.035,15 lw 2 lc rgb '#c0392b', \
      datafile using 1:2:3 with points pt 7 ps 0.5 lc rgb '#c0392b', \
      datafile using 1:2:($3 + $4 * mpn):(sprintf('%d', $0 + 1)) with labels offset 0, 0.7 font ',8'
# right: the top face from above, the point of each push, its cycle and magnitude
reset
set datafile separator ','
set origin 0.56, 0.02
set size 0.44, 0.84
set size ratio -1
set xrange [-1.1 * h : 1.1 * h]
set yrange [-1.1 * h : 1.2 * h]
set xtics h / 2 font ',8'
set ytics h / 2 font ',8'
set xlabel 'x (m)' font ',9'
set ylabel 'y (m)' font ',9'
set grid lc rgb '#d0d0d0' dt 1 lw 0.5
unset key
unset title
set object 1 rect from -h, -h to h, h fs empty border lc rgb '#555555' lw 1.5
# disc area grows with the magnitude (100 N: a radius of a tenth of the half side)
plot datafile using 1:2:(0.1 * h * sqrt($4 / 100.0)) with circles fs solid noborder lc rgb '#c0392b', \
     datafile using 1:2:(sprintf('%d: %.0f', $0 + 1, $4)) with labels offset 0, 1.2 font ',8'
unset multiplot
