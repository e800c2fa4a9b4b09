# SPDX-License-Identifier: MIT
# E2: paths of the T's centre of mass per rollout; MuJoCo solid, SCM dashed, one colour a rollout.
# variables: datafile (blocks: rollout k MuJoCo = index 2k, SCM = index 2k+1), nroll
set datafile separator ','
set size ratio -1
set xlabel 'x (m)'
set ylabel 'y (m)'
set grid
set key outside right top
set title 'E2: T centre-of-mass paths (solid: MuJoCo, dashed: SCM)'
plot for [k=0:int(nroll)-1] datafile index 2*k using 2:3 with lines lw 2 lc k+1 title sprintf('rollout %d MuJoCo', k), \
     for [k=0:int(nroll)-1] datafile index 2*k+1 using 2:3 with lines lw 2 dt 2 lc k+1 title sprintf('rollout %d SCM', k)
