/* SPDX-License-Identifier: MIT */
/* capability names */
#include "core/tc_caps.h"

#include <stdio.h>
#include <string.h>

void tc_caps_format(unsigned caps, char *buf, int n) {
    static const char *const names[] = {"force-query", "dynamics",    "friction",
                                        "smooth",      "contacts",    "continuous",
                                        "geometry",    "planar-only", "gradient"};
    buf[0] = 0;
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
        if (caps & (1u << i)) {
            size_t l = strlen(buf);
            snprintf(buf + l, (size_t)n - l, "%s%s", l ? "," : "", names[i]);
        }
}
