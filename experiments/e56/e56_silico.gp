# SPDX-License-Identifier: MIT
# E5, E6 beside the authors' stored results (Silico.jl): per compared method one row of three
# heat maps over the authors' 6 rates x 6 tolerances: ours, theirs (touche's sequential palette,
# set by src/report/plot.c: dark = low, light = high; one colour bar for both) and ours minus
# theirs (a diverging palette, white at 0, one colour bar shared by every difference panel, the
# difference printed in each cell); a blank cell (white, which neither palette has but at a
# difference of 0, where the cell says 0) is one this tier does not run.
# variables: datafile (silico_<q>.csv: label, rate_hz, tol, rate_i, tol_i, ours, theirs, diff;
# ours and diff empty where our grid has no cell), labels (space separated), rates, tols (the
# authors', space separated), logscale (1: values as log10, the difference in decades), lo, hi
# (the values' colour range, log10 when logscale), dmax (the differences' range is +-dmax),
# cblabel
# height: 18 cm
set datafile separator ','
set datafile columnheaders
n = words(labels)
nr = words(rates)
nt = words(tols)
lg = int(logscale)
clo = real(lo)
chi = real(hi)
dm = real(dmax)
# a cell our grid has no value for (NaN) stays blank; a zero sits at the bottom of a log scale
f(v) = v != v ? NaN : lg ? log10(v > 0 ? v : 10**clo) : v
# a difference in a cell: fixed decimals
# (as many decimals as the range's first digit wants, at least one: a difference under half the
# last digit prints as 0)
dd = real(dmax) > 0 ? (-floor(log10(real(dmax))) > 1 ? -floor(log10(real(dmax))) : 1) : 1
dtxt(v) = abs(v) < 0.5 * 10**(-dd) ? '0' : sprintf(sprintf('%%.%df', dd), v)
set xrange [-0.5:nr - 0.5]
set yrange [-0.5:nt - 0.5]
set xtics () font ',7' scale 0
do for [i=1:nr] { set xtics add (word(rates, i) i - 1) }
set ytics () font ',7' scale 0
do for [i=1:nt] { set ytics add (word(tols, i) i - 1) }
set cbtics font ',7'
# the panels by hand: three columns, a colour bar after the second and after the third; column
# titles on the first row, the rate axis's label on the last
top = 0.91
bot = 0.08
h = (top - bot) / n
x0 = 0.1
w = 0.225
xd = 0.70
# the quantity and its unit in the title, so the colour bars need no words of their own
set multiplot title sprintf('%s%s: ours, the authors%s (left colour bar), ours - theirs (right)', lg ? 'log_{10} ' : '', cblabel, "'") font ',10'
do for [k=1:n] {
    lab = word(labels, k)
    yb = top - k * h + 0.035
    yt = top - (k - 1) * h - 0.01
    set tmargin at screen yt
    set bmargin at screen yb
    if (k == n) { set xlabel 'rate (Hz)' font ',8' offset 0,0.8 } else { unset xlabel }
    set ylabel sprintf('%s: tolerance', lab) font ',8' offset 1,0
    # ours and theirs: one sequential colour range, touche's palette
    eval tc_palette
    set cbrange [clo:chi]
    do for [s=0:1] {
        set lmargin at screen x0 + s * (w + 0.03)
        set rmargin at screen x0 + s * (w + 0.03) + w
        if (k == 1) { set title (s ? 'Silico.jl' : 'touche') font ',9' } else { unset title }
        # the tolerances' names on the first panel only (the second sits close beside it)
        set ytics () font ',7' scale 0
        do for [i=1:nt] { if (s) { set ytics add ('' i - 1) } else { set ytics add (word(tols, i) i - 1) } }
        if (s == 1 && k == 1) {
            set colorbox user origin screen x0 + 2 * w + 0.045, screen bot size screen 0.012, screen top - bot
            unset cblabel
        } else {
            unset colorbox
            unset cblabel
        }
        plot datafile using (strcol(1) eq lab ? column(4) : NaN):(column(5)):(column(4) - 0.5):(column(4) + 0.5):(column(5) - 0.5):(column(5) + 0.5):(f(column(s ? 7 : 6))) \
            with boxxyerror fs solid 1.0 noborder lc palette notitle
        set ylabel ''
    }
    # the difference: diverging, symmetric about 0
    set palette defined (-1 '#2166ac', -0.5 '#92c5de', 0 '#f7f7f7', 0.5 '#f4a582', 1 '#b2182b')
    set cbrange [-dm:dm]
    set lmargin at screen xd
    set rmargin at screen xd + w - 0.03
    set ytics () font ',7' scale 0
    do for [i=1:nt] { set ytics add ('' i - 1) }
    if (k == 1) { set title (lg ? 'ours - theirs (decades)' : 'ours - theirs') font ',9' } else { unset title }
    if (k == 1) {
        set colorbox user origin screen xd + w - 0.015, screen bot size screen 0.012, screen top - bot
        unset cblabel
    } else {
        unset colorbox
        unset cblabel
    }
    plot datafile using (strcol(1) eq lab ? column(4) : NaN):(column(5)):(column(4) - 0.5):(column(4) + 0.5):(column(5) - 0.5):(column(5) + 0.5):(column(8)) \
        with boxxyerror fs solid 1.0 noborder lc palette notitle, \
         datafile using (strcol(1) eq lab && valid(8) ? column(4) : NaN):(column(5)):(dtxt(column(8))):(abs(column(8)) > 0.6 * dm ? 16777215 : 0) \
        with labels font ',7' textcolor rgb variable notitle
}
unset multiplot
