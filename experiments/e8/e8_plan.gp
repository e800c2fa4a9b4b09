# SPDX-License-Identifier: MIT
# E8 (d): share of the seeded starts that reached the goal against the simulated steps taken, per
# method (its colour and dash): BFGS with the method's gradient (thick) and the cross-entropy
# method (thin)
# variables: datafile (blocks: method 0 BFGS, method 0 CEM, method 1 BFGS, ...: steps rate),
# labels (the methods in block order), budget (the steps a search may take)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 9 cm
n = words(labels)
set grid
set key top left font ',8' noenhanced
set tics font ',8'
set xlabel 'simulated steps (Jacobian and difference steps included)' font ',9'
set ylabel 'share of starts at the goal' font ',9'
set xrange [0:real(budget)]
set yrange [0:1.05]
set format x '%.0s%c'
plot for [k=0:n-1] datafile index 2*k using 1:2 with lines lw 4 dt int(word(dashes, k + 1)) lc rgb word(colors, k + 1) \
       title sprintf('%s BFGS', word(labels, k + 1)), \
     for [k=0:n-1] datafile index 2*k+1 using 1:2 with lines lw 1.5 dt int(word(dashes, k + 1)) lc rgb word(colors, k + 1) \
       title sprintf('%s CEM', word(labels, k + 1))
