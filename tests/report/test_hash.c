/* SPDX-License-Identifier: MIT */
/* digests of result files (src/report/hash.c): each method's digest sees only its own results */
#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/stat.h>

#include "report/tc_metrics.h"
#include "test_scratch.h"

/* the digests of dir's results for methods a, b (and c, which may have no results) under spec,
 * into hex[3] (a, b, shared) */
static void digests(const tc_results_file *spec, char hex[3][32]) {
    tc_metrics ms;
    tc_metrics_init(&ms, "e0", "quick");
    tc_metrics_ran(&ms, "a", NULL, NULL);
    tc_metrics_ran(&ms, "b", NULL, NULL);
    tc_metrics_ran(&ms, "c", NULL, NULL);
    tc_metrics_add(&ms, "a", "a.x", 1.5, "1", 0, 0, 0, "");
    tc_metrics_add(&ms, "b", "b.t", 9.0, "s", 0, 0, TC_METRIC_TIMING, "");
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_results_hash(in_scratch("r"), spec, &ms, &err), TC_OK, "%s", err.msg);
    const char *who[3] = {"a", "b", ""};
    for (int i = 0; i < 3; i++)
        snprintf(hex[i], 32, "%s", ms.hash[tc_metrics_find_hash(&ms, who[i])].hash);
    tc_metrics_free(&ms);
}

Test(hash, each_method_sees_only_its_own_results) {
    make_scratch();
    cr_assert_eq(mkdir(in_scratch("r"), 0755), 0);
    static const tc_results_file spec[] = {
        {"cols.csv", TC_RESULTS_COLUMNS, NULL},  {"rows.csv", TC_RESULTS_ROWS, "wall_s"},
        {"f_*.csv", TC_RESULTS_FILES, NULL},     {"blocks.csv", TC_RESULTS_BLOCKS, NULL},
        {"shared.csv", TC_RESULTS_SHARED, NULL}, {NULL, 0, NULL}};
    put_file(in_scratch("r/cols.csv"), "y,a,b\n0,1,2\n1,3,4\n");
    put_file(in_scratch("r/rows.csv"), "label,x,wall_s\na,1,0.5\nb,2,0.7\n");
    put_file(in_scratch("r/f_a.csv"), "x\n1\n");
    put_file(in_scratch("r/f_b.csv"), "x\n2\n");
    put_file(in_scratch("r/blocks.csv"), "# k,v; one block per method: a b\n1,1\n\n\n1,2\n");
    put_file(in_scratch("r/shared.csv"), "z\n7\n");
    char h0[3][32], h[3][32];
    digests(spec, h0);
    cr_assert_str_neq(h0[0], h0[1]);
    /* timing columns, timing metrics and comment lines change nothing */
    put_file(in_scratch("r/rows.csv"), "label,x,wall_s\na,1,99\nb,2,98\n");
    put_file(in_scratch("r/blocks.csv"),
             "# k,v (new words); one block per method: a b\n1,1\n\n\n1,2\n");
    digests(spec, h);
    for (int i = 0; i < 3; i++)
        cr_assert_str_eq(h[i], h0[i]);
    /* a new method c changes no digest of a, b or the experiment */
    put_file(in_scratch("r/cols.csv"), "y,a,b,c\n0,1,2,5\n1,3,4,6\n");
    put_file(in_scratch("r/rows.csv"), "label,x,wall_s\na,1,0.5\nb,2,0.7\nc,3,0.1\n");
    put_file(in_scratch("r/f_c.csv"), "x\n3\n");
    put_file(in_scratch("r/blocks.csv"), "# one block per method: a b c\n1,1\n\n\n1,2\n\n\n1,3\n");
    digests(spec, h);
    cr_assert_str_eq(h[0], h0[0]);
    cr_assert_str_eq(h[1], h0[1]);
    cr_assert_str_eq(h[2], h0[2]);
    /* any change of one method's value changes its digest only */
    put_file(in_scratch("r/cols.csv"), "y,a,b\n0,1,2\n1,3,4.0000001\n");
    put_file(in_scratch("r/rows.csv"), "label,x,wall_s\na,1,0.5\nb,2,0.7\n");
    remove(in_scratch("r/f_c.csv"));
    put_file(in_scratch("r/blocks.csv"), "# k,v; one block per method: a b\n1,1\n\n\n1,2\n");
    digests(spec, h);
    cr_assert_str_eq(h[0], h0[0]);
    cr_assert_str_neq(h[1], h0[1]);
    cr_assert_str_eq(h[2], h0[2]);
    put_file(in_scratch("r/cols.csv"), "y,a,b\n0,1,2\n1,3,4\n");
    put_file(in_scratch("r/shared.csv"), "z\n8\n");
    digests(spec, h);
    cr_assert_str_eq(h[0], h0[0]);
    cr_assert_str_eq(h[1], h0[1]);
    cr_assert_str_neq(h[2], h0[2]);
}
