/* SPDX-License-Identifier: MIT */
/* shared by the libFuzzer harnesses: the readers take paths, so each input is written to one
 * temp file per process (under $TMPDIR, else /tmp), removed at exit; a reader of several files
 * gets one scratch folder per process instead, removed with its files at exit */
#ifndef TC_FUZZ_COMMON_H
#define TC_FUZZ_COMMON_H

#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/tc_fs.h"

/* libFuzzer's entry points, declared for -Wmissing-prototypes */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_file[4096], fuzz_folder[4096];

/* the temp file and the scratch folder go at exit (a crash leaves them in the run's scratch dir:
 * tools/fuzz.sh) */
static inline void fuzz_remove_file(void) {
    if (fuzz_file[0]) unlink(fuzz_file);
}
static inline void fuzz_remove_folder(void) {
    if (fuzz_folder[0]) tc_remove_dir(fuzz_folder);
}

/* a property the harness checks is broken: the why on fd 2 (where sanitizer reports go, also
 * when a harness silences stderr), then abort(), which libFuzzer reports as a finding */
_Noreturn static inline void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void fuzz_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    dprintf(2, "fuzz: property broken: ");
    vdprintf(2, fmt, ap);
    dprintf(2, "\n");
    va_end(ap);
    abort();
}

/* "$TMPDIR/touche-fuzz-XXXXXX" (else under /tmp) into buf, for mkstemp or mkdtemp */
static inline void fuzz_temp_name(char *buf, size_t n) {
    const char *dir = getenv("TMPDIR");
    snprintf(buf, n, "%s/touche-fuzz-XXXXXX", dir && *dir ? dir : "/tmp");
}

/* exactly size bytes of data into path, a new file (ext4 writes a file truncated and rewritten
 * back to the disk at close: thousands of disk writes a second); a file that cannot be written
 * aborts (a broken setup, not a finding in the reader) */
static inline void fuzz_write(const char *path, const uint8_t *data, size_t size) {
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
        perror(path);
        abort();
    }
}

/* the input as a file: this process's temp file, holding exactly size bytes of data */
static inline const char *fuzz_input_file(const uint8_t *data, size_t size) {
    if (!fuzz_file[0]) {
        fuzz_temp_name(fuzz_file, sizeof fuzz_file);
        int fd = mkstemp(fuzz_file);
        if (fd < 0) {
            perror(fuzz_file);
            abort();
        }
        close(fd);
        atexit(fuzz_remove_file);
    }
    fuzz_write(fuzz_file, data, size);
    return fuzz_file;
}

/* this process's scratch folder, made at the first call (a folder that cannot be made aborts) */
static inline const char *fuzz_scratch_folder(void) {
    if (!fuzz_folder[0]) {
        fuzz_temp_name(fuzz_folder, sizeof fuzz_folder);
        if (!mkdtemp(fuzz_folder)) {
            perror(fuzz_folder);
            abort();
        }
        atexit(fuzz_remove_folder);
    }
    return fuzz_folder;
}

#endif
