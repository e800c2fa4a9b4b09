/* SPDX-License-Identifier: MIT */
/* provenance: when, where and from what a result was made, for the report, the references, the
 * history file, generated data and `touche --version` (one place for these facts) */
#ifndef TC_PROVENANCE_H
#define TC_PROVENANCE_H

#include <stddef.h>

/* now in UTC, "2025-01-31T12:00:00Z" ("unknown" if the clock cannot be read) */
void tc_utc_now(char *buf, size_t n);

/* the host: uname's nodename and machine, "box x86_64" */
void tc_host_desc(char *buf, size_t n);

/* the source revision the binary was built from (git describe --always --dirty at build time,
 * "unknown" outside a git tree) */
const char *tc_revision(void);

/* the repository's web address, -Drepository_url without a trailing '/' ("" when not set): the
 * PDF links the repository paths it prints there (tc_latex_put) */
const char *tc_repository_url(void);

/* the release, project() version in meson.build ("0.1.0") */
const char *tc_version(void);

/* where experiments/, data/, paper/ and plots/ live: $TOUCHE_SOURCE_DIR when set and not empty,
 * else the source tree the binary was built from */
const char *tc_source_dir(void);

#endif
