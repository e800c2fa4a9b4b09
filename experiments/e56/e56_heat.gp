# SPDX-License-Identifier: MIT
# E5, E6 (Le Cleac'h et al. fig. 9, 10): one column of grid.csv as a heat map per method, rates
# along x and complementarity tolerances along y (one full-height row for a method without a
# tolerance), one colour range across the methods, the value printed in each cell.
# variables: datafile (grid.csv: label, rate_hz, tol, rate_i, tol_i, ...; a header line),
# labels (methods, space separated), tolm (per method 1: has a tolerance axis), rates, tols
# (space separated), col (the column's number), logscale (1: log10 of the value, zeros drawn at
# the range's bottom), lo, hi (the colour range, log10 when logscale), cblabel
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
set cbrange [clo:chi]
set palette rgbformulae 33,13,10
set cblabel (lg ? sprintf('log_{10} %s', cblabel) : cblabel) font ',8'
set colorbox
set xrange [-0.5:nr - 0.5]
set yrange [-0.5:nt - 0.5]
set xtics () font ',7'
do for [i=1:nr] { set xtics add (word(rates, i) i - 1) }
set xlabel 'rate (Hz)' font ',8' offset 0,0.5
cols = n < 3 ? n : 3
rows = int((n + cols - 1) / cols)
set multiplot layout rows, cols title cblabel
do for [k=1:n] {
    lab = word(labels, k)
    tm = int(word(tolm, k))
    set ytics () font ',7'
    if (tm) {
        do for [i=1:nt] { set ytics add (word(tols, i) i - 1) }
        set ylabel 'tolerance' font ',8' offset 1,0
        set title lab font ',9'
    } else {
        set ytics add ('own' (nt - 1) / 2.0)
        set ylabel '' font ',8'
        set title sprintf('%s (no tolerance)', lab) font ',9'
    }
    yc(t) = tm ? t : (nt - 1) / 2.0
    yh = tm ? 0.5 : nt / 2.0
    plot datafile using (strcol(1) eq lab ? column(4) : NaN):(yc(column(5))):(column(4) - 0.5):(column(4) + 0.5):(yc(column(5)) - yh):(yc(column(5)) + yh):(f(column(c))) \
             with boxxyerror fs solid 1.0 noborder lc palette notitle, \
         datafile using (strcol(1) eq lab ? column(4) : NaN):(yc(column(5))):(sprintf('%.2g', column(c))) \
             with labels font ',6' textcolor rgb 'white' notitle
}
unset multiplot
