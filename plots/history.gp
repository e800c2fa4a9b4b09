# SPDX-License-Identifier: MIT
# touche history: the metrics of one experiment that moved most, each over its first value,
# against the check (revisions on the axis); 1 is no change.
# variables: datafile (csv blocks, one per metric: check, value_over_first), labels (the metrics),
# revisions (one per check), heading
# colors, dashes: a colour and dash type per label, set by touche (src/report/style.c)
set datafile separator ','
n = words(labels)
nr = words(revisions)
set grid
# a flat history (nothing moved) gets a range around 1 instead of gnuplot's warning
stats datafile using 2 nooutput
if (STATS_max - STATS_min < 1e-9 * abs(STATS_max)) set yrange [STATS_min - 0.01 * abs(STATS_min) - 1e-12 : STATS_max + 0.01 * abs(STATS_max) + 1e-12]
set key outside right top font ',8' noenhanced
set xrange [-0.5 : nr - 0.5]
set xtics rotate by -30 font ',8'
set for [c=1:nr] xtics add (word(revisions, c) c - 1)
set xlabel 'check (revision)'
set ylabel 'value / first value'
set title heading noenhanced
plot for [k=0:n-1] datafile index k using 1:2 with linespoints lw 2 pt 7 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) title word(labels, k + 1)
