/* SPDX-License-Identifier: MIT */
/* a script's documented choices: the comments that say "choice", read from the script's text (the
 * settings' reader drops comments), for the report's list of deviations from the papers */
#include "exp/tc_script.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define TEXT_MAX 4096 /* bytes of one comment block */
#define DEPTH    8    /* groups a setting can be nested in */

/* one comment block being gathered */
typedef struct block {
    int line;  /* its first line; 0: none open */
    int col;   /* the column of its '#' */
    int needs; /* a comment on lines of its own: its setting is the next line's */
    char setting[256];
    char text[TEXT_MAX];
} block;

/* the groups the reader is in, for a setting's dotted path */
typedef struct nesting {
    char name[DEPTH][64];
    int depth;
} nesting;

/* the column of the comment's '#' outside a quoted string; -1: none */
static int comment_col(const char *s) {
    int quoted = 0;
    for (int i = 0; s[i]; i++) {
        if (s[i] == '"' && (i == 0 || s[i - 1] != '\\')) quoted = !quoted;
        if (s[i] == '#' && !quoted) return i;
    }
    return -1;
}

/* 1 when s has the word choice or choices (any case) outside a sentence that quotes "choice": a
 * sentence like 'choices are marked "choice"' states the convention, it is not one */
static int says_choice(const char *s) {
    const char *start = s;
    while (*start) {
        const char *end = strstr(start, ". ");
        size_t n = end ? (size_t)(end - start) + 1 : strlen(start);
        char sentence[TEXT_MAX];
        snprintf(sentence, sizeof sentence, "%.*s", (int)n, start);
        if (!strstr(sentence, "\"choice\""))
            for (size_t i = 0; sentence[i]; i++)
                if (strncasecmp(sentence + i, "choice", 6) == 0 &&
                    (i == 0 || !isalpha((unsigned char)sentence[i - 1])) &&
                    (!isalpha((unsigned char)sentence[i + 6]) || sentence[i + 6] == 's'))
                    return 1;
        start += n;
        while (*start == ' ')
            start++;
    }
    return 0;
}

/* the setting a line of code sets, as a dotted path ("pile.mass_lo", "methods[lcp]") */
static void setting_of(const nesting *g, const char *code, char *out, size_t n) {
    char key[64] = "", path[192] = "";
    const char *label = strstr(code, "label");
    const char *eq = strchr(code, '=');
    if (eq) {
        const char *a = code;
        while (a < eq && isspace((unsigned char)*a))
            a++;
        size_t k = 0;
        while (a + k < eq && (isalnum((unsigned char)a[k]) || a[k] == '_') && k < sizeof key - 1)
            k++;
        snprintf(key, sizeof key, "%.*s", (int)k, a);
    }
    for (int i = 0; i < g->depth; i++)
        if (g->name[i][0])
            snprintf(path + strlen(path), sizeof path - strlen(path), "%s%s", path[0] ? "." : "",
                     g->name[i]);
    /* a list entry named by its label */
    const char *q = label ? strchr(label, '"') : NULL;
    if (q && strchr(q + 1, '"')) {
        snprintf(out, n, "%s[%.*s]", path, (int)(strchr(q + 1, '"') - q - 1), q + 1);
        return;
    }
    snprintf(out, n, "%s%s%s", path, path[0] && key[0] ? "." : "", key);
}

/* the groups a line of code opens and closes ("name = {" opens name; a bare "{" opens none) */
static void follow(nesting *g, const char *code) {
    char last[64] = "";
    for (const char *c = code; *c; c++) {
        if (isalpha((unsigned char)*c) || *c == '_') {
            size_t k = 0;
            while (isalnum((unsigned char)c[k]) || c[k] == '_')
                k++;
            snprintf(last, sizeof last, "%.*s", (int)k, c);
            c += k - 1;
        } else if (*c == '"') {
            const char *e = strchr(c + 1, '"');
            if (!e) break;
            c = e;
        } else if (*c == '{' || *c == '(') {
            if (g->depth < DEPTH) snprintf(g->name[g->depth], sizeof g->name[0], "%s", last);
            g->depth++;
            last[0] = 0;
        } else if ((*c == '}' || *c == ')') && g->depth > 0) {
            g->depth--;
        } else if (*c == ';' || *c == ',') {
            last[0] = 0;
        }
    }
}

/* hand a finished block to fn when it is a choice; returns 1 when it was */
static int finish(block *b, tc_choice_fn fn, void *ctx) {
    int is = b->line && says_choice(b->text);
    if (is) fn(ctx, b->line, b->setting, b->text);
    b->line = 0;
    return is;
}

/* add a comment's text to the block (one space between lines) */
static void append(block *b, const char *text) {
    size_t len = strlen(b->text);
    snprintf(b->text + len, sizeof b->text - len, "%s%s", len ? " " : "", text);
}

/* s without its trailing newline and blanks */
static void trim_end(char *s) {
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
}

int tc_script_choices(const char *path, tc_choice_fn fn, void *ctx) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[TEXT_MAX];
    block b = {0};
    nesting g = {0};
    int found = 0;
    for (int ln = 1; fgets(line, sizeof line, f); ln++) {
        trim_end(line);
        int col = comment_col(line);
        const char *comment = col >= 0 ? line + col + 1 : NULL;
        while (comment && *comment == ' ')
            comment++;
        char code[TEXT_MAX];
        snprintf(code, sizeof code, "%.*s", col >= 0 ? col : (int)strlen(line), line);
        int has_code = strspn(code, " \t") < strlen(code);
        /* a comment under a block's '#' carries it on */
        if (!has_code && comment && b.line && col == b.col) {
            append(&b, comment);
            continue;
        }
        /* a line of code names the setting a comment block above it is about */
        if (has_code && b.line && b.needs) setting_of(&g, code, b.setting, sizeof b.setting);
        found += finish(&b, fn, ctx);
        if (comment) {
            b = (block){.line = ln, .col = col, .needs = !has_code};
            if (has_code) setting_of(&g, code, b.setting, sizeof b.setting);
            append(&b, comment);
        }
        if (has_code) follow(&g, code);
    }
    found += finish(&b, fn, ctx);
    fclose(f);
    return found;
}
