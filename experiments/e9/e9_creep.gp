# SPDX-License-Identifier: MIT
# E9 creep: drift against the load's ratio to the threshold, one line per method, log y; a row
# per load (the incline, tan theta / mu; the push, F / mu m g) and a column per family of methods
# (plots/methods.gp: constraint solvers, force laws, engines); truth 0 (drawn at the floor).
# variables: datafile (csv blocks, one per method: load_ratio, incline_drift_m, push_ratio,
# push_drift_m), labels (methods in block order), step (the step, words)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 14 cm
set datafile separator ','
load plots.'methods.gp'
n = words(labels)
fl = 1e-12
set logscale y
set format y '10^{%L}'
set grid
set xrange [0.45:1.02]
set yrange [fl / 2:1e6]
set xtics 0.1 font ',8'
set ytics 1e-12, 1e3 font ',8'
# the key in the top decades, above every drift
set key top left Left reverse font ',7' samplen 2 spacing 0.9
set multiplot layout 2, nfamily margins screen 0.1, 0.98, 0.09, 0.9 spacing screen 0.025, 0.11 \
    title sprintf('E9 creep below the Coulomb threshold (truth: no drift), step %s', step) font ',10'
# the top row: the incline; the bottom row: the push
do for [r=1:2] {
    do for [f=1:nfamily] {
        set title sprintf('%s: %s', r == 1 ? 'incline' : 'push', family_title(f)) font ',9'
        if (f == 1) { set ylabel 'drift after settling (m)' font ',8'; set format y '10^{%L}' } else { unset ylabel; set format y '' }
        if (r == 2) { set xlabel 'load / threshold' font ',8' } else { unset xlabel }
        plot for [k=0:n-1] datafile index k using (r == 1 ? $1 : $3):(family(k + 1) != f ? NaN : (r == 1 ? $2 : $4) > fl ? (r == 1 ? $2 : $4) : fl) with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) title (family(k + 1) == f ? word(labels, k + 1) : '')
    }
}
unset multiplot
