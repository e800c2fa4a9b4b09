/* SPDX-License-Identifier: MIT */
/* progress line on stderr, redrawn at most 10 times a second from any thread */
#include "report/tc_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

double tc_wall_time(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void tc_progress_start(tc_progress *p, const char *label, long total) {
    snprintf(p->label, sizeof p->label, "%s", label ? label : "");
    p->total = total;
    p->done = 0;
    p->t0 = tc_wall_time();
    p->last = p->t0;
    /* only a person watching a terminal wants it, and anyone may switch it off */
    p->enabled = isatty(2) && !getenv("TOUCHE_NO_PROGRESS");
}

/* "label  123/400  31%  2.1 s  eta 4.6 s" over the current line */
static void draw(const tc_progress *p, long done, double now) {
    double el = now - p->t0;
    if (p->total > 0 && done > 0)
        fprintf(stderr, "\r%s  %ld/%ld  %3.0f%%  %.1f s  eta %.1f s\033[K", p->label, done,
                p->total, 100.0 * (double)done / (double)p->total, el,
                el * (double)(p->total - done) / (double)done);
    else
        fprintf(stderr, "\r%s  %ld  %.1f s\033[K", p->label, done, el);
    fflush(stderr);
}

/* a redraw with `done` items when one is due: the thread that moves `last` forward draws */
static void redraw_due(tc_progress *p, long done) {
    if (!p->enabled) return;
    double now = tc_wall_time(), last;
    __atomic_load(&p->last, &last, __ATOMIC_RELAXED);
    if (now - last < 0.1) return;
    if (__atomic_compare_exchange(&p->last, &last, &now, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        draw(p, done, now);
}

void tc_progress_tick(tc_progress *p) { redraw_due(p, __atomic_add_fetch(&p->done, 1, __ATOMIC_RELAXED)); }

void tc_progress_to(tc_progress *p, long done) {
    long seen = __atomic_load_n(&p->done, __ATOMIC_RELAXED);
    while (done > seen &&
           !__atomic_compare_exchange_n(&p->done, &seen, done, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    redraw_due(p, done);
}

void tc_progress_end(tc_progress *p) {
    if (!p->enabled) return;
    long done = __atomic_load_n(&p->done, __ATOMIC_RELAXED);
    fprintf(stderr, "\r%s  %ld/%ld  done in %.1f s\033[K\n", p->label, done, p->total,
            tc_wall_time() - p->t0);
    fflush(stderr);
}
