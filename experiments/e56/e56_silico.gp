# SPDX-License-Identifier: MIT
# E5, E6 beside the authors' stored results (Silico.jl): per compared method one row of three
# heat maps over the authors' 6 rates x 6 tolerances: ours, theirs (one sequential colour bar for
# both) and ours minus theirs (a diverging palette, white at 0, one colour bar shared by every
# difference panel); a blank cell is one this tier does not run.
# variables: datafile (silico_<q>.csv: label, rate_hz, tol, rate_i, tol_i, ours, theirs, diff;
# ours and diff empty where our grid has no cell), labels (space separated), rates, tols (the
# authors', space separated), logscale (1: values as log10, the difference in decades), lo, hi
# (the values' colour range, log10 when logscale), dmax (the differences' range is +-dmax),
# cblabel
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
set xrange [-0.5:nr - 0.5]
set yrange [-0.5:nt - 0.5]
set xtics () font ',6'
do for [i=1:nr] { set xtics add (word(rates, i) i - 1) }
set ytics () font ',6'
do for [i=1:nt] { set ytics add (word(tols, i) i - 1) }
set cbtics font ',7'
# the panels by hand: three columns, a colour bar after the second and after the third; column
# titles on the first row, the rate axis's label on the last
top = 0.90
bot = 0.09
h = (top - bot) / n
x0 = 0.08
w = 0.2
xd = 0.65
set multiplot title sprintf('%s: ours, the authors%s, ours - theirs', cblabel, "'") font ',9'
do for [k=1:n] {
    lab = word(labels, k)
    yb = top - k * h + 0.035
    yt = top - (k - 1) * h - 0.01
    set tmargin at screen yt
    set bmargin at screen yb
    if (k == n) { set xlabel 'rate (Hz)' font ',7' offset 0,0.8 } else { unset xlabel }
    set ylabel (lab) font ',7' offset 1.5,0
    # ours and theirs: one sequential colour range
    set palette rgbformulae 33,13,10
    set cbrange [clo:chi]
    do for [s=0:1] {
        set lmargin at screen x0 + s * (w + 0.03)
        set rmargin at screen x0 + s * (w + 0.03) + w
        if (k == 1) { set title (s ? 'Silico.jl' : 'touche') font ',8' } else { unset title }
        # the tolerances' names on the first panel only (the second sits close beside it)
        set ytics () font ',6'
        do for [i=1:nt] { if (s) { set ytics add ('' i - 1) } else { set ytics add (word(tols, i) i - 1) } }
        if (s == 1 && k == 1) {
            set colorbox user origin screen x0 + 2 * w + 0.045, screen bot size screen 0.012, screen top - bot
            set cblabel (lg ? sprintf('log_{10} %s', cblabel) : cblabel) font ',7'
        } else {
            unset colorbox
        }
        plot datafile using (strcol(1) eq lab ? column(4) : NaN):(column(5)):(column(4) - 0.5):(column(4) + 0.5):(column(5) - 0.5):(column(5) + 0.5):(f(column(s ? 7 : 6))) \
            with boxxyerror fs solid 1.0 noborder lc palette notitle
        set ylabel ''
    }
    # the difference: diverging, symmetric about 0
    set palette defined (-1 '#2166ac', -0.5 '#92c5de', 0 '#f7f7f7', 0.5 '#f4a582', 1 '#b2182b')
    set cbrange [-dm:dm]
    set lmargin at screen xd
    set rmargin at screen xd + w - 0.01
    set ytics () font ',6'
    do for [i=1:nt] { set ytics add (word(tols, i) i - 1) }
    if (k == 1) { set title (lg ? 'ours - theirs (decades)' : 'ours - theirs') font ',8' } else { unset title }
    if (k == 1) {
        set colorbox user origin screen xd + w + 0.01, screen bot size screen 0.012, screen top - bot
        set cblabel (lg ? 'difference (decades)' : 'difference') font ',7'
    } else {
        unset colorbox
    }
    plot datafile using (strcol(1) eq lab ? column(4) : NaN):(column(5)):(column(4) - 0.5):(column(4) + 0.5):(column(5) - 0.5):(column(5) + 0.5):(column(8)) \
        with boxxyerror fs solid 1.0 noborder lc palette notitle, \
         datafile using (strcol(1) eq lab && valid(8) ? column(4) : NaN):(column(5)):(sprintf('%.2g', column(8))) \
        with labels font ',5' notitle
}
unset multiplot
