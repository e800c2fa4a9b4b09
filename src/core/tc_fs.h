/* SPDX-License-Identifier: MIT */
/* files and programs: atomic output files (temp file + rename), directories, PATH look-ups */
#ifndef TC_FS_H
#define TC_FS_H

#include <stdio.h>

#include "core/tc_status.h"

/* a file being written: data goes to a temp file in the same directory; commit renames it over
 * the final path, so a crash or error never leaves a half-written or damaged output */
typedef struct tc_outfile {
    FILE *f;         /* write here */
    char path[1024]; /* final path */
    char tmp[1040];  /* temp path (path + ".tmp.XXXXXX") */
} tc_outfile;

/* TC_OK when path may become an output file: nothing is there, or a regular file; TC_EINVAL
 * naming what is there otherwise (a device, a link, a folder, a pipe: never replaced) */
tc_status tc_outfile_target(const char *path, tc_error *err);

/* create parent directories, open a temp file next to path; TC_EINVAL when path is no output
 * target (tc_outfile_target) */
tc_status tc_outfile_open(tc_outfile *o, const char *path, tc_error *err);

/* flush, close, check for write errors, rename onto the final path; on error the temp is removed;
 * f may already be closed and set to NULL when another program wrote the temp file */
tc_status tc_outfile_commit(tc_outfile *o, tc_error *err);

/* close and remove the temp file; the final path is untouched */
void tc_outfile_abort(tc_outfile *o);

/* mkdir -p */
tc_status tc_mkdir_p(const char *path, tc_error *err);

/* mkdir -p of the directory part of a file path (nothing to do without one) */
tc_status tc_mkdir_parent(const char *path, tc_error *err);

/* a path a script names: an absolute one as it is, a relative one under dir (the source tree's
 * data/...), into buf */
void tc_path_under(const char *dir, const char *path, char *buf, size_t n);

/* buf = a "/" b; TC_EINVAL if it does not fit */
tc_status tc_path_join(char *buf, size_t n, const char *a, const char *b);

/* copy the whole file at path onto dst; TC_EIO when it cannot be read */
tc_status tc_file_append(FILE *dst, const char *path);

/* append the n bytes of data to the file at path as one piece, so that readers and other
 * appenders see whole lines: under an exclusive flock, a new or empty file gets header first
 * (NULL: none), a file whose last byte is not a newline (a line cut by an earlier full disk) gets
 * one first, and a write that fails (a full disk) is undone by truncating the file to its size
 * before; TC_EIO naming the path and the reason, TC_EINVAL when path is no regular file */
tc_status tc_file_append_whole(const char *path, const char *header, const char *data, size_t n,
                               tc_error *err);

/* 1 if the files at a and b are both readable regular files with the same bytes, else 0 */
int tc_files_equal(const char *a, const char *b);

/* 1 if the file exists and is readable */
int tc_file_readable(const char *path);

/* 1 if an executable of this name is on PATH */
int tc_have_program(const char *name);

/* the full path of an executable on PATH (or name itself when it holds a '/') into buf;
 * returns 1 when found */
int tc_find_program(const char *name, char *buf, size_t n);

/* remove a directory of plain files (the temp dirs of external programs), then the directory */
void tc_remove_dir(const char *dir);

/* remove a whole tree (files and directories, no symlinks followed) */
void tc_remove_tree(const char *path);

/* make a fresh staging directory for what will become root/name:
 * root/.touche-<pid>-<name>-XXXXXX (root created when missing) */
tc_status tc_stage_dir(const char *root, const char *name, char *buf, size_t n, tc_error *err);

/* in into out (at most n bytes with the terminating 0), with the last component of every
 * staging directory this process made (.touche-<pid>-<name>-XXXXXX) replaced by the name it
 * takes when it is put in place (<name>): what an external program said about files in a staging
 * directory then names the final paths; returns out */
char *tc_unstage_text(const char *in, char *out, size_t n);

/* the same rewrite of a text file, in place (atomically; left as it is when it names no staging
 * directory); TC_EIO when it cannot be read or written */
tc_status tc_unstage_file(const char *path, tc_error *err);

/* put staging directory stage in place of dir in one rename (the two swap places when dir
 * exists: renameat2 RENAME_EXCHANGE), then remove what was dir; a reader never sees a mix. Where
 * the file system cannot exchange (NFS, vfat, CIFS), dir moves aside to stage.old, stage takes
 * its place, and on failure dir is moved back; TC_EIO then says whether the earlier outputs are
 * back in place or, if even that failed, names the folder that holds them whole */
tc_status tc_swap_dir(const char *stage, const char *dir, tc_error *err);

/* for tests: make tc_swap_dir behave as on a file system without RENAME_EXCHANGE (no_exchange)
 * and fail the renames it makes from now on whose bit is set in fail_mask (bit 0: the first);
 * tc_fs_inject(0, 0) turns both off */
void tc_fs_inject(int no_exchange, unsigned fail_mask);

/* remove root/.touche-<pid>-* left behind by processes that are gone (a run killed with
 * SIGKILL): a folder nobody holds the lock of (tc_stage_dir locks a folder before it takes that
 * name), except *.old: an earlier output set a swap moved aside (it may be the only copy);
 * returns how many */
int tc_clean_stale(const char *root);

/* a fresh scratch folder for an external program or an MPI worker's files:
 * $TMPDIR/.touche-<pid>-<name>-XXXXXX (/tmp without TMPDIR), locked like a staging folder, after
 * removing those that killed processes left there (tc_clean_stale); tc_scratch_done removes it
 * and releases its lock */
tc_status tc_scratch_dir(const char *name, char *buf, size_t n, tc_error *err);
void tc_scratch_done(const char *dir);

/* run argv[0] (searched on PATH) in directory cwd (NULL: the current one) with stdin from
 * /dev/null and stdout and stderr into log_path, truncated first or appended to when append is 1;
 * env lists "NAME=value" entries that replace or extend the environment (NULL-terminated, or NULL
 * for none); a failure to start or a non-zero exit is TC_EENGINE, and err->msg names the log and
 * carries its last 3 lines */
tc_status tc_run_logged(const char *const *argv, const char *const *env, const char *cwd,
                        const char *log_path, int append, tc_error *err);

/* the same, but a program that ran and exited is TC_OK whatever its exit status, which goes to
 * *status (128 + the signal when a signal ended it; -1 when it did not start). Either one
 * watches for an interrupt while it waits (tc_interrupted, within 50 ms): it then stops the
 * program (SIGTERM, SIGKILL 2 s later) and returns TC_EINTR */
tc_status tc_run_logged_status(const char *const *argv, const char *const *env, const char *cwd,
                               const char *log_path, int append, int *status, tc_error *err);

#endif
