# SPDX-License-Identifier: MIT
# E9 ratcheting: |net drift per cycle| against the step, log-log, one line per method; a row per
# load (the script's first and second) and a column per family of methods (plots/methods.gp);
# truth 0 (drawn at the floor).
# variables: datafile (csv blocks, one per method: dt_s, first_per_cycle_m,
# second_per_cycle_m), labels (methods in block order)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 14 cm
set datafile separator ','
load plots.'methods.gp'
n = words(labels)
fl = 1e-12
set logscale xy
set grid
set yrange [fl / 2:1e6]
set ytics 1e-12, 1e3 font ',8'
# the run's steps (1 to 10 ms) with room on both sides, ticks at 1, 2, 5 and 10 ms
set xrange [7e-4:1.5e-2]
set xtics ('0.001' 0.001, '0.002' 0.002, '0.005' 0.005, '0.01' 0.01) font ',8'
# the key in the top decades, above every drift
set key top left Left reverse font ',7' samplen 2 spacing 0.9
set multiplot layout 2, nfamily margins screen 0.1, 0.98, 0.09, 0.9 spacing screen 0.025, 0.11 \
    title 'E9 ratcheting under an oscillating push below the threshold (truth: 0)' font ',10'
# the top row: the first load; the bottom row: the second
do for [r=1:2] {
    do for [f=1:nfamily] {
        set title sprintf('%s load: %s', r == 1 ? 'first' : 'second', family_title(f)) font ',9'
        if (f == 1) { set ylabel '|drift per cycle| (m)' font ',8'; set format y '10^{%L}' } else { unset ylabel; set format y '' }
        if (r == 2) { set xlabel 'step (s)' font ',8' } else { unset xlabel }
        plot for [k=0:n-1] datafile index k using 1:(family(k + 1) != f ? NaN : abs(column(r + 1)) > fl ? abs(column(r + 1)) : fl) with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) title (family(k + 1) == f ? word(labels, k + 1) : '')
    }
}
unset multiplot
