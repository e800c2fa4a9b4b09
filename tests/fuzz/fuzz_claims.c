/* SPDX-License-Identifier: MIT */
/* libFuzzer: a claims file (tc_claims_load) and, when it loads, its claims used as data as the
 * report uses them: each claim judged (tc_claim_judgement, tc_claim_judge_null), each
 * experiment's section and the table of every claim written (Markdown and LaTeX, to /dev/null),
 * against the metrics of a committed reference read once at start (e4_penalty at the quick tier:
 * its experiment ran, every other did not); freed even on error */
#include "report/tc_claims.h"
#include "report/tc_report.h"
#include "fuzz_common.h"

#include <string.h>

static tc_metrics ref;
static FILE *sink;

/* the reference's metrics for its own experiment; NULL (did not run) for any other */
static const tc_metrics *metrics_of(const char *name, void *ctx) {
    (void)ctx;
    return strcmp(name, ref.experiment) ? NULL : &ref;
}

/* the reference and the sink, once */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    char path[1100];
    tc_error err;
    tc_error_clear(&err);
    snprintf(path, sizeof path, "%s/experiments/e4/reference.quick.cfg", tc_source_dir());
    if (tc_metrics_read(&ref, path, &err)) {
        fprintf(stderr, "fuzz_claims: %s: %s\n", path, err.msg);
        abort();
    }
    if (!(sink = fopen("/dev/null", "w"))) {
        perror("fuzz_claims: /dev/null");
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    tc_claims c;
    tc_error err;
    tc_error_clear(&err);
    if (tc_claims_load(&c, fuzz_input_file(data, size), &err) == TC_OK) {
        for (int i = 0; i < c.n; i++) {
            const tc_claim *q = &c.c[i];
            const tc_metrics *ms = metrics_of(q->experiment, NULL);
            /* a verdict is one of the verdicts; a null outcome's is one, or COUNT for none */
            tc_judgement j = tc_claim_judgement(q, ms);
            tc_verdict nv = tc_claim_judge_null(q);
            if ((unsigned)j.verdict >= TC_VERDICT_COUNT || (unsigned)nv > TC_VERDICT_COUNT)
                fuzz_fail("claim %s: verdict %d, null verdict %d", q->id, (int)j.verdict, (int)nv);
            /* each experiment's section once, at its first claim: one item per claim of it */
            int first = 1, mine = 0;
            for (int k = 0; k < c.n; k++) {
                int same = !strcmp(c.c[k].experiment, q->experiment);
                first &= k >= i || !same;
                mine += same;
            }
            if (first && tc_claims_section(&c, q->experiment, ms, sink, sink) != mine)
                fuzz_fail("the section of '%s' does not hold its %d claims", q->experiment, mine);
        }
        /* the table: every claim counted once */
        int count[TC_VERDICT_COUNT], total = 0;
        tc_claims_table(&c, metrics_of, NULL, sink, sink, count);
        for (int v = 0; v < TC_VERDICT_COUNT; v++)
            total += count[v];
        if (total != c.n) fuzz_fail("the table counted %d verdicts of %d claims", total, c.n);
    }
    tc_claims_free(&c);
    return 0;
}
