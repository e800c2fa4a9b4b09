/* SPDX-License-Identifier: MIT */
/* work estimates: steps, memory and time of a planned run, and the limits past which it needs
 * --force */
#include "exp/exp_private.h"

#include <math.h>
#include <stddef.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/tc_fs.h"
#include "core/tc_parallel.h"
#include "exp/tc_ranks.h"
#include "report/tc_progress.h"
#include "report/tc_report.h"

/* ---------- work estimates ---------- */

double tc_work_points(const tc_method *m, double area) {
    /* the spacing a point-sampled model declares by its parameter's kind */
    const char *spacing = tc_method_param_of_kind(m, TC_PARAM_SPACING);
    double h = spacing ? tc_method_get(m, spacing) : 0;
    return h > 0 ? fmax(12, area / (h * h)) : 0;
}

/* half the machine's physical memory (B); 8 GiB where it cannot be found */
static double memory_limit(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? 0.5 * (double)pages * (double)size : 8.0 * (1 << 30);
}

/* a duration for people: "40 s", "12 min", "3.5 h", "4 days" */
static void duration(double s, char *buf, size_t n) {
    if (s < 90)
        snprintf(buf, n, "%.0f s", s < 1 ? 1 : s);
    else if (s < 5400)
        snprintf(buf, n, "%.0f min", s / 60);
    else if (s < 172800)
        snprintf(buf, n, "%.1f h", s / 3600);
    else
        snprintf(buf, n, "%.0f days", s / 86400);
}

void tc_work_describe(const tc_work *w, int threads, char *buf, size_t n) {
    if (!(w->steps > 0)) {
        snprintf(buf, n, "no estimate");
        return;
    }
    char t[32];
    duration(w->seconds / (threads > 0 ? threads : 1), t, sizeof t);
    if (w->factor > 1)
        snprintf(buf, n,
                 "about %.2g steps, %.0f MiB, up to %s if the solvers run to their "
                 "iteration caps (%.2g times the defaults)",
                 w->steps, w->bytes / (1 << 20), t, w->factor);
    else
        snprintf(buf, n, "about %.2g steps, %.0f MiB, %s", w->steps, w->bytes / (1 << 20), t);
}

tc_status tc_exp_work_check(const tc_exp *x, int force, tc_work *w, tc_error *err) {
    memset(w, 0, sizeof *w);
    if (!x->type->estimate) return TC_OK;
    x->type->estimate(x, x->state, w);
    w->factor = 1;
    for (int k = 0; k < x->nmethod; k++)
        w->factor = fmax(w->factor, tc_method_work_factor(&x->method[k].m));
    const double mem = memory_limit(),
                 secs = w->seconds / (x->threads * (x->nrank > 1 ? x->nrank : 1));
    char what[200], t[32];
    tc_work_describe(w, x->threads, what, sizeof what);
    duration(TC_WORK_MAX_SECONDS, t, sizeof t);
    if (force || (w->steps <= TC_WORK_MAX_STEPS && secs <= TC_WORK_MAX_SECONDS && w->bytes <= mem))
        return TC_OK;
    return tc_error_set(err, TC_EINVAL, x->script->path, 0, NULL,
                        "%s: %s: above the limit of %.0g steps, %s or %.0f MiB (half the memory); "
                        "lower the script's sizes (steps, grid, bodies, spacing) or pass --force "
                        "to run it anyway",
                        x->name, what, TC_WORK_MAX_STEPS, t, mem / (1 << 20));
}
