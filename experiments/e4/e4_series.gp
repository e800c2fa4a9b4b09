# SPDX-License-Identifier: MIT
# E4 (a)-(c): kinetic energy (above 1e-12 J) and penetration against the step, log scale, one
# line per method: the script's in colour, those that joined on their own thin and grey behind
# them (plots/methods.gp).
# variables: datafile (csv blocks, one per method: step, kinetic_J, penetration_m), labels (the
# methods in block order, space separated), windows ("settle on off cycles" in steps, or ""),
# papers (the paper's mean penetration per method in label order, m; "nan" where it gives none)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 13 cm
set datafile separator ','
# the paper's methods in colour, the others grey behind them
load plots.'methods.gp'
# the perturbed block's force-on windows shaded: windows = "settle on off cycles" (steps), or ""
if (strlen(windows) > 0) {
  W0 = int(word(windows, 1)); WON = int(word(windows, 2)); WOFF = int(word(windows, 3))
  do for [c=0:int(word(windows, 4))-1] {
    set object (10 + c) rect from W0 + c * (WON + WOFF), graph 0 to W0 + c * (WON + WOFF) + WON, graph 1 fc rgb '#e8e8e8' fs solid 1.0 noborder behind
  }
  set label 1 'shaded: force applied' at graph 0.01, graph 0.96 font ',8' front
}
# two panels left of one key for both (the upper panel's titles), one column at 8 pt
set multiplot layout 2,1 margins screen 0.11, 0.77, 0.1, 0.97 spacing screen 0, 0.05
set logscale y
set format y '10^{%L}'
set grid
set key at screen 0.995, screen 0.97 right top Left reverse font ',8' samplen 2.5
# the step axis named once, under the lower panel
unset xlabel
set ylabel 'kinetic energy (J)'
# below 1e-12 J a body is at rest to rounding: the axis stops there
set yrange [1e-12:*]
n = words(labels)
# two passes: the grey lines first, the coloured on top
plot for [p=1:2] for [k=0:n-1] datafile index k using 1:($2 > 0 && drawn(p, k + 1) ? $2 : NaN) with lines lw width(k + 1) lc rgb colour(k + 1, word(colors, k + 1)) dt int(word(dashes, k + 1)) title (drawn(p, k + 1) ? word(labels, k + 1) : '')
set ylabel 'penetration (m)'
set xlabel 'step (count)'
set yrange [*:*]
unset key
# the paper's values as dotted reference lines in each method's colour (grey for a joined one)
paper(k) = word(papers, k + 1) eq 'nan' ? 1/0 : real(word(papers, k + 1))
# two passes again, then the paper's values on top
plot for [p=1:2] for [k=0:n-1] datafile index k using 1:($3 > 0 && drawn(p, k + 1) ? $3 : NaN) with lines lw width(k + 1) lc rgb colour(k + 1, word(colors, k + 1)) dt int(word(dashes, k + 1)) notitle, \
     for [k=0:n-1] paper(k) with lines lw 1.5 dt 3 lc rgb colour(k + 1, word(colors, k + 1)) notitle
unset multiplot
