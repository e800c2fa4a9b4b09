# SPDX-License-Identifier: MIT
# E7 (c): a ball launched sliding: its speed v (solid) and omega r (dashed) against time,
# one panel per method in its colour (small multiples on one scale: 13 methods' two curves each on
# one axis hid one another), the closed forms in black in every panel (v0 - mu g t and
# 5/2 mu g t, meeting at t* at 5 v0 / 7) and t* dotted.
# variables: datafile (csv blocks, one per method: t_s, x_m, v_m_s, omega_r_m_s), labels, g, mu,
# v0, tstar
# colors: each method's colour, set by touche (src/report/style.c); a panel per method needs no
# dash to tell methods apart, so v is solid and omega r dashed in every panel, as the caption says
# height: 15 cm
set datafile separator ','
n = words(labels)
G = real(g); MU = real(mu); V0 = real(v0); TS = real(tstar)
vcf(t) = t < TS ? V0 - MU * G * t : 5.0 * V0 / 7
wcf(t) = t < TS ? 2.5 * MU * G * t : 5.0 * V0 / 7
cols = n <= 4 ? n : (n <= 9 ? 3 : 5)
rows = int(ceil(real(n) / cols))
set grid
set yrange [0 : 1.08 * V0]
set xrange [0:*]
set autoscale xfixmax
set tics font ',8'
set arrow 1 from TS, graph 0 to TS, graph 1 nohead lc rgb 'gray40' dt 3
set samples 400
# one key for the figure: what solid, dashed and black are, in the grid's first empty cell (at
# the bottom when the grid is full)
free = n % cols
if (free > 0) {
  set key at screen 0.07 + (0.91 * free + 0.03) / cols, screen 0.13 + (0.75 / rows) * 0.6 left top Left reverse font ',8' samplen 3
} else {
  set key at screen 0.5, screen 0.005 center bottom horizontal maxrows 2 font ',8' samplen 3
}
set xtics 0.4
set multiplot layout rows, cols margins screen 0.07, 0.98, 0.13, 0.88 spacing screen 0.03, 0.09 \
    title sprintf('E7 (c): a ball launched sliding, v_0 = %g m/s, {/Symbol m} = %g; t* = %.3f s (dotted)', V0, MU, TS) font ',10'
do for [k=0:n-1] {
  set title word(labels, k + 1) font ',9' offset 0,-0.6
  if (k % cols == 0) { set ylabel 'speed (m/s)' font ',8' offset 1,0; set format y '%g' } else { unset ylabel; set format y '' }
  if (k >= n - cols) { set xlabel 'time (s)' font ',8' offset 0,0.5 } else { unset xlabel }
  if (k > 0) { set key off }
  plot vcf(x) with lines lw 1 lc rgb 'black' title 'v, closed form', \
       wcf(x) with lines lw 1 lc rgb 'black' dt 2 title '{/Symbol w} r, closed form', \
       datafile index k using 1:3 with lines lw 2 lc rgb word(colors, k + 1) title "the method's v (solid)", \
       datafile index k using 1:4 with lines lw 2 lc rgb word(colors, k + 1) dt 2 title "the method's {/Symbol w} r (dashed)"
}
unset multiplot
