# SPDX-License-Identifier: MIT
# E7 (c): a ball launched sliding: its speed v (solid) and omega r (dashed) against time per
# method, the closed forms (black: v0 - mu g t and 5/2 mu g t, meeting at t* at 5 v0 / 7) and t*.
# variables: datafile (csv blocks, one per method: t_s, x_m, v_m_s, omega_r_m_s), labels, g, mu,
# v0, tstar
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
set datafile separator ','
n = words(labels)
G = real(g); MU = real(mu); V0 = real(v0); TS = real(tstar)
vcf(t) = t < TS ? V0 - MU * G * t : 5.0 * V0 / 7
wcf(t) = t < TS ? 2.5 * MU * G * t : 5.0 * V0 / 7
set grid
set key outside right top
set xlabel 'time (s)'
set ylabel 'speed (m/s)'
set title sprintf('E7 (c): a ball launched sliding, v_0 = %g m/s, {/Symbol m} = %g; t* = %.3f s', V0, MU, TS)
set arrow from TS, graph 0 to TS, graph 1 nohead lc rgb 'gray40' dt 3
set samples 400
plot for [k=0:n-1] datafile index k using 1:3 with lines lw 2 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) title word(labels, k+1).' v', \
     for [k=0:n-1] datafile index k using 1:4 with lines lc rgb word(colors, k + 1) lw 1 title word(labels, k+1).' {/Symbol w} r', \
     vcf(x) with lines lw 1.5 lc rgb 'black' title 'v, closed form', \
     wcf(x) with lines lw 1.5 lc rgb 'black' dt 2 title '{/Symbol w} r, closed form'
