/* SPDX-License-Identifier: MIT */
/* provenance facts: time, host, revision, repository address, version, source tree */
#include "core/tc_provenance.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <time.h>

#include "tc_config.h"
#include "tc_version.h"

void tc_utc_now(char *buf, size_t n) {
    time_t t = time(NULL);
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(buf, n, "unknown");
}

void tc_host_desc(char *buf, size_t n) {
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(buf, n, "%s %s", u.nodename, u.machine);
    else
        snprintf(buf, n, "unknown");
}

const char *tc_revision(void) {
    return TC_VCS_REVISION;
}

const char *tc_repository_url(void) {
    return TC_REPOSITORY_URL;
}

const char *tc_version(void) {
    return TC_TOUCHE_VERSION;
}

const char *tc_source_dir(void) {
    const char *s = getenv("TOUCHE_SOURCE_DIR");
    return s && s[0] ? s : TC_SOURCE_DIR;
}
