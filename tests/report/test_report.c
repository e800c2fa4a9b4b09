/* SPDX-License-Identifier: MIT */
/* the report (src/report/report.c): report.md's sections in order, and a PDF that fails or cannot
 * be built is an error */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/tc_fs.h"
#include "report/tc_report.h"
#include "test_scratch.h"

Test(report, assembles_sections_in_order) {
    make_scratch();
    /* no paper/ in this source dir: report.md is written, and the missing PDF is an error */
    setenv("TOUCHE_SOURCE_DIR", scratch, 1);
    cr_assert_eq(mkdir(in_scratch("e1"), 0755), 0);
    put_file(in_scratch("e1/section.md"), "## E1\n\n![fig](e1/fig.png)");
    /* a user's own script's directory comes after the known ones */
    cr_assert_eq(mkdir(in_scratch("mine"), 0755), 0);
    put_file(in_scratch("mine/section.md"), "## Mine\n");
    const tc_report_entry names[] = {{"e1", "Sphere profiles (E1)"}, {"e2", "T-pushing (E2)"}};
    tc_error err;
    tc_error_clear(&err);
    cr_redirect_stderr();
    tc_status st = tc_report_write(scratch, names, 2, &err);
    if (tc_have_program("pdflatex"))
        cr_assert(st == TC_EIO && strstr(err.msg, "PDF's source is missing"), "%d %s", st, err.msg);
    else
        cr_assert(st == TC_EUNSUP && strstr(err.msg, "pdflatex not found"), "%d %s", st, err.msg);
    /* asked for report.md only: no error */
    setenv("TOUCHE_NO_PDF", "1", 1);
    cr_assert_eq(tc_report_write(scratch, names, 2, &err), TC_OK, "%s", err.msg);
    unsetenv("TOUCHE_NO_PDF");

    char *s = slurp(in_scratch("report.md"));
    cr_assert_not_null(s);
    cr_assert_eq(strncmp(s, "# touche reproduction report\n", 29), 0, "%s", s);
    cr_assert(strstr(s, tc_revision()), "%s", s);
    char *e1 = strstr(s, "<!-- e1 -->\n## E1\n\n![fig](e1/fig.png)\n");
    char *e2 = strstr(s, "<!-- e2: no section.md");
    char *mine = strstr(s, "<!-- mine -->\n## Mine");
    cr_assert(e1 && e2 && mine && e1 < e2 && e2 < mine, "%s", s);
    free(s);
    /* the PDF's list: each section when it exists, else "Not run." under its heading */
    s = slurp(in_scratch("experiments.tex"));
    cr_assert_not_null(s);
    cr_assert(strstr(s, "\\IfFileExists{e2/section.tex}{\\input{e2/"
                        "section.tex}}{\\section{T-pushing (E2)}Not run.}"),
              "%s", s);
    cr_assert(strstr(s, "mine/section.tex"), "%s", s);
    free(s);
}

/* a PDF that does not build is an error naming the log and LaTeX's message; report.md stays */
Test(report, a_failed_pdf_is_an_error_not_a_warning) {
    if (!tc_have_program("pdflatex")) cr_skip_test("pdflatex not on PATH");
    make_scratch();
    setenv("TOUCHE_SOURCE_DIR", scratch, 1);
    cr_assert_eq(mkdir(in_scratch("paper"), 0755), 0);
    put_file(in_scratch("paper/touche.tex"),
             "\\documentclass{article}\\begin{document}\\undefinedmacro\\end{document}\n");
    const tc_report_entry names[] = {{"e1", "E1"}};
    tc_error err;
    tc_error_clear(&err);
    cr_redirect_stderr();
    cr_assert_eq(tc_report_write(scratch, names, 1, &err), TC_EENGINE);
    cr_assert(strstr(err.msg, "Undefined control sequence"), "%s", err.msg);
    cr_assert(strstr(err.file, "paper/latex.log"), "%s", err.file);
    cr_assert(tc_file_readable(in_scratch("report.md")));
    cr_assert_not(tc_file_readable(in_scratch("paper/touche.pdf")));
}

/* without pdflatex on the PATH the report is incomplete, and says how to get the PDF */
Test(report, a_missing_pdflatex_is_an_error) {
    make_scratch();
    setenv("TOUCHE_SOURCE_DIR", scratch, 1);
    const char *path = getenv("PATH");
    char *saved = path ? strdup(path) : NULL;
    setenv("PATH", scratch, 1);
    const tc_report_entry names[] = {{"e1", "E1"}};
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_report_write(scratch, names, 1, &err);
    if (saved) {
        setenv("PATH", saved, 1);
        free(saved);
    }
    cr_assert_eq(st, TC_EUNSUP, "%s", err.msg);
    cr_assert(strstr(err.msg, "pdflatex not found") && strstr(err.msg, "TOUCHE_NO_PDF"), "%s",
              err.msg);
    cr_assert(tc_file_readable(in_scratch("report.md")));
}
