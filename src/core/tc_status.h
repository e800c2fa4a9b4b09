/* SPDX-License-Identifier: MIT */
/* status codes and error records shared by every layer */
#ifndef TC_STATUS_H
#define TC_STATUS_H

#include <stddef.h>

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* status codes: library functions return these; only the CLI prints and exits */
typedef enum tc_status {
    TC_OK = 0,
    TC_EINVAL,    /* invalid argument or parameter value */
    TC_ENOMEM,    /* allocation failed */
    TC_EIO,       /* file could not be read or written */
    TC_EPARSE,    /* malformed script or data file */
    TC_ENOTFOUND, /* unknown name (method, experiment, parameter) */
    TC_EUNSUP,    /* the method cannot handle this scene (capability missing) */
    TC_EDIVERGED, /* a run produced NaN/Inf or blew up */
    TC_EENGINE,   /* an external engine (MuJoCo, ccx, ...) reported an error */
    TC_ECHECK,    /* a reference check failed */
    TC_EINTR,     /* interrupted (SIGINT, SIGTERM): the work was abandoned */
} tc_status;

/* a human-readable name for a status code */
const char *tc_status_str(tc_status s);

/* error record: where (file, line, parameter) and what; filled by the failing layer */
typedef struct tc_error {
    char file[256]; /* file the error refers to, "" if none */
    int line;       /* 1-based line in file, 0 if unknown */
    char param[64]; /* parameter or setting name, "" if none */
    char msg[512];  /* what went wrong and what to fix */
} tc_error;

/* clear an error record */
void tc_error_clear(tc_error *err);

/* fill an error record (err may be NULL); returns status so callers can `return tc_error_set(...)`
 */
tc_status tc_error_set(tc_error *err, tc_status status, const char *file, int line,
                       const char *param, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* interrupts: the program's signal handler calls tc_interrupt (async-signal-safe: it only
 * sets a flag); long loops poll tc_interrupted and give up with TC_EINTR */
void tc_interrupt(void);
int tc_interrupted(void);

/* format "file:line: parameter 'p': message" into buf */
void tc_error_format(const tc_error *err, char *buf, size_t n);

/* print "touche: error: <tc_error_format>" on stderr, or the status's name when err holds no
 * message (err may be NULL) */
void tc_error_print(const tc_error *err, tc_status status);

#ifdef __cplusplus
}
#endif

#endif
