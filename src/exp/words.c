/* SPDX-License-Identifier: MIT */
/* a list of words or items built in a string: a figure's labels, a caption's values */
#include "exp/tc_experiment.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tc_words_add(char *b, size_t n, const char *sep, const char *fmt, ...) {
    size_t len = strlen(b);
    snprintf(b + len, n - len, "%s", len ? sep : "");
    len = strlen(b);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b + len, n - len, fmt, ap);
    va_end(ap);
}
