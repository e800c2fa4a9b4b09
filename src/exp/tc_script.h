/* SPDX-License-Identifier: MIT */
/* experiment scripts: libconfig files with tiers; every reader names the file, line and setting */
#ifndef TC_SCRIPT_H
#define TC_SCRIPT_H

#include <stddef.h>

#include "core/tc_status.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* a parsed script, opaque: read it through the functions below */
typedef struct tc_script tc_script;

/* one setting of a script (a group, a list, an array or a scalar), opaque and owned by its
 * script */
typedef struct tc_setting tc_setting;

/* parse path and select tiers.<tier>; a syntax error names the line, a script with tiers but not
 * this one lists those it has. On error nothing needs freeing */
tc_status tc_script_load(tc_script **s, const char *path, const char *tier, tc_error *err);
void tc_script_free(tc_script *s);

/* the file it was read from, and the selected tier */
const char *tc_script_path(const tc_script *s);
const char *tc_script_tier(const tc_script *s);

/* the driver named by the script at path, into buf (n bytes): parses the file (a syntax error
 * names its line) and needs `driver = "...";` at the top level */
tc_status tc_script_peek_driver(const char *path, char *buf, size_t n, tc_error *err);

/* the driver a script names (`driver = "e1_sphere_profiles";`), or NULL */
const char *tc_script_driver(const tc_script *s);

/* a setting by dotted path in group g (NULL = root), looked up in tiers.<tier> first; the
 * setting found counts as read (tc_script_check_read) */
const tc_setting *tc_script_lookup(const tc_script *s, const tc_setting *g, const char *path);

/* the line of the setting at path in g (as tc_script_lookup), or 0 when there is none */
int tc_script_line(const tc_script *s, const tc_setting *g, const char *path);

/* v (may be NULL) and everything below it count as read: for a reader that walks a group or
 * list itself */
void tc_script_use(const tc_setting *v);

/* after the driver's setup and the methods: every setting the script holds was read, or it is
 * an error naming its line and dotted path (a misspelt key, an unknown group, a key in a tier
 * the driver never reads); a key of another tier must exist in the selected one or be read at
 * the top level */
tc_status tc_script_check_read(const tc_script *s, tc_error *err);

/* numbers and strings; a missing required setting, a wrong type or a value outside [lo, hi]
 * is an error naming file, line and setting */
tc_status tc_script_real(const tc_script *s, const tc_setting *g, const char *name, double lo,
                         double hi, double *out, tc_error *err);
tc_status tc_script_int(const tc_script *s, const tc_setting *g, const char *name, int lo, int hi,
                        int *out, tc_error *err);
tc_status tc_script_string(const tc_script *s, const tc_setting *g, const char *name,
                           const char **out, tc_error *err);

/* an array or list of numbers (each in [lo, hi]) into out[max]; *n gets the count */
tc_status tc_script_reals(const tc_script *s, const tc_setting *g, const char *name, double lo,
                          double hi, double *out, int max, int *n, tc_error *err);

/* every setting of group g must be one of the NULL-terminated names */
tc_status tc_script_allowed(const tc_script *s, const tc_setting *g, const char *const *names,
                            tc_error *err);

/* every setting the driver sees at the selected tier, one call per value: its dotted path
 * ("pile.bodies", "limits.[0].bodies") and its text ("[30, 100]", "\"mujoco\"", "0.001"); a
 * tier's setting replaces the top-level one of the same path. The driver's name, the tiers, the
 * methods list (each method records its own parameters) and the papers' values are left out */
typedef void (*tc_script_visit)(void *ctx, const char *path, const char *value);
void tc_script_settings(const tc_script *s, tc_script_visit visit, void *ctx);

/* an error at setting v (its line; 0 when v is NULL) of script s about param: TC_EINVAL with the
 * message fmt, for `return tc_script_fail(...)` */
tc_status tc_script_fail(const tc_script *s, const tc_setting *v, const char *param, tc_error *err,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* tc_script_fail at the setting of dotted path `path` (looked up in the tier first), which is
 * also the parameter named */
tc_status tc_script_fail_at(const tc_script *s, const char *path, tc_error *err, const char *fmt,
                            ...) __attribute__((format(printf, 4, 5)));

/* the list of groups at dotted path `path` (the tier's first), of lo to hi entries: the list in
 * *l (l may be NULL) and its length in *n; otherwise *n 0 and an error at it naming path, "a
 * list ( {...}, ... ) of lo to hi what". With lo = 0 a missing list is an empty one (*l NULL) */
tc_status tc_script_list(const tc_script *s, const char *path, int lo, int hi, const char *what,
                         const tc_setting **l, int *n, tc_error *err);

/* settings read by a table: one row per setting of a group, read into a struct at an offset.
 * Rows end with a row whose name is NULL */
typedef enum tc_field_kind {
    TC_FIELD_REAL,   /* double, in [lo, hi] */
    TC_FIELD_INT,    /* int, in [lo, hi] */
    TC_FIELD_STRING, /* char[size], copied */
    TC_FIELD_REALS,  /* double[max] in [lo, hi], the count into the int at count */
} tc_field_kind;

typedef struct tc_field {
    const char *name; /* the setting's name in the group */
    tc_field_kind kind;
    size_t offset; /* where the value goes in the destination (offsetof) */
    double lo, hi;
    int max;      /* TC_FIELD_REALS: capacity; TC_FIELD_STRING: the array's size */
    size_t count; /* TC_FIELD_REALS: offset of the int count */
    int optional; /* 1: a missing setting keeps the destination's value (its default) */
} tc_field;

#define TC_FIELD_R(T, member, name, lo, hi)                                                        \
    { (name), TC_FIELD_REAL, offsetof(T, member), (lo), (hi), 0, 0, 0 }
#define TC_FIELD_I(T, member, name, lo, hi)                                                        \
    { (name), TC_FIELD_INT, offsetof(T, member), (lo), (hi), 0, 0, 0 }
#define TC_FIELD_S(T, member, name)                                                                \
    { (name), TC_FIELD_STRING, offsetof(T, member), 0, 0, (int)sizeof(((T *)0)->member), 0, 0 }
#define TC_FIELD_RS(T, member, n, name, lo, hi)                                                    \
    {                                                                                              \
        (name), TC_FIELD_REALS, offsetof(T, member), (lo), (hi),                                   \
            (int)(sizeof(((T *)0)->member) / sizeof(double)), offsetof(T, n), 0                    \
    }

/* the row that ends a table */
#define TC_FIELD_END                                                                               \
    { NULL, TC_FIELD_REAL, 0, 0, 0, 0, 0, 0 }

/* read every row of table f from the group at path into dst; the group is looked up like
 * tc_script_lookup (a tier's group of that name replaces the top-level one whole), must exist
 * and may hold only the table's settings (another is an error naming the allowed ones, as
 * tc_script_allowed). With path NULL the rows are top-level settings, each looked up in the
 * selected tier first. Errors name file, line and setting */
tc_status tc_script_read(const tc_script *s, const char *path, const tc_field *f, void *dst,
                         tc_error *err);

/* ---------- a setting's shape and value ---------- */

typedef enum tc_setting_kind {
    TC_SETTING_NONE, /* no setting (NULL) */
    TC_SETTING_GROUP,
    TC_SETTING_LIST,  /* ( ... ): elements of any kind */
    TC_SETTING_ARRAY, /* [ ... ]: scalars of one kind */
    TC_SETTING_NUMBER,
    TC_SETTING_STRING,
    TC_SETTING_BOOL,
} tc_setting_kind;

tc_setting_kind tc_setting_type(const tc_setting *v);
int tc_setting_line(const tc_setting *v);         /* its line in the script, 0 for NULL */
const char *tc_setting_name(const tc_setting *v); /* a group member's name, else NULL */
int tc_setting_length(const tc_setting *v);       /* elements of a group, list or array, else 0 */
const tc_setting *tc_setting_at(const tc_setting *v, int i); /* element i, or NULL */
const char *tc_setting_string(const tc_setting *v);          /* a string's text, else NULL */
double tc_setting_number(const tc_setting *v);               /* a number's value, else NAN */

/* the method spec of the script's `methods` entry labelled label (the last such entry), or NULL */
const char *tc_script_method_spec(const tc_script *s, const char *label);

/* the paper's value: in the script's `paper` list, the member key (a number) of the entry whose
 * string member match_key equals match; NAN when there is none */
double tc_script_paper(const tc_script *s, const char *match_key, const char *match,
                       const char *key);

/* a documented choice of a script (a setting the paper does not give, or one where touche departs
 * from it): a comment block that says "choice" or "choices", outside a sentence that quotes
 * "choice" (the convention's statement). A block is a comment's lines under one column of '#';
 * it is about the setting on its first line, or, standing on lines of its own, the next line's.
 * line: the block's first line; setting: a dotted path ("pile.mass_lo", "methods[lcp]"; "" for a
 * note above a blank line); text: the comment's lines joined by spaces */
typedef void (*tc_choice_fn)(void *ctx, int line, const char *setting, const char *text);

/* call fn for every documented choice of the script file path, in file order; returns their
 * number, -1 when the file cannot be read (docs/report.md, deviations) */
int tc_script_choices(const char *path, tc_choice_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif
