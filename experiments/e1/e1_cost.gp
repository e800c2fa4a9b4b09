# SPDX-License-Identifier: MIT
# E1: CPU time of one force query against the clouds' points in contact, one line per timed
# method and variant (as run: filled points; every pair evaluated, the paper's formulation: open
# points, thin lines).
# variables: datafile (cost.csv: a '#' header, then one block per method and variant, two blank
# lines apart: label, variant, y_m, contact_points, query_ms), labels (the method of each block),
# variants (each block's variant: as-run or all-pairs)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 10 cm
set datafile separator ','
set grid
n = words(labels)
# the key below the plot, in three columns, so no curve runs under it
set key below maxcols 3 font ',8' samplen 3 width 1 height 1
set xlabel 'points in contact (both clouds)'
set ylabel 'CPU time per force query (ms)'
set yrange [0:*]
set title "E1: a force query's cost against the points in contact" font ',10'
# as run: the method's own dash, filled points; every pair evaluated: thin, open points
allpairs(i) = word(variants, i) eq 'all-pairs'
plot for [i=1:n] datafile index (i-1) using 4:5 with linespoints \
     lw 2 - allpairs(i) lc rgb word(colors, i) dt int(word(dashes, i)) pt 7 - allpairs(i) ps 0.8 \
     title word(labels, i).' ('.word(variants, i).')'
