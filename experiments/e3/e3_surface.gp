# SPDX-License-Identifier: MIT
# E3: pfc's contact surface of a sphere pressed into a half-space (Elandt et al. fig. 1): one 3-D
# panel per modulus ratio k, coloured by pressure on one scale (touche's perceptual palette from dark
# blue to yellow, one colour bar in Pa), the undeformed sphere's section y = 0 dashed and the
# half-space's surface z = 0 as a grey square; a last 2-D panel puts every vertex's height against
# its distance from the axis beside the smooth fields' closed form.
# variables: datafile (rows k, x, y, z (m), p (Pa); each polygon two pm3d scans, polygons apart by
# two blank lines), ratios (words: k per panel), radius, depth (m), pmax (the colour scale's top, Pa)
# height: 15 cm
set datafile separator ','
n = words(ratios)
r = real(radius); d = real(depth); zc = r - d
# the rim: where the sphere's surface crosses z = 0; the plots' half width and top
a = sqrt(r**2 - zc**2)
L = 1.1 * a
ztop = 0.004
# the closed form: s^2 + (z - zc)^2 = (r + k z)^2, the root with z(0) = -d / (1 + k)
zexact(s, k) = (s**2 + zc**2 - r**2) / (zc + k * r + sqrt((zc + k * r)**2 - (1 - k**2) * (s**2 + zc**2 - r**2)))
# touche's palette (src/report/plot.c)
set cbrange [0:real(pmax)]
set cbtics font ',7'
set pm3d depthorder
set pm3d noborder
set pm3d corners2color mean
set tics font ',7'
set multiplot title sprintf('E3: pressure field contact surface, a sphere (r = %g m) pressed %g m into a half-space', r, d) font ',10'
# a 2 x 2 grid: the k panels first, the section last; a strip on the right for the colour bar
cols = 2
W = 0.42; H = 0.45
# ---- the 3-D panels: x and y on one scale, z drawn Z times as large (the cups are 5-20 mm deep)
Z = 3
set view equal xy
set view 58, 30, 1.4, Z * (ztop + d) / (2 * L)
set xyplane at -d
set xrange [-L:L]
set yrange [-L:L]
set zrange [-d:ztop]
set xtics 0.05 offset 0,-0.2
set ytics 0.05 offset 0.5,-0.2
set ztics 0.01
set xlabel 'x (m)' font ',8' offset 0,-0.3
set ylabel 'y (m)' font ',8' offset 0,-0.3
set zlabel sprintf('z (m, ×%g)', Z) font ',8' rotate parallel offset 1.5,0
unset key
set samples 201
set object 1 polygon from -L,-L,0 to L,-L,0 to L,L,0 to -L,L,0 to -L,-L,0 fs empty border lc rgb 'grey50' lw 1
do for [j=1:n] {
  k = real(word(ratios, j))
  set origin 0.04 + ((j - 1) % cols) * W, 0.92 - ((j - 1) / cols + 1) * H
  set size W, H
  set title sprintf('half-space / sphere modulus k = %s', word(ratios, j)) font ',9' offset 0,-1
  if (j == 1) { set colorbox user origin 0.87, 0.55 size 0.018, 0.33; set cblabel 'pressure (Pa)' font ',8' } else { unset colorbox }
  splot datafile using ($1 == k ? $2 : NaN):3:4:5 with pm3d, \
        '+' using 1:(0):(abs($1) <= a ? zc - sqrt(r**2 - $1**2) : NaN) with lines dt 2 lc rgb 'black' lw 1
}
# ---- the section: every vertex's z against its distance from the axis (signed by x)
unset object 1
unset colorbox
set origin 0.04 + (n % cols) * W, 0.92 - (n / cols + 1) * H
set size W, H
set title 'all vertices (points) and the closed form (lines)' font ',9' offset 0,0
set xrange [-L:L]
set yrange [-d:ztop]
set xtics 0.05 offset 0,0
set ytics 0.005 offset 0,0
set xlabel 'signed distance from the axis (m)' font ',8' offset 0,0
set ylabel 'z (m)' font ',8' offset 0,0
set grid lc rgb 'grey80' dt 1
set key outside right top vertical font ',7' samplen 2 spacing 1.1
plot for [j=1:n] datafile using ($1 == real(word(ratios, j)) ? ($2 < 0 ? -1 : 1) * sqrt($2**2 + $3**2) : NaN):4 \
       with points pt 7 ps 0.15 lc j notitle, \
     for [j=1:n] '+' using 1:(abs($1) <= a ? zexact($1, real(word(ratios, j))) : NaN) with lines lw 1.5 lc j \
       title sprintf('k = %s', word(ratios, j)), \
     '+' using 1:(abs($1) <= a ? zc - sqrt(r**2 - $1**2) : NaN) with lines dt 2 lc rgb 'black' title 'sphere', \
     0 with lines lc rgb 'grey50' title 'z = 0'
unset multiplot
