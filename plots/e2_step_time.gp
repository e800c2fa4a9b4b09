# SPDX-License-Identifier: MIT
# E2: wall time per Euler step (2 ms) against the number of AOPC points on the T, beside MuJoCo.
# variables: datafile (csv: points, scm_euler_ms, mujoco_euler_ms)
set datafile separator ','
set logscale xy
set xlabel 'AOPC points on the T'
set ylabel 'wall time per step (ms)'
set grid
set key left top
set title 'E2: step time vs AOPC points (same run)'
plot datafile skip 1 using 1:2 with linespoints lw 2 pt 7 title 'SCM, Euler', \
     datafile skip 1 using 1:3 with lines lw 2 dt 2 title 'MuJoCo, Euler'
