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

/* a table's header split into cells, with each column's owner and whether it is kept */
typedef struct table {
    char *hdr, *head[MAXCOL];
    int n, label_col, owner[MAXCOL];
    unsigned char keep[MAXCOL], *has;
} table;

/* read the header of r and find each column's owner; n is 0 when there is none */
static tc_status table_open(table *t, reader *r, const tc_results_file *rf, const tc_metrics *ms) {
    t->hdr = NULL;
    t->has = NULL;
    t->label_col = -1;
    t->n = header(r, &t->hdr, t->head);
    if (t->n == 0) return TC_OK;
    t->has = calloc((size_t)ms->nmethod + 1, 1);
    if (!t->has) return TC_ENOMEM;
    for (int c = 0; c < t->n; c++) {
        t->owner[c] = rf->layout == TC_RESULTS_COLUMNS ? method_of(ms, t->head[c]) : -1;
        t->keep[c] = !listed(rf->drop, t->head[c]);
        if (!strcmp(t->head[c], "label")) t->label_col = c;
        if (t->owner[c] >= 0) t->has[t->owner[c]] = 1;
    }
    return TC_OK;
}

/* feed to h the kept cells of a row that method m sees: the keys and its own columns */
static void feed_method(uint64_t *h, const table *t, char **cell, int n, int m) {
    unsigned char mine[MAXCOL];
    for (int c = 0; c < n; c++)
        mine[c] = t->keep[c] && (t->owner[c] < 0 || t->owner[c] == m);
    feed_row(h, cell, n, mine);
}

/* one data row: the whole row to its method (rows), or each method its keys and its cells */
static void digest_row(const table *t, char *l, const tc_results_file *rf, const tc_metrics *ms,
                       uint64_t *h, int shared) {
    char *cell[MAXCOL];
    int n = split(l, cell, MAXCOL);
    if (n > t->n) n = t->n;
    if (rf->layout == TC_RESULTS_ROWS) {
        /* the whole row to its method (a row of no method that ran: the experiment's) */
        int m = t->label_col >= 0 && t->label_col < n ? method_of(ms, cell[t->label_col]) : -1;
        feed_row(&h[m < 0 ? shared : m], cell, n, t->keep);
        return;
    }
    /* columns: each method its keys and its own cells (blank lines too: gnuplot blocks) */
    for (int m = 0; m < ms->nmethod; m++)
        if (t->has[m]) feed_method(&h[m], t, cell, n, m);
}

/* columns and rows: a header, then rows split into cells */
static tc_status digest_table(reader *r, const tc_results_file *rf, const tc_metrics *ms,
                              uint64_t *h, int shared) {
    table t;
    tc_status st = table_open(&t, r, rf, ms);
    if (st == TC_OK && t.n > 0) {
        /* the key columns of the header to the experiment's digest, each method's column with
         * the keys to its own */
        for (int m = -1; m < ms->nmethod; m++)
            if (m < 0 || t.has[m]) feed_method(&h[m < 0 ? shared : m], &t, t.head, t.n, m);
        for (char *l; (l = next_line(r));)
            if (l[0] != '#') digest_row(&t, l, rf, ms, h, shared);
    }
    free(t.has);
    free(t.hdr);
    return st;
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

/* the label that name nm holds in place of the '*' of pattern; 0 when nm does not match */
static int match_label(const char *nm, const char *pattern, size_t pre, const char *suf,
                       char *label, size_t cap) {
    size_t len = strlen(nm), ls = strlen(suf);
    if (len <= pre + ls || strncmp(nm, pattern, pre) || strcmp(nm + len - ls, suf)) return 0;
    snprintf(label, cap, "%.*s", (int)(len - pre - ls), nm + pre);
    return 1;
}

/* one file per method: prefix*suffix in dir, in name order */
static tc_status digest_per_method(const char *dir, const tc_results_file *rf, tc_metrics *ms,
                                   uint64_t *h, int shared) {
    const char *star = strchr(rf->pattern, '*');
    size_t pre = star ? (size_t)(star - rf->pattern) : strlen(rf->pattern);
    const char *suf = star ? star + 1 : "";
    struct dirent **ents;
    tc_status st = TC_OK;
    int ne = scandir(dir, &ents, NULL, by_name);
    for (int i = 0; i < ne; i++) {
        const char *nm = ents[i]->d_name;
        char path[1280], label[TC_LABEL_MAX + 1];
        if (st == TC_OK && star && match_label(nm, rf->pattern, pre, suf, label, sizeof label) &&
            !tc_path_join(path, sizeof path, dir, nm))
            st = digest_file(path, nm, rf, ms, h, shared, method_of(ms, label));
        free(ents[i]);
    }
    if (ne >= 0) free(ents);
    return st;
}

/* the metrics that are results, each into its method's digest, at full precision */
static void digest_metrics(const tc_metrics *ms, uint64_t *h, int shared) {
    /* the physical residuals ("residuals.LABEL.NAME_STAT", docs/residuals.md) are measures of
     * the same trajectories, not results of their own: compared by their tolerances, not
     * hashed, so recording them changed no digest */
    for (int i = 0; i < ms->n; i++) {
        const tc_metric *x = &ms->m[i];
        if (x->flags & TC_METRIC_TIMING) continue;
        if (strncmp(x->name, "residuals.", 10) == 0) continue;
        int m = method_of(ms, x->method);
        char line[160];
        snprintf(line, sizeof line, "metric:%s=%.17g\n", x->name, x->value);
        fnv_str(&h[m < 0 ? shared : m], line);
    }
}

/* each digest into ms: the methods' under their labels, the experiment's under "" */
static void set_hashes(tc_metrics *ms, const uint64_t *h, int shared) {
    for (int m = 0; m <= shared; m++) {
        char hex[32];
        snprintf(hex, sizeof hex, "fnv1a64:%016llx", (unsigned long long)h[m]);
        tc_metrics_set_hash(ms, m < shared ? ms->methods[m].label : "", hex,
                            m < shared ? ms->methods[m].cpu : "",
                            m < shared ? ms->methods[m].cpu_kind : "");
    }
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
        if (rf->layout == TC_RESULTS_FILES)
            st = digest_per_method(dir, rf, ms, h, shared);
        else if (!tc_path_join(path, sizeof path, dir, rf->pattern))
            st = digest_file(path, rf->pattern, rf, ms, h, shared, -1);
    }
    digest_metrics(ms, h, shared);
    set_hashes(ms, h, shared);
    free(h);
    return st;
}
