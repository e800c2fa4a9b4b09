# SPDX-License-Identifier: MIT
# E3: normalised force against depth from first touch; CalculiX solid, pressure field dotted.
# Lengths in the layer's thickness (the script's units), the force over its own eta = 0 value.
# variables: datafile (blocks per eta: eta, depth_touch, depth_mean, fem, pfc), neta, etas (words);
# px, py (the paper's PFC force at its eta, "nan": none), peta, pratio (that eta, its PFC / FEM)
# height: 9 cm
set datafile separator ','
set xlabel 'depth from first touch (layer thicknesses)'
set ylabel 'force / force({/Symbol h} = 0, d = 0.4) (1)'
set grid
# the key in two columns at the top left, above every curve
set key left top maxrows 3 font ',8' samplen 3
set title 'E3: rigid sinusoid on a neo-Hookean layer (solid: CalculiX, dotted: PFC)'
# the paper's mark, named beside it (the key has no room)
if (real(px) == real(px)) { set label 1 sprintf('paper: PFC = %s FEM at {/Symbol h} = %s', pratio, peta) at real(px), real(py) offset 1.5,0 left font ',8' }
plot for [k=0:int(neta)-1] datafile index k using 2:4 with lines lw 2 lc k+1 title sprintf('FEM, {/Symbol h} = %s', word(etas, k+1)), \
     for [k=0:int(neta)-1] datafile index k using 2:5 with lines lw 2 dt 3 lc k+1 title sprintf('PFC, {/Symbol h} = %s', word(etas, k+1)), \
     '+' using (real(px)):(real(py)) every ::0::0 with points pt 12 ps 2 lw 1.5 lc rgb 'black' notitle
