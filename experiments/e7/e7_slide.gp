# SPDX-License-Identifier: MIT
# E7 (a): distance slid against time, one line per method, and the closed form
# x = v0 t - mu g t^2 / 2 up to t = v0 / (mu g), then v0^2 / (2 mu g) (black, dashed, on top)
# variables: datafile (csv blocks, one per method: t_s, x_m, speed_m_s), labels (the methods in
# block order), g, mu, v0
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c); the
# script's methods in colour, those that joined on their own thin and grey behind them
# (plots/methods.gp)
# height: 9 cm
set datafile separator ','
n = words(labels)
G = real(g); MU = real(mu); V0 = real(v0)
T = V0 / (MU * G)
xcf(t) = t < T ? V0 * t - MU * G * t * t / 2 : V0 * V0 / (2 * MU * G)
# the paper's methods in colour, the others grey behind them
load plots.'methods.gp'
set grid
# the key right of the axes, clear of every curve
set key outside right top Left reverse font ',8' samplen 2.5
set xlabel 'time (s)'
set ylabel 'distance (m)'
set title sprintf('E7 (a): a box sliding to rest, v_0 = %g m/s, {/Symbol m} = %g', V0, MU)
set samples 400
# two passes (the grey lines, then the coloured), the closed form last, on top
plot for [p=1:2] for [k=0:n-1] datafile index k using 1:(drawn(p, k + 1) ? $2 : NaN) with lines lw width(k + 1) lc rgb colour(k + 1, word(colors, k + 1)) dt int(word(dashes, k + 1)) title (drawn(p, k + 1) ? word(labels, k + 1) : ''), \
     xcf(x) with lines lw 2 lc rgb 'black' dt 2 title 'closed form'
