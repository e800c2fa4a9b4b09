# SPDX-License-Identifier: MIT
# E9 anisotropy: the onset force over mu m g against the push's angle in the plane, one line per
# method, a panel per family of methods (plots/methods.gp); the Coulomb cone (1) and the
# sub-threshold push drawn in black.
# variables: datafile (csv blocks, one per method: angle_deg, onset_ratio), labels (methods in
# block order)
# colors, dashes: each method's colour and dash type, set by touche (src/report/style.c)
# height: 8 cm
set datafile separator ','
load plots.'methods.gp'
n = words(labels)
set grid
set xlabel 'push angle from +x (deg)' font ',8'
set xrange [-2:47]
set xtics 15 font ',8'
set yrange [0:2]
set ytics 0.25 font ',8'
# the key at the top, above the cone's line
set key top left Left reverse font ',7' samplen 2 spacing 0.9
set multiplot layout 1, nfamily margins screen 0.1, 0.98, 0.14, 0.84 spacing screen 0.025, 0 \
    title 'E9 anisotropy of the friction cone (truth: 1 in every direction)' font ',10'
do for [f=1:nfamily] {
    set title family_title(f) font ',9'
    if (f == 1) { set ylabel 'onset force / mu m g (1)' font ',8'; set format y '%g' } else { unset ylabel; set format y '' }
    plot for [k=0:n-1] datafile index k using 1:(family(k + 1) != f ? NaN : $2) with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, k + 1) dt int(word(dashes, k + 1)) title (family(k + 1) == f ? word(labels, k + 1) : ''), \
         1 with lines lw 1.5 lc rgb 'black' notitle, \
         0.9 with lines lw 1 lc rgb 'black' dt 3 notitle
}
unset multiplot
