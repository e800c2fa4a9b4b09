/* SPDX-License-Identifier: MIT */
/* the machine a timing was taken on, for captions and benchmark CSVs */
#ifndef TC_MACHINE_H
#define TC_MACHINE_H

#include <stddef.h>

/* buf = "<CPU model>, <threads> thread(s)" (the CPU from /proc/cpuinfo's first "model name",
 * "unknown CPU" where there is none); threads is what the timed code ran on */
void tc_machine_describe(char *buf, size_t n, int threads);

/* a benchmark table's heading: date = now as "YYYY-MM-DD HH:MM UTC", machine as
 * tc_machine_describe */
void tc_machine_stamp(char *date, size_t ndate, char *machine, size_t nmachine, int threads);

#endif
