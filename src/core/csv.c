/* SPDX-License-Identifier: MIT */
/* the validating reader of numeric CSV/TSV data files */
#include "core/tc_csv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

/* the next line that is neither a comment nor blank into r->buf (newline stripped); 0 at the end
 * of the file; -1 (with err set) for a line too long or holding a NUL byte */
static int next_line(tc_csv_reader *r, tc_error *err) {
    for (;;) {
        /* at most TC_CSV_LINE bytes are read into the line (a line of /dev/zero or a 3 GB line
         * is refused after them, never read whole) */
        size_t len = 0;
        int c = EOF, nul = 0;
        while (len <= TC_CSV_LINE && (c = getc(r->f)) != EOF) {
            nul |= c == 0;
            r->buf[len < sizeof r->buf - 1 ? len : sizeof r->buf - 1] = (char)c;
            len++;
            if (c == '\n') break;
        }
        if (len == 0 && c == EOF) return 0;
        r->line++;
        /* a NUL byte would end the C string early and the rest of the line be lost */
        if (nul) {
            tc_error_set(err, TC_EPARSE, r->path, r->line, NULL, "NUL byte in the line");
            return -1;
        }
        if (len > TC_CSV_LINE) {
            tc_error_set(err, TC_EPARSE, r->path, r->line, NULL, "line longer than %d bytes",
                         TC_CSV_LINE);
            return -1;
        }
        r->buf[len < sizeof r->buf ? len : sizeof r->buf - 1] = 0;
        r->buf[strcspn(r->buf, "\r\n")] = 0;
        if (r->buf[0] == '#') {
            if (r->on_comment) r->on_comment(r->comment_ctx, r->buf);
            continue;
        }
        if (!r->buf[strspn(r->buf, " \t")]) continue;
        return 1;
    }
}

tc_status tc_csv_open(tc_csv_reader *r, const char *path, char sep, const tc_csv_column *col,
                      int ncol, void (*on_comment)(void *ctx, const char *line), void *ctx,
                      tc_error *err) {
    memset(r, 0, sizeof *r);
    r->path = path;
    r->col = col;
    r->ncol = ncol;
    r->sep = sep;
    r->on_comment = on_comment;
    r->comment_ctx = ctx;
    r->f = fopen(path, "r");
    if (!r->f) return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot read: %s", strerror(errno));
    /* a data file is a regular file: a device or a pipe (/dev/zero) would never end */
    struct stat sb;
    if (fstat(fileno(r->f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(r->f);
        r->f = NULL;
        return tc_error_set(err, TC_EIO, path, 0, NULL,
                            "not a regular file (a device, a pipe or "
                            "a folder): name a data file");
    }
    /* the header: the column names joined by the separator, nothing else */
    char want[TC_CSV_LINE];
    want[0] = 0;
    for (int j = 0; j < ncol; j++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", j ? (char[]){sep, 0} : "",
                 col[j].name);
    int got = next_line(r, err);
    if (got < 0) {
        tc_csv_close(r);
        return TC_EPARSE;
    }
    if (!got || strcmp(r->buf, want)) {
        /* what is there is quoted only when it reads as column names: a script may name any
         * readable file, whose first line is nobody's business (/etc/shadow) */
        int names = got && r->buf[0];
        for (const char *p = r->buf; got && *p && names; p++)
            names = isalnum((unsigned char)*p) || *p == sep || strchr("_-. ()/%", *p);
        tc_status st =
            !got    ? tc_error_set(err, TC_EPARSE, path, r->line, NULL,
                                   "expected the header '%s' (the file has no data lines)", want)
            : names ? tc_error_set(err, TC_EPARSE, path, r->line, NULL,
                                   "expected the header '%s', got '%.60s'", want, r->buf)
                    : tc_error_set(err, TC_EPARSE, path, r->line, NULL,
                                   "expected the header '%s'; the first line is not a header of "
                                   "column names (not shown: is this the data file you meant?)",
                                   want);
        tc_csv_close(r);
        return st;
    }
    return TC_OK;
}

/* TC_EPARSE at the current line, the message opening with the column's name */
static tc_status col_error(const tc_csv_reader *r, const tc_csv_column *c, tc_error *err,
                           const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tc_error_set(err, TC_EPARSE, r->path, r->line, NULL, "column '%s': %s", c->name, msg);
}

/* one cell (text from s, n bytes) of column c into *v */
static tc_status cell(const tc_csv_reader *r, const tc_csv_column *c, const char *s, size_t n,
                      double *v, tc_error *err) {
    char text[128];
    if (n == 0) return col_error(r, c, err, "empty cell");
    if (n >= sizeof text)
        return col_error(r, c, err, "cell longer than %zu bytes", sizeof text - 1);
    memcpy(text, s, n);
    text[n] = 0;
    /* the whole cell must be the number: no leading or trailing spaces, units or junk */
    char *end = NULL;
    errno = 0;
    double x = c->kind == TC_CSV_INT ? (double)strtoll(text, &end, 10) : strtod(text, &end);
    if (end == text || *end || text[0] == ' ' || text[0] == '\t')
        return col_error(r, c, err, "'%s' is not %s", text,
                         c->kind == TC_CSV_INT ? "a whole number" : "a number");
    if (!isfinite(x) || errno == ERANGE) return col_error(r, c, err, "'%s' is not finite", text);
    if (text[strspn(text, "0123456789+-.eE")])
        return col_error(r, c, err, "'%s' is not a decimal number", text);
    if (x < c->lo || x > c->hi)
        return col_error(r, c, err, "%s is outside [%g, %g]", text, c->lo, c->hi);
    *v = x;
    return TC_OK;
}

tc_status tc_csv_next(tc_csv_reader *r, double *v, int *got, tc_error *err) {
    *got = 0;
    int k = next_line(r, err);
    if (k < 0) return TC_EPARSE;
    if (!k) return TC_OK;
    /* split on the separator: exactly ncol cells */
    const char *p = r->buf;
    for (int j = 0; j < r->ncol; j++) {
        const char *q = strchr(p, r->sep);
        size_t n = q ? (size_t)(q - p) : strlen(p);
        if (!q && j < r->ncol - 1)
            return tc_error_set(err, TC_EPARSE, r->path, r->line, NULL,
                                "%d cells, expected %d (%s ...)", j + 1, r->ncol, r->col[0].name);
        if (q && j == r->ncol - 1)
            return tc_error_set(err, TC_EPARSE, r->path, r->line, NULL,
                                "more than the %d cells of the header", r->ncol);
        tc_status st = cell(r, &r->col[j], p, n, &v[j], err);
        if (st) return st;
        p = q ? q + 1 : p + n;
    }
    *got = 1;
    return TC_OK;
}

void tc_csv_close(tc_csv_reader *r) {
    if (r->f) fclose(r->f);
    r->f = NULL;
}
