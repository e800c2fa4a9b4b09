/* SPDX-License-Identifier: MIT */
/* the machine a timing was taken on, for captions and benchmark CSVs */
#ifndef TC_MACHINE_H
#define TC_MACHINE_H

#include <stddef.h>

/* buf = "<CPU model>, <threads> thread(s)" (the CPU from /proc/cpuinfo's first "model name",
 * "unknown CPU" where there is none); threads is what the timed code ran on */
void tc_machine_describe(char *buf, size_t n, int threads);

/* the CPU time this thread has used (s): a step timed with it is not inflated by other
 * processes (or sweep threads) sharing the cores, so a timing verdict stays put on a busy
 * machine. Work done by threads the timed code starts itself (a nested OpenMP kernel) is not
 * counted: time single-threaded code with it */
double tc_thread_cpu_time(void);

/* a benchmark table's heading: date = now as "YYYY-MM-DD HH:MM UTC", machine as
 * tc_machine_describe */
void tc_machine_stamp(char *date, size_t ndate, char *machine, size_t nmachine, int threads);

#endif
