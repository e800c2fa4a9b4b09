/* SPDX-License-Identifier: MIT */
/* the machine a timing was taken on: CPU model and thread count */
#include "core/tc_machine.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

double tc_thread_cpu_time(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void tc_machine_describe(char *buf, size_t n, int threads) {
    char cpu[256] = "unknown CPU", line[512];
    /* the first "model name" line of /proc/cpuinfo (Linux), its value with spaces squeezed */
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) || !colon) continue;
        size_t k = 0;
        for (const char *p = colon + 1; *p && k + 1 < sizeof cpu; p++) {
            if (*p == '\n') break;
            if (*p == ' ' && (k == 0 || cpu[k - 1] == ' ')) continue;
            cpu[k++] = *p;
        }
        while (k > 0 && cpu[k - 1] == ' ')
            k--;
        cpu[k] = 0;
        if (!k) strcpy(cpu, "unknown CPU");
        break;
    }
    if (f) fclose(f);
    snprintf(buf, n, "%s, %d thread%s", cpu, threads, threads == 1 ? "" : "s");
}

void tc_machine_stamp(char *date, size_t ndate, char *machine, size_t nmachine, int threads) {
    time_t now = time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm) || !strftime(date, ndate, "%Y-%m-%d %H:%M UTC", &tm))
        snprintf(date, ndate, "unknown date");
    tc_machine_describe(machine, nmachine, threads);
}
