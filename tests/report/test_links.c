/* SPDX-License-Identifier: MIT */
/* links to the repository (src/report/table.c, tc_latex_put_linked): each repository path the
 * PDF prints is an \href to URL/blob/REVISION/path, its text escaped, the rest as tc_latex_put
 * writes it; without an address, nothing changes */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tc_provenance.h"
#include "report/tc_table.h"

#define URL "https://example.org/touche"

/* s as tc_latex_put_linked writes it with url and rev (malloc'd) */
static char *linked(const char *s, const char *url, const char *rev) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert(f);
    tc_latex_put_linked(f, s, url, rev);
    fclose(f);
    return text;
}

/* s as tc_latex_escape writes it (the plain text, no links) */
static void plain(char *buf, size_t n, const char *s) {
    cr_assert_eq(tc_latex_escape(buf, n, s), TC_OK);
}

/* the expected output for each input, with the build's commit and a modified tree */
Test(links, paths_become_links) {
    const struct {
        const char *in, *rev, *want;
    } cases[] = {
        /* a sentence's full stop stays outside the link */
        {"see docs/residuals.md.", "f90fc65",
         "see \\href{" URL "/blob/f90fc65/docs/residuals.md}{docs/residuals.md}."},
        /* '_' escaped in the text, not in the address; the parenthesis outside */
        {"(tests/solvers/test_lcp.c)", "f90fc65",
         "(\\href{" URL "/blob/f90fc65/tests/solvers/test_lcp.c}{tests/solvers/test\\_lcp.c})"},
        /* a folder; a modified tree, an unknown revision and none link to main */
        {"per cell (data/silico/)", "f90fc65-dirty",
         "per cell (\\href{" URL "/blob/main/data/silico/}{data/silico/})"},
        {"experiments/e9/README.md, docs/models/pfc.md", "unknown",
         "\\href{" URL "/blob/main/experiments/e9/README.md}{experiments/e9/README.md}, \\href{" URL
         "/blob/main/docs/models/pfc.md}{docs/models/pfc.md}"},
        {"src/report/setup.c:63", NULL,
         "\\href{" URL "/blob/main/src/report/setup.c}{src/report/setup.c}:63"},
        /* git describe after a tag: its commit */
        {"paper/touche.tex", "v0.1.0-3-gf90fc65",
         "\\href{" URL "/blob/f90fc65/paper/touche.tex}{paper/touche.tex}"},
        {"paper/touche.tex", "v1-gamma-12-gabc1234",
         "\\href{" URL "/blob/abc1234/paper/touche.tex}{paper/touche.tex}"},
        {"paper/touche.tex", "v0.1.0-3-gf90fc65-dirty",
         "\\href{" URL "/blob/main/paper/touche.tex}{paper/touche.tex}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = linked(cases[i].in, URL, cases[i].rev);
        cr_expect_str_eq(got, cases[i].want, "%s", cases[i].in);
        free(got);
    }
}

/* '%', '#' and '~' of the address escaped for \href's first argument */
Test(links, address_escaped) {
    char *got = linked("docs/fuzzing.md", "https://h.org/~me/a%20b#x", "abc1234");
    cr_assert_str_eq(got, "\\href{https://h.org/\\~me/a\\%20b\\#x/blob/abc1234/docs/fuzzing.md}"
                          "{docs/fuzzing.md}");
    free(got);
}

/* words that are not repository paths stay text, as tc_latex_put writes them; a top folder
 * alone ("src/") is a path */
Test(links, non_paths_untouched) {
    const char *const words[] = {
        "src alone",
        "e.g./i.e. 5 % and a_b",
        "docs/residuals has no extension",
        "../docs/residuals.md and mysrc/a.c and docs/a.md_x",
        "experiments/e9/README. is a sentence",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        char want[512];
        plain(want, sizeof want, words[i]);
        char *got = linked(words[i], URL, "f90fc65");
        cr_expect_str_eq(got, want, "%s", words[i]);
        free(got);
    }
    char *folder = linked("the src/ folder", URL, "f90fc65");
    cr_expect_str_eq(folder, "the \\href{" URL "/blob/f90fc65/src/}{src/} folder");
    free(folder);
}

/* no address: exactly tc_latex_put's text without links (and tc_latex_escape's), for any
 * revision, a character without a LaTeX form included */
Test(links, no_address_unchanged) {
    const char *const s = "see docs/residuals.md. (tests/solvers/test_lcp.c) ± 5 % #1";
    char want[512];
    plain(want, sizeof want, s);
    const char *const urls[] = {NULL, ""};
    for (size_t i = 0; i < 2; i++) {
        char *got = linked(s, urls[i], "f90fc65");
        cr_expect_str_eq(got, want);
        free(got);
    }

    /* tc_latex_put itself, in a build without -Drepository_url */
    const char *const odd = "caf\xc3\xa9 in docs/residuals.md";
    char *text = NULL, *got = linked(odd, "", NULL);
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert(f);
    tc_latex_put(f, odd);
    fclose(f);
    if (!tc_repository_url()[0]) cr_expect_str_eq(got, text);
    cr_expect(strstr(got, "\\texttt{U+00E9}"));
    free(text);
    free(got);
}
