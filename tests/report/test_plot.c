/* SPDX-License-Identifier: MIT */
/* figures (src/report/plot.c): PNG and PDF rendered, a broken template pointing at its log; and
 * gnuplot's messages about an experiment's files name the directory they end up in, not the
 * staging directory they were written in (it is gone once the experiment finishes): in the
 * figure's log that is kept, and in the error a failed figure reports */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/tc_fs.h"
#include "report/tc_plot.h"
#include "test_scratch.h"

/* a whole small file into buf ("" when it cannot be read) */
static void slurp_into(const char *path, char *buf, size_t n) {
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f) return;
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = 0;
    fclose(f);
}

/* a scratch output root with a staging directory for the experiment e9_final in it */
static void stage(char *root, size_t nr, char *dir, size_t nd) {
    snprintf(root, nr, "/tmp/touche-plot-XXXXXX");
    cr_assert_not_null(mkdtemp(root));
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_stage_dir(root, "e9_final", dir, nd, &err), TC_OK, "%s", err.msg);
    cr_assert_not_null(strstr(dir, "/.touche-"));
}

/* the text rewrite: this process's staging directories, and nothing else */
Test(plot, unstage_text) {
    char root[64], dir[256], in[1024], out[1024], want[1024];
    stage(root, sizeof root, dir, sizeof dir);
    snprintf(in, sizeof in, "\"%s/a.csv\" and %s/b and .touche-1-other-abcdef/c", dir, dir);
    snprintf(want, sizeof want,
             "\"%s/e9_final/a.csv\" and %s/e9_final/b and .touche-1-other-abcdef/c", root, root);
    cr_assert_str_eq(tc_unstage_text(in, out, sizeof out), want);
    /* a short buffer truncates, terminated */
    cr_assert_eq(strlen(tc_unstage_text(in, out, 8)), 7);
    tc_remove_tree(root);
}

/* a template that makes gnuplot warn about a file in the staging directory: the kept log names
 * the final directory; one that fails: the error too */
Test(plot, messages_name_the_final_directory) {
    if (!tc_plot_available()) cr_skip_test("gnuplot not found");
    char root[64], dir[256], tpl[512], base[512], log[600], text[4096], final[300];
    stage(root, sizeof root, dir, sizeof dir);
    snprintf(final, sizeof final, "%s/e9_final/missing.csv", root);

    /* a warning: the plot still draws the function */
    snprintf(tpl, sizeof tpl, "%s/warn.gp", root);
    put_file(tpl, "plot x, dir.'/missing.csv' using 1:2\n");
    snprintf(base, sizeof base, "%s/fig_warn", dir);
    tc_plot_var v[] = {{"dir", dir}};
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_plot_render(tpl, v, 1, base, &err), TC_OK, "%s", err.msg);
    snprintf(log, sizeof log, "%s.log", base);
    slurp_into(log, text, sizeof text);
    cr_assert_not_null(strstr(text, "missing.csv"), "no warning in %s: '%s'", log, text);
    cr_assert_null(strstr(text, ".touche-"), "the log names the staging directory: %s", text);
    cr_assert_not_null(strstr(text, final), "the log does not name %s: %s", final, text);

    /* an error: nothing else to plot */
    snprintf(tpl, sizeof tpl, "%s/fail.gp", root);
    put_file(tpl, "plot dir.'/missing.csv' using 1:2\n");
    snprintf(base, sizeof base, "%s/fig_fail", dir);
    tc_error_clear(&err);
    cr_assert_neq(tc_plot_render(tpl, v, 1, base, &err), TC_OK);
    cr_assert_null(strstr(err.msg, ".touche-"), "the error names the staging directory: %s",
                   err.msg);
    cr_assert_not_null(strstr(err.msg, final), "the error does not name %s: %s", final, err.msg);
    cr_assert_null(strstr(err.file, ".touche-"), "the error's file is in the staging directory: %s",
                   err.file);
    snprintf(log, sizeof log, "%s.log", base);
    slurp_into(log, text, sizeof text);
    cr_assert_null(strstr(text, ".touche-"),
                   "the failed figure's log names the staging directory: %s", text);

    /* in place, the logs are where they say */
    char to[300];
    snprintf(to, sizeof to, "%s/e9_final", root);
    cr_assert_eq(tc_swap_dir(dir, to, &err), TC_OK, "%s", err.msg);
    snprintf(log, sizeof log, "%s/fig_warn.log", to);
    cr_assert(tc_file_readable(log), "no %s", log);
    tc_remove_tree(root);
}

Test(plot, renders_png_and_pdf) {
    if (!tc_plot_available()) cr_skip_test("gnuplot not on PATH");
    make_scratch();
    const char *tpl = in_scratch("t.gp");
    put_file(tpl, "set title ttl\nplot sin(x) * scale + 0 title ttl\n");
    tc_plot_var vars[] = {{"ttl", "it's a test"}, {"scale", "2"}};
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_plot_render(tpl, vars, 2, in_scratch("fig/f"), &err), TC_OK, "%s", err.msg);

    /* both files, by their magic bytes, and no temps left */
    char *png = slurp(in_scratch("fig/f.png")), *pdf = slurp(in_scratch("fig/f.pdf"));
    cr_assert_not_null(png);
    cr_assert_not_null(pdf);
    cr_assert_eq(memcmp(png, "\x89PNG", 4), 0);
    cr_assert_eq(memcmp(pdf, "%PDF", 4), 0);
    free(png);
    free(pdf);
    cr_assert_eq(count_named(in_scratch("fig"), ".tmp."), 0);
}

/* the figure is drawn at its printed size: 16.5 cm wide (the PDF's text block), as tall as the
 * template's "# height: H cm" line says; the PNG is the same at 150 dots to the inch; a height
 * out of range is refused */
Test(plot, drawn_at_its_printed_size) {
    if (!tc_plot_available()) cr_skip_test("gnuplot not on PATH");
    make_scratch();
    const char *tpl = in_scratch("h.gp");
    put_file(tpl, "# height: 6 cm\nplot sin(x)\n");
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_plot_render(tpl, NULL, 0, in_scratch("s"), &err), TC_OK, "%s", err.msg);
    char *pdf = slurp(in_scratch("s.pdf")), *png = slurp(in_scratch("s.png"));
    cr_assert_not_null(pdf);
    cr_assert_not_null(png);
    /* the page's box, past the binary streams (slurp's string may hold NULs before it) */
    const char *box = NULL;
    FILE *f = fopen(in_scratch("s.pdf"), "rb");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    for (long i = 0; i + 9 < n && !box; i++)
        if (!memcmp(pdf + i, "/MediaBox", 9)) box = pdf + i;
    cr_assert_not_null(box, "no /MediaBox in the PDF");
    double x0, y0, w, h;
    cr_assert_eq(sscanf(box, "/MediaBox [ %lf %lf %lf %lf", &x0, &y0, &w, &h), 4, "%.40s", box);
    cr_expect_lt(fabs(w - 16.5 / 2.54 * 72), 1.0, "width %g pt, not 16.5 cm", w);
    cr_expect_lt(fabs(h - 6.0 / 2.54 * 72), 1.0, "height %g pt, not 6 cm", h);
    /* the PNG's header: width and height, big-endian, at bytes 16 and 20 */
    const unsigned char *p = (const unsigned char *)png;
    unsigned pw = (unsigned)p[16] << 24 | (unsigned)p[17] << 16 | (unsigned)p[18] << 8 | p[19];
    unsigned ph = (unsigned)p[20] << 24 | (unsigned)p[21] << 16 | (unsigned)p[22] << 8 | p[23];
    cr_expect_eq(pw, 974u, "PNG width %u", pw);
    cr_expect_eq(ph, 354u, "PNG height %u", ph);
    free(pdf);
    free(png);

    /* without the line: the default height; with a height out of range: refused */
    put_file(tpl, "# height: 40 cm\nplot sin(x)\n");
    tc_error_clear(&err);
    cr_assert_eq(tc_plot_render(tpl, NULL, 0, in_scratch("t"), &err), TC_EINVAL);
    cr_assert_not(tc_file_readable(in_scratch("t.pdf")));
}

Test(plot, broken_template_points_at_the_log) {
    if (!tc_plot_available()) cr_skip_test("gnuplot not on PATH");
    make_scratch();
    char tpl[512];
    snprintf(tpl, sizeof tpl, "%s", in_scratch("bad.gp"));
    put_file(tpl, "plot sin(x\n");
    tc_error err;
    tc_error_clear(&err);
    cr_assert_neq(tc_plot_render(tpl, NULL, 0, in_scratch("g"), &err), TC_OK);
    cr_assert(strstr(err.msg, in_scratch("g.log")), "message does not name the log: %s", err.msg);
    cr_assert_not(tc_file_readable(in_scratch("g.png")));
    cr_assert_eq(count_named(scratch, ".tmp."), 0);

    /* a variable name that would be code is refused */
    tc_plot_var bad[] = {{"x;system('true')", "1"}};
    tc_error_clear(&err);
    cr_assert_eq(tc_plot_render(tpl, bad, 1, in_scratch("h"), &err), TC_EINVAL);
}
