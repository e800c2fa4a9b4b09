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
