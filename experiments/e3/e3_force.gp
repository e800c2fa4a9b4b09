# SPDX-License-Identifier: MIT
# E3: normalised force against depth from first touch; CalculiX solid, pressure field dotted.
# variables: datafile (blocks per eta: eta, depth_touch, depth_mean, fem, pfc), neta, etas (words)
set datafile separator ','
set xlabel 'depth from first touch'
set ylabel 'force / force(eta = 0, d = 0.4)'
set grid
set key left top
set title 'E3: rigid sinusoid on a neo-Hookean layer (solid: CalculiX, dotted: PFC)'
plot for [k=0:int(neta)-1] datafile index k using 2:4 with lines lw 2 lc k+1 title sprintf('FEM, eta = %s', word(etas, k+1)), \
     for [k=0:int(neta)-1] datafile index k using 2:5 with lines lw 2 dt 3 lc k+1 title sprintf('PFC, eta = %s', word(etas, k+1))
