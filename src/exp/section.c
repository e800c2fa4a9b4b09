/* SPDX-License-Identifier: MIT */
/* the report section of an experiment: section.md and section.tex built side by side, with the
 * driver's text, tables and figures, then the methods, the failed runs and the warnings */
#include "exp/exp_private.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tc_fs.h"
#include "report/tc_claims.h"

/* ---------- Markdown to LaTeX ---------- */

void tc_md_to_tex(FILE *f, const char *md) {
    const char *p = md;
    while (*p) {
        /* `code` and **bold** spans; everything else escaped as it stands */
        const char *tick = strchr(p, '`'), *bold = strstr(p, "**");
        const char *next = tick && (!bold || tick < bold) ? tick : bold;
        if (!next) {
            tc_latex_put_n(f, p, strlen(p));
            break;
        }
        tc_latex_put_n(f, p, (size_t)(next - p));
        int is_code = next == tick;
        const char *start = next + (is_code ? 1 : 2);
        const char *end = is_code ? strchr(start, '`') : strstr(start, "**");
        if (!end) {
            tc_latex_put_n(f, next, strlen(next));
            break;
        }
        fputs(is_code ? "\\texttt{" : "\\textbf{", f);
        if (is_code)
            tc_latex_put_breakable(f, start, (size_t)(end - start));
        else
            tc_latex_put_n(f, start, (size_t)(end - start));
        fputs("}", f);
        p = end + (is_code ? 1 : 2);
    }
}

/* ---------- building ---------- */

tc_status tc_section_begin(tc_exp *x) {
    x->md = open_memstream(&x->md_buf, &x->md_len);
    x->tex = open_memstream(&x->tex_buf, &x->tex_len);
    if (!x->md || !x->tex) return TC_ENOMEM;
    /* a user's script is titled after the driver and its own name */
    int own = strcmp(x->name, x->type->name) == 0;
    fprintf(x->md, "## %s%s%s\n\n", x->type->heading, own ? "" : " — ", own ? "" : x->name);
    fputs("\\section{", x->tex);
    tc_md_to_tex(x->tex, x->type->heading);
    if (!own) {
        fputs(" --- ", x->tex);
        tc_md_to_tex(x->tex, x->name);
    }
    fputs("}\n", x->tex);
    /* the verdicts go right after the heading, once the metrics exist */
    fflush(x->md);
    fflush(x->tex);
    x->md_head = x->md_len;
    x->tex_head = x->tex_len;
    return TC_OK;
}

void tc_section_para(tc_exp *x, const char *md) {
    fprintf(x->md, "%s\n\n", md);
    tc_md_to_tex(x->tex, md);
    fputs("\n\n", x->tex);
}

void tc_exp_text(tc_exp *x, const char *fmt, ...) {
    char *text = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&text, fmt, ap);
    va_end(ap);
    if (n >= 0) tc_section_para(x, text);
    free(text);
}

tc_status tc_exp_table(tc_exp *x, const tc_table *t, const char *base, const char *caption,
                       tc_error *err) {
    char path[1200], label[160];
    snprintf(label, sizeof label, "tab:%s:%s", x->name, base);
    tc_exp_path(x, base, path, sizeof path);
    tc_status st = tc_table_write(t, path, caption, label, err);
    if (st) return st;
    /* the Markdown table itself, and the LaTeX one by \input */
    snprintf(path + strlen(path), sizeof path - strlen(path), ".md");
    tc_file_append(x->md, path);
    fputs("\n", x->md);
    fprintf(x->tex, "\\input{%s/%s.tex}\n\n", x->name, base);
    return TC_OK;
}

void tc_exp_figure(tc_exp *x, const char *tpl, const tc_plot_var *vars, int nvar, const char *base,
                   const char *caption) {
    char tpath[1200], out[1200];
    tc_error err;
    tc_error_clear(&err);
    /* an MPI worker's outputs are thrown away: no figures to draw */
    if (x->rank > 0) return;
    /* the template lives in the experiment's folder, beside its built-in script; one named
     * plots/... is shared by every experiment (the scene picture) */
    const char *script = x->type->script, *slash = strrchr(script, '/');
    if (!strncmp(tpl, "plots/", 6))
        snprintf(tpath, sizeof tpath, "%s/%s", x->source_dir, tpl);
    else
        snprintf(tpath, sizeof tpath, "%s/experiments/%.*s%s", x->source_dir,
                 slash ? (int)(slash - script + 1) : 0, script, tpl);
    tc_exp_path(x, base, out, sizeof out);
    /* every template also gets plots (the shared templates' folder, for `load plots.'...'`),
     * joined (the methods that joined on their own rather than from the script's list, each
     * with a space on both sides: plots/methods.gp draws them grey, behind the paper's) and
     * families (' label=F ' per method, F its tc_method_family: methods.gp's panels) */
    char plots[1200], joined[4096] = " ", families[4096] = " ";
    snprintf(plots, sizeof plots, "%s/plots/", x->source_dir);
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        if (!tc_exp_entry_at(x, k)->line)
            tc_words_add(joined, sizeof joined, "", "%s ", tc_exp_label(x, k));
        tc_words_add(families, sizeof families, "", "%s=%d ", tc_exp_label(x, k),
                     (int)tc_method_family_of(tc_exp_method(x, k)));
    }
    enum { NSHARED = 3 };
    tc_plot_var all[TC_PLOT_MAXVAR];
    tc_status st = TC_OK;
    if (nvar + NSHARED > TC_PLOT_MAXVAR - 2) {
        st = tc_error_set(&err, TC_EINVAL, NULL, 0, NULL, "too many plot variables");
    } else {
        if (nvar > 0) memcpy(all, vars, (size_t)nvar * sizeof *vars);
        all[nvar] = (tc_plot_var){"plots", plots};
        all[nvar + 1] = (tc_plot_var){"joined", joined};
        all[nvar + 2] = (tc_plot_var){"families", families};
        st = tc_plot_available() ? tc_plot_render(tpath, all, nvar + NSHARED, out, &err)
                                 : tc_error_set(&err, TC_EIO, NULL, 0, NULL,
                                                "gnuplot not found (install gnuplot-nox)");
    }
    if (st) {
        tc_exp_warn(x, "figure %s not drawn: %s", base, err.msg);
        fprintf(x->md, "*Figure `%s` could not be drawn (see the warnings below).*\n\n", base);
        fprintf(x->tex, "\\emph{Figure \\texttt{");
        tc_md_to_tex(x->tex, base);
        fprintf(x->tex, "} could not be drawn.}\n\n");
        return;
    }
    fprintf(x->md, "![%s](%s/%s.png)\n\n", caption, x->name, base);
    /* drawn as wide as the text block (src/report/plot.c), so at \linewidth a font prints at
     * its size (tests/report/figure_fonts.sh reads this width) */
    fprintf(x->tex,
            "\\begin{figure}[htbp]\\centering\n"
            "\\includegraphics[width=\\linewidth]{%s/%s.pdf}\n\\caption{",
            x->name, base);
    tc_md_to_tex(x->tex, caption);
    fputs("}\\end{figure}\n\n", x->tex);
}

/* ---------- the end: methods, failures, warnings ---------- */

/* a list item in both forms */
static void item(tc_exp *x, const char *md) {
    fprintf(x->md, "- %s\n", md);
    fputs("\\item ", x->tex);
    tc_md_to_tex(x->tex, md);
    fputs("\n", x->tex);
}

static void list_begin(tc_exp *x, const char *title) {
    fprintf(x->md, "**%s**\n\n", title);
    fputs("\\paragraph{", x->tex);
    tc_md_to_tex(x->tex, title);
    fputs("}\n\\begin{itemize}\n", x->tex);
}

static void list_end(tc_exp *x) {
    fputs("\n", x->md);
    fputs("\\end{itemize}\n\n", x->tex);
}

/* who ran, who did not and why, what the command line set */
static void methods_part(tc_exp *x) {
    char line[4096];
    if (x->nmethod == 0 && x->nneed == 0) return;
    list_begin(x, "Methods");
    line[0] = 0;
    for (int k = 0; k < x->nmethod; k++)
        snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s (`%s`)", k ? ", " : "",
                 x->method[k].label, x->method[k].m.spec);
    if (x->nmethod) {
        char ran[4200];
        snprintf(ran, sizeof ran, "ran: %s", line);
        item(x, ran);
    }
    if (x->nskip) {
        line[0] = 0;
        for (int k = 0; k < x->nskip; k++)
            snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s (%s)", k ? "; " : "",
                     x->skip[k].name, x->skip[k].reason);
        char sk[4200];
        snprintf(sk, sizeof sk, "cannot run here: %s", line);
        item(x, sk);
    }
    if (x->nleft) {
        char lo[1100];
        snprintf(lo, sizeof lo, "left out with `--methods`: %s", x->left);
        item(x, lo);
    }
    for (int k = 0; k < x->nmethod; k++)
        if (x->method[k].set[0]) {
            char st[400];
            snprintf(st, sizeof st, "set from the command line (`--set`): %s: %s",
                     x->method[k].label, x->method[k].set);
            item(x, st);
        }
    list_end(x);
}

/* every failed run with its reason (the first 30; runs.csv has them all) */
static void failures_part(tc_exp *x) {
    int nf = tc_exp_failed(x), shown = 0;
    if (!nf) return;
    char title[96];
    snprintf(title, sizeof title, "Failed runs: %d of %d", nf, x->nrun);
    list_begin(x, title);
    for (int i = 0; i < x->nrun && shown < 30; i++) {
        const tc_run_record *r = &x->run[i];
        if (!r->status) continue;
        char line[700];
        snprintf(line, sizeof line, "%s%s%s: %s", r->method >= 0 ? x->method[r->method].label : "",
                 r->what[0] ? ", " : "", r->what, r->reason);
        item(x, line);
        shown++;
    }
    if (nf > shown) {
        char more[96];
        snprintf(more, sizeof more, "and %d more (see `runs.csv`)", nf - shown);
        item(x, more);
    }
    list_end(x);
}

static void warnings_part(tc_exp *x) {
    if (!x->nwarn) return;
    list_begin(x, "Warnings");
    char buf[sizeof x->warn];
    snprintf(buf, sizeof buf, "%s", x->warn);
    for (char *sv = NULL, *l = strtok_r(buf, "\n", &sv); l; l = strtok_r(NULL, "\n", &sv))
        item(x, l);
    list_end(x);
}

/* the paper's claims for a built-in experiment judged from its metrics (its claims.cfg),
 * into md and tex; a user's own script (other settings) and an experiment without claims get
 * none, and a claims file that cannot be read says so there */
static void verdicts_part(tc_exp *x, FILE *md, FILE *tex) {
    if (strcmp(x->name, x->type->name) != 0) return;
    tc_claims c;
    tc_error e;
    tc_error_clear(&e);
    if (tc_claims_load_all(&c, x->source_dir ? x->source_dir : ".", &e)) {
        char line[800];
        snprintf(line, sizeof line,
                 "**Verdicts**: none: the claims file could not be read (%s:%d: %s).", e.file,
                 e.line, e.msg);
        fprintf(md, "%s\n\n", line);
        tc_md_to_tex(tex, line);
        fputs("\n\n", tex);
        fprintf(stderr, "touche: %s: %s\n", x->name, line);
        return;
    }
    /* an experiment of one's own (no paper, so no claims) says so where the verdicts go */
    if (!tc_claims_section(&c, x->type->name, &x->metrics, md, tex)) {
        const char *paper = x->type->paper && x->type->paper[0] ? x->type->paper : "none";
        char line[600];
        if (!strncmp(paper, "none", 4))
            snprintf(line, sizeof line,
                     "**Verdicts**: none: this experiment reproduces no paper (%s); what it "
                     "measures are findings, given below.",
                     paper[4] == ':' ? paper + 5 + (paper[5] == ' ') : paper);
        else
            snprintf(line, sizeof line,
                     "**Verdicts**: none: no claims.cfg holds claims of this experiment (paper: "
                     "%s).",
                     paper);
        fprintf(md, "%s\n\n", line);
        tc_md_to_tex(tex, line);
        fputs("\n\n", tex);
    }
    tc_claims_free(&c);
}

/* write the heading, then mid (may be NULL), then the rest of the in-memory text, to file in
 * x->dir */
static tc_status put(tc_exp *x, const char *file, const char *text, size_t len, size_t head,
                     const char *mid, size_t nmid, tc_error *err) {
    tc_outfile o;
    tc_status st = tc_exp_open(x, file, &o, err);
    if (st) return st;
    fwrite(text, 1, head, o.f);
    if (mid) fwrite(mid, 1, nmid, o.f);
    fwrite(text + head, 1, len - head, o.f);
    return tc_outfile_commit(&o, err);
}

/* one residual's cell: "max / mean / percent of steps above the threshold", n/a when unknown,
 * and for the contact residuals of a method that reported no contact impulse in any step (SCM's
 * and PFC's forces at a distance, which no overlapping pair carries: docs/residuals.md), whose
 * zeros would read as a perfect score */
static void residual_cell(char *buf, size_t n, const tc_residual_summary *s, int r) {
    if (s->steps == 0 || isnan(s->mean[r]) || (r != TC_RESID_PENETRATION && s->contacts == 0))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.2g / %.2g / %.0f%%", s->max[r], s->mean[r], 100 * s->frac[r]);
}

/* the physical residuals of each method's tracked steps (docs/residuals.md), when any */
static tc_status residuals_part(tc_exp *x, tc_error *err) {
    const char *head[3 + TC_RESID_N];
    char hbuf[TC_RESID_N][48];
    head[0] = "method";
    head[1] = "steps";
    head[2] = "contacts";
    for (int r = 0; r < TC_RESID_N; r++) {
        snprintf(hbuf[r], sizeof hbuf[r], "%s (%s)", tc_residual_names[r], tc_residual_units[r]);
        head[3 + r] = hbuf[r];
    }
    tc_table *t = NULL;
    for (int k = 0; k < x->nmethod; k++) {
        tc_residual_summary s;
        tc_exp_method_residuals(x, k, &s);
        if (s.steps == 0) continue;
        if (!t && !(t = tc_table_alloc(3 + TC_RESID_N, head))) return TC_ENOMEM;
        char cells[3 + TC_RESID_N][64];
        const char *row[3 + TC_RESID_N];
        snprintf(cells[0], sizeof cells[0], "%s", x->method[k].label);
        snprintf(cells[1], sizeof cells[1], "%lld", s.steps);
        snprintf(cells[2], sizeof cells[2], "%lld", s.contacts);
        for (int r = 0; r < TC_RESID_N; r++)
            residual_cell(cells[3 + r], sizeof cells[3 + r], &s, r);
        for (int c = 0; c < 3 + TC_RESID_N; c++)
            row[c] = cells[c];
        tc_status st = tc_table_add_row(t, row);
        if (st) {
            tc_table_free(t);
            return st;
        }
    }
    if (!t) return TC_OK;
    tc_status st = tc_exp_table(x, t, "residuals",
                                "Physical residuals per method over its runs' steps: max / mean / "
                                "share of steps above the default threshold; contacts: the contact "
                                "impulses evaluated over all steps (none: n/a, not 0) "
                                "(docs/residuals.md)",
                                err);
    tc_table_free(t);
    return st;
}

tc_status tc_section_end(tc_exp *x, tc_error *err) {
    tc_status rst = residuals_part(x, err);
    if (rst) return rst;
    methods_part(x);
    failures_part(x);
    warnings_part(x);
    fclose(x->md);
    fclose(x->tex);
    x->md = x->tex = NULL;
    /* the verdicts, built apart and put after the heading */
    char *vmd = NULL, *vtex = NULL;
    size_t nmd = 0, ntex = 0;
    FILE *fmd = open_memstream(&vmd, &nmd), *ftex = open_memstream(&vtex, &ntex);
    if (fmd && ftex) verdicts_part(x, fmd, ftex);
    if (fmd) fclose(fmd);
    if (ftex) fclose(ftex);
    tc_status st = put(x, "section.md", x->md_buf, x->md_len, x->md_head, vmd, nmd, err);
    if (!st) st = put(x, "section.tex", x->tex_buf, x->tex_len, x->tex_head, vtex, ntex, err);
    free(vmd);
    free(vtex);
    return st;
}
