# SPDX-License-Identifier: MIT
# E7 (b): displacement down the incline against time, one panel per angle, one line per
# method, and the closed form a t^2 / 2 (a = 0 at or below the friction angle).
# variables: datafile (csv blocks, angle by angle, one per method: t_s, x_m, v_m_s), labels (the
# methods of one angle, in block order), angles (degrees), accels (closed-form m/s^2)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c); the
# script's methods in colour, those that joined on their own thin and grey behind them
# (plots/methods.gp)
# height: 9 cm
set datafile separator ','
n = words(labels)
na = words(angles)
# the paper's methods in colour, the others grey behind them
load plots.'methods.gp'
set grid
# one key for the figure, right of the panels (the first panel's titles)
set key at screen 0.995, screen 0.86 right top Left reverse font ',8' samplen 2.5
set xlabel 'time (s)' font ',8'
set ylabel 'displacement (m)' font ',8'
set samples 200
set xtics 0.5
set multiplot layout 1, na margins screen 0.1, 0.78, 0.13, 0.85 spacing screen 0.06, 0 \
    title 'E7 (b): a box on an incline (gravity tilted)' font ',10'
# a panel per angle, the grey lines drawn first, the coloured on top, the closed form last
do for [a=1:na] {
  A = real(word(accels, a))
  set title sprintf('%s° (a = %.3g m/s^2)', word(angles, a), A) font ',9'
  if (a > 1) { set key off; unset ylabel }
  plot for [p=1:2] for [k=0:n-1] datafile index (a - 1) * n + k using 1:(drawn(p, k + 1) ? $2 : NaN) with lines lw width(k + 1) lc rgb colour(k + 1, word(colors, k + 1)) dt int(word(dashes, k + 1)) title (drawn(p, k + 1) ? word(labels, k + 1) : ''), \
       A * x * x / 2 with lines lw 2 lc rgb 'black' dt 2 title 'closed form'
}
unset multiplot
