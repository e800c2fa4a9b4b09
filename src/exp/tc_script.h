/* SPDX-License-Identifier: MIT */
/* experiment scripts: libconfig files with tiers; every reader names the file, line and setting */
#ifndef TC_SCRIPT_H
#define TC_SCRIPT_H

#include <libconfig.h>

#include "core/tc_status.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* a parsed script */
typedef struct tc_script {
    config_t cfg;
    char path[1024];
    char tier[16];                /* selected tier */
    config_setting_t *tier_group; /* tiers.<tier>, or NULL when the script has no tiers */
} tc_script;

/* parse path and select tiers.<tier>; a syntax error names the line, a script with tiers but not
 * this one lists those it has. On error nothing needs freeing */
tc_status tc_script_load(tc_script *s, const char *path, const char *tier, tc_error *err);
void tc_script_free(tc_script *s);

/* the driver named by the script at path, into buf (n bytes): parses the file (a syntax error
 * names its line) and needs `driver = "...";` at the top level */
tc_status tc_script_peek_driver(const char *path, char *buf, size_t n, tc_error *err);

/* the driver a script names (`driver = "e1_sphere_profiles";`), or NULL */
const char *tc_script_driver(const tc_script *s);

/* a setting by dotted path in group g (NULL = root), looked up in tiers.<tier> first; the
 * setting found counts as read (tc_script_check_read) */
config_setting_t *tc_script_lookup(const tc_script *s, config_setting_t *g, const char *path);

/* v (may be NULL) and everything below it count as read: for a reader that walks a group or
 * list itself */
void tc_script_use(config_setting_t *v);

/* after the driver's setup and the methods: every setting the script holds was read, or it is
 * an error naming its line and dotted path (a misspelt key, an unknown group, a key in a tier
 * the driver never reads); a key of another tier must exist in the selected one or be read at
 * the top level */
tc_status tc_script_check_read(const tc_script *s, tc_error *err);

/* numbers and strings; a missing required setting, a wrong type or a value outside [lo, hi]
 * is an error naming file, line and setting */
tc_status tc_script_real(const tc_script *s, config_setting_t *g, const char *name, double lo,
                         double hi, double *out, tc_error *err);
tc_status tc_script_int(const tc_script *s, config_setting_t *g, const char *name, int lo, int hi,
                        int *out, tc_error *err);
tc_status tc_script_string(const tc_script *s, config_setting_t *g, const char *name,
                           const char **out, tc_error *err);

/* an array or list of numbers (each in [lo, hi]) into out[max]; *n gets the count */
tc_status tc_script_reals(const tc_script *s, config_setting_t *g, const char *name, double lo,
                          double hi, double *out, int max, int *n, tc_error *err);

/* every setting of group g must be one of the NULL-terminated names */
tc_status tc_script_allowed(const tc_script *s, config_setting_t *g, const char *const *names,
                            tc_error *err);

/* every setting the driver sees at the selected tier, one call per value: its dotted path
 * ("pile.bodies", "limits.[0].bodies") and its text ("[30, 100]", "\"mujoco\"", "0.001"); a
 * tier's setting replaces the top-level one of the same path. The driver's name, the tiers, the
 * methods list (each method records its own parameters) and the papers' values are left out */
typedef void (*tc_script_visit)(void *ctx, const char *path, const char *value);
void tc_script_settings(const tc_script *s, tc_script_visit visit, void *ctx);

/* the paper's value: in the script's `paper` list, the member key (a number) of the entry whose
 * string member match_key equals match; NAN when there is none */
double tc_script_paper(const tc_script *s, const char *match_key, const char *match,
                       const char *key);

#ifdef __cplusplus
}
#endif

#endif
