/* SPDX-License-Identifier: MIT */
/* tables of strings written as Markdown pipe tables and LaTeX booktabs tables */
#include "report/tc_table.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tc_fs.h"
#include "core/tc_provenance.h"

struct tc_table {
    int ncol, nrow, cap; /* columns, rows, allocated rows */
    char **head;         /* ncol header cells */
    char **cell;         /* nrow * ncol body cells, row-major */
};

/* ---------- building ---------- */

/* a malloc'd copy of s (NULL counts as "") */
static char *dup_cell(const char *s) {
    s = s ? s : "";
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* free n cells and the array holding them */
static void free_cells(char **c, size_t n) {
    if (!c) return;
    for (size_t i = 0; i < n; i++)
        free(c[i]);
    free(c);
}

tc_table *tc_table_alloc(int ncol, const char *const *headers) {
    if (ncol <= 0) return NULL;
    tc_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->ncol = ncol;

    /* copy the headers; a failed copy frees everything */
    t->head = calloc((size_t)ncol, sizeof *t->head);
    int ok = t->head != NULL;
    for (int j = 0; ok && j < ncol; j++)
        ok = (t->head[j] = dup_cell(headers ? headers[j] : "")) != NULL;
    if (!ok) {
        tc_table_free(t);
        return NULL;
    }
    return t;
}

tc_status tc_table_add_row(tc_table *t, const char *const *cells) {
    if (!t || !cells) return TC_EINVAL;

    /* grow the row storage geometrically */
    if (t->nrow == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        char **c = realloc(t->cell, (size_t)cap * (size_t)t->ncol * sizeof *c);
        if (!c) return TC_ENOMEM;
        t->cell = c;
        t->cap = cap;
    }

    /* copy the cells; on failure the row is not added */
    char **row = t->cell + (size_t)t->nrow * (size_t)t->ncol;
    for (int j = 0; j < t->ncol; j++) {
        if (!(row[j] = dup_cell(cells[j]))) {
            for (int k = 0; k < j; k++)
                free(row[k]);
            return TC_ENOMEM;
        }
    }
    t->nrow++;
    return TC_OK;
}

void tc_table_free(tc_table *t) {
    if (!t) return;
    free_cells(t->head, t->head ? (size_t)t->ncol : 0);
    free_cells(t->cell, (size_t)t->nrow * (size_t)t->ncol);
    free(t);
}

/* body cell (i, j) */
static const char *cell(const tc_table *t, int i, int j) {
    return t->cell[(size_t)i * (size_t)t->ncol + (size_t)j];
}

/* 1 if every non-empty body cell of column j starts with a number: right-align it */
static int numeric_column(const tc_table *t, int j) {
    int any = 0;
    for (int i = 0; i < t->nrow; i++) {
        const char *s = cell(t, i, j);
        if (!s[0]) continue;
        char *end;
        (void)strtod(s, &end);
        if (end == s) return 0;
        any = 1;
    }
    return any;
}

/* ---------- LaTeX escaping ---------- */

/* text-mode replacements; multi-byte entries are UTF-8 symbols typeset as math */
static const struct {
    const char *from, *to;
} latex_map[] = {
    {"\\", "\\textbackslash{}"},
    {"%", "\\%"},
    {"_", "\\_"},
    {"&", "\\&"},
    {"#", "\\#"},
    {"$", "\\$"},
    {"{", "\\{"},
    {"}", "\\}"},
    {"~", "\\textasciitilde{}"},
    {"^", "\\textasciicircum{}"},
    {"<", "\\textless{}"},
    {">", "\\textgreater{}"},
    {"\xc2\xb1", "$\\pm$"},         /* ± */
    {"\xc2\xb5", "$\\mu$"},         /* µ micro sign */
    {"\xce\xbc", "$\\mu$"},         /* μ greek mu */
    {"\xc3\x97", "$\\times$"},      /* × */
    {"\xc2\xb0", "$^\\circ$"},      /* ° */
    {"\xe2\x89\xa4", "$\\le$"},     /* ≤ */
    {"\xe2\x89\xa5", "$\\ge$"},     /* ≥ */
    {"\xe2\x88\x92", "$-$"},        /* − minus */
    {"\xe2\x89\x88", "$\\approx$"}, /* ≈ */
    {"\xce\x94", "$\\Delta$"},      /* Δ */
    {"\xce\xb8", "$\\theta$"},      /* θ */
    {"\xce\xbb", "$\\lambda$"},     /* λ */
    {"\xce\xb5", "$\\varepsilon$"}, /* ε */
    {"\xce\xb7", "$\\eta$"},        /* η */
    {"\xcf\x86", "$\\varphi$"},     /* φ */
    {"\xc2\xb2", "$^2$"},           /* ² superscript two */
    {"\xe2\x80\x94", "---"},        /* — em dash */
    {"\xe2\x80\x93", "--"},         /* – en dash */
};

/* the replacement for the character at s (len = bytes consumed); one = scratch for a plain byte */
static const char *latex_piece(const char *s, size_t *len, char one[2]) {
    for (size_t k = 0; k < sizeof latex_map / sizeof latex_map[0]; k++) {
        size_t n = strlen(latex_map[k].from);
        if (strncmp(s, latex_map[k].from, n) == 0) {
            *len = n;
            return latex_map[k].to;
        }
    }
    one[0] = *s;
    one[1] = '\0';
    *len = 1;
    return one;
}

/* the first character of s that has no LaTeX form (a non-ASCII character not in latex_map):
 * its start, with its length in *len; NULL when every character maps */
static const char *latex_unmapped(const char *s, size_t *len) {
    while (*s) {
        char one[2];
        const char *rep = latex_piece(s, len, one);
        if (rep == one && (unsigned char)*s >= 0x80) {
            /* the whole UTF-8 sequence: its lead byte, then continuation bytes */
            size_t k = 1;
            while (s[k] && ((unsigned char)s[k] & 0xC0) == 0x80)
                k++;
            *len = k;
            return s;
        }
        s += *len;
    }
    return NULL;
}

/* the code point of the UTF-8 sequence s of len bytes (0 when malformed) */
static unsigned long code_point(const char *s, size_t len) {
    const unsigned char *u = (const unsigned char *)s;
    static const unsigned char lead_mask[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    if (len < 1 || len > 4) return 0;
    unsigned long c = u[0] & lead_mask[len];
    for (size_t k = 1; k < len; k++)
        c = (c << 6) | (u[k] & 0x3F);
    return c;
}

tc_status tc_latex_escape(char *buf, size_t n, const char *s) {
    if (n == 0) return TC_EINVAL;
    buf[0] = '\0';
    size_t bad;
    if (latex_unmapped(s, &bad)) return TC_EINVAL;
    size_t used = 0;

    /* append whole replacements only, so a truncated result never ends inside an escape */
    while (*s) {
        char one[2];
        size_t len;
        const char *rep = latex_piece(s, &len, one);
        size_t rl = strlen(rep);
        if (used + rl + 1 > n) return TC_EINVAL;
        memcpy(buf + used, rep, rl + 1);
        used += rl;
        s += len;
    }
    return TC_OK;
}

int tc_latex_mappable(const char *s) {
    size_t bad;
    return latex_unmapped(s, &bad) == NULL;
}

/* s written to f escaped as tc_latex_escape does, a character without a LaTeX form as its code
 * point (tc_latex_put without links) */
static void put_plain(FILE *f, const char *s) {
    while (*s) {
        size_t len;
        const char *bad = latex_unmapped(s, &len);
        /* the mapped run before it, then the character as its code point */
        const char *end = bad ? bad : s + strlen(s);
        while (s < end) {
            char one[2];
            size_t k;
            fputs(latex_piece(s, &k, one), f);
            s += k;
        }
        if (!bad) break;
        /* a well-formed sequence's length follows from its lead byte; anything else is U+FFFD */
        unsigned char lead = (unsigned char)*bad;
        size_t want = lead >= 0xF8 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
        unsigned long c = want == len ? code_point(bad, len) : 0;
        fprintf(f, "\\texttt{U+%04lX}", c ? c : 0xFFFDul);
        s = bad + len;
    }
}

/* n bytes of s (not necessarily terminated) as tc_latex_put (link = 1) or put_plain writes them */
static void put_n(FILE *f, const char *s, size_t n, int link) {
    char *in = malloc(n + 1);
    if (!in) {
        fputs("?", f);
        return;
    }
    memcpy(in, s, n);
    in[n] = 0;
    if (link)
        tc_latex_put(f, in);
    else
        put_plain(f, in);
    free(in);
}

/* ---------- links to the repository ---------- */

/* the characters of a repository path */
#define PATH_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./-"

/* the length of the repository path starting at p in s (docs/residuals.md, experiments/e9/,
 * tests/solvers/test_lcp.c): a top folder of the repository, then path characters up to a file
 * name with an extension or a '/', trailing '.', '-' and '_' left out (a sentence's full stop);
 * 0 when none starts there (inside a word or a longer path, or no such ending) */
static size_t repo_path_len(const char *s, const char *p) {
    static const char *const top[] = {"docs/",  "experiments/", "src/",  "plots/",   "tests/",
                                      "paper/", "tools/",       "data/", "examples/"};
    if (p > s && strchr(PATH_CHARS, p[-1])) return 0;
    int rooted = 0;
    for (size_t k = 0; k < sizeof top / sizeof top[0] && !rooted; k++)
        rooted = strncmp(p, top[k], strlen(top[k])) == 0;
    if (!rooted) return 0;
    size_t n = strspn(p, PATH_CHARS);
    while (strchr(".-_", p[n - 1]))
        n--;
    if (p[n - 1] == '/') return n;

    /* the last name: a stem, a '.', an extension of letters and digits */
    size_t name = n, dot = 0;
    while (p[name - 1] != '/')
        name--;
    for (size_t i = name; i < n; i++)
        if (p[i] == '.') dot = i;
    if (dot <= name) return 0;
    for (size_t i = dot + 1; i < n; i++)
        if (!isalnum((unsigned char)p[i])) return 0;
    return n;
}

/* the git reference a link points at: the build's commit (git describe's hash after the last
 * "-g" when a tag precedes it), or "main" when the tree was modified ("-dirty") or the revision is
 * unknown */
static void link_ref(char *ref, size_t n, const char *rev) {
    size_t len = rev ? strlen(rev) : 0;
    int ok = len > 0 && len < n && strcmp(rev, "unknown") != 0 &&
             !(len >= 6 && strcmp(rev + len - 6, "-dirty") == 0) && strspn(rev, PATH_CHARS) == len;
    const char *hash = rev;
    for (size_t i = 0; ok && i + 2 < len; i++)
        if (rev[i] == '-' && rev[i + 1] == 'g' &&
            strspn(rev + i + 2, "0123456789abcdef") == len - i - 2)
            hash = rev + i + 2;
    snprintf(ref, n, "%s", ok ? hash : "main");
}

/* n bytes of a web address for \href's first argument: '%', '#' and '~' escaped (hyperref turns
 * \%, \# and \~ back into the characters), the rest as it stands */
static void put_url(FILE *f, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (strchr("%#~", s[i])) fputc('\\', f);
        fputc(s[i], f);
    }
}

/* "\href{url/blob/ref/path}{" for the n-byte path p: its text follows, then "}" */
static void href_open(FILE *f, const char *p, size_t n, const char *url, const char *ref) {
    fputs("\\href{", f);
    put_url(f, url, strlen(url));
    fprintf(f, "/blob/%s/", ref);
    put_url(f, p, n);
    fputs("}{", f);
}

void tc_latex_put_linked(FILE *f, const char *s, const char *url, const char *rev) {
    if (!url || !url[0]) {
        put_plain(f, s);
        return;
    }
    char ref[128];
    link_ref(ref, sizeof ref, rev);

    /* the text between paths as it stands, each path as a link showing the path */
    const char *run = s;
    for (const char *p = s; *p;) {
        size_t len = repo_path_len(s, p);
        if (!len) {
            p++;
            continue;
        }
        put_n(f, run, (size_t)(p - run), 0);
        href_open(f, p, len, url, ref);
        put_n(f, p, len, 0);
        fputs("}", f);
        p += len;
        run = p;
    }
    put_plain(f, run);
}

void tc_latex_put(FILE *f, const char *s) {
    tc_latex_put_linked(f, s, tc_repository_url(), tc_revision());
}

void tc_latex_put_n(FILE *f, const char *s, size_t n) {
    put_n(f, s, n, 1);
}

void tc_latex_put_breakable(FILE *f, const char *s, size_t n) {
    /* a span that is one repository path (a code span: `docs/residuals.md`) is one link */
    const char *url = tc_repository_url();
    char *in = url[0] ? malloc(n + 1) : NULL;
    if (in) {
        memcpy(in, s, n);
        in[n] = 0;
    }
    int link = in && n > 0 && repo_path_len(in, in) == n;
    if (link) {
        char ref[128];
        link_ref(ref, sizeof ref, tc_revision());
        href_open(f, s, n, url, ref);
    }
    free(in);

    /* each piece up to and with a break character */
    for (size_t from = 0, i = 0; i < n; i++)
        if (i + 1 == n || strchr("._/-", s[i])) {
            put_n(f, s + from, i + 1 - from, 0);
            if (i + 1 < n) fputs("\\allowbreak{}", f);
            from = i + 1;
        }
    if (link) fputs("}", f);
}

/* ---------- writers ---------- */

/* display width of a Markdown cell: UTF-8 code points, plus one per escaped '|' */
static int md_width(const char *s) {
    int w = 0;
    for (; *s; s++)
        w += ((*s & 0xC0) != 0x80) + (*s == '|');
    return w;
}

/* one Markdown cell padded to width w, '|' escaped */
static void md_put(FILE *f, const char *s, int w, int right) {
    int pad = w - md_width(s);
    if (right) fprintf(f, "%*s", pad, "");
    for (; *s; s++) {
        if (*s == '|') fputc('\\', f);
        fputc(*s, f);
    }
    if (!right) fprintf(f, "%*s", pad, "");
}

/* one Markdown row: "| a | b |" */
static void md_row(FILE *f, const tc_table *t, char *const *cells, const int *w, const int *right) {
    fputs("|", f);
    for (int j = 0; j < t->ncol; j++) {
        fputs(" ", f);
        md_put(f, cells[j], w[j], right[j]);
        fputs(" |", f);
    }
    fputs("\n", f);
}

/* caption paragraph, then a pipe table with columns padded to a common width */
static void write_md(FILE *f, const tc_table *t, const char *caption, int *w, int *right) {
    /* column widths and alignment */
    for (int j = 0; j < t->ncol; j++) {
        w[j] = md_width(t->head[j]) < 3 ? 3 : md_width(t->head[j]);
        for (int i = 0; i < t->nrow; i++)
            if (md_width(cell(t, i, j)) > w[j]) w[j] = md_width(cell(t, i, j));
        right[j] = numeric_column(t, j);
    }

    /* caption, header, rule (":" marks right alignment), body */
    if (caption && caption[0]) fprintf(f, "%s\n\n", caption);
    md_row(f, t, t->head, w, right);
    fputs("|", f);
    for (int j = 0; j < t->ncol; j++) {
        fputc(' ', f);
        for (int k = 1; k < w[j]; k++)
            fputc('-', f);
        fputs(right[j] ? ": |" : "- |", f);
    }
    fputs("\n", f);
    for (int i = 0; i < t->nrow; i++)
        md_row(f, t, t->cell + (size_t)i * (size_t)t->ncol, w, right);
}

/* a heading cell: on two lines, split at the space nearest its middle, when it is longer than 12
 * characters (a column is then as wide as its numbers, not as its heading), aligned as its column
 */
static void tex_head(FILE *f, const char *h, int right) {
    size_t n = strlen(h), cut = 0;
    for (size_t i = 1; n > 12 && i + 1 < n; i++)
        if (h[i] == ' ' && (!cut || (i > n / 2 ? i - n / 2 : n / 2 - i) <
                                        (cut > n / 2 ? cut - n / 2 : n / 2 - cut)))
            cut = i;
    if (!cut) {
        tc_latex_put(f, h);
        return;
    }
    char first[256];
    snprintf(first, sizeof first, "%.*s", (int)cut, h);
    fprintf(f, "\\begin{tabular}[b]{@{}%c@{}}", right ? 'r' : 'l');
    tc_latex_put(f, first);
    fputs("\\\\", f);
    tc_latex_put(f, h + cut + 1);
    fputs("\\end{tabular}", f);
}

/* the heading row */
static void tex_head_row(FILE *f, const tc_table *t, const int *right) {
    for (int j = 0; j < t->ncol; j++) {
        if (j) fputs(" & ", f);
        tex_head(f, t->head[j], right[j]);
    }
    fputs(" \\\\\n", f);
}

/* one LaTeX row: "a & b \\" */
static void tex_row(FILE *f, const tc_table *t, char *const *cells) {
    for (int j = 0; j < t->ncol; j++) {
        if (j) fputs(" & ", f);
        tc_latex_put(f, cells[j]);
    }
    fputs(" \\\\\n", f);
}

/* the float around the boxed tabular: caption and label, then the box at its natural size, or
 * shrunk to the line when wider and to 0.8 of the text height when taller (needs graphicx), with
 * the size its 10 pt text prints at in the log ("touche table NAME printed at P") */
static void tex_float(FILE *f, const char *base, const char *caption, const char *label,
                      const char *where, const char *note) {
    fprintf(f, "\\begin{table}[%s]\n\\centering\n", where);
    if (caption && caption[0]) {
        fputs("\\caption{", f);
        tc_latex_put(f, caption);
        fputs("}\n", f);
    }
    if (label && label[0]) fprintf(f, "\\label{%s}\n", label);
    fputs("\\tctablewd=\\wd\\tctablebox\n"
          "\\ifdim\\wd\\tctablebox>\\linewidth\\sbox\\tctablebox{\\resizebox{\\linewidth}{!}"
          "{\\usebox\\tctablebox}}\\fi\n"
          "\\tctableht=\\ht\\tctablebox\\advance\\tctableht by\\dp\\tctablebox\n"
          "\\ifdim\\tctableht>0.8\\textheight\\sbox\\tctablebox{\\resizebox*{!}{0.8\\textheight}"
          "{\\usebox\\tctablebox}}\\fi\n",
          f);
    fprintf(f,
            "\\typeout{touche table %s printed at \\the\\dimexpr 10pt*\\number\\wd"
            "\\tctablebox/\\number\\tctablewd\\relax}%%\n\\usebox\\tctablebox\n",
            base);
    /* the folded columns' values, with the table */
    if (note && note[0]) {
        fputs("\\par\\smallskip{\\footnotesize Columns empty in most rows, their values: ", f);
        tc_latex_put(f, note);
        fputs(".\\par}\n", f);
    }
    fputs("\\end{table}\n", f);
}

/* a floating table with booktabs rules, numeric columns right-aligned, set in a box first at
 * \small (10 pt) and never printed below 7 pt where it fits at all: at its natural size; shrunk
 * to the line when up to 1/0.7 of it wide; on a landscape page of its own (pdflscape) when wider,
 * shrunk to that page's line if need be; and to 0.8 of the text height when taller. The box's
 * natural size goes to the log ("touche table BASE: W x H") */
static void write_tex(FILE *f, const tc_table *t, const char *base, const char *caption,
                      const char *label, const int *right, const char *note) {
    /* the tabular, boxed */
    fputs("\\ifdefined\\tctablebox\\else\\newsavebox\\tctablebox\\newdimen\\tctablewd"
          "\\newdimen\\tctableht\\fi\n",
          f);
    fputs("\\sbox\\tctablebox{\\small%\n\\begin{tabular}{", f);
    for (int j = 0; j < t->ncol; j++)
        fputc(right[j] ? 'r' : 'l', f);
    fputs("}\n\\toprule\n", f);
    tex_head_row(f, t, right);
    fputs("\\midrule\n", f);
    for (int i = 0; i < t->nrow; i++)
        tex_row(f, t, t->cell + (size_t)i * (size_t)t->ncol);
    fputs("\\bottomrule\n\\end{tabular}}%\n", f);
    fprintf(f,
            "\\typeout{touche table %s: \\the\\wd\\tctablebox\\space x "
            "\\the\\ht\\tctablebox}%%\n",
            base);
    /* where it goes: the text's width, or a landscape page's */
    fputs("\\ifdim\\wd\\tctablebox>1.42\\linewidth\n\\begin{landscape}\n", f);
    tex_float(f, base, caption, label, "p", note);
    fputs("\\end{landscape}\n\\else\n", f);
    tex_float(f, base, caption, label, "htbp", note);
    fputs("\\fi\n", f);
}

/* TC_EINVAL naming the table, the place and the character when text has one without a LaTeX
 * form */
static tc_status latex_check(const char *base, const char *where, const char *text, tc_error *err) {
    size_t len;
    const char *c = text ? latex_unmapped(text, &len) : NULL;
    if (!c) return TC_OK;
    return tc_error_set(err, TC_EINVAL, base, 0, NULL,
                        "the character '%.*s' (U+%04lX) in %s ('%s') has no LaTeX form: add it "
                        "to latex_map in src/report/table.c or write it in ASCII",
                        (int)len, c, code_point(c, len), where, text);
}

/* a cell that holds no value */
static int empty_cell(const char *c) {
    return !c || !c[0] || !strcmp(c, "-");
}

/* the columns to show: a column empty ("-" or "") in at least three quarters of four or more rows
 * is folded into a note under the table ("paper MJX (ms): scm 8-RK4-26 13.1; ...", each value
 * with its row's first cell, or first two when the first repeats) instead of printing a column of
 * dashes. view shares t's strings; note gets the folded values; returns the number of columns
 * folded */
static int fold_columns(const tc_table *t, tc_table *view, char **vh, char **vc, char *note,
                        size_t n) {
    note[0] = 0;
    view->nrow = t->nrow;
    view->ncol = 0;
    view->head = vh;
    view->cell = vc;
    int folded = 0;
    /* a row is named by its first cell, or its first two when the first repeats (a method over
     * several columns) */
    int twice = 0;
    for (int i = 0; i < t->nrow && t->ncol > 1; i++)
        for (int q = 0; q < i && !twice; q++)
            twice = !strcmp(t->cell[(size_t)i * t->ncol], t->cell[(size_t)q * t->ncol]);
    for (int j = 0; j < t->ncol; j++) {
        int empty = 0;
        for (int i = 0; i < t->nrow; i++)
            empty += empty_cell(t->cell[(size_t)i * t->ncol + j]);
        if (j > 0 && t->nrow >= 4 && 4 * empty >= 3 * t->nrow) {
            /* its values, each named by its row's first cell */
            size_t len = strlen(note);
            snprintf(note + len, n - len, "%s%s:", folded++ ? "; " : "", t->head[j]);
            for (int i = 0, k = 0; i < t->nrow; i++) {
                const char *c = t->cell[(size_t)i * t->ncol + j];
                if (empty_cell(c)) continue;
                len = strlen(note);
                snprintf(note + len, n - len, "%s %s%s%s %s", k++ ? "," : "",
                         t->cell[(size_t)i * t->ncol], twice ? " " : "",
                         twice ? t->cell[(size_t)i * t->ncol + 1] : "", c);
            }
            continue;
        }
        vh[view->ncol] = t->head[j];
        for (int i = 0; i < t->nrow; i++)
            vc[(size_t)i * t->ncol + view->ncol] = t->cell[(size_t)i * t->ncol + j];
        view->ncol++;
    }
    /* the view's cells row-major at its own width */
    for (int i = 1; i < t->nrow; i++)
        memmove(vc + (size_t)i * view->ncol, vc + (size_t)i * t->ncol,
                (size_t)view->ncol * sizeof *vc);
    return folded;
}

tc_status tc_table_write(const tc_table *t, const char *base, const char *caption,
                         const char *label, tc_error *err) {
    if (!t) return tc_error_set(err, TC_EINVAL, base, 0, NULL, "no table to write to %s", base);
    int *w = malloc(2 * (size_t)t->ncol * sizeof *w);
    if (!w) return tc_error_set(err, TC_ENOMEM, base, 0, NULL, "out of memory writing %s", base);
    int *right = w + t->ncol;

    /* every character must have a LaTeX form, or neither file is written */
    tc_status st = latex_check(base, "the caption", caption, err);
    for (int j = 0; j < t->ncol && !st; j++)
        st = latex_check(base, "a column heading", t->head[j], err);
    for (int i = 0; i < t->nrow * t->ncol && !st; i++)
        st = latex_check(base, "a cell", t->cell[i], err);
    if (st) {
        free(w);
        return st;
    }

    /* the columns shown, and a note of the ones folded */
    char **vh = malloc(((size_t)t->ncol * ((size_t)t->nrow + 1) + 1) * sizeof *vh), note[2048];
    if (!vh) {
        free(w);
        return tc_error_set(err, TC_ENOMEM, base, 0, NULL, "out of memory writing %s", base);
    }
    tc_table view;
    int folded = fold_columns(t, &view, vh, vh + t->ncol, note, sizeof note);
    /* base.md, then base.tex (which reuses the alignment computed for the Markdown) */
    for (int k = 0; k < 2 && st == TC_OK; k++) {
        char path[1024];
        if ((size_t)snprintf(path, sizeof path, "%s.%s", base, k ? "tex" : "md") >= sizeof path) {
            st = tc_error_set(err, TC_EINVAL, base, 0, NULL, "table path too long: %s", base);
            break;
        }
        tc_outfile o;
        st = tc_outfile_open(&o, path, err);
        if (st != TC_OK) break;
        if (k == 0)
            write_md(o.f, &view, caption, w, right);
        else
            write_tex(o.f, &view, strrchr(base, '/') ? strrchr(base, '/') + 1 : base, caption,
                      label, right, folded ? note : NULL);
        /* the folded columns' values, under the Markdown table (the LaTeX one has them inside
         * its float) */
        if (folded && k == 0)
            fprintf(o.f, "\nColumns empty in most rows, their values: %s.\n", note);
        st = tc_outfile_commit(&o, err);
    }
    free(vh);
    free(w);
    return st;
}

void tc_cell_pm(char *c, size_t n, double mean, double sd) {
    char m[64], d[64];
    tc_cell_num(m, sizeof m, mean, 3, 0);
    tc_cell_num(d, sizeof d, sd, 2, 0);
    snprintf(c, n, "%s \xc2\xb1 %s", m, d);
}

void tc_cell_num(char *c, size_t n, double v, int digits, double below) {
    if (isnan(v))
        snprintf(c, n, "-");
    else if (v != 0 && below > 0 && fabs(v) < below)
        snprintf(c, n, "< %g", below);
    else if (fabs(v) >= pow(10, digits) && fabs(v) < 1e15) {
        /* large values as whole numbers rounded to `digits` digits: 43300, not 4.33e+04 */
        double unit = pow(10, floor(log10(fabs(v))) - digits + 1);
        snprintf(c, n, "%.0f", round(v / unit) * unit);
    } else
        snprintf(c, n, "%.*g", digits, v);
}
