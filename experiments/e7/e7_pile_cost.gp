# SPDX-License-Identifier: MIT
# E7 (d): CPU time per step against touching parts (log-log), one point per pile size and the
# least-squares line per method, its slope in the key (the paper: linear, slope 1).
# variables: datafile (csv blocks, one per method: bodies, touching_parts, own_contacts, step_s,
# fit_s), labels (methods in block order), slopes (each method's slope, "nan" without a fit)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 9 cm
set datafile separator ','
n = words(labels)
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set grid
set key left top
set xlabel 'touching parts (mean over the measured window)'
set ylabel 'CPU time per step (s, median of the cost study)'
set title 'E7 (d): step time against contacts'
plot for [k=0:n-1] datafile index k using 2:4 with points pt 7 ps 1.5 lc rgb word(colors, k + 1) \
       title (word(slopes, k+1) eq 'nan' ? sprintf('%s (one pile size: no slope)', word(labels, k+1)) \
                                         : sprintf('%s (slope %s)', word(labels, k+1), word(slopes, k+1))), \
     for [k=0:n-1] datafile index k using 2:5 with lines lw 2 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) notitle
