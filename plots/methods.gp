# SPDX-License-Identifier: MIT
# the paper's methods in colour, the others grey and thin behind them (E1, E4, E7): a template
# that draws a line per method runs `load plots.'methods.gp'`. It reads labels (set by the
# driver) and joined (the methods that joined on their own rather than from the script's list,
# each with a space on both sides, set by tc_exp_figure), and defines, for the method of label i
# (from 1), whose own colour c is word(colors, i):
# grey(i): 1 when the method joined on its own
grey(i) = strstrt(joined, ' '.word(labels, i).' ') > 0
# its line's colour and width: its own c and 2, or light grey and 1 (its dash type is kept)
colour(i, c) = grey(i) ? 'gray65' : c
width(i) = grey(i) ? 1 : 2
# drawn(p, i): 1 in the pass p that draws it, 1 the grey ones first, 2 the coloured ones on top
drawn(p, i) = (p == 1) == grey(i)
# family(i): how the method of label i resolves contact, from families (' label=F ' per method,
# set by tc_exp_figure; F its tc_method_family, src/sim/tc_sim.h), 0 for a label it lacks
fpos(i) = strstrt(families, ' '.word(labels, i).'=')
fdig(i) = fpos(i) + strlen(word(labels, i)) + 2
family(i) = fpos(i) ? int(families[fdig(i):fdig(i)]) : 0
# a panel per family (small multiples): its title, in tc_method_family's order
family_title(f) = f == 1 ? 'constraint solvers' : f == 2 ? 'force laws' : 'engines'
nfamily = 3
