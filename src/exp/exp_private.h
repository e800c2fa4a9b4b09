/* SPDX-License-Identifier: MIT */
/* what the runner's files share and drivers do not see */
#ifndef TC_EXP_PRIVATE_H
#define TC_EXP_PRIVATE_H

#include "exp/tc_experiment.h"

/* resolve x's methods from its script, the registry, the filter and the overrides */
tc_status tc_exp_resolve(tc_exp *x, tc_error *err);

/* 1 when s is a valid label (1..TC_LABEL_MAX of [A-Za-z0-9_-], not starting with '-'); else 0
 * and why in buf */
int tc_label_ok(const char *s, char *why, size_t n);

/* the section: open the in-memory streams with the heading; close and write section.md/.tex */
tc_status tc_section_begin(tc_exp *x);
tc_status tc_section_end(tc_exp *x, tc_error *err);

/* append Markdown text md to the section as a paragraph, and its LaTeX form */
void tc_section_para(tc_exp *x, const char *md);

/* md with LaTeX specials escaped, `code` as \texttt{code}, **bold** as \textbf{bold} */
void tc_md_to_tex(FILE *f, const char *md);

#endif
