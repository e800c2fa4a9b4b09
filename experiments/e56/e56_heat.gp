# SPDX-License-Identifier: MIT
# E5, E6 (Le Cleac'h et al. fig. 9, 10): one column of grid.csv as a heat map per method, rates
# along x and complementarity tolerances along y (one full-height row for a method without a
# tolerance), one colour range across the methods and one colour bar for the figure (touche's
# palette, set by src/report/plot.c: dark = low, light = high, in every figure), the value printed
# in each cell (log10 of it on a log scale) in black or white, whichever reads on it; a cell without a value (empty or NaN in
# grid.csv) is grey and says n/a, so it is never taken for 0.
# variables: datafile (grid.csv: label, rate_hz, tol, rate_i, tol_i, ...; a header line),
# labels (methods, space separated), tolm (per method 1: has a tolerance axis), rates, tols
# (space separated), col (the column's number), logscale (1: log10 of the value, zeros drawn at
# the range's bottom), lo, hi (the colour range, log10 when logscale), cblabel; better (optional:
# "low" or "high", which end of the scale is the good one, said under the colour bar); plo, phi
# (optional: the paper's value per method in label order, lo == hi for one value, a range
# otherwise, "nan" where it gives none)
# height: 20 cm
set datafile separator ','
set datafile columnheaders
c = int(col)
lg = int(logscale)
n = words(labels)
nr = words(rates)
nt = words(tols)
clo = real(lo)
chi = real(hi)
f(v) = lg ? (v > 0 ? log10(v) : clo) : v
# the value printed in a cell, short enough for a cell of the full tier's 6 x 6: a log-scale
# quantity as its log10 (the colour bar's number) with one decimal, a zero as "zero"; any other
# in two significant digits (a count of 100 or more whole)
txt(v) = v == 0 ? (lg ? 'zero' : '0') : (lg ? sprintf('%.1f', log10(v)) : (abs(v) >= 100 ? sprintf('%.0f', v) : sprintf('%.2g', v)))
# black on the light half of the palette, white on the dark half
ink(v) = (f(v) - clo) / (chi - clo) > 0.55 ? 0 : 16777215
nan(v) = v != v
# a cell without a value, read as text: gnuplot drops a row whose number is "nan" or empty
# before any test on it could run
na(k) = strcol(k) eq '' || strcol(k) eq 'nan' || strcol(k) eq '-nan'
set cbrange [clo:chi]
# the paper's values: left of the colour bar a black open diamond (one value) or a black bar (a
# range) at its height, and in the method's panel title
if (!exists('plo')) { plo = ''; phi = '' }
pv(s) = s eq '' || s eq 'nan' ? NaN : real(s)
pa(k) = pv(word(plo, k))
pb(k) = pv(word(phi, k))
has(k) = pa(k) == pa(k) && pb(k) == pb(k)
cby(v) = 0.15 + 0.7 * (f(v) - clo) / (chi - clo)
np = 0
do for [j=1:n] { if (has(j)) { np = np + 1 } }
ptxt(k) = pa(k) == pb(k) ? sprintf('paper: %.2g', pa(k)) : sprintf('paper: %.2g-%.2g', pa(k), pb(k))
set cbtics font ',8'
set cblabel (lg ? sprintf('log_{10} %s', cblabel) : cblabel) font ',9'
if (lg) set format cb '%.0f'
set xrange [-0.5:nr - 0.5]
set yrange [-0.5:nt - 0.5]
set xtics () font ',8' scale 0
do for [i=1:nr] { set xtics add (word(rates, i) i - 1) }
unset key
cols = n < 3 ? n : 3
rows = int((n + cols - 1) / cols)
# the panels in a grid left of one colour bar for all of them
set multiplot layout rows, cols margins screen 0.08, 0.86, 0.07, 0.93 spacing screen 0.075, 0.055 \
    title cblabel font ',10'
do for [k=1:n] {
    lab = word(labels, k)
    tm = int(word(tolm, k))
    set ytics () font ',8' scale 0
    if (tm) {
        do for [i=1:nt] { set ytics add (word(tols, i) i - 1) }
        set title (has(k) ? sprintf('%s (%s)', lab, ptxt(k)) : lab) font ',9' offset 0,-0.6
    } else {
        set ytics add ('own' (nt - 1) / 2.0)
        set title sprintf('%s (no tolerance%s)', lab, has(k) ? '; '.ptxt(k) : '') font ',9' offset 0,-0.6
    }
    # the axes' names on the left column and the bottom row only
    if ((k - 1) % cols == 0 && tm) { set ylabel 'tolerance' font ',8' offset 1.5,0 } else { unset ylabel }
    if (k > n - cols) { set xlabel 'rate (Hz)' font ',8' offset 0,0.6 } else { unset xlabel }
    if (k == 1) {
        set colorbox user origin screen 0.89, screen 0.15 size screen 0.022, screen 0.7
        if (exists('better')) { set label 1 'better: '.better at screen 0.995, screen 0.1 right font ',8' }
        if (np > 0) { set label 99 'paper' at screen 0.866, screen 0.12 left font ',7' }
        do for [j=1:n] {
            if (has(j) && pa(j) == pb(j)) {
                set label 100 + j '' at screen 0.876, screen cby(pa(j)) point pt 12 ps 2 lw 1.5 lc rgb 'black'
            }
            if (has(j) && pa(j) != pb(j)) {
                set arrow 100 + j from screen 0.876, screen cby(pa(j)) to screen 0.876, screen cby(pb(j)) \
                    heads size screen 0.006,90 lw 2 lc rgb 'black'
            }
        }
    } else {
        unset colorbox
        unset label 1
        unset label 99
        do for [j=1:n] { unset label 100 + j; unset arrow 100 + j }
    }
    yc(t) = tm ? t : (nt - 1) / 2.0
    yh = tm ? 0.5 : nt / 2.0
    ok(v) = strcol(1) eq lab && !nan(v)
    plot datafile using (ok(column(c)) ? column(4) : NaN):(yc(column(5))):(column(4) - 0.5):(column(4) + 0.5):(yc(column(5)) - yh):(yc(column(5)) + yh):(f(column(c))) \
             with boxxyerror fs solid 1.0 noborder lc palette, \
         datafile using (strcol(1) eq lab && na(c) ? column(4) : NaN):(yc(column(5))):(column(4) - 0.5):(column(4) + 0.5):(yc(column(5)) - yh):(yc(column(5)) + yh) \
             with boxxyerror fs pattern 4 lc rgb '#bdbdbd', \
         datafile using (strcol(1) eq lab && na(c) ? column(4) : NaN):(yc(column(5))):('n/a') \
             with labels font ',7' textcolor rgb 'black', \
         datafile using (ok(column(c)) ? column(4) : NaN):(yc(column(5))):(txt(column(c))):(ink(column(c))) \
             with labels font ',7' textcolor rgb variable
}
unset multiplot
