/* SPDX-License-Identifier: MIT */
/* the progress line (src/report/progress.c): ticks from many threads all count; on a terminal,
 * redrawn while an item runs long (the elapsed time moves), and at once after an interrupt,
 * saying what the run does until it stops */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/tc_status.h"
#include "report/tc_progress.h"

/* sleep s seconds */
static void nap(double s) {
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}

/* how many times needle occurs in hay */
static int count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

Test(progress, redrawn_during_a_long_item_and_on_interrupt) {
    /* stderr on a pseudo-terminal, as a person watching sees it */
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    cr_assert_geq(m, 0);
    cr_assert_eq(grantpt(m), 0);
    cr_assert_eq(unlockpt(m), 0);
    int s = open(ptsname(m), O_RDWR | O_NOCTTY);
    cr_assert_geq(s, 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(s, 2);
    unsetenv("TOUCHE_NO_PROGRESS");

    /* one item done at once, then 1.3 s without another, then an interrupt */
    tc_progress p;
    tc_progress_start(&p, "slow", 4);
    int enabled = p.enabled;
    tc_progress_tick(&p);
    nap(1.3);
    int before = 0;
    char out[8192];
    size_t len = 0;
    /* what was drawn so far (the master side of the terminal) */
    fcntl(m, F_SETFL, O_NONBLOCK);
    for (ssize_t r; (r = read(m, out + len, sizeof out - 1 - len)) > 0;)
        len += (size_t)r;
    out[len] = 0;
    before = count(out, "\rslow  1/4");
    tc_interrupt();
    nap(0.5);
    tc_progress_end(&p);
    fflush(stderr);
    dup2(saved, 2);
    for (ssize_t r; (r = read(m, out + len, sizeof out - 1 - len)) > 0;)
        len += (size_t)r;
    out[len] = 0;
    close(s);
    close(m);
    close(saved);

    cr_assert(enabled, "the progress line is off on a terminal");
    /* redrawn every half second while the item runs: at 0.5 s and 1 s at least */
    cr_assert_geq(before, 2, "the line was drawn %d times in 1.3 s without items: '%s'", before,
                  out);
    cr_assert_not_null(strstr(out, "interrupted: finishing the current step"),
                       "no word of the interrupt: '%s'", out);
    cr_assert_not_null(strstr(out, "interrupted after"), "the last line: '%s'", out);
}

Test(progress, ticks_from_threads_all_count) {
    tc_progress p;
    tc_progress_start(&p, "test", 20000);
    p.enabled = 1; /* exercise the redraw path even without a terminal */
    cr_redirect_stderr();
    double t0 = tc_wall_time();
#pragma omp parallel for
    for (int i = 0; i < 20000; i++)
        tc_progress_tick(&p);
    tc_progress_end(&p);
    cr_assert_eq(p.done, 20000);
    cr_assert_geq(tc_wall_time(), t0);
}
