/* SPDX-License-Identifier: MIT */
/* progress display on stderr (only when stderr is a terminal); safe to tick from threads */
#ifndef TC_PROGRESS_H
#define TC_PROGRESS_H

#include <pthread.h>

typedef struct tc_progress {
    char label[64];
    long total;
    long done;   /* updated atomically */
    double t0;   /* wall clock at start (s) */
    double last; /* last redraw (s) */
    int enabled; /* stderr is a tty and TOUCHE_NO_PROGRESS is unset */
    /* the redraw thread (while enabled): the line moves during long items, and an interrupt
     * shows within a fraction of a second */
    int ticking, stop;
    pthread_t ticker;
    pthread_mutex_t lock;
    pthread_cond_t wake;
} tc_progress;

/* starts the redraw thread when the line is enabled; every start needs its end */
void tc_progress_start(tc_progress *p, const char *label, long total);
/* one more item done; redraws at most 10 times a second: "label  123/400  31%  2.1 s  eta 4.6 s";
 * between items the line is redrawn every half second (the elapsed time moves), and after an
 * interrupt (tc_interrupted) it says "interrupted: finishing the current step of N running" */
void tc_progress_tick(tc_progress *p);
/* done items counted elsewhere (the ranks of a machine together): at least `done` now, redrawn
 * like tick */
void tc_progress_to(tc_progress *p, long done);
/* stops the redraw thread; final line with the elapsed time ("interrupted after" on an
 * interrupt) */
void tc_progress_end(tc_progress *p);

/* wall-clock seconds (monotonic) */
double tc_wall_time(void);

#endif
