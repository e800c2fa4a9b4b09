/* SPDX-License-Identifier: MIT */
/* digests of an experiment's results, one per method: FNV-1a 64 over the parts of its result
 * files and metrics that belong to it, so a new method adds a digest and changes no other */
#include "report/tc_metrics.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/tc_fs.h"

#define MAXCOL 256

/* ---------- the digest ---------- */

static void fnv(uint64_t *h, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ (unsigned char)s[i]) * 1099511628211ull;
}

static void fnv_str(uint64_t *h, const char *s) {
    fnv(h, s, strlen(s));
}

/* ---------- CSV lines ---------- */

/* split line (no newline) into cells at commas outside double quotes; cells point into buf,
 * quotes kept (the digest takes the text as written); returns the count */
static int split(char *buf, char **cell, int max) {
    int n = 0, quoted = 0;
    cell[n++] = buf;
    for (char *p = buf; *p; p++) {
        if (*p == '"')
            quoted = !quoted;
        else if (*p == ',' && !quoted && n < max) {
            *p = '\0';
            cell[n++] = p + 1;
        }
    }
    return n;
}

/* 1 when name is one of the comma-separated names in list */
static int listed(const char *list, const char *name) {
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == len && strncmp(p, name, len) == 0) return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

/* the index of a method label, -1 when none ran under that name */
static int method_of(const tc_metrics *ms, const char *label) {
    return label[0] ? tc_metrics_find_method(ms, label) : -1;
}

/* a file's lines, one at a time, without the newline; NULL at the end */
typedef struct reader {
    FILE *f;
    char *line;
    size_t cap;
} reader;

static char *next_line(reader *r) {
    ssize_t len = getline(&r->line, &r->cap, r->f);
    if (len < 0) return NULL;
    while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r'))
        r->line[--len] = '\0';
    return r->line;
}

/* feed the cells of one row to h: the cells whose keep flag is set, comma-joined */
static void feed_row(uint64_t *h, char **cell, int n, const unsigned char *keep) {
    int first = 1;
    for (int c = 0; c < n; c++) {
        if (!keep[c]) continue;
        if (!first) fnv_str(h, ",");
        fnv_str(h, cell[c]);
        first = 0;
    }
    fnv_str(h, "\n");
}

/* ---------- layouts ---------- */

/* the header row (the first line not starting with '#'), split; 0 when there is none */
static int header(reader *r, char **hdr, char **cell) {
    for (char *l; (l = next_line(r));) {
        if (l[0] == '#') continue;
        *hdr = strdup(l);
        return *hdr ? split(*hdr, cell, MAXCOL) : 0;
    }
    return 0;
}

/* columns and rows: a header, then rows split into cells */
static tc_status digest_table(reader *r, const tc_results_file *rf, const tc_metrics *ms,
                              uint64_t *h, int shared) {
    char *hdr = NULL, *head[MAXCOL], *cell[MAXCOL];
    int nh = header(r, &hdr, head);
    if (nh == 0) {
        free(hdr);
        return TC_OK;
    }
    int owner[MAXCOL], label_col = -1;
    unsigned char keep[MAXCOL], mine[MAXCOL], *has = calloc((size_t)ms->nmethod + 1, 1);
    if (!has) {
        free(hdr);
        return TC_ENOMEM;
    }
    for (int c = 0; c < nh; c++) {
        owner[c] = rf->layout == TC_RESULTS_COLUMNS ? method_of(ms, head[c]) : -1;
        keep[c] = !listed(rf->drop, head[c]);
        if (!strcmp(head[c], "label")) label_col = c;
        if (owner[c] >= 0) has[owner[c]] = 1;
    }
    /* the key columns of the header to the experiment's digest, each method's column with the
     * keys to its own */
    for (int m = -1; m < ms->nmethod; m++) {
        if (m >= 0 && !has[m]) continue;
        for (int c = 0; c < nh; c++)
            mine[c] = keep[c] && (owner[c] < 0 || owner[c] == m);
        feed_row(&h[m < 0 ? shared : m], head, nh, mine);
    }
    for (char *l; (l = next_line(r));) {
        if (l[0] == '#') continue;
        int n = split(l, cell, MAXCOL);
        if (n > nh) n = nh;
        if (rf->layout == TC_RESULTS_ROWS) {
            /* the whole row to its method (a row of no method that ran: the experiment's) */
            int m = label_col >= 0 && label_col < n ? method_of(ms, cell[label_col]) : -1;
            feed_row(&h[m < 0 ? shared : m], cell, n, keep);
            continue;
        }
        /* columns: each method its keys and its own cells (blank lines too: gnuplot blocks) */
        for (int m = 0; m < ms->nmethod; m++) {
            if (!has[m]) continue;
            for (int c = 0; c < n; c++)
                mine[c] = keep[c] && (owner[c] < 0 || owner[c] == m);
            feed_row(&h[m], cell, n, mine);
        }
    }
    free(has);
    free(hdr);
    return TC_OK;
}

/* blocks: labels from the "one block per method:" line, blocks split at blank lines */
static tc_status digest_blocks(reader *r, const tc_metrics *ms, uint64_t *h, int shared) {
    char labels[4096] = "", *lab[MAXCOL];
    int nlab = 0, block = 0, blank = 0;
    unsigned char keep[MAXCOL];
    memset(keep, 1, sizeof keep);
    for (char *l; (l = next_line(r));) {
        if (l[0] == '#') {
            const char *at = strstr(l, "one block per method:");
            if (at && !nlab) {
                snprintf(labels, sizeof labels, "%s", at + strlen("one block per method:"));
                for (char *sv = NULL, *t = strtok_r(labels, " \t", &sv); t && nlab < MAXCOL;
                     t = strtok_r(NULL, " \t", &sv))
                    lab[nlab++] = t;
            }
            continue;
        }
        if (!l[0]) {
            blank = 1;
            continue;
        }
        if (blank) {
            block++;
            blank = 0;
        }
        int m = block < nlab ? method_of(ms, lab[block]) : -1;
        char *cell[MAXCOL];
        int n = split(l, cell, MAXCOL);
        feed_row(&h[m < 0 ? shared : m], cell, n, keep);
    }
    return TC_OK;
}

/* the whole file, byte for byte */
static tc_status digest_shared(reader *r, uint64_t *h) {
    for (char *l; (l = next_line(r));) {
        fnv_str(h, l);
        fnv_str(h, "\n");
    }
    return TC_OK;
}

/* ---------- the files of a spec ---------- */

static int by_name(const struct dirent **a, const struct dirent **b) {
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* digest one file of layout rf into h[] (h[shared] the experiment's); owner is the method of a
 * TC_RESULTS_FILES file */
static tc_status digest_file(const char *path, const char *name, const tc_results_file *rf,
                             const tc_metrics *ms, uint64_t *h, int shared, int owner) {
    reader r = {fopen(path, "r"), NULL, 0};
    if (!r.f) return TC_OK;
    /* the digests it concerns learn its name (a method's own file: that method's only) */
    for (int m = 0; m <= shared; m++)
        if (rf->layout != TC_RESULTS_FILES || m == (owner >= 0 ? owner : shared)) {
            fnv_str(&h[m], "file:");
            fnv_str(&h[m], name);
            fnv_str(&h[m], "\n");
        }
    tc_status st = TC_OK;
    if (rf->layout == TC_RESULTS_SHARED)
        st = digest_shared(&r, &h[shared]);
    else if (rf->layout == TC_RESULTS_BLOCKS)
        st = digest_blocks(&r, ms, h, shared);
    else if (rf->layout == TC_RESULTS_FILES) {
        /* one method's file: its rows (dropped columns left out) into that method's digest */
        const tc_results_file rows = {rf->pattern, TC_RESULTS_ROWS, rf->drop};
        const tc_metrics none = {.nmethod = 0};
        st = digest_table(&r, &rows, &none, &h[owner >= 0 ? owner : shared], 0);
    } else
        st = digest_table(&r, rf, ms, h, shared);
    free(r.line);
    fclose(r.f);
    return st;
}

tc_status tc_results_hash(const char *dir, const tc_results_file *spec, tc_metrics *ms,
                          tc_error *err) {
    int shared = ms->nmethod;
    uint64_t *h = malloc(((size_t)shared + 1) * sizeof *h);
    if (!h) return tc_error_set(err, TC_ENOMEM, dir, 0, NULL, "out of memory hashing %s", dir);
    for (int m = 0; m <= shared; m++)
        h[m] = 14695981039346656037ull;
    tc_status st = TC_OK;
    char path[1280];
    for (const tc_results_file *rf = spec; rf && rf->pattern && st == TC_OK; rf++) {
        if (rf->layout != TC_RESULTS_FILES) {
            if (tc_path_join(path, sizeof path, dir, rf->pattern)) continue;
            st = digest_file(path, rf->pattern, rf, ms, h, shared, -1);
            continue;
        }
        /* one file per method: prefix*suffix, in name order */
        const char *star = strchr(rf->pattern, '*');
        size_t pre = star ? (size_t)(star - rf->pattern) : strlen(rf->pattern);
        const char *suf = star ? star + 1 : "";
        struct dirent **ents;
        int ne = scandir(dir, &ents, NULL, by_name);
        for (int i = 0; i < ne; i++) {
            const char *nm = ents[i]->d_name;
            size_t len = strlen(nm), ls = strlen(suf);
            if (st == TC_OK && star && len > pre + ls && !strncmp(nm, rf->pattern, pre) &&
                !strcmp(nm + len - ls, suf) && !tc_path_join(path, sizeof path, dir, nm)) {
                char label[TC_LABEL_MAX + 1];
                snprintf(label, sizeof label, "%.*s", (int)(len - pre - ls), nm + pre);
                st = digest_file(path, nm, rf, ms, h, shared, method_of(ms, label));
            }
            free(ents[i]);
        }
        if (ne >= 0) free(ents);
    }
    /* the metrics that are results, each into its method's digest, at full precision; the
     * physical residuals ("residuals.LABEL.NAME_STAT", docs/residuals.md) are measures of the
     * same trajectories, not results of their own: compared by their tolerances, not hashed, so
     * recording them changed no digest */
    for (int i = 0; i < ms->n; i++) {
        const tc_metric *x = &ms->m[i];
        if (x->flags & TC_METRIC_TIMING) continue;
        if (strncmp(x->name, "residuals.", 10) == 0) continue;
        int m = method_of(ms, x->method);
        char line[160];
        snprintf(line, sizeof line, "metric:%s=%.17g\n", x->name, x->value);
        fnv_str(&h[m < 0 ? shared : m], line);
    }
    for (int m = 0; m <= shared; m++) {
        char hex[32];
        snprintf(hex, sizeof hex, "fnv1a64:%016llx", (unsigned long long)h[m]);
        tc_metrics_set_hash(ms, m < shared ? ms->methods[m].label : "", hex,
                            m < shared ? ms->methods[m].cpu : "",
                            m < shared ? ms->methods[m].cpu_kind : "");
    }
    free(h);
    return st;
}
