/* SPDX-License-Identifier: MIT */
/* status names and error records */
#include "core/tc_status.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *tc_status_str(tc_status s) {
    switch (s) {
    case TC_OK:
        return "ok";
    case TC_EINVAL:
        return "invalid value";
    case TC_ENOMEM:
        return "out of memory";
    case TC_EIO:
        return "i/o error";
    case TC_EPARSE:
        return "parse error";
    case TC_ENOTFOUND:
        return "not found";
    case TC_EUNSUP:
        return "unsupported";
    case TC_EDIVERGED:
        return "diverged";
    case TC_EENGINE:
        return "engine error";
    case TC_ECHECK:
        return "check failed";
    case TC_EINTR:
        return "interrupted";
    }
    return "unknown status";
}

void tc_error_clear(tc_error *err) {
    if (err) memset(err, 0, sizeof *err);
}

tc_status tc_error_set(tc_error *err, tc_status status, const char *file, int line,
                       const char *param, const char *fmt, ...) {
    if (!err) return status;
    /* keep the first error: the innermost layer knows most */
    if (err->msg[0]) return status;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    snprintf(err->param, sizeof err->param, "%s", param ? param : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return status;
}

void tc_error_format(const tc_error *err, char *buf, size_t n) {
    char where[320] = "";
    if (err->file[0] && err->line > 0)
        snprintf(where, sizeof where, "%s:%d: ", err->file, err->line);
    else if (err->file[0])
        snprintf(where, sizeof where, "%s: ", err->file);
    if (err->param[0])
        snprintf(buf, n, "%sparameter '%s': %s", where, err->param, err->msg);
    else
        snprintf(buf, n, "%s%s", where, err->msg);
}

void tc_error_print(const tc_error *err, tc_status status) {
    char buf[1200];
    if (err && err->msg[0])
        tc_error_format(err, buf, sizeof buf);
    else
        snprintf(buf, sizeof buf, "%s", tc_status_str(status));
    fprintf(stderr, "touche: error: %s\n", buf);
}

/* set from a signal handler, read by every thread */
static volatile sig_atomic_t interrupted;

void tc_interrupt(void) {
    interrupted = 1;
}

int tc_interrupted(void) {
    return interrupted != 0;
}
