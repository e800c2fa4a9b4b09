/* SPDX-License-Identifier: MIT */
/* the check's history (OUT/history.tsv, one line per metric and digest per `touche check`): read
 * and validated, then each metric against the checks as a table and figures, so a drift shows
 * before it fails a tolerance */
#ifndef TC_HISTORY_H
#define TC_HISTORY_H

#include "core/tc_status.h"

/* one line of the history */
typedef struct tc_history_row {
    char time[32];     /* UTC, ISO 8601 */
    char revision[48]; /* git describe of the build */
    char experiment[64];
    char tier[16];
    char metric[112];  /* a metric's name, or "digest:<method>" */
    double value, ref; /* NAN for digests and missing references */
    char status[16];   /* PASS, FAIL, NEW, SKIP, CPU, MISSING, UPDATE */
    int line;          /* in the file */
} tc_history_row;

typedef struct tc_history {
    int n, cap;
    tc_history_row *r;
} tc_history;

/* read a history file: the header line exactly as `touche check` writes it, then 8 tab-separated
 * fields a line, numbers parsed whole ("nan" allowed), a known status; errors name the file, line
 * and field. h is empty on error (free it anyway) */
tc_status tc_history_read(tc_history *h, const char *path, tc_error *err);
void tc_history_free(tc_history *h);

/* write into out_dir: history.md (per experiment and tier: each metric's checks, first and last
 * value, relative change, last status; digests that changed), and per experiment and tier a
 * figure history_<experiment>_<tier> (the metrics that moved most, each over its first value,
 * against the check, revisions on the axis) rendered from <source_dir>/plots/history.gp with
 * its data history_<experiment>_<tier>.csv. Returns the number of metrics whose last value
 * differs from their first in *moved (may be NULL) */
tc_status tc_history_report(const tc_history *h, const char *out_dir, const char *source_dir,
                            int *moved, tc_error *err);

#endif
