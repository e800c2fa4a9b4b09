/* SPDX-License-Identifier: MIT */
/* the check's history (OUT/history.tsv, one line per metric and digest per `touche check`): read
 * and validated, then each metric against the checks as a table and figures, so a drift shows
 * before it fails a tolerance */
#ifndef TC_HISTORY_H
#define TC_HISTORY_H

#include "core/tc_status.h"

/* the first line of the file: the columns */
#define TC_HISTORY_HEADER "time\trevision\texperiment\ttier\tmetric\tvalue\treference\tstatus"

/* one line of the history; the strings live in the history's own storage */
typedef struct tc_history_row {
    const char *time;       /* UTC, ISO 8601 */
    const char *revision;   /* git describe of the build */
    const char *experiment; /* a name (tc_metrics_name_ok): it names the figures' files */
    const char *tier;       /* the same */
    const char *metric;     /* a metric's name, or "digest:<method>" */
    double value, ref;      /* NAN for digests and missing references */
    const char *status;     /* PASS, FAIL, NEW, SKIP, CPU, MISSING, TIME, SLOW, UPDATE */
    int line;               /* in the file */
} tc_history_row;

#define TC_HISTORY_SKIPS 10 /* malformed lines whose reason is kept */

typedef struct tc_history {
    int n, cap;
    tc_history_row *r;
    int nskipped;                       /* malformed lines left out */
    tc_error skipped[TC_HISTORY_SKIPS]; /* the first of them: file, line, field and why */
    struct tc_history_text *text;       /* the rows' strings */
} tc_history;

/* read a history file: the header line exactly as `touche check` writes it (else TC_EINVAL: not
 * a history file), then 8 tab-separated fields a line, numbers parsed whole ("nan" allowed), a
 * known status. A line that is not so (a cut line, a hand edit) is left out and counted in
 * nskipped, the first ones kept in skipped naming its line and field; the rest is read. Memory
 * grows with the file (its text once plus about 80 bytes a line). h is empty on error (free it
 * anyway) */
tc_status tc_history_read(tc_history *h, const char *path, tc_error *err);
void tc_history_free(tc_history *h);

/* write into out_dir: history.md (per experiment and tier: each metric's checks, first and last
 * value, relative change, last status; digests that changed), and per experiment and tier a
 * figure history_<experiment>_<tier> (the metrics that moved most, each over its first value,
 * against the check, revisions on the axis) rendered from <source_dir>/plots/history.gp with
 * its data history_<experiment>_<tier>.csv (source_dir NULL: the data only). The lines the reader
 * left out are listed. Time and memory grow as the file's lines times their logarithm. Returns the
 * number of metrics whose last value differs from their first in *moved (may be NULL) */
tc_status tc_history_report(const tc_history *h, const char *out_dir, const char *source_dir,
                            int *moved, tc_error *err);

#endif
