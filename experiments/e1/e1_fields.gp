# SPDX-License-Identifier: MIT
# E1: the force fields of every method over the x-y plane in one grid of panels, one colour scale
# for all (log10 |F|, a perceptual palette from dark blue to yellow, one colour bar) and the
# direction as arrows; the big sphere (solid) and first touch (dashed) drawn in each panel.
# variables: dir (the experiment's output directory, holding field_<label>.csv: x, y, fx, fy, |F|,
# a blank line between rows), labels (methods), bigr, touch (m), cbmax (log10 of the largest |F|
# of all, N), impulse (the methods whose numbers are a step's impulse over dt, space-separated with
# a space at each end: their panels say so)
set datafile separator ','
n = words(labels)
cols = n <= 4 ? n : (n <= 6 ? 3 : 4)
rows = int(ceil(real(n) / cols))
# a perceptual palette (viridis' anchors): equal steps look equal, and it prints in grey
set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 '#fde725')
set cbrange [-3:real(cbmax)]
set cbtics 1
set format cb '10^{%.0f}'
set size ratio -1
set autoscale fix
set tics font ',7'
set xtics 0.1
set ytics 0.1
unset key
set object 1 circle at 0,0 size real(bigr) front fs empty border lc rgb 'white' lw 1
set object 2 circle at 0,0 size real(touch) front fs empty border lc rgb 'white' dt 2
L = 0.01
set multiplot title 'E1: contact force fields on one colour scale (|F| in N, from 10^{-3}); solid: big sphere, dashed: first touch' font ',10'
# panels left of a strip for the one colour bar
W = 0.9 / cols; H = 0.92 / rows
do for [k=1:n] {
  c = (k - 1) % cols; r = (k - 1) / cols
  set origin c * W, 0.94 - (r + 1) * H
  set size W, H
  set title word(labels, k).(strstrt(impulse, ' '.word(labels, k).' ') > 0 ? ' (impulse/dt, not a force law)' : '') font ',9'
  if (k == n) { set colorbox user origin 0.92, 0.15 size 0.02, 0.7; set cblabel '|F| (N)' font ',8' } else { unset colorbox }
  f = sprintf('%s/field_%s.csv', dir, word(labels, k))
  plot f using 1:2:($5 > 0 ? log10($5) : -3) with image, \
       f every 4:4 using 1:2:(L*$3/($5 + 1e-300)):(L*$4/($5 + 1e-300)) with vectors head size 0.004,20 lc rgb 'white'
}
unset multiplot
