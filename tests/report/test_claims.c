/* SPDX-License-Identifier: MIT */
/* paper claims (src/report/claims.c): the experiments' claims.cfg files cover every experiment that
 * declares a paper, verdicts, rates and tiers, null outcomes, metrics the experiments emit, bad
 * files */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp/tc_experiment.h"
#include "core/tc_fs.h"
#include "report/tc_claims.h"
#include "report/tc_metrics.h"
#include "test_scratch.h"

/* 1 when an experiment declares the paper it reproduces: its .paper is set and does not say
 * "none" (an experiment of one's own: .paper = "none: ...", docs/adding-an-experiment.md) */
static int declares_paper(const tc_experiment_type *t) {
    const char *p = t->paper;
    return p && p[0] && !(!strncmp(p, "none", 4) && (p[4] == 0 || p[4] == ':'));
}

/* the experiments' claims.cfg files: they load, every registered experiment that declares a paper
 * has claims, and the ids are in order of experiment (E<n> for the n-th) */
Test(claims, the_claims_file_covers_every_experiment) {
    tc_claims c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_claims_load_all(&c, getenv("TOUCHE_SOURCE_DIR"), &err), TC_OK, "%s:%d: %s",
                 err.file, err.line, err.msg);
    int papers = 0;
    for (int i = 0; tc_experiment_at(i); i++) {
        const tc_experiment_type *t = tc_experiment_at(i);
        int n = 0;
        char prefix[8];
        snprintf(prefix, sizeof prefix, "E%d.", i + 1);
        for (int k = 0; k < c.n; k++)
            if (!strcmp(c.c[k].experiment, t->name)) {
                n++;
                cr_expect(!strncmp(c.c[k].id, prefix, strlen(prefix)), "%s belongs to %s",
                          c.c[k].id, t->name);
            }
        /* a paper's experiment needs its claims; one of one's own may have none */
        if (!declares_paper(t)) continue;
        papers++;
        cr_expect_gt(
            n, 0,
            "no claim of %s in its folder's claims.cfg, but it declares a paper (.paper = \"%s\"): "
            "add the paper's claims (docs/adding-an-experiment.md, \"Claims\"), or set "
            ".paper = \"none: ...\" when it reproduces no paper",
            t->name, t->paper);
    }
    /* the built-in experiments reproduce papers, so the check above is not empty */
    cr_expect_gt(papers, 0);
    tc_claims_free(&c);
}

/* which experiments declare a paper: a citation does, NULL, "" and "none..." do not */
Test(claims, an_experiment_without_a_paper_needs_no_claims) {
    tc_experiment_type t = {.name = "e8_mine", .paper = "Beker et al. 2025, fig. 5"};
    cr_expect(declares_paper(&t));
    t.paper = "none: an example";
    cr_expect(!declares_paper(&t));
    t.paper = "none";
    cr_expect(!declares_paper(&t));
    t.paper = "";
    cr_expect(!declares_paper(&t));
    t.paper = NULL;
    cr_expect(!declares_paper(&t));
    t.paper = "Nonet 2024, fig. 2";
    cr_expect(declares_paper(&t));
}

/* a claim judged from metrics: inside its range reproduced, inside "partly" partly, else not;
 * a ratio of two metrics; a metric the run lacks "not run"; no metric "not yet implemented" */
Test(claims, verdicts_follow_the_ranges) {
    make_scratch();
    put_file(
        in_scratch("c.cfg"),
        "claims = (\n"
        "{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"1\";\n"
        "  metric = \"a.x\"; reproduced = [0.5, 1.5]; partly = [0.0, 3.0]; note = \"n\"; },\n"
        "{ id = \"E1.2\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"1\";\n"
        "  metric = \"a.x\"; over = \"b.y\"; reproduced = [3.0, 5.0]; note = \"n\"; },\n"
        "{ id = \"E1.3\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"1\";\n"
        "  metric = \"c.z\"; reproduced = [0.0, 1.0]; note = \"n\"; },\n"
        "{ id = \"E1.4\"; experiment = \"\"; paper = \"p\"; claim = \"c\"; paper_value = \"1\"; "
        "note = \"n\"; },\n"
        "{ id = \"E1.5\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"f\";\n"
        "  figure = \"fig_x\"; note = \"n\"; }\n"
        ");\n");
    tc_claims c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_claims_load(&c, in_scratch("c.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(c.n, 5);
    tc_metrics ms;
    tc_metrics_init(&ms, "e", "quick");
    tc_metrics_add(&ms, "a", "a.x", 2.0, "m", 0, 0, 0, "");
    tc_metrics_add(&ms, "b", "b.y", 0.5, "m", 0, 0, 0, "");
    double v;
    cr_expect_eq(tc_claim_judge(&c.c[0], &ms, &v), TC_VERDICT_PARTLY);
    cr_expect_eq(v, 2.0);
    cr_expect_eq(tc_claim_judge(&c.c[1], &ms, &v), TC_VERDICT_REPRODUCED);
    cr_expect_eq(v, 4.0);
    cr_expect_eq(tc_claim_judge(&c.c[2], &ms, &v), TC_VERDICT_NOT_RUN);
    cr_expect_eq(tc_claim_judge(&c.c[3], &ms, &v), TC_VERDICT_MISSING);
    /* a claim shown by a figure: "figure only" when its experiment ran, else not run */
    cr_expect_eq(tc_claim_judge(&c.c[4], &ms, &v), TC_VERDICT_FIGURE);
    cr_expect_eq(tc_claim_judge(&c.c[4], NULL, &v), TC_VERDICT_NOT_RUN);
    cr_expect_eq(tc_claim_judge(&c.c[0], NULL, &v), TC_VERDICT_NOT_RUN);
    ms.m[0].value = 1.0;
    cr_expect_eq(tc_claim_judge(&c.c[0], &ms, &v), TC_VERDICT_REPRODUCED);
    ms.m[0].value = 7.0;
    cr_expect_eq(tc_claim_judge(&c.c[0], &ms, &v), TC_VERDICT_NOT);
    /* a method that ran and whose runs failed (its metric NaN) is not "not run" (issue 33,
     * finding 13) */
    ms.m[0].value = NAN;
    cr_expect_eq(tc_claim_judge(&c.c[0], &ms, &v), TC_VERDICT_FAILED);
    cr_expect_str_eq(tc_verdict_str(TC_VERDICT_FAILED), "its runs failed");
    /* the section lists experiment e's four claims, each with its verdict */
    ms.m[0].value = 2.0;
    char *md = NULL, *tex = NULL;
    size_t nmd, ntex;
    FILE *fm = open_memstream(&md, &nmd), *ft = open_memstream(&tex, &ntex);
    cr_expect_eq(tc_claims_section(&c, "e", &ms, fm, ft), 4);
    fclose(fm);
    fclose(ft);
    cr_expect(strstr(md, "**Verdicts**") && strstr(md, "**partly reproduced** E1.1") &&
                  strstr(md, "**reproduced** E1.2") && strstr(md, "**not run** E1.3") &&
                  strstr(md, "**figure only** E1.5") && strstr(md, "ours: fig_x"),
              "%s", md);
    cr_expect(strstr(tex, "\\paragraph{Verdicts}"), "%s", tex);
    free(md);
    free(tex);
    tc_metrics_free(&ms);
    tc_claims_free(&c);
}

/* a rate is judged by its 95 % interval, and a claim by the tiers that can test it */
Test(claims, rates_by_their_interval_and_claims_by_their_tiers) {
    make_scratch();
    put_file(
        in_scratch("c.cfg"),
        "claims = (\n"
        "{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"0.1 "
        "%\";\n"
        "  metric = \"a.rate\"; trials = \"a.n\"; reproduced = [0.0, 0.01]; partly = [0.0, 0.05];\n"
        "  null = 0.5; null_is = \"a coin\"; note = \"n\"; },\n"
        "{ id = \"E1.2\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"1\";\n"
        "  metric = \"a.x\"; reproduced = [0.5, 1.5]; tiers = [\"full\"]; note = \"n\"; }\n"
        ");\n");
    tc_claims c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_claims_load(&c, in_scratch("c.cfg"), &err), TC_OK, "%s", err.msg);
    tc_metrics ms;
    tc_metrics_init(&ms, "e", "quick");
    tc_metrics_add(&ms, "a", "a.rate", 0.0, "1", 0, 0, 0, "");
    tc_metrics_add(&ms, "a", "a.n", 72, "1", 0, 0, 0, "");
    tc_metrics_add(&ms, "a", "a.x", 1.0, "1", 0, 0, 0, "");
    /* 0 of 72 cannot tell 0.1 % from 4 %: its interval [0, 5.1 %] straddles the range's edge */
    tc_judgement j = tc_claim_judgement(&c.c[0], &ms);
    cr_expect_eq(j.verdict, TC_VERDICT_UNTESTABLE);
    cr_expect(j.ci_lo == 0 && fabs(j.ci_hi - 0.0507) < 1e-3, "[%g, %g]", j.ci_lo, j.ci_hi);
    /* 0 of 3,600 can: [0, 0.107 %] */
    ms.m[1].value = 3600;
    cr_expect_eq(tc_claim_judgement(&c.c[0], &ms).verdict, TC_VERDICT_REPRODUCED);
    /* 4 % of 3,600 is partly (inside [0, 5 %] only), 50 % of 100 is not */
    ms.m[0].value = 0.04;
    cr_expect_eq(tc_claim_judgement(&c.c[0], &ms).verdict, TC_VERDICT_PARTLY);
    ms.m[0].value = 0.5;
    ms.m[1].value = 100;
    cr_expect_eq(tc_claim_judgement(&c.c[0], &ms).verdict, TC_VERDICT_NOT);
    /* the null outcome of the rate (a coin) is judged as a point: not reproduced */
    cr_expect_eq(tc_claim_judge_null(&c.c[0]), TC_VERDICT_NOT);
    cr_expect_eq(tc_claim_judge_null(&c.c[1]), TC_VERDICT_COUNT);
    /* a full-tier claim is not testable at the quick tier, and judged at the full one */
    cr_expect_eq(tc_claim_judgement(&c.c[1], &ms).verdict, TC_VERDICT_UNTESTABLE);
    snprintf(ms.tier, sizeof ms.tier, "full");
    cr_expect_eq(tc_claim_judgement(&c.c[1], &ms).verdict, TC_VERDICT_REPRODUCED);
    tc_metrics_free(&ms);
    tc_claims_free(&c);
}

/* every claim that a metric judges declares its null outcome (a body that never moves, zero
 * force, the reference copied as the result), and none passes it: a claim that its null outcome
 * passes cannot fail */
Test(claims, no_claim_passes_its_null_outcome) {
    tc_claims c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_claims_load_all(&c, getenv("TOUCHE_SOURCE_DIR"), &err), TC_OK, "%s:%d: %s",
                 err.file, err.line, err.msg);
    int judged = 0;
    for (int i = 0; i < c.n; i++) {
        const tc_claim *q = &c.c[i];
        if (!q->metric[0]) continue;
        judged++;
        cr_expect(!isnan(q->null_value), "%s (line %d) has no null outcome", q->id, q->line);
        tc_verdict v = tc_claim_judge_null(q);
        cr_expect(v != TC_VERDICT_REPRODUCED && v != TC_VERDICT_PARTLY,
                  "%s (line %d) is %s by its null outcome (%s: %g)", q->id, q->line,
                  tc_verdict_str(v), q->null_is, q->null_value);
    }
    cr_expect_gt(judged, 15);
    tc_claims_free(&c);
}

/* every metric a claim reads (metric, over, trials) is one the experiment emits at a tier that
 * can test it, as its committed references record: a misspelt name would read "not run" forever
 * (issue 33, finding 13) */
Test(claims, every_claim_names_metrics_its_experiment_emits) {
    const char *src = getenv("TOUCHE_SOURCE_DIR");
    char path[1024];
    tc_claims c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_claims_load_all(&c, src, &err), TC_OK, "%s:%d: %s", err.file, err.line,
                 err.msg);
    static const char *const tier[2] = {"quick", "full"};
    for (int i = 0; i < c.n; i++) {
        const tc_claim *q = &c.c[i];
        if (!q->metric[0]) continue;
        const char *names[3] = {q->metric, q->over, q->trials};
        for (int k = 0; k < 3; k++) {
            if (!names[k][0]) continue;
            int found = 0, tested = 0;
            for (int t = 0; t < 2; t++) {
                /* only the tiers the claim can be judged at */
                if (q->tiers[0] && !strstr(q->tiers, tier[t])) continue;
                tested++;
                tc_experiment_reference(NULL, q->experiment, tier[t], path, sizeof path);
                tc_metrics ms;
                tc_error_clear(&err);
                if (tc_metrics_read(&ms, path, &err) == TC_OK)
                    found += tc_metrics_find(&ms, names[k]) >= 0;
                tc_metrics_free(&ms);
            }
            cr_expect(tested && found == tested,
                      "%s (line %d): '%s' is in %d of the %d references "
                      "of %s it can be judged at",
                      q->id, q->line, names[k], found, tested, q->experiment);
        }
    }
    tc_claims_free(&c);
}

/* a bad claims file names file, line and key */
Test(claims, bad_files_name_the_line_and_key) {
    make_scratch();
    static const struct {
        const char *text, *key;
        int line;
    } bad[] = {
        {"claims = (\n{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = \"c\";\n "
         "paper_value = \"1\"; note = \"n\"; colour = 1; }\n);\n",
         "colour", 3},
        {"claims = (\n{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; "
         "paper_value = \"1\";\n metric = \"a\"; reproduced = [2.0, 1.0]; note = \"n\"; }\n);\n",
         "reproduced", 3},
        {"claims = (\n{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; "
         "paper_value = \"1\";\n metric = \"a\"; note = \"n\"; }\n);\n",
         "reproduced", 2},
        {"claims = (\n{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = "
         "\"c\\xe2\\x9c\\x93\"; paper_value = \"1\"; note = \"n\"; }\n);\n",
         "claim", 2},
        {"claims = (\n{ id = \"E1.1\"; experiment = \"\"; paper = \"p\"; claim = \"c\"; "
         "paper_value = \"1\";\n figure = \"f\"; note = \"n\"; }\n);\n",
         "figure", 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        put_file(in_scratch("b.cfg"), bad[i].text);
        tc_claims c;
        tc_error err;
        tc_error_clear(&err);
        cr_expect_eq(tc_claims_load(&c, in_scratch("b.cfg"), &err), TC_EINVAL, "case %zu", i);
        cr_expect_str_eq(err.param, bad[i].key, "case %zu: %s", i, err.msg);
        cr_expect_eq(err.line, bad[i].line, "case %zu: %s", i, err.msg);
        tc_claims_free(&c);
    }
}

/* a claim's text is judged by its characters, not by the length of its LaTeX: a note of 450
 * backslashes (7 kB of LaTeX) loads; a character without a LaTeX form does not */
Test(claims, long_escapes_load_and_unmapped_characters_do_not) {
    make_scratch();
    char note[451];
    memset(note, '\\', 450);
    note[450] = 0;
    for (int bad = 0; bad < 2; bad++) {
        char *text = malloc(4096);
        cr_assert_not_null(text);
        snprintf(text, 4096,
                 "claims = ( { id = \"E4.1\"; experiment = \"e4_penalty\"; paper = \"fig. 6\";\n"
                 "  claim = \"less\"; paper_value = \"less\"; note = \"%s%s\"; } );\n",
                 bad ? "\xe2\x9c\x93" : "", note); /* U+2713, no LaTeX form */
        /* libconfig's string escapes: every backslash doubled */
        char *esc = malloc(8192), *o = esc;
        for (const char *p = text; *p; p++) {
            if (*p == '\\') *o++ = '\\';
            *o++ = *p;
        }
        *o = 0;
        put_file(in_scratch("c.cfg"), esc);
        free(text);
        free(esc);
        tc_claims c;
        tc_error err;
        tc_error_clear(&err);
        tc_status st = tc_claims_load(&c, in_scratch("c.cfg"), &err);
        if (bad) {
            cr_expect_eq(st, TC_EINVAL);
            cr_expect(strstr(err.msg, "without a LaTeX form"), "%s", err.msg);
        } else {
            cr_expect_eq(st, TC_OK, "%s", err.msg);
            cr_expect_eq(c.n, 1);
        }
        tc_claims_free(&c);
    }
}

/* the claims of every experiment folder as one list, in folder order; an id in two folders is an
 * error naming the second file and the line */
Test(claims, every_folders_claims_load_as_one_list) {
    make_scratch();
    char dir[1100];
    static const char one[] = "claims = ( { id = \"E1.1\"; experiment = \"\"; paper = \"p\"; "
                              "claim = \"c\"; paper_value = \"1\"; note = \"n\"; } );\n";
    static const char two[] = "claims = ( { id = \"E2.1\"; experiment = \"\"; paper = \"p\"; "
                              "claim = \"c\"; paper_value = \"1\"; note = \"n\"; } );\n";
    tc_error err;
    tc_error_clear(&err);
    snprintf(dir, sizeof dir, "%s/experiments/e1", in_scratch(""));
    cr_assert_eq(tc_mkdir_p(dir, &err), TC_OK, "%s", err.msg);
    snprintf(dir, sizeof dir, "%s/experiments/e2", in_scratch(""));
    cr_assert_eq(tc_mkdir_p(dir, &err), TC_OK, "%s", err.msg);
    put_file(in_scratch("experiments/e1/claims.cfg"), one);
    put_file(in_scratch("experiments/e2/claims.cfg"), two);
    tc_claims c;
    cr_assert_eq(tc_claims_load_all(&c, in_scratch(""), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(c.n, 2);
    cr_assert_str_eq(c.c[0].id, "E1.1");
    cr_assert_str_eq(c.c[1].id, "E2.1");
    tc_claims_free(&c);
    /* the same id in the second folder */
    put_file(in_scratch("experiments/e2/claims.cfg"), one);
    cr_assert_eq(tc_claims_load_all(&c, in_scratch(""), &err), TC_EINVAL);
    cr_assert(strstr(err.file, "e2/claims.cfg"), "%s", err.file);
    cr_assert_eq(c.n, 0);
    tc_claims_free(&c);
}
