/* SPDX-License-Identifier: MIT */
/* shared by the tests of atomic files (core) and of the report layer: a scratch folder under /tmp
 * removed at exit, a file in it by name, a small file written or read whole, and counts of entries
 * and characters, a script edited in one place and the line of a text; static, as tests/test_tmp.h
 */
#ifndef TC_TEST_SCRATCH_H
#define TC_TEST_SCRATCH_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* a fresh scratch directory under /tmp, removed at exit */
static char scratch[64];

static inline int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    chmod(path, 0700);
    return remove(path);
}

static inline void rm_scratch(void) {
    if (scratch[0]) nftw(scratch, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static inline const char *make_scratch(void) {
    snprintf(scratch, sizeof scratch, "/tmp/touche-test-XXXXXX");
    cr_assert_not_null(mkdtemp(scratch));
    atexit(rm_scratch);
    return scratch;
}

/* scratch/name into a static buffer (one of 32, so a few can be live at once) */
static inline const char *in_scratch(const char *name) {
    static char buf[32][512];
    static int k;
    k = (k + 1) % 32;
    snprintf(buf[k], sizeof buf[k], "%s/%s", scratch, name);
    return buf[k];
}

/* write a small text file */
static inline void put_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* a whole file as a malloc'd string (NULL if unreadable) */
static inline char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    fclose(f);
    return s;
}

/* a whole file as a malloc'd string; the test fails when it cannot be read */
static inline char *text_of(const char *path) {
    char *s = slurp(path);
    cr_assert_not_null(s, "cannot read %s", path);
    return s;
}

/* the text with the first `from` replaced by `to`, written to path (a script with one mistake) */
static inline void write_edited(const char *text, const char *from, const char *to,
                                const char *path) {
    const char *at = strstr(text, from);
    cr_assert_not_null(at, "'%s' is in the text", from);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fwrite(text, 1, (size_t)(at - text), f);
    fputs(to, f);
    fputs(at + strlen(from), f);
    fclose(f);
}

/* the line (1-based) of the first occurrence of needle in text */
static inline int line_of(const char *text, const char *needle) {
    const char *at = strstr(text, needle);
    cr_assert_not_null(at, "'%s' is in the text", needle);
    int line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* number of entries of dir whose name contains needle */
static inline int count_named(const char *dir, const char *needle) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strstr(e->d_name, needle) != NULL;
    closedir(d);
    return n;
}

/* number of occurrences of c in line */
static inline int count_char(const char *line, size_t len, char c) {
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += line[i] == c;
    return n;
}

#endif
