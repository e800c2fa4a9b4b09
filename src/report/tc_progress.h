/* SPDX-License-Identifier: MIT */
/* progress display on stderr (only when stderr is a terminal); safe to tick from threads */
#ifndef TC_PROGRESS_H
#define TC_PROGRESS_H

typedef struct tc_progress {
    char label[64];
    long total;
    long done;      /* updated atomically */
    double t0;      /* wall clock at start (s) */
    double last;    /* last redraw (s) */
    int enabled;    /* stderr is a tty and TOUCHE_NO_PROGRESS is unset */
} tc_progress;

void tc_progress_start(tc_progress *p, const char *label, long total);
/* one more item done; redraws at most 10 times a second: "label  123/400  31%  2.1 s  eta 4.6 s" */
void tc_progress_tick(tc_progress *p);
/* done items counted elsewhere (the ranks of a machine together): at least `done` now, redrawn
 * like tick */
void tc_progress_to(tc_progress *p, long done);
/* final line with the elapsed time */
void tc_progress_end(tc_progress *p);

/* wall-clock seconds (monotonic) */
double tc_wall_time(void);

#endif
