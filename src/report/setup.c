/* SPDX-License-Identifier: MIT */
/* the report's setup chapter: the machine and software a run used, how each experiment ran, every
 * method with its parameters, and the deviations from the papers the scripts document */
#include "report/tc_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/tc_fs.h"
#include "core/tc_machine.h"
#include "core/tc_provenance.h"
#include "report/tc_metrics.h"
#include "report/tc_table.h"
#include "sim/tc_sim.h"
#include "tc_config.h"

/* the two outputs every part is written to */
typedef struct out2 {
    FILE *md, *tex;
} out2;

/* a value of setup.tsv ("" when absent) into buf */
static void setup_value(const char *dir, const char *key, char *buf, size_t n) {
    char path[1400], line[8192];
    snprintf(path, sizeof path, "%s/setup.tsv", dir);
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    size_t k = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, k) && line[k] == '\t') {
            line[strcspn(line, "\n")] = 0;
            snprintf(buf, n, "%s", line + k + 1);
            break;
        }
    if (f) fclose(f);
}

/* a heading in both forms (level 2 or 3) */
static void heading(const out2 *o, int level, const char *text) {
    fprintf(o->md, "\n%s %s\n\n", level == 2 ? "##" : "###", text);
    fputs(level == 2 ? "\\section{" : "\\subsection*{", o->tex);
    tc_latex_put(o->tex, text);
    fputs("}\n", o->tex);
}

/* a paragraph in both forms (md_before: what the Markdown puts before it) */
static void paragraph(const out2 *o, const char *md_before, const char *text) {
    fprintf(o->md, "%s%s\n\n", md_before, text);
    tc_latex_put(o->tex, text);
    fputs("\n", o->tex);
}

/* a row of a two-column list: a label and its value */
static void pair(const out2 *o, const char *label, const char *value) {
    fprintf(o->md, "| %s | %s |\n", label, value);
    tc_latex_put(o->tex, label);
    fputs(" & ", o->tex);
    tc_latex_put(o->tex, value);
    fputs("\\\\\n", o->tex);
}

/* one table row of n cells in both forms */
static void put_row(const out2 *o, const char *const *cells, int n) {
    fputs("|", o->md);
    for (int c = 0; c < n; c++) {
        fprintf(o->md, " %s |", cells[c]);
        tc_latex_put(o->tex, cells[c]);
        fputs(c < n - 1 ? " & " : "\\\\\n", o->tex);
    }
    fputs("\n", o->md);
}

/* the first line a program prints for its version ("" when it cannot be run) */
static void program_version(const char *cmd, char *buf, size_t n) {
    buf[0] = 0;
    FILE *p = popen(cmd, "r");
    char line[512];
    while (p && fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0]) {
            snprintf(buf, n, "%s", line);
            break;
        }
    }
    if (p) pclose(p);
}

/* the operating system: /etc/os-release's PRETTY_NAME and the kernel */
static void os_desc(char *buf, size_t n) {
    char line[512], name[256] = "unknown";
    FILE *f = fopen("/etc/os-release", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "PRETTY_NAME=", 12)) {
            line[strcspn(line, "\n")] = 0;
            snprintf(name, sizeof name, "%s", line + 12 + (line[12] == '"'));
            name[strcspn(name, "\"")] = 0;
        }
    if (f) fclose(f);
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(buf, n, "%s, %s %s %s", name, u.sysname, u.release, u.machine);
    else
        snprintf(buf, n, "%s", name);
}

/* the machine and the software: revision, date, CPU, OS, compiler, libraries, programs */
static void machine_part(const out2 *o) {
    char v[600], cpu[300];
    heading(o, 3, "Machine and software");
    fputs("| what | this run |\n| --- | --- |\n", o->md);
    fputs("{\\small\\begin{longtable}{@{}>{\\raggedright\\arraybackslash}p{0.22\\linewidth}"
          ">{\\raggedright\\arraybackslash}p{0.74\\linewidth}@{}}\n\\toprule\n",
          o->tex);
    const char *rev = tc_revision();
    snprintf(v, sizeof v, "%s%s (touche %s)", rev,
             strstr(rev, "-dirty") ? ": built from a modified working tree" : "", tc_version());
    pair(o, "revision", v);
    tc_utc_now(v, sizeof v);
    pair(o, "report written", v);
    tc_machine_describe(cpu, sizeof cpu, 1);
    char *comma = strrchr(cpu, ',');
    if (comma) *comma = 0;
    snprintf(v, sizeof v, "%s; %ld logical cores", cpu, sysconf(_SC_NPROCESSORS_ONLN));
    pair(o, "CPU", v);
    os_desc(v, sizeof v);
    pair(o, "operating system", v);
    snprintf(v, sizeof v, "%s; %s", TC_BUILD_COMPILER, TC_BUILD_FLAGS);
    pair(o, "compiler and flags", v);
    /* every library the build links, as meson found it (pkg-config, header or package) */
    char libs[] = TC_BUILD_LIBS;
    for (char *save = NULL, *l = strtok_r(libs, ";", &save); l; l = strtok_r(NULL, ";", &save)) {
        char name[64];
        snprintf(name, sizeof name, "library %.*s", (int)strcspn(l, " "), l);
        pair(o, name, l + strcspn(l, " ") + 1);
    }
    /* the programs the run called */
    static const char *const progs[][2] = {
        {"gnuplot", "gnuplot --version 2>/dev/null"},
        {"CalculiX (ccx)", "ccx -v 2>/dev/null | grep -i version"},
        {"pdflatex", "pdflatex --version 2>/dev/null"},
    };
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        char name[64];
        program_version(progs[i][1], v, sizeof v);
        snprintf(name, sizeof name, "program %s", progs[i][0]);
        pair(o, name, v[0] ? v : "not found");
    }
    fputs("\\bottomrule\n\\end{longtable}}\n", o->tex);
}

/* the script settings named like seeds, as "key = value, ..." */
static void seeds_of(const tc_metrics *ms, char *buf, size_t n) {
    buf[0] = 0;
    for (int i = 0; i < ms->nsetting; i++) {
        const char *k = ms->setting[i].key, *dot = strrchr(k, '.');
        const char *leaf = dot ? dot + 1 : k;
        if (strcmp(leaf, "seed") && strcmp(leaf, "seeds")) continue;
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s = %s", buf[0] ? ", " : "", k,
                 ms->setting[i].value);
    }
}

/* how each experiment ran: tier, threads, ranks, runs, wall time, seeds, its revision and date */
static void runs_part(const out2 *o, const char *out_dir, const tc_report_entry *ex, int n,
                      const tc_metrics *ms, const unsigned char *ok) {
    heading(o, 3, "Experiments as run");
    fputs("| experiment | tier | threads x ranks | runs (failed) | wall time (s) | seeds | "
          "revision, date |\n| --- | --- | ---: | ---: | ---: | --- | --- |\n",
          o->md);
    fputs("{\\footnotesize\\begin{longtable}{@{}>{\\raggedright\\arraybackslash}p{0.15\\linewidth}"
          ">{\\raggedright\\arraybackslash}p{0.06\\linewidth}"
          ">{\\raggedleft\\arraybackslash}p{0.08\\linewidth}"
          ">{\\raggedleft\\arraybackslash}p{0.08\\linewidth}"
          ">{\\raggedleft\\arraybackslash}p{0.06\\linewidth}"
          ">{\\raggedright\\arraybackslash}p{0.18\\linewidth}"
          ">{\\raggedright\\arraybackslash}p{0.18\\linewidth}@{}}\n\\toprule\nexperiment & tier & "
          "threads $\\times$ ranks & runs (failed) & wall (s) & seeds & revision, date\\\\\n"
          "\\midrule\n\\endhead\n",
          o->tex);
    for (int i = 0; i < n; i++) {
        char dir[1300], tier[32], th[16], rk[16], runs[16], failed[16], wall[32], rev[128],
            date[64], seeds[512] = "", cells[7][640];
        snprintf(dir, sizeof dir, "%s/%s", out_dir, ex[i].name);
        setup_value(dir, "tier", tier, sizeof tier);
        if (!tier[0]) continue;
        setup_value(dir, "threads", th, sizeof th);
        setup_value(dir, "ranks", rk, sizeof rk);
        setup_value(dir, "runs", runs, sizeof runs);
        setup_value(dir, "failed", failed, sizeof failed);
        setup_value(dir, "wall_s", wall, sizeof wall);
        setup_value(dir, "revision", rev, sizeof rev);
        setup_value(dir, "date", date, sizeof date);
        if (ok[i] == 2) seeds_of(&ms[i], seeds, sizeof seeds);
        snprintf(cells[0], sizeof cells[0], "%s", ex[i].name);
        snprintf(cells[1], sizeof cells[1], "%s", tier);
        snprintf(cells[2], sizeof cells[2], "%s x %s", th, rk);
        snprintf(cells[3], sizeof cells[3], "%s (%s)", runs, failed);
        snprintf(cells[4], sizeof cells[4], "%.0f", atof(wall));
        snprintf(cells[5], sizeof cells[5], "%s", seeds[0] ? seeds : "none");
        snprintf(cells[6], sizeof cells[6], "%s, %s", rev, date);
        const char *row[7] = {cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6]};
        put_row(o, row, 7);
    }
    fputs("\\bottomrule\n\\end{longtable}}\n", o->tex);
}

/* "name = value unit" of every parameter a method ran with, from its metrics' params text */
static void params_with_units(const char *spec, const char *params, char *buf, size_t n) {
    tc_method m;
    tc_error err;
    int have = tc_method_parse(&m, spec, &err) == TC_OK;
    buf[0] = 0;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", params);
    for (char *save = NULL, *p = strtok_r(copy, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(p, "="), p);
        const char *unit = NULL;
        const tc_params *sets[] = {&m.mparams, &m.sparams, &m.eparams};
        for (int s = 0; have && s < 3 && !unit; s++)
            for (const tc_param_spec *ps = sets[s]->spec; ps && ps->name && !unit; ps++)
                if (!strcmp(ps->name, name)) unit = ps->unit;
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s%s%s", buf[0] ? ", " : "", p,
                 unit && strcmp(unit, "1") ? " " : "", unit && strcmp(unit, "1") ? unit : "");
    }
}

/* where a method comes from: its model's reference, or its engine's summary */
static const char *source_of(const char *spec) {
    tc_method m;
    tc_error err;
    if (tc_method_parse(&m, spec, &err) != TC_OK) return "";
    if (m.model) return m.model->reference;
    return m.engine ? m.engine->summary : "";
}

/* 1 when two experiments ran the same method: label, spec and parameters */
static int same_method(const tc_metrics_method *a, const tc_metrics_method *b) {
    return !strcmp(a->label, b->label) && !strcmp(a->spec, b->spec) &&
           !strcmp(a->params, b->params);
}

/* "name = value unit" of the method's stiffness parameters (a stiffness, a modulus or a gain per
 * kg, by their docs) from its params text, ", "-separated, into buf ("" when it has none) */
static void stiffness_of(const char *spec, const char *params, char *buf, size_t n) {
    tc_method m;
    tc_error err;
    buf[0] = 0;
    if (tc_method_parse(&m, spec, &err) != TC_OK) return;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", params);
    for (char *save = NULL, *p = strtok_r(copy, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
        size_t l = strcspn(p, "=");
        const tc_params *sets[] = {&m.mparams, &m.sparams, &m.eparams};
        for (int k = 0; k < 3; k++)
            for (const tc_param_spec *ps = sets[k]->spec; ps && ps->name; ps++)
                if (strlen(ps->name) == l && !strncmp(ps->name, p, l) &&
                    (strstr(ps->doc, "stiffness") || strstr(ps->doc, "modulus") ||
                     strstr(ps->doc, "gain per kg")))
                    snprintf(buf + strlen(buf), n - strlen(buf), "%s%s %s", buf[0] ? ", " : "", p,
                             ps->unit);
    }
}

/* per experiment, the methods grouped by the stiffness they were given: those sharing one stand
 * together */
static void stiffness_part(const out2 *o, const tc_report_entry *ex, int n, const tc_metrics *ms,
                           const unsigned char *ok) {
    paragraph(
        o, "\n",
        "Stiffness per experiment: the methods with a stiffness parameter (a stiffness, a "
        "modulus, a gain per kg), grouped by the value they were given; methods in one group "
        "share it. Engines (MuJoCo's solref, ODE's and Bullet's erp and cfm) and rigid methods "
        "have none.");
    int items = 0;
    for (int i = 0; i < n; i++) {
        char line[4096] = "";
        int nm = ok[i] == 2 ? ms[i].nmethod : 0;
        char(*val)[256] = calloc((size_t)nm + 1, sizeof *val);
        if (!val) continue;
        for (int k = 0; k < nm; k++)
            stiffness_of(ms[i].methods[k].spec, ms[i].methods[k].params, val[k], sizeof val[k]);
        /* each value once, with every label that has it */
        for (int k = 0; k < nm; k++) {
            int first = val[k][0] != 0;
            for (int j = 0; j < k && first; j++)
                first = strcmp(val[j], val[k]) != 0;
            if (!first) continue;
            snprintf(line + strlen(line), sizeof line - strlen(line), "%s", line[0] ? "; " : "");
            for (int j = k, c = 0; j < nm; j++)
                if (!strcmp(val[j], val[k]))
                    snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s",
                             c++ ? ", " : "", ms[i].methods[j].label);
            snprintf(line + strlen(line), sizeof line - strlen(line), " (%s)", val[k]);
        }
        free(val);
        if (!line[0]) continue;
        /* the list opens at its first item (LaTeX refuses an empty itemize) */
        if (!items++) fputs("\\begin{itemize}\\small\n", o->tex);
        fprintf(o->md, "- **%s**: %s\n", ex[i].name, line);
        fputs("\\item \\textbf{", o->tex);
        tc_latex_put(o->tex, ex[i].name);
        fputs("}: ", o->tex);
        tc_latex_put(o->tex, line);
        fputs("\n", o->tex);
    }
    if (items)
        fputs("\\end{itemize}\n", o->tex);
    else {
        fputs("- none of the methods that ran has one\n", o->md);
        fputs("None of the methods that ran has one.\n", o->tex);
    }
}

/* every method that ran, once per label, spec and parameters, with the experiments it ran in */
static void methods_part(const out2 *o, const tc_report_entry *ex, int n, const tc_metrics *ms,
                         const unsigned char *ok) {
    heading(o, 3, "Methods");
    fputs("Each method as it ran: its label in the experiments' tables and figures, its "
          "specification (model/solver, or an engine), where it comes from, and every parameter "
          "with its value and unit (docs/models/, docs/solvers.md and docs/engines/ define them). "
          "The same label can run with other parameters in another experiment.\n\n",
          o->md);
    fputs("Each method as it ran: its label in the experiments' tables and figures, its "
          "specification (model/solver, or an engine), where it comes from, and every parameter "
          "with its value and unit.\n",
          o->tex);
    fputs("| label | method | from | parameters | experiments |\n| --- | --- | --- | --- | --- |\n",
          o->md);
    fputs("{\\footnotesize\\begin{longtable}{@{}>{\\raggedright\\arraybackslash}p{0.12\\linewidth}"
          ">{\\raggedright\\arraybackslash}p{0.13\\linewidth}"
          ">{\\raggedright\\arraybackslash}p{0.23\\linewidth}"
          ">{\\raggedright\\arraybackslash}p{0.33\\linewidth}"
          ">{\\raggedright\\arraybackslash}p{0.07\\linewidth}@{}}\n\\toprule\nlabel & method & "
          "from & parameters & in\\\\\n\\midrule\n\\endhead\n",
          o->tex);
    for (int i = 0; i < n; i++)
        for (int k = 0; ok[i] == 2 && k < ms[i].nmethod; k++) {
            const tc_metrics_method *a = &ms[i].methods[k];
            /* listed already by an earlier experiment with the same spec and parameters */
            int seen = 0;
            for (int j = 0; j < i && !seen; j++)
                for (int q = 0; ok[j] == 2 && q < ms[j].nmethod && !seen; q++)
                    seen = same_method(&ms[j].methods[q], a);
            if (seen) continue;
            char params[2048], where[512] = "";
            params_with_units(a->spec, a->params, params, sizeof params);
            for (int j = i; j < n; j++)
                for (int q = 0; ok[j] == 2 && q < ms[j].nmethod; q++)
                    if (same_method(&ms[j].methods[q], a))
                        snprintf(where + strlen(where), sizeof where - strlen(where), "%s%.2s",
                                 where[0] ? ", " : "", ex[j].name);
            const char *cells[] = {a->label, a->spec, source_of(a->spec),
                                   params[0] ? params : "none", where};
            put_row(o, cells, 5);
        }
    fputs("\\bottomrule\n\\end{longtable}}\n", o->tex);
    stiffness_part(o, ex, n, ms, ok);
}

/* the scripts' documented choices, experiment by experiment (the rows "choice" of setup.tsv) */
static void deviations_part(const out2 *o, const char *out_dir, const tc_report_entry *ex, int n) {
    heading(o, 3, "Deviations from the papers");
    paragraph(
        o, "",
        "Every setting a paper does not give, and every place touche departs from a paper, is "
        "marked \"choice\" with its reason in the experiment's script; this list gathers them "
        "all from the scripts that ran (script line, setting, the script's words).");
    int total = 0;
    for (int i = 0; i < n; i++) {
        char path[1400], line[8192], script[1024];
        snprintf(path, sizeof path, "%s/%s", out_dir, ex[i].name);
        setup_value(path, "script", script, sizeof script);
        snprintf(path + strlen(path), sizeof path - strlen(path), "/setup.tsv");
        FILE *f = fopen(path, "r");
        int k = 0;
        while (f && fgets(line, sizeof line, f)) {
            if (strncmp(line, "choice\t", 7)) continue;
            line[strcspn(line, "\n")] = 0;
            char *ln = line + 7, *set = strchr(ln, '\t'), *text = set ? strchr(set + 1, '\t') : 0;
            if (!text) continue;
            *set++ = 0;
            *text++ = 0;
            if (!k++) {
                const char *base = strrchr(script, '/');
                fprintf(o->md, "**%s** (`%s`)\n\n", ex[i].name, base ? base + 1 : script);
                fputs("\\paragraph{", o->tex);
                tc_latex_put(o->tex, ex[i].name);
                fputs("}\\begin{itemize}\\small\n", o->tex);
            }
            fprintf(o->md, "- line %s, `%s`: %s\n", ln, set[0] ? set : "(general)", text);
            fprintf(o->tex, "\\item line %s, \\texttt{", ln);
            tc_latex_put(o->tex, set[0] ? set : "(general)");
            fputs("}: ", o->tex);
            tc_latex_put(o->tex, text);
            fputs("\n", o->tex);
        }
        if (f) fclose(f);
        if (k) {
            fputs("\n", o->md);
            fputs("\\end{itemize}\n", o->tex);
        }
        total += k;
    }
    fprintf(o->md, "%d documented choices in all.\n", total);
    fprintf(o->tex, "%d documented choices in all.\n", total);
}

/* 1 when experiment dir's setup.tsv lists label among the methods that cannot run it */
static int skipped(const char *dir, const char *label) {
    char path[1400], line[1024];
    snprintf(path, sizeof path, "%s/setup.tsv", dir);
    FILE *f = fopen(path, "r");
    size_t n = strlen(label);
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = !strncmp(line, "skip\t", 5) && !strncmp(line + 5, label, n) && line[5 + n] == '\t';
    if (f) fclose(f);
    return found;
}

/* the label of every method that ran anywhere, once, in order of first appearance */
static int all_labels(const tc_metrics *ms, const unsigned char *ok, int n, const char **out,
                      int max) {
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int m = 0; ok[i] == 2 && m < ms[i].nmethod; m++) {
            int seen = 0;
            for (int j = 0; j < k && !seen; j++)
                seen = !strcmp(out[j], ms[i].methods[m].label);
            if (!seen && k < max) out[k++] = ms[i].methods[m].label;
        }
    return k;
}

void tc_report_matrix(const char *out_dir, const tc_report_entry *ex, int n, const tc_metrics *ms,
                      const unsigned char *ok, FILE *md, FILE *tex) {
    const char *label[128];
    int nl = all_labels(ms, ok, n, label, 128);
    if (!nl) return;
    static const char intro[] =
        "Which method ran in which experiment: \"ok\" when all its runs finished, \"k/n "
        "failed\" when some did not (each section gives the reasons), \"cannot\" when the "
        "method lacks what the experiment needs, blank when the experiment's script does not "
        "include it.";
    fprintf(md, "\n### Methods by experiment\n\n%s\n\n| method |", intro);
    fputs("\\subsection*{Methods by experiment}\n", tex);
    tc_latex_put(tex, intro);
    fputs("\n\n{\\small\\begin{longtable}{@{}l", tex);
    for (int i = 0; i < n; i++)
        fputs("c", tex);
    fputs("@{}}\n\\toprule\nmethod", tex);
    for (int i = 0; i < n; i++) {
        fprintf(md, " %.2s |", ex[i].name);
        fprintf(tex, " & %.2s", ex[i].name);
    }
    fputs("\n| --- |", md);
    for (int i = 0; i < n; i++)
        fputs(" :---: |", md);
    fputs("\n", md);
    fputs("\\\\\n\\midrule\n\\endhead\n", tex);
    for (int l = 0; l < nl; l++) {
        fprintf(md, "| %s |", label[l]);
        tc_latex_put(tex, label[l]);
        for (int i = 0; i < n; i++) {
            char cell[32] = "", dir[1300];
            snprintf(dir, sizeof dir, "%s/%s", out_dir, ex[i].name);
            for (int m = 0; ok[i] == 2 && m < ms[i].nmethod && !cell[0]; m++) {
                const tc_metrics_method *a = &ms[i].methods[m];
                if (strcmp(a->label, label[l])) continue;
                if (a->failed)
                    snprintf(cell, sizeof cell, "%d/%d failed", a->failed, a->runs);
                else
                    snprintf(cell, sizeof cell, "ok");
            }
            if (!cell[0] && skipped(dir, label[l])) snprintf(cell, sizeof cell, "cannot");
            fprintf(md, " %s |", cell);
            fputs(" & ", tex);
            tc_latex_put(tex, cell);
        }
        fputs("\n", md);
        fputs("\\\\\n", tex);
    }
    fputs("\\bottomrule\n\\end{longtable}}\n", tex);
}

tc_status tc_report_setup(const char *out_dir, const tc_report_entry *ex, int n,
                          const tc_metrics *ms, const unsigned char *ok, FILE *md, tc_error *err) {
    tc_outfile t;
    char path[1200];
    if (tc_path_join(path, sizeof path, out_dir, "setup.tex") != TC_OK)
        return tc_error_set(err, TC_EINVAL, out_dir, 0, NULL, "output path too long");
    tc_status st = tc_outfile_open(&t, path, err);
    if (st) return st;
    out2 o = {md, t.f};
    fputs("% written by touche (tc_report_setup) from the build and each experiment's setup.tsv "
          "and metrics.cfg\n",
          t.f);
    heading(&o, 2, "Setup");
    machine_part(&o);
    runs_part(&o, out_dir, ex, n, ms, ok);
    methods_part(&o, ex, n, ms, ok);
    deviations_part(&o, out_dir, ex, n);
    return tc_outfile_commit(&t, err);
}
