/* SPDX-License-Identifier: MIT */
/* a test's scratch folders: made like mkdtemp, removed with everything in them when the test's
 * process ends (Criterion runs each test in its own), so the suite leaves nothing in /tmp */
#ifndef TC_TEST_TMP_H
#define TC_TEST_TMP_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

#define TEST_TMP_MAX 64
static char test_tmp_dirs[TEST_TMP_MAX][256];
static int test_ntmp;

/* one entry of a tree being removed, deepest first */
static int test_tmp_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* every folder made, at exit */
static void test_tmp_clean(void) {
    for (int i = 0; i < test_ntmp; i++)
        nftw(test_tmp_dirs[i], test_tmp_rm, 16, FTW_DEPTH | FTW_PHYS);
    test_ntmp = 0;
}

/* mkdtemp(tpl), and the folder removed at exit; NULL as mkdtemp on failure */
static char *test_tmpdir(char *tpl) {
    if (!mkdtemp(tpl)) return NULL;
    if (test_ntmp == 0) atexit(test_tmp_clean);
    if (test_ntmp < TEST_TMP_MAX)
        snprintf(test_tmp_dirs[test_ntmp++], sizeof test_tmp_dirs[0], "%s", tpl);
    return tpl;
}

#endif
