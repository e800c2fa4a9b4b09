/* SPDX-License-Identifier: MIT */
/* method styles (src/report/style.c): one style per method across figures, and every template
 * takes them from the one table */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_plot.h"
#include "test_scratch.h"

/* one method, one style, whichever figure and position: mujoco's colour in two label lists;
 * touche's methods told apart; no colour too light to see on white */
Test(style, a_method_keeps_its_style_across_figures) {
    char c1[256], d1[64], c2[256], d2[64];
    cr_assert_eq(tc_plot_styles("scm-sharp pfc mujoco", c1, sizeof c1, d1, sizeof d1), TC_OK);
    cr_assert_eq(tc_plot_styles("mujoco points", c2, sizeof c2, d2, sizeof d2), TC_OK);
    cr_expect(!strncmp(c1 + 16, c2, 7), "mujoco: '%s' against '%s'", c1, c2);
    static const char *const known[] = {
        "mujoco",     "scm",        "scm-medium",     "scm-sharp",      "hunt-crossley", "pfc",
        "penalty-dp", "penalty-mp", "multi-point-r1", "multi-point-se", "rigid",         "lcp",
        "rigid-vp",   "points",     "single-level",   "bilevel",        "bullet",        "ode"};
    const int n = sizeof known / sizeof *known;
    char col[32][8];
    int dash[32];
    for (int i = 0; i < n; i++) {
        tc_plot_style(known[i], col[i], &dash[i]);
        unsigned r, g, b;
        cr_assert_eq(sscanf(col[i] + 1, "%2x%2x%2x", &r, &g, &b), 3, "%s", col[i]);
        double lum = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        cr_expect_lt(lum, 0.7, "%s's colour %s is too light", known[i], col[i]);
        for (int j = 0; j < i; j++)
            cr_expect(strcmp(col[i], col[j]) || dash[i] != dash[j], "%s and %s look alike",
                      known[i], known[j]);
    }
    /* a label touche does not know gets the same style every time */
    char a[8], b[8];
    int da, db;
    tc_plot_style("my-new-model", a, &da);
    tc_plot_style("my-new-model", b, &db);
    cr_expect(!strcmp(a, b) && da == db);
}

/* every template that draws methods (the experiments' own and plots/) takes their styles from
 * touche, none keeps its own palette */
Test(style, templates_use_the_one_style_table) {
    const char *src = getenv("TOUCHE_SOURCE_DIR");
    char pattern[2][1100];
    snprintf(pattern[0], sizeof pattern[0], "%s/plots/*.gp", src);
    snprintf(pattern[1], sizeof pattern[1], "%s/experiments/*/*.gp", src);
    glob_t g;
    cr_assert_eq(glob(pattern[0], 0, NULL, &g), 0, "%s", pattern[0]);
    cr_assert_eq(glob(pattern[1], GLOB_APPEND, NULL, &g), 0, "%s", pattern[1]);
    int checked = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *path = g.gl_pathv[i], *name = strrchr(path, '/') + 1;
        char *t = slurp(path);
        cr_assert_not_null(t, "%s", path);
        /* a template with a line or point per method (a panel per method needs no colour) */
        if ((strstr(t, "with lines") || strstr(t, "with points") ||
             strstr(t, "with linespoints")) &&
            (strstr(t, "word(labels") || strstr(t, "word(colors"))) {
            /* small multiples (a template that says "one panel per method") name the method in
             * each panel's title: the colour is still the method's, its dash free for another
             * meaning (E7's omega r dashed) */
            int per_panel = strstr(t, "one panel per method") != NULL;
            /* a method drawn as a point only (no line of its own) has no dash to take */
            int points_only = !strstr(t, "with lines") && !strstr(t, "with linespoints");
            cr_expect(strstr(t, "word(colors") &&
                          (per_panel || points_only || strstr(t, "word(dashes")),
                      "%s: no method styles", name);
            cr_expect_null(strstr(t, "lc k+1"), "%s colours methods by position", name);
            checked++;
        }
        cr_expect_null(strstr(t, "colors ="), "%s sets its own palette", name);
        free(t);
    }
    globfree(&g);
    cr_expect_geq(checked, 7, "templates that draw methods: %d", checked);
}
