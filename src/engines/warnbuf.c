/* SPDX-License-Identifier: MIT */
/* engine adapters' queue of warning lines (MuJoCo, ODE, Bullet) */
#include "engines/tc_warnbuf.h"

#include <stdio.h>
#include <string.h>

void tc_warnbuf_push(tc_warnbuf *w, const char *prefix, const char *msg) {
    int room = (int)sizeof w->text - w->len;
    int n = snprintf(w->text + w->len, room > 0 ? (size_t)room : 0, "%s%s\n", prefix, msg);
    /* a line that does not fit is counted, not cut */
    if (n < 0 || n >= room) {
        if (room > 0) w->text[w->len] = '\0';
        w->dropped++;
        return;
    }
    for (int i = w->len; i < w->len + n - 1; i++)
        if (w->text[i] == '\n' || w->text[i] == '\r') w->text[i] = ' ';
    w->len += n;
    w->count++;
}

int tc_warnbuf_drain(tc_warnbuf *w, const char *what, char *buf, int n, int *used) {
    int count = w->count;
    /* the dropped lines, as one line of their own where it fits */
    if (w->dropped) {
        char more[96];
        int k = snprintf(more, sizeof more, "%d more %s dropped\n", w->dropped, what);
        if (k > 0 && w->len + k < (int)sizeof w->text) {
            memcpy(w->text + w->len, more, (size_t)k + 1);
            w->len += k;
            count++;
        }
    }
    /* as much as buf holds after what it already has */
    if (buf && n > *used) {
        int k = w->len < n - 1 - *used ? w->len : n - 1 - *used;
        if (k > 0) memcpy(buf + *used, w->text, (size_t)k);
        *used += k > 0 ? k : 0;
        buf[*used] = '\0';
    }
    w->len = w->count = w->dropped = 0;
    w->text[0] = '\0';
    return count;
}
