# SPDX-License-Identifier: MIT
# E9 onset: |onset error| against the step, log-log, one line per method, a panel per family of
# methods (plots/methods.gp); an exact Coulomb box's lag at the speed threshold dashed.
# variables: datafile (csv blocks, one per method: dt_s, onset_error), labels (methods in block
# order), lag (the exact box's relative lag, 1)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 8 cm
set datafile separator ','
load plots.'methods.gp'
n = words(labels)
L = real(lag)
set logscale xy
set grid
set xlabel 'step (s)' font ',8'
# the run's steps (1 to 10 ms) with room on both sides, ticks at 1, 2, 5 and 10 ms
set xrange [7e-4:1.5e-2]
set xtics ('0.001' 0.001, '0.002' 0.002, '0.005' 0.005, '0.01' 0.01) font ',8'
set yrange [1e-4:1e3]
set ytics 1e-4, 10 font ',8'
# the key in the top decades, above every error
set key top left Left reverse font ',7' samplen 2 spacing 0.9
set multiplot layout 1, nfamily margins screen 0.1, 0.98, 0.14, 0.84 spacing screen 0.025, 0 \
    title 'E9 onset of sliding under a slow ramp (truth: mu m g)' font ',10'
do for [f=1:nfamily] {
    set title family_title(f) font ',9'
    if (f == 1) { set ylabel '|onset force - mu m g| / mu m g (1)' font ',8'; set format y '10^{%L}' } else { unset ylabel; set format y '' }
    plot for [k=0:n-1] datafile index k using 1:(family(k + 1) != f ? NaN : abs($2) > 1e-4 ? abs($2) : 1e-4) with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) title (family(k + 1) == f ? word(labels, k + 1) : ''), \
         L with lines lw 1.5 lc rgb 'black' dt 2 title 'exact lag'
}
unset multiplot
