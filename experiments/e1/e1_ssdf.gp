# SPDX-License-Identifier: MIT
# E1 (Beker et al. fig. 1 left, fig. 4): the SSDF of a 2-D box at several softmax widths, one
# panel per width on one diverging colour scale (phi in m, blue inside, red outside, white at 0,
# one colour bar), its zero contour (the smoothed surface, black), the box (orange) and the
# points with their normals as short ticks.
# variables: dir (the experiment's output directory, holding ssdf_box.dat: index 0 the points,
# x y nx ny; index k the grid of width k, x y phi, a blank line between rows), rels (the widths
# eps1 / h^2), eps (the same in m^2), half (the box's half sides, m), cbmax (the colour range's
# end, m)
# height: 13 cm
f = dir.'/ssdf_box.dat'
n = words(rels)
hx = real(word(half, 1)); hy = real(word(half, 2))
cols = n <= 2 ? n : 2
rows = int(ceil(real(n) / cols))
# a diverging palette (ColorBrewer RdBu): equal steps look equal, zero is white
set palette defined (0 '#2166ac', 1 '#4393c3', 2 '#92c5de', 3 '#d1e5f0', 4 '#f7f7f7', \
                     5 '#fddbc7', 6 '#f4a582', 7 '#d6604d', 8 '#b2182b')
set cbrange [-real(cbmax):real(cbmax)]
set cbtics 0.02 font ',8'
set format cb '%.2f'
# the zero contour of every panel, into datablocks $Z1 ... (gnuplot's contour of the grid)
set contour base
set cntrparam levels discrete 0
set cntrparam linear
unset surface
do for [k=1:n] {
  eval sprintf('set table $Z%d', k)
  splot f index k using 1:2:3
  unset table
}
unset contour
set surface
# panels: equal axes in metres, the box and the points on top
set size ratio -1
set autoscale fix
set tics font ',8' front
set xtics 0.1
set ytics 0.05
set format x '%.2f'
set format y '%.2f'
set xlabel 'x (m)' font ',8' offset 0,0.8
set ylabel 'y (m)' font ',8' offset 1.5,0
unset key
# the box's outline as a closed polyline, drawn under the points
set print $BOX
print sprintf("%g %g\n%g %g\n%g %g\n%g %g\n%g %g", -hx, -hy, hx, -hy, hx, hy, -hx, hy, -hx, -hy)
unset print
L = 0.008
set multiplot title "E1: SSDF {/Symbol f} of a 2-D box (m) at four softmax widths {/Symbol e}_1\nblack: zero contour, orange: the box, ticks: points and normals" font ',10'
# panels left of a strip for the one colour bar
W = 0.87 / cols; H = 0.88 / rows
do for [k=1:n] {
  c = (k - 1) % cols; r = (k - 1) / cols
  set origin c * W, 0.9 - (r + 1) * H
  set size W, H
  set title sprintf('{/Symbol e}_1 = %s h^2 = %s m^2', word(rels, k), word(eps, k)) font ',9' offset 0,-0.5
  if (k == n) {
    set colorbox user origin 0.89, 0.14 size 0.022, 0.72
    set label 1 '{/Symbol f} (m)' at screen 0.9, 0.9 center font ',9'
  } else { unset colorbox; unset label 1 }
  plot f index k using 1:2:3 with image, \
       '$Z'.k using 1:2 with lines lc rgb 'black' lw 2, \
       $BOX using 1:2 with lines lc rgb '#e69f00' lw 1, \
       f index 0 using 1:2:(L * $3):(L * $4) with vectors nohead lc rgb '#202020' lw 1, \
       f index 0 using 1:2 with points pt 7 ps 0.3 lc rgb '#202020'
}
unset multiplot
