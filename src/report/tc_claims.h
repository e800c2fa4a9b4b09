/* SPDX-License-Identifier: MIT */
/* the papers' claims (each experiment folder's claims.cfg) judged from a run's metrics: a verdict
 * per claim for each experiment's section, and the report's table of every claim */
#ifndef TC_CLAIMS_H
#define TC_CLAIMS_H

#include <stdio.h>

#include "report/tc_metrics.h"

/* one claim of a paper and how a metric judges it */
typedef struct tc_claim {
    char id[16];          /* "E1.1" */
    char experiment[64];  /* the experiment whose metrics judge it; "" when none exists */
    char paper[96];       /* where the paper says it */
    char text[300];       /* the claim */
    char paper_value[96]; /* the paper's number or finding */
    char metric[96];      /* "" when nothing measures it yet */
    char over[96];        /* "" or a denominator metric */
    char figure[96];      /* the experiment's figure(s) a claim without a metric is shown by */
    double lo, hi;        /* reproduced when lo <= value <= hi */
    double plo, phi;      /* partly reproduced inside these (NAN: no "partly") */
    char measure[200];    /* what "ours" is, with its unit ("mean penetration of the block, m") */
    double null_value;    /* the metric (or ratio) of the claim's null outcome (NAN: none given) */
    char null_is[200];    /* what that null outcome is ("a T that is never pushed") */
    char tiers[64];       /* the tiers that can test it, space-separated ("" : every tier) */
    char trials[96];      /* "" or the metric holding the number of trials of a rate */
    char note[500];       /* why ours differs, or what is missing */
    int line;             /* in claims.cfg */
} tc_claim;

typedef struct tc_claims {
    int n;
    tc_claim *c;
} tc_claims;

/* verdicts, from best to the ones that judge nothing */
typedef enum tc_verdict {
    TC_VERDICT_REPRODUCED = 0,
    TC_VERDICT_PARTLY,
    TC_VERDICT_NOT,
    TC_VERDICT_NOT_RUN,    /* the metric is not in this run (a method or tier not run) */
    TC_VERDICT_UNTESTABLE, /* the tier cannot test it: not one of its tiers, or a rate whose
                            * 95 % interval straddles the range (too few trials) */
    TC_VERDICT_MISSING,    /* touche has nothing that measures it */
    TC_VERDICT_FIGURE,     /* no metric, but the run drew the paper's figure: compare by eye */
    TC_VERDICT_FAILED,     /* the metric is in the run but not finite: the method's runs failed */
    TC_VERDICT_COUNT
} tc_verdict;

/* "reproduced", "partly reproduced", "not reproduced", "not run", "not testable at this tier",
 * "not yet implemented", "figure only" */
const char *tc_verdict_str(tc_verdict v);

/* read and validate a claims file: every key known, ids unique, ranges ordered; errors name the
 * file, line and key. c is empty on error (free it anyway) */
tc_status tc_claims_load(tc_claims *c, const char *path, tc_error *err);
/* every experiment's claims: <source_dir>/experiments/<folder>/claims.cfg of each folder that has
 * one, in folder order, as one list (tc_claims_load's checks, and ids unique across the files);
 * none without an experiments folder; c is empty on error (free it anyway) */
tc_status tc_claims_load_all(tc_claims *c, const char *source_dir, tc_error *err);
void tc_claims_free(tc_claims *c);

/* a claim judged: the verdict, the measured value and, for a rate, its trials and 95 % interval
 * (Wilson's score interval) */
typedef struct tc_judgement {
    tc_verdict verdict;
    double value;        /* NAN when none */
    double n;            /* trials of a rate; NAN without */
    double ci_lo, ci_hi; /* the rate's 95 % interval; NAN without */
} tc_judgement;

/* claim c judged from metrics ms (NULL: the experiment did not run). A claim with tiers is not
 * testable at another tier; a rate with trials is reproduced (or partly) when its whole interval
 * lies inside the range, not reproduced when the interval misses both ranges, and not testable
 * at this tier when it straddles a range's edge */
tc_judgement tc_claim_judgement(const tc_claim *c, const tc_metrics *ms);

/* the verdict alone; *value gets the measured value (NAN when none) */
tc_verdict tc_claim_judge(const tc_claim *c, const tc_metrics *ms, double *value);

/* the verdict claim c would get if its metric read its null outcome (null_value) at a tier that
 * can test it, with as many trials as it takes to make a rate's interval a point: a claim that a
 * null outcome passes cannot fail. TC_VERDICT_COUNT when the claim has no metric or no null */
tc_verdict tc_claim_judge_null(const tc_claim *c);

/* the claims of experiment name judged from ms, as Markdown (a "**Verdicts**" paragraph and one
 * item per claim) and LaTeX; nothing when it has none. Returns the number of claims written */
int tc_claims_section(const tc_claims *c, const char *name, const tc_metrics *ms, FILE *md,
                      FILE *tex);

/* every claim as one table (id, paper, claim, the paper's, ours, verdict) into md and tex;
 * metrics_of(name, ctx) gives an experiment's metrics or NULL when it did not run. Returns the
 * counts per verdict in count[TC_VERDICT_COUNT] (may be NULL) */
void tc_claims_table(const tc_claims *c, const tc_metrics *(*metrics_of)(const char *, void *),
                     void *ctx, FILE *md, FILE *tex, int count[TC_VERDICT_COUNT]);

/* the summary figure of every claim (tpl, a gnuplot template: paper/claims.gp): out_dir/
 * claims_summary.csv, .pdf and .png, each claim's value over the centre of its reproduced range
 * on a log axis with both ranges as bands, coloured by verdict; included in md and tex. An error
 * when the figure cannot be drawn (nothing is included then) */
tc_status tc_claims_figure(const tc_claims *c,
                           const tc_metrics *(*metrics_of)(const char *, void *), void *ctx,
                           const char *out_dir, const char *tpl, FILE *md, FILE *tex,
                           tc_error *err);
/* the conclusions, a paragraph per paper (a claim's paper is its `paper` up to the first
 * comma): how many of its claims were judged and how, then each claim not reproduced (partly or
 * not) and each not judged, with its verdict, the paper's value, ours and its note */
void tc_claims_conclusions(const tc_claims *c,
                           const tc_metrics *(*metrics_of)(const char *, void *), void *ctx,
                           FILE *md, FILE *tex);
#endif
