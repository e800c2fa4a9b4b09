/* SPDX-License-Identifier: MIT */
/* atomic files and folders (src/core/fs.c): an output replaced whole or not at all, only a regular
 * file replaced, staging folders swapped in and cleaned when stale, scratch folders, paths */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/tc_fs.h"
#include "test_scratch.h"

Test(fs, abort_keeps_old_content_and_leaves_no_temp) {
    make_scratch();
    const char *path = in_scratch("out.txt");
    put_file(path, "old\n");

    tc_outfile o;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_outfile_open(&o, path, &err), TC_OK, "%s", err.msg);
    fputs("new, half written", o.f);
    tc_outfile_abort(&o);

    char *s = slurp(path);
    cr_assert_str_eq(s, "old\n");
    free(s);
    cr_assert_eq(count_named(scratch, ".tmp."), 0, "a temp file was left behind");
}

Test(fs, commit_replaces_content) {
    make_scratch();
    const char *path = in_scratch("sub/dir/out.txt");
    tc_error err;
    tc_error_clear(&err);

    /* twice: once creating the file (and its directories), once replacing it */
    for (int k = 0; k < 2; k++) {
        tc_outfile o;
        cr_assert_eq(tc_outfile_open(&o, path, &err), TC_OK, "%s", err.msg);
        fprintf(o.f, "version %d\n", k);
        cr_assert_eq(tc_outfile_commit(&o, &err), TC_OK, "%s", err.msg);
    }
    char *s = slurp(path);
    cr_assert_str_eq(s, "version 1\n");
    free(s);
    cr_assert_eq(count_named(in_scratch("sub/dir"), ".tmp."), 0);

    /* readable by others, not mkstemp's 0600 */
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0644);
}

/* only a regular file is replaced: a device, a link or a folder at the path is refused and stays
 * as it was (issue 33, finding 5: --timings onto a character device turned it into a file) */
Test(fs, only_regular_files_are_replaced) {
    make_scratch();
    put_file(in_scratch("target.txt"), "kept\n");
    cr_assert_eq(symlink(in_scratch("target.txt"), in_scratch("link.txt")), 0);
    cr_assert_eq(mkfifo(in_scratch("fifo"), 0644), 0);
    mkdir(in_scratch("dir"), 0755);
    const char *const name[] = {"link.txt", "fifo", "dir"};
    const char *const what[] = {"a symbolic link", "a special file", "a folder"};
    for (int k = 0; k < 3; k++) {
        tc_outfile o;
        tc_error err;
        tc_error_clear(&err);
        cr_expect_eq(tc_outfile_open(&o, in_scratch(name[k]), &err), TC_EINVAL, "%s", name[k]);
        cr_expect(strstr(err.msg, what[k]) && strstr(err.msg, "not a regular file"), "%s", err.msg);
    }
    struct stat sb;
    cr_expect(lstat(in_scratch("link.txt"), &sb) == 0 && S_ISLNK(sb.st_mode), "the link stays");
    cr_expect(lstat(in_scratch("fifo"), &sb) == 0 && S_ISFIFO(sb.st_mode), "the fifo stays");
    char *s = slurp(in_scratch("target.txt"));
    cr_expect_str_eq(s, "kept\n");
    free(s);
    cr_expect_eq(count_named(scratch, ".tmp."), 0);
    /* a device, where one can be opened: /dev/null is refused (never replaced, even as root) */
    tc_outfile o;
    tc_error err;
    tc_error_clear(&err);
    cr_expect_eq(tc_outfile_open(&o, "/dev/null", &err), TC_EINVAL);
    cr_expect(strstr(err.msg, "a device"), "%s", err.msg);
}

/* a swap where the file system cannot exchange two folders (NFS, vfat, CIFS), with its renames
 * failing on purpose: the earlier set is put back, or when even that fails it is left whole under
 * a name the stale cleaner keeps, and the error says which (issue 33, finding 3: the earlier set
 * was reported as staying and then deleted as stale) */
Test(fs, a_swap_without_exchange_never_loses_the_earlier_set) {
    make_scratch();
    char stage[600], dir[600];
    snprintf(dir, sizeof dir, "%s/e1", scratch);
    tc_error err;
    /* 1. the new set cannot take the old one's place: the old one is back */
    mkdir(dir, 0755);
    put_file(in_scratch("e1/a.txt"), "old\n");
    cr_assert_eq(tc_stage_dir(scratch, "e1", stage, sizeof stage, &err), TC_OK);
    char file[800];
    snprintf(file, sizeof file, "%s/a.txt", stage);
    put_file(file, "new\n");
    tc_fs_inject(1, 1u << 1);
    tc_error_clear(&err);
    cr_expect_eq(tc_swap_dir(stage, dir, &err), TC_EIO);
    cr_expect(strstr(err.msg, "back in place"), "%s", err.msg);
    char *t = slurp(in_scratch("e1/a.txt"));
    cr_expect_str_eq(t, "old\n");
    free(t);
    /* 2. nor can the old one go back: it is whole under <stage>.old, which the message names and
     * the cleaner keeps */
    tc_fs_inject(1, (1u << 1) | (1u << 2));
    tc_error_clear(&err);
    cr_expect_eq(tc_swap_dir(stage, dir, &err), TC_EIO);
    char old[700];
    snprintf(old, sizeof old, "%s.old", stage);
    cr_expect(strstr(err.msg, "nor put the earlier outputs back") && strstr(err.msg, old), "%s",
              err.msg);
    snprintf(file, sizeof file, "%s/a.txt", old);
    t = slurp(file);
    cr_expect_str_eq(t, "old\n");
    free(t);
    tc_fs_inject(0, 0);
    /* the cleaner: a stale staging folder of a gone process goes, a moved-aside set stays */
    char gone[600], kept[600];
    snprintf(gone, sizeof gone, "%s/.touche-999999999-e2-abcdef", scratch);
    snprintf(kept, sizeof kept, "%s/.touche-999999999-e2-abcdef.old", scratch);
    mkdir(gone, 0755);
    mkdir(kept, 0755);
    cr_expect_eq(tc_clean_stale(scratch), 1);
    cr_expect_neq(access(gone, F_OK), 0);
    cr_expect_eq(access(kept, F_OK), 0);
    /* 3. without faults the fallback swaps and leaves nothing behind */
    tc_fs_inject(1, 0);
    char stage2[600];
    cr_assert_eq(tc_stage_dir(scratch, "e3", stage2, sizeof stage2, &err), TC_OK);
    snprintf(dir, sizeof dir, "%s/e3", scratch);
    mkdir(dir, 0755);
    cr_expect_eq(tc_swap_dir(stage2, dir, &err), TC_OK, "%s", err.msg);
    snprintf(old, sizeof old, "%s.old", stage2);
    cr_expect_neq(access(old, F_OK), 0);
    tc_fs_inject(0, 0);
}

/* the stale cleaner removes a staging folder only when nobody holds its lock: a live run's folder
 * named with a PID that is not alive here (another PID namespace or host) stays (issue 33,
 * finding 4: a run in another container deleted a live run's staging folder) */
Test(fs, a_live_runs_staging_folder_is_never_cleaned) {
    make_scratch();
    int go[2], done[2];
    cr_assert_eq(pipe(go), 0);
    cr_assert_eq(pipe(done), 0);
    pid_t child = fork();
    cr_assert_geq(child, 0);
    if (child == 0) {
        /* the "other container": stages a folder, renames it as if its PID were another, holds */
        char stage[600], other[600];
        tc_error err;
        if (tc_stage_dir(scratch, "e5", stage, sizeof stage, &err)) _exit(1);
        snprintf(other, sizeof other, "%s/.touche-999999999-e5-live00", scratch);
        if (rename(stage, other)) _exit(2);
        char c = 1;
        if (write(go[1], &c, 1) != 1 || read(done[0], &c, 1) != 1) _exit(3);
        _exit(0);
    }
    char c;
    cr_assert_eq(read(go[0], &c, 1), 1);
    char live[600];
    snprintf(live, sizeof live, "%s/.touche-999999999-e5-live00", scratch);
    cr_expect_eq(tc_clean_stale(scratch), 0, "a folder whose process holds it is not stale");
    cr_expect_eq(access(live, F_OK), 0);
    /* the process ends: its lock goes with it, and the folder is stale */
    cr_assert_eq(write(done[1], &c, 1), 1);
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: %d", status);
    cr_expect_eq(tc_clean_stale(scratch), 1);
    cr_expect_neq(access(live, F_OK), 0);
}

/* a scratch folder (CalculiX's, TetGen's, an MPI worker's) left by a process killed with SIGKILL
 * goes when the next one is made; a live process's stays (issue 33, finding 14:
 * /tmp/touche-fem-* and MPI ranks' scratch piled up) */
Test(fs, a_killed_processs_scratch_folder_goes_with_the_next) {
    make_scratch();
    setenv("TMPDIR", scratch, 1);
    int go[2];
    cr_assert_eq(pipe(go), 0);
    pid_t kid[2];
    for (int k = 0; k < 2; k++) {
        kid[k] = fork();
        cr_assert_geq(kid[k], 0);
        if (kid[k] == 0) {
            char dir[600];
            tc_error err;
            if (tc_scratch_dir(k ? "live" : "fem", dir, sizeof dir, &err)) _exit(1);
            char c = 1;
            if (write(go[1], &c, 1) != 1) _exit(2);
            pause();
            _exit(0);
        }
        char c;
        cr_assert_eq(read(go[0], &c, 1), 1);
    }
    kill(kid[0], SIGKILL);
    int status;
    cr_assert_eq(waitpid(kid[0], &status, 0), kid[0]);
    DIR *d = opendir(scratch);
    cr_assert_not_null(d);
    char fem[700] = "", live[700] = "";
    for (struct dirent *e; (e = readdir(d));) {
        if (strstr(e->d_name, "-fem-")) snprintf(fem, sizeof fem, "%s/%s", scratch, e->d_name);
        if (strstr(e->d_name, "-live-")) snprintf(live, sizeof live, "%s/%s", scratch, e->d_name);
    }
    closedir(d);
    cr_assert(fem[0] && live[0], "scratch folders made: '%s' '%s'", fem, live);
    char dir[600];
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_scratch_dir("next", dir, sizeof dir, &err), TC_OK, "%s", err.msg);
    cr_expect_neq(access(fem, F_OK), 0, "the killed process's folder is still there");
    cr_expect_eq(access(live, F_OK), 0, "the live process's folder was removed");
    tc_scratch_done(dir);
    cr_expect_neq(access(dir, F_OK), 0);
    kill(kid[1], SIGKILL);
    waitpid(kid[1], &status, 0);
    unsetenv("TMPDIR");
}

Test(fs, unwritable_directory_is_eio_naming_the_path) {
    make_scratch();
    tc_error err;
    tc_outfile o;

    /* a directory without write permission (root ignores permissions: checked as non-root only) */
    const char *ro = in_scratch("ro");
    cr_assert_eq(mkdir(ro, 0500), 0);
    if (geteuid() != 0) {
        const char *path = in_scratch("ro/out.txt");
        tc_error_clear(&err);
        cr_assert_eq(tc_outfile_open(&o, path, &err), TC_EIO);
        cr_assert(strstr(err.msg, path), "message '%s' does not name %s", err.msg, path);
        cr_assert_null(o.f);
    }

    /* a "directory" that is a regular file fails for root too */
    put_file(in_scratch("plain"), "x");
    const char *path = in_scratch("plain/sub/out.txt");
    tc_error_clear(&err);
    cr_assert_eq(tc_outfile_open(&o, path, &err), TC_EIO);
    cr_assert(strstr(err.msg, path), "message '%s' does not name %s", err.msg, path);
}

Test(fs, path_join_mkdir_and_program_lookup) {
    char buf[16];
    cr_assert_eq(tc_path_join(buf, sizeof buf, "a", "b"), TC_OK);
    cr_assert_str_eq(buf, "a/b");
    cr_assert_eq(tc_path_join(buf, sizeof buf, "a/", "b"), TC_OK);
    cr_assert_str_eq(buf, "a/b");
    cr_assert_eq(tc_path_join(buf, sizeof buf, "0123456789", "abcdef"), TC_EINVAL);

    make_scratch();
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_mkdir_p(in_scratch("x/y/z"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_mkdir_p(in_scratch("x/y/z"), &err), TC_OK, "existing directories are fine");
    struct stat st;
    cr_assert(stat(in_scratch("x/y/z"), &st) == 0 && S_ISDIR(st.st_mode));

    cr_assert(tc_have_program("sh"));
    cr_assert_not(tc_have_program("touche-no-such-program"));
}

/* a scratch folder that is done leaves no entry that would match every staging name: a message
 * naming another process's staging folder comes back as it was (it once came back as the done
 * folder's name repeated to the buffer's end) */
Test(fs, a_done_scratch_folder_rewrites_no_message) {
    char dir[1024], out[256];
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_scratch_dir("fem", dir, sizeof dir, &err), TC_OK, "%s", err.msg);
    tc_scratch_done(dir);
    const char *msg = "gnuplot: cannot open /tmp/.touche-1-e5-abcdef/grid.csv";
    tc_unstage_text(msg, out, sizeof out);
    cr_assert_str_eq(out, msg);
}
