# SPDX-License-Identifier: MIT
# E7 (d): wall time per step against touching parts (log-log), one point per pile size and the
# least-squares line per method, its slope in the key (the paper: linear, slope 1).
# variables: datafile (csv blocks, one per method: bodies, touching_parts, own_contacts, step_s,
# fit_s), labels (methods in block order), slopes (each method's slope, "nan" without a fit)
set datafile separator ','
# one colour per method, black kept for the closed forms
colors = '#9400d3 #009e73 #56b4e9 #e69f00 #c8b400 #0072b2 #e51e10 #8b4513 #ff69b4 #808000 #00ced1 #708090'
nc = words(colors)
n = words(labels)
set logscale xy
set grid
set key left top
set xlabel 'touching parts (mean over the measured window)'
set ylabel 'wall time per step (s)'
set title 'E7 (d): step time against contacts'
plot for [k=0:n-1] datafile index k using 2:4 with points pt 7 ps 1.5 lc rgb word(colors, k % nc + 1) \
       title (word(slopes, k+1) eq 'nan' ? sprintf('%s (one pile size: no slope)', word(labels, k+1)) \
                                         : sprintf('%s (slope %s)', word(labels, k+1), word(slopes, k+1))), \
     for [k=0:n-1] datafile index k using 2:5 with lines lw 2 lc rgb word(colors, k % nc + 1) notitle
