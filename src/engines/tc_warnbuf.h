/* SPDX-License-Identifier: MIT */
/* engine adapters' queue of warning lines, emptied by their warnings() call */
#ifndef TC_WARNBUF_H
#define TC_WARNBUF_H

/* warning lines waiting for warnings(): text, its length, lines held, lines dropped when full */
typedef struct tc_warnbuf {
    char text[4096];
    int len, count, dropped;
} tc_warnbuf;

/* append "prefix msg" as one line (newlines in msg flattened); a full buffer counts what it
 * drops */
void tc_warnbuf_push(tc_warnbuf *w, const char *prefix, const char *msg);

/* move w's lines (and "N more <what> dropped" when any were) into buf[n] at *used, advancing
 * *used and keeping buf terminated; empties w; returns the number of lines moved */
int tc_warnbuf_drain(tc_warnbuf *w, const char *what, char *buf, int n, int *used);

#endif
