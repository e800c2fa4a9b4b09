/* SPDX-License-Identifier: MIT */
/* progress line on stderr, redrawn at most 10 times a second from any thread, and every half
 * second by a thread of its own while items run long */
#include "report/tc_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "core/tc_status.h"

double tc_wall_time(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* "label  123/400  31%  2.1 s  eta 4.6 s" over the current line; after an interrupt what the
 * program does until it stops */
static void draw(const tc_progress *p, long done, double now) {
    double el = now - p->t0;
    if (tc_interrupted())
        fprintf(stderr,
                "\r%s  %ld/%ld  %.1f s  interrupted: finishing the current step of the "
                "running items, then stopping\033[K",
                p->label, done, p->total, el);
    else if (p->total > 0 && done > 0)
        fprintf(stderr, "\r%s  %ld/%ld  %3.0f%%  %.1f s  eta %.1f s\033[K", p->label, done,
                p->total, 100.0 * (double)done / (double)p->total, el,
                el * (double)(p->total - done) / (double)done);
    else
        fprintf(stderr, "\r%s  %ld/%ld  %.1f s\033[K", p->label, done, p->total, el);
    fflush(stderr);
}

/* a redraw with `done` items when one is due (`every` s after the last, or force): the thread
 * that moves `last` forward draws */
static void redraw_due(tc_progress *p, long done, double every, int force) {
    if (!__atomic_load_n(&p->enabled, __ATOMIC_RELAXED)) return;
    double now = tc_wall_time(), last;
    __atomic_load(&p->last, &last, __ATOMIC_RELAXED);
    if (!force && now - last < every) return;
    if (__atomic_compare_exchange(&p->last, &last, &now, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        draw(p, done, now);
}

/* the redraw thread: wakes 5 times a second; redraws when the line is half a second old, and at
 * once when an interrupt arrives */
static void *ticker(void *arg) {
    tc_progress *p = arg;
    int shown = 0;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->wake, &p->lock, &until);
        if (p->stop) break;
        int now_interrupted = tc_interrupted() && !shown;
        shown |= now_interrupted;
        redraw_due(p, __atomic_load_n(&p->done, __ATOMIC_RELAXED), 0.5, now_interrupted);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

void tc_progress_start(tc_progress *p, const char *label, long total) {
    snprintf(p->label, sizeof p->label, "%s", label ? label : "");
    p->total = total;
    p->done = 0;
    p->t0 = tc_wall_time();
    p->last = p->t0;
    /* only a person watching a terminal wants it, and anyone may switch it off */
    p->enabled = isatty(2) && !getenv("TOUCHE_NO_PROGRESS");
    p->stop = 0;
    p->ticking = 0;
    if (!p->enabled) return;
    /* the redraw thread; without it the line still moves with every item */
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    p->ticking = pthread_create(&p->ticker, NULL, ticker, p) == 0;
    if (!p->ticking) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
    }
}

void tc_progress_tick(tc_progress *p) {
    redraw_due(p, __atomic_add_fetch(&p->done, 1, __ATOMIC_RELAXED), 0.1, 0);
}

void tc_progress_to(tc_progress *p, long done) {
    long seen = __atomic_load_n(&p->done, __ATOMIC_RELAXED);
    while (done > seen && !__atomic_compare_exchange_n(&p->done, &seen, done, 0, __ATOMIC_RELAXED,
                                                       __ATOMIC_RELAXED)) {
    }
    redraw_due(p, done, 0.1, 0);
}

void tc_progress_end(tc_progress *p) {
    /* the redraw thread first, so that nothing draws over the last line */
    if (p->ticking) {
        pthread_mutex_lock(&p->lock);
        p->stop = 1;
        pthread_cond_signal(&p->wake);
        pthread_mutex_unlock(&p->lock);
        pthread_join(p->ticker, NULL);
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        p->ticking = 0;
    }
    if (!p->enabled) return;
    long done = __atomic_load_n(&p->done, __ATOMIC_RELAXED);
    fprintf(stderr, "\r%s  %ld/%ld  %s %.1f s\033[K\n", p->label, done, p->total,
            tc_interrupted() ? "interrupted after" : "done in", tc_wall_time() - p->t0);
    fflush(stderr);
}
