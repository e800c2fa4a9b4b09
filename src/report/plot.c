/* SPDX-License-Identifier: MIT */
/* figures: a gnuplot template rendered once per terminal (PNG, PDF) into atomically renamed files
 */
#include "report/tc_plot.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/tc_fs.h"

/* Every figure is drawn at the size it prints: as wide as the PDF's text block (paper/touche.tex:
 * A4 less two 2.25 cm margins), where tc_exp_figure includes it at \linewidth, and as tall as its
 * template says on a line "# height: H cm" (FIG_HEIGHT_CM without one). The PDF's fontscale 0.75
 * makes a font of N (cairo counts 96 to the inch, PDF 72) print at N points; the PNG is the same
 * drawing at 150 dots to the inch. tests/report/figure_fonts.sh reads these numbers and every
 * template's fonts and fails on text under 7 pt as printed. */
#define FIG_WIDTH_CM      16.5
#define FIG_HEIGHT_CM     10.0
#define FIG_HEIGHT_MAX_CM 22.0
#define PNG_DPI           150.0
static const struct {
    const char *ext, *terminal;
} outputs[] = {
    {"png", "pngcairo font 'Sans,9' fontscale 1.5625"}, /* 0.75 * PNG_DPI / 72 */
    {"pdf", "pdfcairo font 'Sans,9' fontscale 0.75"},
};

/* one perceptual sequential palette for every colour scale (viridis' anchors: dark = low, light =
 * high, equal steps look equal, and it prints in grey), set before the template runs and kept in
 * the variable tc_palette, so a template that draws a signed quantity in a diverging palette of
 * its own can `eval tc_palette` to return to it */
static const char palette[] = "set palette defined (0 '#440154', 1 '#472d7b', 2 '#3b528b', "
                              "3 '#2c728e', 4 '#21918c', 5 '#28ae80', 6 '#5ec962', 7 '#addc30', "
                              "8 '#fde725')";

int tc_plot_available(void) {
    return tc_have_program("gnuplot");
}

/* append s to buf at *used as a gnuplot single-quoted string ('' stands for a quote) */
static int put_quoted(char *buf, size_t n, size_t *used, const char *s) {
    if (*used + 2 > n) return 0;
    buf[(*used)++] = '\'';
    for (; *s; s++) {
        if (*used + 3 > n) return 0;
        if (*s == '\'') buf[(*used)++] = '\'';
        buf[(*used)++] = *s;
    }
    if (*used + 2 > n) return 0;
    buf[(*used)++] = '\'';
    buf[*used] = '\0';
    return 1;
}

/* append plain text */
static int put_text(char *buf, size_t n, size_t *used, const char *s) {
    size_t len = strlen(s);
    if (*used + len + 1 > n) return 0;
    memcpy(buf + *used, s, len + 1);
    *used += len;
    return 1;
}

/* 1 if s is a gnuplot identifier */
static int is_identifier(const char *s) {
    if (!s || !(isalpha((unsigned char)*s) || *s == '_')) return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
    return 1;
}

/* "name='value'; ...; set terminal T; set output 'file'" for one gnuplot run */
static tc_status build_commands(char *buf, size_t n, const tc_plot_var *vars, int nvar,
                                const char *terminal, const char *size, const char *output,
                                tc_error *err) {
    size_t used = 0;
    buf[0] = '\0';

    /* the template's variables, checked: a name becomes code, a value stays a string */
    for (int i = 0; i < nvar; i++) {
        if (!is_identifier(vars[i].name))
            return tc_error_set(err, TC_EINVAL, NULL, 0, vars[i].name ? vars[i].name : "",
                                "plot variable name is not an identifier");
        for (const char *p = vars[i].value ? vars[i].value : ""; *p; p++)
            if (iscntrl((unsigned char)*p))
                return tc_error_set(err, TC_EINVAL, NULL, 0, vars[i].name,
                                    "plot variable value contains a control character");
        if (!put_text(buf, n, &used, vars[i].name) || !put_text(buf, n, &used, "=") ||
            !put_quoted(buf, n, &used, vars[i].value ? vars[i].value : "") ||
            !put_text(buf, n, &used, "; "))
            return tc_error_set(err, TC_EINVAL, NULL, 0, vars[i].name, "plot variables too long");
    }

    /* then the terminal at its size, the palette and the output file */
    if (!put_text(buf, n, &used, "tc_palette=") || !put_quoted(buf, n, &used, palette) ||
        !put_text(buf, n, &used, "; eval tc_palette; set terminal ") ||
        !put_text(buf, n, &used, terminal) || !put_text(buf, n, &used, " size ") ||
        !put_text(buf, n, &used, size) || !put_text(buf, n, &used, "; set output ") ||
        !put_quoted(buf, n, &used, output))
        return tc_error_set(err, TC_EINVAL, output, 0, NULL, "plot output path too long");
    return TC_OK;
}

/* size of a file in bytes, -1 if it cannot be read */
static long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* what gnuplot said, kept in the log and quoted in err, names the paths the experiment's files
 * will have, not its staging directory (gone by the time anyone reads it); returns st */
static tc_status unstaged(const char *log, tc_status st, tc_error *err) {
    if (file_size(log) > 0) {
        tc_error e;
        tc_error_clear(&e);
        tc_unstage_file(log, &e);
    }
    if (st && err) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        tc_unstage_text(msg, err->msg, sizeof err->msg);
        snprintf(msg, sizeof msg, "%s", err->file);
        tc_unstage_text(msg, err->file, sizeof err->file);
    }
    return st;
}

/* the height a template asks for on a line "# height: H cm" (FIG_HEIGHT_CM without one); an
 * unreadable or absurd height is an error, in err */
static tc_status template_height(const char *path, double *cm, tc_error *err) {
    *cm = FIG_HEIGHT_CM;
    FILE *f = fopen(path, "r");
    if (!f) return tc_error_set(err, TC_EIO, path, 0, NULL, "plot template %s not readable", path);
    char line[512];
    int lineno = 0;
    tc_status st = TC_OK;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (strncmp(line, "# height:", 9)) continue;
        char unit[8] = "";
        double h = 0;
        if (sscanf(line + 9, "%lf %7s", &h, unit) != 2 || strcmp(unit, "cm") || !(h >= 2) ||
            h > FIG_HEIGHT_MAX_CM)
            st = tc_error_set(err, TC_EINVAL, path, lineno, NULL,
                              "%s:%d: '# height: H cm' wants H from 2 to %g", path, lineno,
                              FIG_HEIGHT_MAX_CM);
        else
            *cm = h;
        break;
    }
    fclose(f);
    return st;
}

tc_status tc_plot_render(const char *template_path, const tc_plot_var *vars, int nvar,
                         const char *outbase, tc_error *err) {
    /* an interrupted run draws nothing more (its outputs are thrown away) */
    if (tc_interrupted()) return tc_error_set(err, TC_EINTR, NULL, 0, NULL, "interrupted");
    /* the template must be there before anything is written */
    if (!template_path || !tc_file_readable(template_path))
        return tc_error_set(err, TC_EIO, template_path, 0, NULL, "plot template %s not readable",
                            template_path ? template_path : "(null)");
    double height;
    tc_status hs = template_height(template_path, &height, err);
    if (hs != TC_OK) return hs;
    char sizes[2][64];
    snprintf(sizes[0], sizeof sizes[0], "%d,%d", (int)(FIG_WIDTH_CM / 2.54 * PNG_DPI + 0.5),
             (int)(height / 2.54 * PNG_DPI + 0.5));
    snprintf(sizes[1], sizeof sizes[1], "%gcm,%gcm", FIG_WIDTH_CM, height);
    char log[1040];
    if ((size_t)snprintf(log, sizeof log, "%s.log", outbase) >= sizeof log)
        return tc_error_set(err, TC_EINVAL, outbase, 0, NULL, "plot output path too long");

    /* the methods' styles when the template plots methods (labels) */
    tc_plot_var all[TC_PLOT_MAXVAR];
    char colours[4096], dashes[1024];
    if (nvar > TC_PLOT_MAXVAR - 2)
        return tc_error_set(err, TC_EINVAL, template_path, 0, NULL, "too many plot variables");
    if (nvar > 0) memcpy(all, vars, (size_t)nvar * sizeof *vars);
    for (int i = 0; i < nvar; i++)
        if (vars[i].name && !strcmp(vars[i].name, "labels")) {
            if (tc_plot_styles(vars[i].value ? vars[i].value : "", colours, sizeof colours, dashes,
                               sizeof dashes))
                return tc_error_set(err, TC_EINVAL, template_path, 0, "labels",
                                    "too many method labels for the styles");
            all[nvar] = (tc_plot_var){"colors", colours};
            all[nvar + 1] = (tc_plot_var){"dashes", dashes};
            nvar += 2;
            break;
        }
    vars = all;

    for (size_t k = 0; k < sizeof outputs / sizeof outputs[0]; k++) {
        /* a temp file next to outbase.ext; gnuplot writes it by name */
        char path[1040];
        snprintf(path, sizeof path, "%s.%s", outbase, outputs[k].ext);
        tc_outfile o;
        tc_status st = tc_outfile_open(&o, path, err);
        if (st != TC_OK) return st;
        fclose(o.f);
        o.f = NULL;

        /* gnuplot -e "<variables; terminal; output>" template, its messages into the log */
        char cmds[8192];
        st = build_commands(cmds, sizeof cmds, vars, nvar, outputs[k].terminal, sizes[k], o.tmp,
                            err);
        const char *argv[] = {"gnuplot", "-e", cmds, template_path, NULL};
        if (st == TC_OK) st = tc_run_logged(argv, NULL, NULL, log, k > 0, err);

        /* a template without a plot command exits 0 but leaves the file empty */
        if (st == TC_OK && file_size(o.tmp) <= 0)
            st = tc_error_set(err, TC_EENGINE, template_path, 0, NULL,
                              "gnuplot wrote no %s for %s (does it plot anything?); see %s",
                              outputs[k].ext, template_path, log);
        if (st != TC_OK) {
            tc_outfile_abort(&o);
            return unstaged(log, st, err);
        }
        st = tc_outfile_commit(&o, err);
        if (st != TC_OK) return unstaged(log, st, err);
    }

    /* a silent success leaves no empty log behind */
    if (file_size(log) == 0) remove(log);
    return unstaged(log, TC_OK, err);
}

void tc_plot_include(FILE *md, FILE *tex, const char *name, const char *label,
                     const char *caption) {
    fprintf(md, "![%s](%s.png)\n\n", caption, name);
    fprintf(tex,
            "\\begin{figure}[H]\\centering\n\\includegraphics[width=\\linewidth]{%s.pdf}\n"
            "\\caption{%s}\\label{fig:%s}\\end{figure}\n",
            name, caption, label);
}
