# SPDX-License-Identifier: MIT
# the report's residual heat map (tc_report_residuals, src/report/residual_figure.c): a row per
# method, a column per residual; each cell coloured by log10(value / threshold) on one
# perceptual sequential palette (viridis), its value printed; n/a cells light grey, hatched,
# with "n/a". variables: datafile (csv: row, col, logratio, na, text), nrows, ncols, methods and
# resids (space-separated names)
# height: 10.5 cm
set datafile separator ','
set datafile missing 'nan'
nr = int(nrows)
nc = int(ncols)
set xrange [0.5 : nc + 0.5]
set yrange [nr + 0.5 : 0.5]
set xtics () font ',8' scale 0
set ytics () font ',8' scale 0
do for [i = 1:nc] { set xtics add (word(resids, i) i) }
do for [i = 1:nr] { set ytics add (word(methods, i) i) }
unset x2tics
unset y2tics
set tics nomirror
unset border
set cbrange [-4:4]
set cbtics ('10^{-4}' -4, '10^{-2}' -2, '1' 0, '10^{2}' 2, '10^{4}' 4) font ',8'
set cblabel 'value / default threshold' font ',8'
# viridis, sampled at nine points
set palette defined (0 '#440154', 1 '#472d7b', 2 '#3b528b', 3 '#2c728e', 4 '#21918c', \
                     5 '#28ae80', 6 '#5ec962', 7 '#addc30', 8 '#fde725')
set style fill solid 1.0 noborder
plot datafile skip 1 using 2:($4 == 0 ? $1 : 1/0):(0.48):(0.48):3 with boxxyerror \
         fc palette notitle, \
     '' skip 1 using 2:($4 == 1 ? $1 : 1/0):(0.48):(0.48) with boxxyerror \
         fs pattern 4 border lc rgb 'gray60' fc rgb 'gray80' notitle, \
     '' skip 1 using 2:1:5:($3 < 0.5 ? 0xffffff : 0x000000) with labels font ',7' \
         tc rgb variable notitle
