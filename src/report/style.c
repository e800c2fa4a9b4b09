/* SPDX-License-Identifier: MIT */
/* the one table of method styles every figure uses: a colour-blind-safe palette (Okabe-Ito and
 * Paul Tol's colours, no yellow), fixed entries for touche's methods, a hash for the rest */
#include "report/tc_plot.h"

#include <stdio.h>
#include <string.h>

/* fourteen colours told apart with the common colour-vision deficiencies, all dark enough to
 * show on white */
static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
                                      "#56B4E9", "#332288", "#117733", "#882255", "#999933",
                                      "#44AA99", "#AA4499", "#661100", "#6699CC"};
#define NPALETTE ((int)(sizeof palette / sizeof palette[0]))

/* touche's method labels: a family shares its colour and differs by dash */
static const struct {
    const char *label;
    int colour, dash;
} known[] = {
    {"mujoco", 0, 1},
    {"scm", 1, 1},
    {"scm-smooth", 1, 1},
    {"scm-medium", 1, 2},
    {"scm-sharp", 1, 3},
    {"hunt-crossley", 2, 1},
    {"pfc", 3, 1},
    {"penalty-dp", 4, 1},
    {"deepest-point", 4, 1},
    {"penalty-mp", 5, 1},
    {"multi-point", 5, 1},
    {"multi-point-r1", 5, 2},
    {"multi-point-se", 5, 3},
    {"rigid", 6, 1},
    {"lcp", 12, 1},
    {"rigid-vp", 6, 2},
    {"points", 7, 1},
    {"points-lcp", 7, 2},
    {"single-level", 8, 1},
    {"bilevel", 9, 1},
    {"convex", 8, 1},
    {"bullet", 10, 1},
    {"ode", 11, 1},
};

void tc_plot_style(const char *label, char colour[8], int *dash) {
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(known[i].label, label)) {
            snprintf(colour, 8, "%s", palette[known[i].colour]);
            *dash = known[i].dash;
            return;
        }
    /* any other label: FNV-1a of its name picks a colour and a dash */
    unsigned long long h = 1469598103934665603ull;
    for (const char *p = label; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    snprintf(colour, 8, "%s", palette[h % NPALETTE]);
    *dash = 1 + (int)((h / NPALETTE) % 4);
}

tc_status tc_plot_styles(const char *labels, char *colours, size_t nc, char *dashes, size_t nd) {
    size_t uc = 0, ud = 0;
    colours[0] = dashes[0] = 0;
    while (*labels) {
        while (*labels == ' ')
            labels++;
        if (!*labels) break;
        char label[128];
        size_t len = strcspn(labels, " ");
        snprintf(label, sizeof label, "%.*s", (int)(len < sizeof label ? len : sizeof label - 1),
                 labels);
        labels += len;
        char c[8];
        int d;
        tc_plot_style(label, c, &d);
        int a = snprintf(colours + uc, nc - uc, "%s%s", uc ? " " : "", c);
        int b = snprintf(dashes + ud, nd - ud, "%s%d", ud ? " " : "", d);
        if (a < 0 || b < 0 || uc + (size_t)a >= nc || ud + (size_t)b >= nd) return TC_EINVAL;
        uc += (size_t)a;
        ud += (size_t)b;
    }
    return TC_OK;
}
