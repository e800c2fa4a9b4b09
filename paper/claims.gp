# SPDX-License-Identifier: MIT
# the report's summary figure (tc_claims_figure, src/report/claims_figure.c): a row per claim,
# from the top; our value over the centre of the claim's reproduced range on a log axis, the
# reproduced range as a dark band and the partly reproduced one as a light band, the point
# coloured by verdict. variables: datafile (csv: row, claim, ratio, lo, hi, plo, phi, verdict,
# label; the ratios clipped to the axis, NaN where there is none), nclaims
# height: 10.5 cm
set datafile separator ','
set datafile missing 'nan'
n = int(nclaims)
set logscale x
set xrange [1e-3:1e3]
set format x '10^{%T}'
set yrange [n + 0.7 : 0.3]
set ytics scale 0 font ',7'
set xtics font ',8'
set grid xtics lc rgb 'gray85'
set xlabel 'our value / centre of the reproduced range (log scale; 1 = the centre)' font ',8'
set border 3
set rmargin at screen 0.80
set key at screen 0.995, graph 0.5 right center vertical Left reverse font ',8' samplen 1 spacing 1.3
# verdicts in tc_verdict's order: reproduced, partly, not, not run, not testable, missing, figure,
# failed
vcolor(v) = v == 0 ? 0x1b9e77 : v == 1 ? 0xe6ab02 : v == 2 ? 0xd95f02 : 0x999999
set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb 'gray50'
plot datafile skip 1 using (sqrt($6 * $7)):1:6:7:($1 - 0.32):($1 + 0.32) with boxxyerror \
         fs solid 0.35 noborder lc rgb '#fde0b2' title 'partly range', \
     '' skip 1 using (sqrt($4 * $5)):1:4:5:($1 - 0.32):($1 + 0.32):ytic(9) with boxxyerror \
         fs solid 0.5 noborder lc rgb '#a6dbc9' title 'reproduced range', \
     '' skip 1 using 3:1:(vcolor($8)) with points pt 7 ps 0.8 lc rgb variable notitle, \
     keyentry with points pt 7 ps 0.8 lc rgb '#1b9e77' title 'reproduced', \
     keyentry with points pt 7 ps 0.8 lc rgb '#e6ab02' title 'partly', \
     keyentry with points pt 7 ps 0.8 lc rgb '#d95f02' title 'not reproduced'
