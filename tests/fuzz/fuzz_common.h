/* SPDX-License-Identifier: MIT */
/* shared by the libFuzzer harnesses: the readers take paths, so each input is written to one
 * temp file per process (under $TMPDIR, else /tmp), removed at exit */
#ifndef TC_FUZZ_COMMON_H
#define TC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* libFuzzer's entry points, declared for -Wmissing-prototypes */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_file[4096];

/* the temp file goes at exit (a crash leaves it in the run's scratch dir: tools/fuzz.sh) */
static void fuzz_remove_file(void) {
    if (fuzz_file[0]) unlink(fuzz_file);
}

/* the input as a file: this process's temp file, holding exactly size bytes of data; a file that
 * cannot be written aborts (a broken setup, not a finding in the reader) */
static const char *fuzz_input_file(const uint8_t *data, size_t size) {
    if (!fuzz_file[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(fuzz_file, sizeof fuzz_file, "%s/touche-fuzz-XXXXXX", dir && *dir ? dir : "/tmp");
        int fd = mkstemp(fuzz_file);
        if (fd < 0) {
            perror(fuzz_file);
            abort();
        }
        close(fd);
        atexit(fuzz_remove_file);
    }
    FILE *f = fopen(fuzz_file, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
        perror(fuzz_file);
        abort();
    }
    return fuzz_file;
}

#endif
