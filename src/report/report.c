/* SPDX-License-Identifier: MIT */
/* report.md assembled from the experiments' sections, and the optional PDF via pdflatex */
#include "report/tc_report.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/tc_fs.h"
#include "core/tc_machine.h"
#include "core/tc_provenance.h"
#include "report/tc_claims.h"
#include "report/tc_plot.h"
#include "report/tc_table.h"
#include "tc_config.h"

/* ---------- report.md ---------- */

/* copy a whole file into f, ending with a newline; 0 if it cannot be read */
static int copy_file(FILE *f, const char *path) {
    FILE *in = fopen(path, "rb");
    if (!in) return 0;
    char buf[8192];
    size_t len, last = 0;
    char end = '\n';
    while ((len = fread(buf, 1, sizeof buf, in)) > 0) {
        fwrite(buf, 1, len, f);
        last = len;
        end = buf[len - 1];
    }
    int ok = !ferror(in);
    fclose(in);
    if (last && end != '\n') fputc('\n', f);
    return ok;
}

/* 1 when name is one of the n known experiments */
static int is_known(const tc_report_entry *known, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (!strcmp(known[i].name, name)) return 1;
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b) {
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* the sections to assemble: the known experiments, then other directories with a section.md */
static int sections(const char *out_dir, const tc_report_entry *known, int n, tc_report_entry *all,
                    char (*names)[256], int max) {
    int k = 0;
    for (int i = 0; i < n && k < max; i++)
        all[k++] = known[i];
    struct dirent **ents;
    int ne = scandir(out_dir, &ents, NULL, by_name);
    for (int i = 0; i < ne; i++) {
        char sec[1400];
        snprintf(sec, sizeof sec, "%s/%s/section.md", out_dir, ents[i]->d_name);
        if (k < max && ents[i]->d_name[0] != '.' && !is_known(known, n, ents[i]->d_name) &&
            tc_file_readable(sec)) {
            snprintf(names[k], sizeof names[k], "%s", ents[i]->d_name);
            all[k].name = all[k].heading = names[k];
            k++;
        }
        free(ents[i]);
    }
    if (ne >= 0) free(ents);
    return k;
}

/* open out_dir/name for writing (temp file, renamed at commit) */
static tc_status open_in(const char *out_dir, const char *name, tc_outfile *o, tc_error *err) {
    char path[1024];
    if (tc_path_join(path, sizeof path, out_dir, name) != TC_OK)
        return tc_error_set(err, TC_EINVAL, out_dir, 0, NULL, "output path too long: %s", out_dir);
    return tc_outfile_open(o, path, err);
}

/* the experiments' metrics, read once, for judging the claims */
typedef struct run_metrics {
    int n;
    const tc_report_entry *ex;
    tc_metrics *ms;
    unsigned char *ok; /* 2: ms[i] was read; 1: a read failed (ms[i] still to free); 0: none */
} run_metrics;

static const tc_metrics *metrics_of(const char *name, void *ctx) {
    const run_metrics *r = ctx;
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->ex[i].name, name)) return r->ok[i] == 2 ? &r->ms[i] : NULL;
    return NULL;
}

/* s for LaTeX (a character the PDF cannot set as its code point) */
static void tex_text(FILE *f, const char *s) {
    tc_latex_put(f, s);
}

/* every timing of the run in a section of its own, apart from the accuracy results: what the
 * machine measured, never compared with another machine's numbers */
static void timings_summary(const run_metrics *r, FILE *md, FILE *tex) {
    /* the CPU alone: the thread counts differ per timing and their captions give them */
    char machine[300];
    tc_machine_describe(machine, sizeof machine, 1);
    char *comma = strrchr(machine, ',');
    if (comma) *comma = 0;
    int k = 0;
    for (int i = 0; i < r->n; i++)
        for (int j = 0; r->ok[i] == 2 && j < r->ms[i].n; j++) {
            const tc_metric *m = &r->ms[i].m[j];
            if (!(m->flags & TC_METRIC_TIMING)) continue;
            if (!k++) {
                fprintf(md,
                        "\n## Timings (machine-dependent)\n\nWhat this run measured on this "
                        "machine (%s; each caption gives its thread count), apart from "
                        "the accuracy results: a timing depends on the machine and its load, "
                        "so the reference check lists it for information and never passes or "
                        "fails it against another machine's number (docs/report.md).\n\n"
                        "| experiment | timing | value | what it measures |\n"
                        "| --- | --- | ---: | --- |\n",
                        machine);
                fputs("\\section*{Timings (machine-dependent)}\nWhat this run measured on ", tex);
                tex_text(tex, machine);
                fputs(", apart from the accuracy results: the reference check never passes or "
                      "fails a timing against another machine's number.\n{\\small\n"
                      "\\begin{longtable}{@{}>{\\raggedright\\arraybackslash}p{0.15\\linewidth}"
                      ">{\\raggedright\\arraybackslash}p{0.3\\linewidth}"
                      ">{\\raggedleft\\arraybackslash}p{0.1\\linewidth}"
                      ">{\\raggedright\\arraybackslash}p{0.36\\linewidth}@{}}\n\\toprule\n"
                      "experiment & timing & value & what it measures\\\\\n\\midrule\n",
                      tex);
            }
            char v[64];
            snprintf(v, sizeof v, "%.3g%s%s", m->value, strcmp(m->unit, "1") ? " " : "",
                     strcmp(m->unit, "1") ? m->unit : "");
            fprintf(md, "| %s | `%s` | %s | %s |\n", r->ex[i].name, m->name, v, m->doc);
            tc_latex_put_breakable(tex, r->ex[i].name, strlen(r->ex[i].name));
            fputs(" & \\texttt{", tex);
            tc_latex_put_breakable(tex, m->name, strlen(m->name));
            fputs("} & ", tex);
            tex_text(tex, v);
            fputs(" & ", tex);
            tex_text(tex, m->doc);
            fputs("\\\\\n", tex);
        }
    if (k) fputs("\\bottomrule\n\\end{longtable}}\n", tex);
}

/* every experiment's metrics.cfg that can be read (r->ok[i] says which); 0 when out of memory */
static int read_metrics(const char *out_dir, const tc_report_entry *ex, int n, run_metrics *r) {
    *r = (run_metrics){n, ex, calloc((size_t)n + 1, sizeof(tc_metrics)), calloc((size_t)n + 1, 1)};
    for (int i = 0; i < n && r->ms && r->ok; i++) {
        char mp[1400];
        snprintf(mp, sizeof mp, "%s/%s/metrics.cfg", out_dir, ex[i].name);
        tc_error e;
        tc_error_clear(&e);
        if (!tc_file_readable(mp)) continue;
        /* read: freed below whatever the outcome (2: read, 1: tried) */
        r->ok[i] = tc_metrics_read(&r->ms[i], mp, &e) == TC_OK ? 2 : 1;
    }
    return r->ms && r->ok;
}

static void free_metrics(run_metrics *r) {
    for (int i = 0; i < r->n && r->ms && r->ok; i++)
        if (r->ok[i]) tc_metrics_free(&r->ms[i]);
    free(r->ms);
    free(r->ok);
}

/* the table of every paper claim with its verdict: into md (report.md) and claims.tex (the
 * PDF); the claims are each experiment folder's claims.cfg, the metrics each experiment's
 * metrics.cfg */
static tc_status claims_summary(const char *out_dir, const run_metrics *rm, FILE *md,
                                tc_error *err) {
    tc_claims c;
    tc_status st = tc_claims_load_all(&c, tc_source_dir(), err);
    /* a source tree without claims (a stripped copy) says so; a broken file is an error */
    if (!st && c.n == 0) {
        fprintf(md,
                "\n## Paper claims\n\nNo claims files (%s/experiments/*/claims.cfg): no "
                "verdicts.\n",
                tc_source_dir());
        tc_claims_free(&c);
        return TC_OK;
    }
    if (st) {
        fprintf(md, "\n## Paper claims\n\nThe claims file could not be read: %s:%d: %s\n",
                err->file, err->line, err->msg);
        return st;
    }
    tc_outfile o;
    tc_status fst = TC_OK;
    st = open_in(out_dir, "claims.tex", &o, err);
    if (!st) {
        int count[TC_VERDICT_COUNT];
        fprintf(md,
                "\n## Paper claims\n\nEvery claim of the five papers (`experiments/*/claims.cfg`), "
                "judged from this run's metrics; each section gives the reasons.\n\n");
        fputs(
            "% written by touche (tc_report_write) from the experiments' claims.cfg and the run's "
            "metrics\n"
            "\\section*{Paper claims}\n",
            o.f);
        /* the summary figure first: a page-one picture of every verdict */
        char tpl[1300];
        tc_error fe;
        tc_error_clear(&fe);
        snprintf(tpl, sizeof tpl, "%s/paper/claims.gp", tc_source_dir());
        fst = tc_plot_available()
                  ? tc_claims_figure(&c, metrics_of, (void *)rm, out_dir, tpl, md, o.f, &fe)
                  : tc_error_set(&fe, TC_EIO, NULL, 0, NULL, "gnuplot not found");
        if (fst) {
            fprintf(md, "*The summary figure could not be drawn: %s.*\n\n", fe.msg);
            fputs("\\emph{The summary figure could not be drawn: ", o.f);
            tc_latex_put(o.f, fe.msg);
            fputs(".}\n\n", o.f);
        }
        tc_report_matrix(out_dir, rm->ex, rm->n, rm->ms, rm->ok, md, o.f);
        tc_claims_table(&c, metrics_of, (void *)rm, md, o.f, count);
        for (int f = 0; f < 2; f++)
            fprintf(f ? o.f : md,
                    "%d claims: %d reproduced, %d partly, %d not reproduced, %d not "
                    "run here, %d whose runs failed, %d not testable at this tier, %d "
                    "not yet implemented, %d shown by a figure only.\n",
                    c.n, count[TC_VERDICT_REPRODUCED], count[TC_VERDICT_PARTLY],
                    count[TC_VERDICT_NOT], count[TC_VERDICT_NOT_RUN], count[TC_VERDICT_FAILED],
                    count[TC_VERDICT_UNTESTABLE], count[TC_VERDICT_MISSING],
                    count[TC_VERDICT_FIGURE]);
        timings_summary(rm, md, o.f);
        /* the physical residuals of every method over the experiments */
        char rtpl[1300];
        tc_error re;
        tc_error_clear(&re);
        snprintf(rtpl, sizeof rtpl, "%s/paper/residuals.gp", tc_source_dir());
        tc_status rst = tc_plot_available() ? tc_report_residuals(out_dir, rm->ms, rm->ok, rm->n,
                                                                  rtpl, md, o.f, &re)
                                            : TC_OK;
        if (rst) {
            fprintf(md, "*The residual figure could not be drawn: %s.*\n\n", re.msg);
            fputs("\\emph{The residual figure could not be drawn: ", o.f);
            tc_latex_put(o.f, re.msg);
            fputs(".}\n\n", o.f);
        }
        st = tc_outfile_commit(&o, err);
        /* a figure not drawn is said in the report and fails the report's status */
        if (!st && fst)
            st = tc_error_set(err, fst, tpl, 0, NULL, "the claims' summary figure: %s", fe.msg);
        if (!st && rst)
            st = tc_error_set(err, rst, rtpl, 0, NULL, "the residual figure: %s", re.msg);
    }
    tc_claims_free(&c);
    return st;
}

/* the conclusions at the end of report.md and in conclusions.tex (nothing without a claims file;
 * a broken one was already reported by claims_summary) */
static tc_status conclusions(const char *out_dir, const run_metrics *rm, FILE *md, tc_error *err) {
    tc_claims c;
    tc_error e;
    tc_error_clear(&e);
    if (tc_claims_load_all(&c, tc_source_dir(), &e) || c.n == 0) {
        tc_claims_free(&c);
        return TC_OK;
    }
    tc_outfile o;
    tc_status st = open_in(out_dir, "conclusions.tex", &o, err);
    if (!st) {
        fputs(
            "% written by touche (tc_report_write) from the experiments' claims.cfg and the run's "
            "metrics\n",
            o.f);
        tc_claims_conclusions(&c, metrics_of, (void *)rm, md, o.f);
        st = tc_outfile_commit(&o, err);
    }
    tc_claims_free(&c);
    return st;
}

/* each experiment's section in order; one that did not run leaves a marker only */
static tc_status copy_sections(FILE *f, const char *out_dir, const tc_report_entry *ex, int n,
                               tc_error *err) {
    for (int i = 0; i < n; i++) {
        char dir[1024], sec[1280];
        if (tc_path_join(dir, sizeof dir, out_dir, ex[i].name) != TC_OK ||
            tc_path_join(sec, sizeof sec, dir, "section.md") != TC_OK)
            return tc_error_set(err, TC_EINVAL, out_dir, 0, NULL, "path too long for %s",
                                ex[i].name);
        int present = tc_file_readable(sec);
        fprintf(f, "\n<!-- %s%s -->\n", ex[i].name, present ? "" : ": no section.md (not run)");
        if (present && !copy_file(f, sec))
            return tc_error_set(err, TC_EIO, sec, 0, NULL, "cannot read %s", sec);
    }
    return TC_OK;
}

/* title, provenance line, the paper claims, the setup, each experiment's section, the
 * conclusions */
static tc_status write_markdown(const char *out_dir, const tc_report_entry *ex, int n,
                                tc_error *err) {
    tc_outfile o;
    run_metrics r;
    tc_status st = open_in(out_dir, "report.md", &o, err);
    if (st != TC_OK) return st;
    if (!read_metrics(out_dir, ex, n, &r)) {
        free_metrics(&r);
        tc_outfile_abort(&o);
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory for the metrics");
    }

    /* header: what, from which revision, when, where */
    char date[64], host[320];
    tc_utc_now(date, sizeof date);
    tc_host_desc(host, sizeof host);
    fprintf(o.f, "# touche reproduction report\n\n");
    fprintf(o.f, "Revision `%s`, generated %s on %s.\n", tc_revision(), date, host);
    /* the claims, then the setup chapter (setup.tex for the PDF); a failure of either is
     * reported after report.md is complete, the first one in err */
    tc_error later;
    tc_error_clear(&later);
    tc_status cst = claims_summary(out_dir, &r, o.f, err);
    tc_status sst = tc_report_setup(out_dir, ex, n, r.ms, r.ok, o.f, cst ? &later : err);
    if (!cst) cst = sst;
    st = copy_sections(o.f, out_dir, ex, n, err);
    /* the conclusions, a paragraph per paper */
    sst = conclusions(out_dir, &r, o.f, cst ? &later : err);
    if (!cst) cst = sst;
    free_metrics(&r);
    if (st) {
        tc_outfile_abort(&o);
        return st;
    }
    st = tc_outfile_commit(&o, cst ? &later : err);
    return st ? st : cst;
}

/* experiments.tex: each section when its experiment ran, else a line saying it did not; a page
 * break before each flushes the floats of the one before (figures stay with their section) */
static tc_status write_tex_list(const char *out_dir, const tc_report_entry *ex, int n,
                                tc_error *err) {
    tc_outfile o;
    tc_status st = open_in(out_dir, "experiments.tex", &o, err);
    if (st) return st;
    fprintf(o.f, "%% written by touche (tc_report_write) from its experiment registry\n");
    for (int i = 0; i < n; i++) {
        fprintf(o.f,
                "\\clearpage\n\\IfFileExists{%s/section.tex}{\\input{%s/section.tex}}"
                "{\\section{",
                ex[i].name, ex[i].name);
        tc_latex_put(o.f, ex[i].heading);
        fputs("}Not run.}\n", o.f);
    }
    return tc_outfile_commit(&o, err);
}

/* ---------- the PDF ---------- */

/* the first LaTeX error line ("! ...") of a log into buf, "" when there is none */
static void latex_error(const char *log, char *buf, size_t n) {
    buf[0] = 0;
    FILE *f = fopen(log, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (line[0] == '!') {
            line[strcspn(line, "\n")] = 0;
            snprintf(buf, n, "%s", line);
            break;
        }
    if (f) fclose(f);
}

/* pdflatex twice (references, then their numbers) on <src>/paper/touche.tex in a staging
 * directory, which then replaces <out_dir>/paper; on failure the old paper/ stays, the log is
 * kept as paper/latex.log and err says why */
static tc_status build_pdf(const char *out_dir, const char *src, tc_error *err) {
    /* absolute paths: pdflatex resolves them against its own notion of the working directory */
    char out_abs[PATH_MAX], tex[1280], stage[PATH_MAX + 64], paper[PATH_MAX + 16],
        log[PATH_MAX + 96];
    char outdir_opt[PATH_MAX + 112], texinputs[2 * PATH_MAX + 64];
    tc_error e;
    tc_error_clear(&e);
    if (!realpath(out_dir, out_abs))
        return tc_error_set(err, TC_EIO, out_dir, 0, NULL, "cannot resolve %s", out_dir);
    snprintf(tex, sizeof tex, "%s/paper/touche.tex", src);
    snprintf(paper, sizeof paper, "%s/paper", out_abs);
    tc_status st = tc_stage_dir(out_abs, "paper", stage, sizeof stage, err);
    if (st) return st;
    snprintf(log, sizeof log, "%s/latex.log", stage);
    snprintf(outdir_opt, sizeof outdir_opt, "-output-directory=%s", stage);
    /* exact folders, never a recursive search (out//): a section.tex left in a subfolder of the
     * output root (an older run's) must not stand in for an experiment that did not run */
    snprintf(texinputs, sizeof texinputs, "TEXINPUTS=%s:%s/paper:", out_abs, src);

    /* nonstop, halting at the first error; the log collects both runs */
    const char *argv[] = {"pdflatex", "-interaction=nonstopmode", "-halt-on-error", outdir_opt, tex,
                          NULL};
    const char *env[] = {texinputs, NULL};
    for (int run = 0; run < 2 && !st; run++) {
        st = tc_run_logged(argv, env, NULL, log, run > 0, &e);
        if (!st && tc_interrupted()) st = TC_EINTR;
    }
    /* the logs name paper/, not the staging directory that becomes it */
    char texlog[PATH_MAX + 96];
    snprintf(texlog, sizeof texlog, "%s/touche.log", stage);
    if (tc_file_readable(texlog)) tc_unstage_file(texlog, &e);
    if (tc_file_readable(log)) tc_unstage_file(log, &e);
    if (!st) return tc_swap_dir(stage, paper, err);
    /* a failed build keeps its log beside the old paper/ */
    char keep[PATH_MAX + 16], why[512];
    snprintf(keep, sizeof keep, "%s/latex.log", paper);
    latex_error(log, why, sizeof why);
    tc_mkdir_p(paper, &e);
    rename(log, keep);
    tc_remove_tree(stage);
    return tc_error_set(err, st == TC_EINTR ? st : TC_EENGINE, keep, 0, NULL,
                        "the PDF report did not build (%s); report.md is complete",
                        why[0] ? why : tc_status_str(st));
}

tc_status tc_report_write(const char *out_dir, const tc_report_entry *known, int n, tc_error *err) {
    tc_report_entry all[128];
    static char names[128][256];
    int k = sections(out_dir, known, n, all, names, 128);
    tc_status st = write_markdown(out_dir, all, k, err);
    if (!st) st = write_tex_list(out_dir, all, k, err);
    if (st != TC_OK) return st;

    /* the PDF: without LaTeX or its source the report is incomplete, and the exit status says so,
     * unless the user asked for report.md only (TOUCHE_NO_PDF=1) */
    const char *src = tc_source_dir();
    const char *no_pdf = getenv("TOUCHE_NO_PDF");
    if (no_pdf && strcmp(no_pdf, "0") != 0) {
        fprintf(stderr, "report: TOUCHE_NO_PDF is set: wrote report.md only, no PDF\n");
        return TC_OK;
    }
    char tex[1280];
    snprintf(tex, sizeof tex, "%s/paper/touche.tex", src);
    if (!tc_have_program("pdflatex"))
        return tc_error_set(err, TC_EUNSUP, NULL, 0, NULL,
                            "report: pdflatex not found, so no PDF (report.md is complete): "
                            "sh tools/setup.sh installs LaTeX, or set TOUCHE_NO_PDF=1 for "
                            "report.md only");
    if (!tc_file_readable(tex))
        return tc_error_set(err, TC_EIO, tex, 0, NULL,
                            "report: the PDF's source is missing (report.md is complete)");
    return build_pdf(out_dir, src, err);
}
