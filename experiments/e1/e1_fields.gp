# SPDX-License-Identifier: MIT
# E1: the force fields of every method over the x-y plane in one grid of panels, one colour scale
# for all (log10 |F|, touche's perceptual palette, dark to light, one colour bar) and the
# direction as arrows; the big sphere (solid) and first touch (dashed) drawn in each panel.
# variables: dir (the experiment's output directory, holding field_<label>.csv: x, y, fx, fy, |F|,
# a blank line between rows), labels (methods), bigr, touch (m), cbmax (log10 of the largest |F|
# of all, N), impulse (the methods whose numbers are a step's impulse over dt, space-separated with
# a space at each end: their panels say so)
# height: 16 cm
set datafile separator ','
n = words(labels)
cols = n <= 4 ? n : (n <= 6 ? 3 : 4)
rows = int(ceil(real(n) / cols))
# a perceptual palette (viridis' anchors): equal steps look equal, and it prints in grey
# touche's palette (src/report/plot.c)
set cbrange [-3:real(cbmax)]
set cbtics 1
set format cb '10^{%.0f}'
set size ratio -1
set autoscale fix
set tics font ',7'
set xtics 0.2
set ytics 0.2
unset key
set object 1 circle at 0,0 size real(bigr) front fs empty border lc rgb 'white' lw 1
set object 2 circle at 0,0 size real(touch) front fs empty border lc rgb 'white' dt 2
L = 0.01
# panels in a grid left of a strip for the one colour bar
set multiplot layout rows, cols margins screen 0.07, 0.86, 0.06, 0.89 spacing screen 0.045, 0.065 \
    title "E1: contact force fields on one colour scale (|F| in N, from 10^{-3})\nsolid circle: the big sphere, dashed: first touch; arrows: the force's direction" font ',10'
do for [k=1:n] {
  c = (k - 1) % cols; r = (k - 1) / cols
  set title word(labels, k).(strstrt(impulse, ' '.word(labels, k).' ') > 0 ? ' (impulse/dt)' : '') font ',9' offset 0,-0.5
  # the axes' names on the left column and the bottom row only
  if (c == 0) { set ylabel 'y (m)' font ',8' offset 1.5,0 } else { unset ylabel }
  if (k > n - cols) { set xlabel 'x (m)' font ',8' offset 0,0.5 } else { unset xlabel }
  if (k == 1) { set colorbox user origin screen 0.9, screen 0.15 size screen 0.022, screen 0.7; set cblabel '|F| (N)' font ',9' } else { unset colorbox }
  f = sprintf('%s/field_%s.csv', dir, word(labels, k))
  plot f using 1:2:($5 > 0 ? log10($5) : -3) with image, \
       f every 4:4 using 1:2:(L*$3/($5 + 1e-300)):(L*$4/($5 + 1e-300)) with vectors head size 0.004,20 lc rgb 'white'
}
unset multiplot
