/* SPDX-License-Identifier: MIT */
/* report layer tests: atomic files, tables, metrics round trip, the check, figures, the report */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <dirent.h>
#include <float.h>
#include <ftw.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/tc_fs.h"
#include "core/tc_machine.h"
#include "exp/tc_experiment.h"
#include "report/tc_claims.h"
#include "report/tc_history.h"
#include "report/tc_metrics.h"
#include "report/tc_plot.h"
#include "report/tc_progress.h"
#include "report/tc_report.h"
#include "report/tc_table.h"

/* ---------- helpers ---------- */

/* a fresh scratch directory under /tmp, removed at exit */
static char scratch[64];

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    chmod(path, 0700);
    return remove(path);
}

static void rm_scratch(void) {
    if (scratch[0]) nftw(scratch, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *make_scratch(void) {
    snprintf(scratch, sizeof scratch, "/tmp/touche-test-XXXXXX");
    cr_assert_not_null(mkdtemp(scratch));
    atexit(rm_scratch);
    return scratch;
}

/* scratch/name into a static buffer (one of 32, so a few can be live at once) */
static const char *in_scratch(const char *name) {
    static char buf[32][512];
    static int k;
    k = (k + 1) % 32;
    snprintf(buf[k], sizeof buf[k], "%s/%s", scratch, name);
    return buf[k];
}

/* write a small text file */
static void put_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* a whole file as a malloc'd string (NULL if unreadable) */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    fclose(f);
    return s;
}

/* number of entries of dir whose name contains needle */
static int count_named(const char *dir, const char *needle) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strstr(e->d_name, needle) != NULL;
    closedir(d);
    return n;
}

/* number of occurrences of c in line */
static int count_char(const char *line, size_t len, char c) {
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += line[i] == c;
    return n;
}

/* ---------- atomic files ---------- */

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

/* ---------- tables ---------- */

Test(table, latex_escaping) {
    char buf[256];
    cr_assert_eq(tc_latex_escape(buf, sizeof buf, "a_b 5% ±1"), TC_OK);
    cr_assert_str_eq(buf, "a\\_b 5\\% $\\pm$1");

    cr_assert_eq(tc_latex_escape(buf, sizeof buf, "& # $ { } ~ ^ \\ < > 3 µs"), TC_OK);
    cr_assert_str_eq(buf, "\\& \\# \\$ \\{ \\} \\textasciitilde{} \\textasciicircum{} "
                          "\\textbackslash{} \\textless{} \\textgreater{} 3 $\\mu$s");

    /* the symbols touche's tables and sections write (E2's headers: "Δd (cm)", "Δθ (deg)") */
    cr_assert_eq(tc_latex_escape(buf, sizeof buf, "Δd Δθ λ ε η a—b 1–2"), TC_OK);
    cr_assert_str_eq(buf,
                     "$\\Delta$d $\\Delta$$\\theta$ $\\lambda$ $\\varepsilon$ $\\eta$ a---b 1--2");

    /* too small: an error, and never half an escape */
    cr_assert_eq(tc_latex_escape(buf, 4, "ab%c"), TC_EINVAL);
    cr_assert_str_eq(buf, "ab");
}

/* numeric cells: 3 significant digits, whole numbers when large, a floor for rounding noise */
Test(table, numeric_cells) {
    char c[64];
    const struct {
        double v;
        int digits;
        double below;
        const char *want;
    } cases[] = {
        {0.066149, 3, 0, "0.0661"},      {43270.0, 3, 0, "43300"},      {952.6, 3, 0, "953"},
        {-2.8e-17, 3, 1e-12, "< 1e-12"}, {0.0, 3, 1e-12, "0"},          {NAN, 3, 1e-12, "-"},
        {5.8e-29, 3, 0, "5.8e-29"},      {1.4e-9, 2, 1e-12, "1.4e-09"}, {123456.0, 4, 0, "123500"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tc_cell_num(c, sizeof c, cases[i].v, cases[i].digits, cases[i].below);
        cr_expect_str_eq(c, cases[i].want, "%g at %d digits, floor %g", cases[i].v, cases[i].digits,
                         cases[i].below);
    }
}

/* the machine behind a timing: the CPU and the thread count, never empty */
Test(table, machine_description) {
    char m[300];
    tc_machine_describe(m, sizeof m, 1);
    cr_assert(strlen(m) > strlen(", 1 thread"));
    cr_assert_str_eq(m + strlen(m) - strlen(", 1 thread"), ", 1 thread");
    tc_machine_describe(m, sizeof m, 2);
    cr_assert_str_eq(m + strlen(m) - strlen(", 2 threads"), ", 2 threads");
}

Test(table, markdown_and_latex_files) {
    make_scratch();
    static const char *const head[] = {"method", "F (N)", "note"};
    static const char *const r1[] = {"scm_smooth", "1.25", "a|b"};
    static const char *const r2[] = {"hunt_crossley", "-0.5", "±2%"};
    tc_table *t = tc_table_alloc(3, head);
    cr_assert_not_null(t);
    cr_assert_eq(tc_table_add_row(t, r1), TC_OK);
    cr_assert_eq(tc_table_add_row(t, r2), TC_OK);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_table_write(t, in_scratch("tab"), "Forces at 1 cm", "tab:forces", &err), TC_OK,
                 "%s", err.msg);
    tc_table_free(t);

    /* Markdown: the caption, then 4 table lines of exactly ncol + 1 unescaped pipes */
    char *md = slurp(in_scratch("tab.md"));
    cr_assert_not_null(md);
    cr_assert_eq(strncmp(md, "Forces at 1 cm\n\n", 16), 0, "caption paragraph first:\n%s", md);
    int lines = 0;
    for (char *l = md; *l;) {
        char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (len && l[0] == '|') {
            int pipes = count_char(l, len, '|');
            for (size_t i = 1; i < len; i++)
                pipes -= l[i] == '|' && l[i - 1] == '\\';
            cr_assert_eq(pipes, 4, "line '%.*s' has %d pipes", (int)len, l, pipes);
            lines++;
        }
        l += len + (nl != NULL);
    }
    cr_assert_eq(lines, 4, "header, rule and two rows:\n%s", md);
    cr_assert(strstr(md, "a\\|b"), "a '|' in a cell is escaped");
    cr_assert(strstr(md, "-:"), "the numeric column is right-aligned");
    free(md);

    /* LaTeX: booktabs rules, escaped cells and caption, the label */
    char *tex = slurp(in_scratch("tab.tex"));
    cr_assert_not_null(tex);
    cr_assert(strstr(tex, "\\begin{tabular}{lrl}"), "%s", tex);
    cr_assert(strstr(tex, "\\toprule") && strstr(tex, "\\midrule") && strstr(tex, "\\bottomrule"));
    cr_assert(strstr(tex, "\\caption{Forces at 1 cm}"));
    cr_assert(strstr(tex, "\\label{tab:forces}"));
    cr_assert(strstr(tex, "scm\\_smooth & 1.25 & a|b \\\\"), "%s", tex);
    cr_assert(strstr(tex, "$\\pm$2\\%"), "%s", tex);
    free(tex);
}

/* a character without a LaTeX form (✓, U+2713) in a label: a clear error naming the character
 * and the table, and neither file written, instead of a PDF that does not build */
Test(table, an_unmappable_character_is_an_error) {
    make_scratch();
    static const char *const head[] = {"method", "ok"};
    static const char *const r1[] = {"scm\xe2\x9c\x93", "1"};
    tc_table *t = tc_table_alloc(2, head);
    cr_assert_not_null(t);
    cr_assert_eq(tc_table_add_row(t, r1), TC_OK);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_table_write(t, in_scratch("bad"), "caption", "tab:bad", &err), TC_EINVAL);
    cr_assert(strstr(err.msg, "U+2713") && strstr(err.msg, "no LaTeX form"), "%s", err.msg);
    cr_assert(strstr(err.file, "bad"), "names the table: %s", err.file);
    cr_assert_null(slurp(in_scratch("bad.md")), "nothing written");
    cr_assert_null(slurp(in_scratch("bad.tex")), "nothing written");
    tc_table_free(t);
    char buf[64];
    memset(buf, 'x', sizeof buf);
    cr_assert_eq(tc_latex_escape(buf, sizeof buf, "a\xe2\x9c\x93"), TC_EINVAL);
    cr_assert_str_empty(buf, "a refused string leaves the buffer empty, not undefined");
}

/* text streamed into a section or the report never fails: a character without a LaTeX form (a
 * data path under /tmp/dé, a TMPDIR quoted in a warning, a check mark) is written as its code
 * point, a malformed byte as U+FFFD, and every mapped character as before (issue 33, finding 1:
 * the section's escaping wrote an uninitialised buffer) */
Test(table, streamed_latex_writes_every_character) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    tc_latex_put(f, "/tmp/d\xc3\xa9/traj_1.csv \xe2\x9c\x93 5% \xff!");
    fclose(f);
    cr_assert_str_eq(text, "/tmp/d\\texttt{U+00E9}/traj\\_1.csv \\texttt{U+2713} 5\\% "
                           "\\texttt{U+FFFD}!");
    free(text);
}

/* ---------- metrics files ---------- */

Test(metrics, write_read_round_trips_bitwise) {
    make_scratch();
    const double v[] = {0.1,
                        1e-300,
                        1.0 / 3.0,
                        -0.0,
                        5e-324,
                        DBL_MAX,
                        -DBL_MIN,
                        123456789.123456789,
                        2.0 / 3.0 * 1e-7,
                        0.0};
    const int nv = (int)(sizeof v / sizeof v[0]);
    tc_metrics ms, back;
    tc_metrics_init(&ms, "e0_test", "quick");
    for (int i = 0; i < nv; i++) {
        char name[32];
        snprintf(name, sizeof name, "m%d.value", i);
        tc_metrics_add(&ms, NULL, name, v[i], "N", fabs(v[nv - 1 - i]), 1.0 / 7.0, 0,
                       "doc with \"quotes\"");
    }
    tc_metrics_add(&ms, NULL, "not.a.number", NAN, "1", 0, 0, 0, "");
    tc_metrics_add(&ms, NULL, "infinite", -INFINITY, "1", 0, 0, 0, "");

    tc_error err;
    tc_error_clear(&err);
    const char *path = in_scratch("metrics.cfg");
    cr_assert_eq(tc_metrics_write(&ms, path, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_metrics_read(&back, path, &err), TC_OK, "%s:%d: %s", err.file, err.line,
                 err.msg);

    cr_assert_str_eq(back.experiment, "e0_test");
    cr_assert_str_eq(back.tier, "quick");
    cr_assert_eq(back.n, nv + 2);
    for (int i = 0; i < nv; i++) {
        cr_assert_str_eq(back.m[i].name, ms.m[i].name);
        cr_assert_str_eq(back.m[i].unit, "N");
        cr_assert_str_eq(back.m[i].doc, "doc with \"quotes\"");
        cr_assert_eq(memcmp(&back.m[i].value, &v[i], sizeof(double)), 0, "value %d: %.17g != %.17g",
                     i, back.m[i].value, v[i]);
        double t = fabs(v[nv - 1 - i]);
        cr_assert_eq(memcmp(&back.m[i].tol_abs, &t, sizeof(double)), 0);
        cr_assert_eq(back.m[i].tol_rel, 1.0 / 7.0);
    }
    cr_assert(isnan(back.m[nv].value));
    cr_assert(isinf(back.m[nv + 1].value) && back.m[nv + 1].value < 0);
    tc_metrics_free(&ms);
    tc_metrics_free(&back);
}

Test(metrics, hand_edited_float_wins_over_stale_exact_text) {
    make_scratch();
    tc_metrics ms, back;
    tc_metrics_init(&ms, "e0_test", "quick");
    tc_metrics_add(&ms, NULL, "third", 1.0 / 3.0, "1", 0, 0.01, 0, "");
    tc_error err;
    tc_error_clear(&err);
    const char *path = in_scratch("ref.cfg");
    cr_assert_eq(tc_metrics_write(&ms, path, &err), TC_OK, "%s", err.msg);

    /* replace the 15-digit float as a reviewer would; value_exact is left stale */
    char *s = slurp(path), *p = strstr(s, "0.333333333333333;");
    cr_assert_not_null(p, "%s", s);
    memcpy(p, "0.250000000000000;", 18);
    put_file(path, s);
    free(s);
    cr_assert_eq(tc_metrics_read(&back, path, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(back.m[0].value, 0.25);
    tc_metrics_free(&ms);
    tc_metrics_free(&back);
}

Test(metrics, many_metrics_methods_and_digests_round_trip) {
    make_scratch();
    tc_metrics ms, back;
    tc_metrics_init(&ms, "e0_test", "quick");
    ms.filtered = 1;
    tc_metrics_ran(&ms, "scm-a", NULL, NULL);
    tc_metrics_ran(&ms, "lcp", "OpenBLAS kernels per CPU", "OpenBLAS Zen");
    for (int i = 0; i < 1000; i++) {
        char name[32];
        snprintf(name, sizeof name, "m%d", i);
        tc_metrics_add(&ms, i % 2 ? "scm-a" : NULL, name, i, "1", 0, 0,
                       i % 3 ? 0 : TC_METRIC_TIMING, "");
    }
    tc_metrics_set_hash(&ms, "scm-a", "fnv1a64:0123456789abcdef", NULL, NULL);
    tc_metrics_set_hash(&ms, "lcp", "fnv1a64:fedcba9876543210", "OpenBLAS kernels per CPU",
                        "OpenBLAS Zen");
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("m.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_metrics_read(&back, in_scratch("m.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(back.n, 1000);
    cr_assert(back.filtered);
    for (int i = 0; i < 1000; i++) {
        cr_assert_eq(back.m[i].value, i);
        cr_assert_str_eq(back.m[i].method, i % 2 ? "scm-a" : "");
        cr_assert_eq(back.m[i].flags, i % 3 ? 0u : (unsigned)TC_METRIC_TIMING);
    }
    cr_assert_eq(back.nmethod, 2);
    cr_assert_str_eq(back.methods[1].label, "lcp");
    cr_assert_str_eq(back.methods[1].cpu, "OpenBLAS kernels per CPU");
    cr_assert_eq(back.nhash, 2);
    cr_assert_str_eq(back.hash[tc_metrics_find_hash(&back, "lcp")].hash,
                     "fnv1a64:fedcba9876543210");
    cr_assert_str_eq(back.hash[tc_metrics_find_hash(&back, "scm-a")].cpu, "");
    cr_assert_str_eq(back.hash[tc_metrics_find_hash(&back, "lcp")].cpu_kind, "OpenBLAS Zen");
    cr_assert_str_eq(back.methods[1].cpu_kind, "OpenBLAS Zen");
    tc_metrics_free(&ms);
    tc_metrics_free(&back);
}

Test(metrics, malformed_file_reports_line) {
    make_scratch();
    const char *path = in_scratch("bad.cfg");
    put_file(
        path,
        "experiment = \"e\";\ntier = \"quick\";\nmetrics = ( { name = \"a\"; value = ; } );\n");
    tc_metrics ms;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_read(&ms, path, &err), TC_EPARSE);
    cr_assert_eq(err.line, 3);
    cr_assert_str_eq(err.file, path);
}

/* ---------- the check ---------- */

/* out/<dir>/metrics.cfg for experiment e1, tier quick, metrics a and b */
static void write_run(const char *dir, double a, double b) {
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    /* the run's own tolerances are deliberately zero: the reference's must be used */
    tc_metrics_add(&ms, NULL, "a", a, "N", 0, 0, 0, "first");
    tc_metrics_add(&ms, NULL, "b.ratio", b, "1", 0, 0, 0, "second");
    char path[512];
    snprintf(path, sizeof path, "%s/out/%s/metrics.cfg", scratch, dir);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, path, &err), TC_OK, "%s", err.msg);
    tc_metrics_free(&ms);
}

/* ref/e1.quick.cfg: a = 2 within 0.25 + 0.125 * 2 = 0.5 (bounds 1.5 and 2.5, differences exact
 * in binary); b = 1 within 1e-12 */
static void write_ref(int with_b) {
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    tc_metrics_add(&ms, NULL, "a", 2.0, "N", 0.25, 0.125, 0, "first");
    if (with_b) tc_metrics_add(&ms, NULL, "b.ratio", 1.0, "1", 1e-12, 0, 0, "second");
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    tc_metrics_free(&ms);
}

/* run the check with options o (out_dir and ref_dir in the scratch directory); what it prints
 * goes to *text (malloc'd) */
static tc_status run_check_with(tc_check_opts o, char **text, tc_error *err) {
    char out[512], ref[512];
    snprintf(out, sizeof out, "%s/out", scratch);
    snprintf(ref, sizeof ref, "%s/ref", scratch);
    o.out_dir = out;
    o.ref_dir = ref;
    if (!o.history) o.history = "";
    if (!o.command) o.command = "touche run --tier quick e1";
    size_t len;
    FILE *f = open_memstream(text, &len);
    tc_error_clear(err);
    tc_status st = tc_check_run(&o, f, err);
    fclose(f);
    return st;
}

/* the check (or update) with the whole table printed */
static tc_status run_check(int update, const char *history, char **text, tc_error *err) {
    return run_check_with((tc_check_opts){.history = history, .update = update, .verbose = 1}, text,
                          err);
}

Test(check, passes_within_tolerance_from_the_reference) {
    make_scratch();
    write_ref(1);
    /* exactly on either bound passes */
    const double edge[] = {2.5, 1.5};
    for (int k = 0; k < 2; k++) {
        write_run("e1", edge[k], 1.0);
        char *text;
        tc_error err;
        cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s\n%s", err.msg, text);
        cr_assert(strstr(text, "PASS"), "%s", text);
        cr_assert_null(strstr(text, "FAIL"), "%s", text);
        free(text);
    }
}

Test(check, fails_just_outside_tolerance) {
    make_scratch();
    write_ref(1);
    const double outside[] = {nextafter(2.5, INFINITY), nextafter(1.5, -INFINITY)};
    for (int k = 0; k < 2; k++) {
        write_run("e1", outside[k], 1.0);
        char *text;
        tc_error err;
        cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK, "%.17g should fail:\n%s", outside[k],
                     text);
        cr_assert(strstr(text, "FAIL") && strstr(text, "outside tolerance"), "%s", text);
        free(text);
    }
}

Test(check, fails_for_nan) {
    make_scratch();
    write_ref(1);
    write_run("e1", 2.0, NAN);
    char *text;
    tc_error err;
    cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK);
    cr_assert(strstr(text, "not finite"), "%s", text);
    free(text);
}

Test(check, new_metrics_are_listed_not_failures_and_lost_ones_fail) {
    make_scratch();
    write_run("e1", 2.0, 1.0);
    char *text;
    tc_error err;

    /* no reference file at all: everything is new, which is not a regression */
    mkdir(in_scratch("ref"), 0755);
    cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s", err.msg);
    cr_assert(strstr(text, "NEW") && strstr(text, "no reference file"), "%s", text);
    cr_assert(strstr(text, "touche check --update-new"), "%s", text);
    free(text);

    /* a reference without metric b */
    write_ref(0);
    cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s", err.msg);
    cr_assert(strstr(text, "a metric the reference does not have"), "%s", text);
    free(text);

    /* a metric the run no longer produces */
    write_ref(1);
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    tc_metrics_add(&ms, NULL, "a", 2.0, "N", 0, 0, 0, "first");
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK);
    tc_metrics_free(&ms);
    cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK);
    cr_assert(strstr(text, "missing from the run"), "%s", text);
    free(text);
}

/* out/e1/metrics.cfg with methods a and b (b's metric and digest given), filtered or not */
static void write_methods_run(int with_b, int filtered, const char *hash_a) {
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    ms.filtered = filtered;
    tc_metrics_ran(&ms, "a", NULL, NULL);
    tc_metrics_add(&ms, "a", "a.F", 1.0, "N", 0.1, 0, 0, "");
    tc_metrics_set_hash(&ms, "a", hash_a, NULL, NULL);
    if (with_b) {
        tc_metrics_ran(&ms, "b", "a BLAS", "BLAS Haswell");
        tc_metrics_add(&ms, "b", "b.F", 2.0, "N", 0.1, 0, 0, "");
        tc_metrics_set_hash(&ms, "b", "fnv1a64:000000000000000b", "a BLAS", "BLAS Haswell");
    }
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK, "%s",
                 err.msg);
    tc_metrics_free(&ms);
}

/* the run's digest of b changed, on a CPU of the given kind */
static void set_b_digest(const char *kind) {
    tc_metrics ms;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_read(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK, "%s",
                 err.msg);
    tc_metrics_set_hash(&ms, "b", "fnv1a64:00000000000000bb", "a BLAS", kind);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK, "%s",
                 err.msg);
    tc_metrics_free(&ms);
}

/* the reference from a run with methods a and b */
static void write_methods_ref(void) {
    write_methods_run(1, 0, "fnv1a64:000000000000000a");
    char *text;
    tc_error err;
    cr_assert_eq(run_check(1, "", &text, &err), TC_OK, "%s", err.msg);
    free(text);
}

Test(check, methods_left_out_by_a_filter_are_not_run_not_missing) {
    make_scratch();
    write_methods_ref();
    char *text;
    tc_error err;
    /* b left out on purpose: SKIP; without the filter flag: missing */
    write_methods_run(0, 1, "fnv1a64:000000000000000a");
    cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s\n%s", err.msg, text);
    cr_assert(strstr(text, "SKIP") && strstr(text, "method not run"), "%s", text);
    free(text);
    write_methods_run(0, 0, "fnv1a64:000000000000000a");
    cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK, "%s", text);
    free(text);
    /* --update refuses a filtered run (it would drop b's references) */
    write_methods_run(0, 1, "fnv1a64:000000000000000a");
    cr_assert_eq(run_check(1, "", &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(text, "refused") && strstr(text, "--methods"), "%s", text);
    free(text);
}

Test(check, a_changed_digest_fails_unless_the_method_depends_on_the_cpu) {
    make_scratch();
    write_methods_ref();
    char *text;
    tc_error err;
    write_methods_run(1, 0, "fnv1a64:00000000000000aa");
    cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(text, "results changed"), "%s", text);
    free(text);
    /* b's digest differs and b depends on the CPU: on another CPU kind its metrics decide, on
     * the same kind as the reference run it is a change like any other */
    write_methods_run(1, 0, "fnv1a64:000000000000000a");
    set_b_digest("BLAS Prescott");
    cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s\n%s", err.msg, text);
    cr_assert(strstr(text, "CPU") && strstr(text, "BLAS Prescott") && strstr(text, "BLAS Haswell"),
              "%s", text);
    free(text);
    set_b_digest("BLAS Haswell");
    cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(text, "same CPU kind"), "%s", text);
    free(text);
}

Test(check, update_new_adds_only_what_the_reference_lacks) {
    make_scratch();
    write_methods_run(0, 0, "fnv1a64:000000000000000a");
    char *text;
    tc_error err;
    cr_assert_eq(run_check(1, "", &text, &err), TC_OK, "%s", err.msg);
    free(text);
    /* the run now has method b, and a's metric moved: update-new adds b, keeps a's reference */
    write_methods_run(1, 0, "fnv1a64:000000000000000a");
    tc_metrics ms;
    cr_assert_eq(tc_metrics_read(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK);
    ms.m[tc_metrics_find(&ms, "a.F")].value = 1.05;
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK);
    tc_metrics_free(&ms);
    tc_check_opts o = {.out_dir = in_scratch("out"),
                       .ref_dir = in_scratch("ref"),
                       .history = "",
                       .command = "test",
                       .update_new = 1};
    tc_error_clear(&err);
    cr_assert_eq(tc_check_run(&o, NULL, &err), TC_OK, "%s", err.msg);
    tc_metrics ref;
    cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK);
    cr_assert_eq(ref.m[tc_metrics_find(&ref, "a.F")].value, 1.0, "existing entries stay");
    cr_assert_eq(ref.m[tc_metrics_find(&ref, "b.F")].value, 2.0, "new ones are added");
    cr_assert_geq(tc_metrics_find_hash(&ref, "b"), 0);
    cr_assert_geq(tc_metrics_find_method(&ref, "b"), 0);
    tc_metrics_free(&ref);
}

/* ---------- digests of result files ---------- */

/* the digests of dir's results for methods a, b (and c, which may have no results) under spec,
 * into hex[3] (a, b, shared) */
static void digests(const tc_results_file *spec, char hex[3][32]) {
    tc_metrics ms;
    tc_metrics_init(&ms, "e0", "quick");
    tc_metrics_ran(&ms, "a", NULL, NULL);
    tc_metrics_ran(&ms, "b", NULL, NULL);
    tc_metrics_ran(&ms, "c", NULL, NULL);
    tc_metrics_add(&ms, "a", "a.x", 1.5, "1", 0, 0, 0, "");
    tc_metrics_add(&ms, "b", "b.t", 9.0, "s", 0, 0, TC_METRIC_TIMING, "");
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_results_hash(in_scratch("r"), spec, &ms, &err), TC_OK, "%s", err.msg);
    const char *who[3] = {"a", "b", ""};
    for (int i = 0; i < 3; i++)
        snprintf(hex[i], 32, "%s", ms.hash[tc_metrics_find_hash(&ms, who[i])].hash);
    tc_metrics_free(&ms);
}

Test(hash, each_method_sees_only_its_own_results) {
    make_scratch();
    cr_assert_eq(mkdir(in_scratch("r"), 0755), 0);
    static const tc_results_file spec[] = {
        {"cols.csv", TC_RESULTS_COLUMNS, NULL},  {"rows.csv", TC_RESULTS_ROWS, "wall_s"},
        {"f_*.csv", TC_RESULTS_FILES, NULL},     {"blocks.csv", TC_RESULTS_BLOCKS, NULL},
        {"shared.csv", TC_RESULTS_SHARED, NULL}, {NULL, 0, NULL}};
    put_file(in_scratch("r/cols.csv"), "y,a,b\n0,1,2\n1,3,4\n");
    put_file(in_scratch("r/rows.csv"), "label,x,wall_s\na,1,0.5\nb,2,0.7\n");
    put_file(in_scratch("r/f_a.csv"), "x\n1\n");
    put_file(in_scratch("r/f_b.csv"), "x\n2\n");
    put_file(in_scratch("r/blocks.csv"), "# k,v; one block per method: a b\n1,1\n\n\n1,2\n");
    put_file(in_scratch("r/shared.csv"), "z\n7\n");
    char h0[3][32], h[3][32];
    digests(spec, h0);
    cr_assert_str_neq(h0[0], h0[1]);
    /* timing columns, timing metrics and comment lines change nothing */
    put_file(in_scratch("r/rows.csv"), "label,x,wall_s\na,1,99\nb,2,98\n");
    put_file(in_scratch("r/blocks.csv"),
             "# k,v (new words); one block per method: a b\n1,1\n\n\n1,2\n");
    digests(spec, h);
    for (int i = 0; i < 3; i++)
        cr_assert_str_eq(h[i], h0[i]);
    /* a new method c changes no digest of a, b or the experiment */
    put_file(in_scratch("r/cols.csv"), "y,a,b,c\n0,1,2,5\n1,3,4,6\n");
    put_file(in_scratch("r/rows.csv"), "label,x,wall_s\na,1,0.5\nb,2,0.7\nc,3,0.1\n");
    put_file(in_scratch("r/f_c.csv"), "x\n3\n");
    put_file(in_scratch("r/blocks.csv"), "# one block per method: a b c\n1,1\n\n\n1,2\n\n\n1,3\n");
    digests(spec, h);
    cr_assert_str_eq(h[0], h0[0]);
    cr_assert_str_eq(h[1], h0[1]);
    cr_assert_str_eq(h[2], h0[2]);
    /* any change of one method's value changes its digest only */
    put_file(in_scratch("r/cols.csv"), "y,a,b\n0,1,2\n1,3,4.0000001\n");
    put_file(in_scratch("r/rows.csv"), "label,x,wall_s\na,1,0.5\nb,2,0.7\n");
    remove(in_scratch("r/f_c.csv"));
    put_file(in_scratch("r/blocks.csv"), "# k,v; one block per method: a b\n1,1\n\n\n1,2\n");
    digests(spec, h);
    cr_assert_str_eq(h[0], h0[0]);
    cr_assert_str_neq(h[1], h0[1]);
    cr_assert_str_eq(h[2], h0[2]);
    put_file(in_scratch("r/cols.csv"), "y,a,b\n0,1,2\n1,3,4\n");
    put_file(in_scratch("r/shared.csv"), "z\n8\n");
    digests(spec, h);
    cr_assert_str_eq(h[0], h0[0]);
    cr_assert_str_eq(h[1], h0[1]);
    cr_assert_str_neq(h[2], h0[2]);
}

Test(check, update_then_check_passes_with_provenance) {
    make_scratch();
    write_run("e1", 1.0 / 3.0, 1e-300);
    char *text;
    tc_error err;
    cr_assert_eq(run_check(1, "", &text, &err), TC_OK, "%s\n%s", err.msg, text);
    free(text);

    /* the reference holds the same values and says where it came from */
    char *ref = slurp(in_scratch("ref/e1.quick.cfg"));
    cr_assert_not_null(ref);
    cr_assert(strstr(ref, "provenance"), "%s", ref);
    cr_assert(strstr(ref, "touche run --tier quick e1"), "%s", ref);
    cr_assert(strstr(ref, "revision") && strstr(ref, "host") && strstr(ref, "generated"));
    cr_assert(strstr(ref, "touche_version = \"0.1.0\""), "%s", ref);
    free(ref);
    tc_metrics back;
    cr_assert_eq(tc_metrics_read(&back, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s",
                 err.msg);
    cr_assert_eq(back.m[0].value, 1.0 / 3.0);
    cr_assert_eq(back.m[1].value, 1e-300);
    tc_metrics_free(&back);

    /* and the same outputs now pass, even with zero tolerance */
    cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s\n%s", err.msg, text);
    free(text);
}

Test(check, update_refuses_non_finite_values) {
    make_scratch();
    write_run("e1", NAN, 1.0);
    char *text;
    tc_error err;
    /* the refusal reaches the user as a failure of the command (it once ended silently with
     * exit 0); the finite metric is recorded, the other is not */
    cr_assert_eq(run_check(1, "", &text, &err), TC_ECHECK);
    cr_assert(strstr(err.msg, "refused"), "%s", err.msg);
    cr_assert(strstr(text, "refused") && strstr(text, "a is not finite"), "%s", text);
    free(text);
    tc_metrics ref;
    cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_lt(tc_metrics_find(&ref, "a"), 0);
    cr_assert_geq(tc_metrics_find(&ref, "b.ratio"), 0);
    tc_metrics_free(&ref);
}

Test(check, history_gets_one_line_per_metric) {
    make_scratch();
    write_run("e1", 2.0, 1.0);
    write_ref(1);
    const char *hist = in_scratch("hist/history.tsv");
    char *text;
    tc_error err;
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(run_check(0, hist, &text, &err), TC_OK, "%s", err.msg);
        free(text);
    }

    /* a header, then 2 runs x 2 metrics, 8 tab-separated fields each */
    char *s = slurp(hist);
    cr_assert_not_null(s);
    cr_assert_eq(
        strncmp(s, "time\trevision\texperiment\ttier\tmetric\tvalue\treference\tstatus\n", 60), 0,
        "%s", s);
    int lines = 0;
    for (char *l = s; *l; lines++) {
        char *nl = strchr(l, '\n');
        cr_assert_not_null(nl);
        cr_assert_eq(count_char(l, (size_t)(nl - l), '\t'), 7, "%.*s", (int)(nl - l), l);
        if (lines > 0) cr_assert(strstr(l, "\te1\tquick\t") && strstr(l, "\tPASS"));
        l = nl + 1;
    }
    cr_assert_eq(lines, 1 + 2 * 2, "%s", s);
    free(s);
}

/* out/e1/metrics.cfg and ref/e1.quick.cfg with n metrics m0..m<n-1> = 1 (tolerance 0.5) */
static void write_many(int n) {
    for (int k = 0; k < 2; k++) {
        tc_metrics ms;
        tc_metrics_init(&ms, "e1", "quick");
        for (int i = 0; i < n; i++) {
            char name[32];
            snprintf(name, sizeof name, "m%d", i);
            tc_metrics_add(&ms, NULL, name, 1.0, "1", 0.5, 0, 0, "one of many");
        }
        tc_error err;
        tc_error_clear(&err);
        cr_assert_eq(
            tc_metrics_write(&ms, in_scratch(k ? "ref/e1.quick.cfg" : "out/e1/metrics.cfg"), &err),
            TC_OK, "%s", err.msg);
        tc_metrics_free(&ms);
    }
}

/* four checks at once append to one history, five times each: every line whole, none lost (issue
 * 33, finding 8: lines written a buffer at a time tore where two checks met). No .timeout here
 * or on the other long tests of this file: two Criterion timeouts running at once leak 48 bytes
 * in libcriterion, which LeakSanitizer reports (meson's timeout still applies) */
Test(check, concurrent_checks_append_whole_lines) {
    make_scratch();
    write_many(400);
    const char *hist = in_scratch("history.tsv");
    pid_t kid[4];
    for (int p = 0; p < 4; p++) {
        kid[p] = fork();
        cr_assert_geq(kid[p], 0);
        if (kid[p] == 0) {
            for (int k = 0; k < 5; k++) {
                char *text;
                tc_error err;
                if (run_check(0, hist, &text, &err) != TC_OK) _exit(1);
                free(text);
            }
            _exit(0);
        }
    }
    for (int p = 0; p < 4; p++) {
        int ws;
        cr_assert_eq(waitpid(kid[p], &ws, 0), kid[p]);
        cr_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "check %d failed", p);
    }
    tc_history h;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_history_read(&h, hist, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(h.nskipped, 0, "%d lines torn, first: %s", h.nskipped, h.skipped[0].msg);
    cr_expect_eq(h.n, 4 * 5 * 400, "%d lines", h.n);
    tc_history_free(&h);
}

/* a full disk while the history is appended to: the file stays as it was, and the check says so
 * (issue 33, finding 8: a cut line was left, and every later `touche history` refused the file).
 * The disk fills at 2 kB beyond the file's size: a file-size limit, with SIGXFSZ ignored */
Test(check, a_full_disk_leaves_the_history_as_it_was) {
    make_scratch();
    write_many(400);
    const char *hist = in_scratch("history.tsv");
    char *text;
    tc_error err;
    cr_assert_eq(run_check(0, hist, &text, &err), TC_OK, "%s", err.msg);
    free(text);
    char *before = slurp(hist);
    cr_assert_not_null(before);
    pid_t kid = fork();
    cr_assert_geq(kid, 0);
    if (kid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = {(rlim_t)strlen(before) + 2048, (rlim_t)strlen(before) + 2048};
        setrlimit(RLIMIT_FSIZE, &lim);
        tc_status st = run_check(0, hist, &text, &err);
        _exit(st == TC_EIO && strstr(err.msg, "the file is as it was") ? 0 : 1);
    }
    int ws;
    cr_assert_eq(waitpid(kid, &ws, 0), kid);
    cr_expect(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "the check did not report the failed append");
    char *after = slurp(hist);
    cr_assert_not_null(after);
    cr_expect_str_eq(after, before, "the history changed");
    free(before);
    free(after);
}

/* metric names that would forge a history row (a tab or a newline) are refused, read or written
 * (issue 33, finding 8) */
Test(check, metric_names_that_would_forge_history_rows_are_refused) {
    make_scratch();
    put_file(in_scratch("m.cfg"), "experiment = \"e1\";\ntier = \"quick\";\nmetrics = (\n"
                                  "  { name = \"a\"; value = 1.0; },\n"
                                  "  { name = \"b\\tquick\\tforged\"; value = 2.0; }\n);\n");
    tc_metrics ms;
    tc_error err;
    tc_error_clear(&err);
    cr_expect_eq(tc_metrics_read(&ms, in_scratch("m.cfg"), &err), TC_EPARSE);
    cr_expect_eq(err.line, 5, "%s", err.msg);
    cr_expect(strstr(err.msg, "may hold only"), "%s", err.msg);
    tc_metrics_free(&ms);
    /* a name given twice would be judged against one reference value */
    put_file(in_scratch("m.cfg"),
             "experiment = \"e1\";\ntier = \"quick\";\nmetrics = (\n"
             "  { name = \"a\"; value = 1.0; },\n  { name = \"a\"; value = 2.0; }\n);\n");
    tc_error_clear(&err);
    cr_expect_eq(tc_metrics_read(&ms, in_scratch("m.cfg"), &err), TC_EPARSE);
    cr_expect(strstr(err.msg, "a second metric of this name"), "%s", err.msg);
    tc_metrics_free(&ms);
    tc_metrics_init(&ms, "e1", "quick");
    tc_metrics_add(&ms, NULL, "a\nb", 1.0, "1", 0, 0, 0, "forged");
    tc_error_clear(&err);
    cr_expect_eq(tc_metrics_write(&ms, in_scratch("w.cfg"), &err), TC_EINVAL);
    cr_expect_not(tc_file_readable(in_scratch("w.cfg")));
    tc_metrics_free(&ms);
}

/* a run with 100,000 metrics checked against its reference: every one found (the lookup is by
 * name, not a scan: 60,000 took 24 s before, issue 33 finding 8) */
Test(check, a_hundred_thousand_metrics_all_found) {
    make_scratch();
    write_many(100000);
    char *text;
    tc_error err;
    cr_assert_eq(run_check_with((tc_check_opts){.history = ""}, &text, &err), TC_OK, "%s", err.msg);
    cr_expect(strstr(text, "metrics: 100000 pass"), "%.2000s", text);
    free(text);
}

Test(check, nothing_to_check_is_not_found) {
    make_scratch();
    cr_assert_eq(mkdir(in_scratch("out"), 0755), 0);
    char *text;
    tc_error err;
    cr_assert_eq(run_check(0, "", &text, &err), TC_ENOTFOUND);
    free(text);
}

/* ---------- the check: timings apart, failures first, causes, failed runs ---------- */

/* out/e1/metrics.cfg (or ref/e1.quick.cfg): method m with accuracy metric m.acc, timings m.step_s
 * (a larger value is slower) and m.speedup (a larger value is faster), a digest, the parameters
 * params, the setting scene.dt = dt, and runs with `failed` of them failed */
static void write_m(const char *where, double acc, double step_s, double speedup,
                    const char *params, const char *dt, int failed) {
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    tc_metrics_ran(&ms, "m", NULL, NULL);
    tc_metrics_method_info(&ms, "m", "model/rk4", params, 3, failed,
                           failed ? "diverged: body 'block' at 2e+07 m/s" : "");
    tc_metrics_setting_add(&ms, "scene.dt", dt);
    tc_metrics_add(&ms, "m", "m.acc", acc, "m", 0, 0.01, 0, "an accuracy metric");
    tc_metrics_add(&ms, "m", "m.step_s", step_s, "s", 0, 0.9, TC_METRIC_TIMING, "a step time");
    tc_metrics_add(&ms, "m", "m.speedup", speedup, "1", 0, 0.9,
                   TC_METRIC_TIMING | TC_METRIC_HIGHER_FASTER, "a speed-up");
    tc_metrics_set_hash(
        &ms, "m", acc == 1.0 ? "fnv1a64:0000000000000001" : "fnv1a64:0000000000000002", NULL, NULL);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch(where), &err), TC_OK, "%s", err.msg);
    tc_metrics_free(&ms);
}

/* the first line of text that starts with two spaces (the first reported entry) */
static const char *first_entry(const char *text) {
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, "  ", 2)) return l;
    return "";
}

Test(check, timings_never_fail_and_failures_come_first) {
    make_scratch();
    write_m("ref/e1.quick.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 0);
    char *text;
    tc_error err;
    /* timings 10x off either way (slower and faster) pass and are listed apart */
    const double step[] = {0.1, 0.001}, up[] = {0.25, 50.0};
    for (int k = 0; k < 2; k++) {
        write_m("out/e1/metrics.cfg", 1.0, step[k], up[k], "k=1", "0.001", 0);
        cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_OK, "%s\n%s", err.msg,
                     text);
        const char *tim = strstr(text, "\ntimings");
        cr_assert_not_null(tim, "%s", text);
        cr_assert(strstr(tim, "m.step_s") && strstr(tim, "m.speedup") && strstr(tim, "TIME"), "%s",
                  text);
        cr_assert(strstr(tim, k ? "faster" : "slower"), "%s", text);
        cr_assert_null(strstr(text, "FAIL"), "%s", text);
        cr_assert_null(strstr(text, "SLOW"), "%s", text);
        free(text);
    }
    /* the same timings with one accuracy metric outside its tolerance: that line comes first */
    write_m("out/e1/metrics.cfg", 1.05, 0.1, 0.25, "k=1", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_ECHECK, "%s", text);
    const char *first = first_entry(text);
    cr_assert(!strncmp(first, "  FAIL", 6) && strstr(first, "m.acc") < strchr(first, '\n'),
              "first entry is not the failure:\n%s", text);
    cr_assert_lt(strstr(text, "m.acc"), strstr(text, "per experiment"), "%s", text);
    cr_assert_lt(strstr(text, "per experiment"), strstr(text, "m.step_s"), "%s", text);
    free(text);
    /* --timings: a slowdown beyond tolerance fails (either sense), a speed-up does not */
    write_m("out/e1/metrics.cfg", 1.0, 0.1, 5.0, "k=1", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){.timings = 1}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(first_entry(text), "SLOW") && strstr(first_entry(text), "m.step_s"), "%s",
              text);
    free(text);
    write_m("out/e1/metrics.cfg", 1.0, 0.01, 0.25, "k=1", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){.timings = 1}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(first_entry(text), "m.speedup"), "%s", text);
    free(text);
    write_m("out/e1/metrics.cfg", 1.0, 0.001, 50.0, "k=1", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){.timings = 1}, &text, &err), TC_OK, "%s", text);
    free(text);
}

Test(check, a_changed_parameter_is_named_as_the_likely_cause) {
    make_scratch();
    write_m("ref/e1.quick.cfg", 1.0, 0.01, 5.0, "k=100000 n=1.5", "0.001", 0);
    char *text;
    tc_error err;
    /* one parameter default changed, and the results with it */
    write_m("out/e1/metrics.cfg", 1.2, 0.01, 5.0, "k=120000 n=1.5", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(text, "likely cause: m.k changed from 100000 to 120000"), "%s", text);
    cr_assert_null(strstr(text, "m.n "), "an unchanged parameter is not named:\n%s", text);
    free(text);
    /* a script setting too */
    write_m("out/e1/metrics.cfg", 1.2, 0.01, 5.0, "k=100000 n=1.5", "0.002", 0);
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(text, "setting scene.dt changed from 0.001 to 0.002"), "%s", text);
    free(text);
    /* nothing recorded changed: the check says so instead of guessing */
    write_m("out/e1/metrics.cfg", 1.2, 0.01, 5.0, "k=100000 n=1.5", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert_null(strstr(text, "likely cause"), "%s", text);
    cr_assert(strstr(text, "no recorded parameter or setting of e1 changed"), "%s", text);
    free(text);
}

Test(check, more_failed_runs_than_the_reference_fail) {
    make_scratch();
    write_m("ref/e1.quick.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 0);
    write_m("out/e1/metrics.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 2);
    char *text;
    tc_error err;
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(first_entry(text), "runs of m: 2 of 3 failed (first: diverged"), "%s", text);
    free(text);
    /* a reference that had as many failed runs: no failure */
    write_m("ref/e1.quick.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 2);
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_OK, "%s", text);
    free(text);
}

Test(check, an_update_never_records_a_method_whose_runs_failed) {
    make_scratch();
    char *text;
    tc_error err;
    /* a new method whose runs failed, one of its metrics not finite: nothing of it is recorded,
     * the update says why and fails */
    write_m("out/e1/metrics.cfg", NAN, 0.01, 5.0, "k=1", "0.001", 3);
    cr_assert_eq(run_check_with((tc_check_opts){.update_new = 1}, &text, &err), TC_ECHECK, "%s",
                 text);
    cr_assert(strstr(text, "refused") && strstr(text, "method m: 3 of 3 runs failed (first: "
                                                      "diverged"),
              "%s", text);
    tc_metrics ref;
    if (tc_file_readable(in_scratch("ref/e1.quick.cfg"))) {
        cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s",
                     err.msg);
        cr_assert_lt(tc_metrics_find_method(&ref, "m"), 0);
        cr_assert_eq(ref.n, 0);
        cr_assert_lt(tc_metrics_find_hash(&ref, "m"), 0);
        tc_metrics_free(&ref);
    }
    free(text);
    /* --update keeps the old reference's entries of such a method */
    write_m("ref/e1.quick.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 0);
    write_m("out/e1/metrics.cfg", 7.0, 0.01, 5.0, "k=1", "0.001", 3);
    cr_assert_eq(run_check_with((tc_check_opts){.update = 1}, &text, &err), TC_ECHECK, "%s", text);
    free(text);
    cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(ref.m[tc_metrics_find(&ref, "m.acc")].value, 1.0);
    cr_assert_str_eq(ref.hash[tc_metrics_find_hash(&ref, "m")].hash, "fnv1a64:0000000000000001");
    cr_assert_eq(ref.methods[tc_metrics_find_method(&ref, "m")].failed, 0);
    tc_metrics_free(&ref);
    /* an explicit override records it, loudly, and succeeds */
    cr_assert_eq(run_check_with((tc_check_opts){.update = 1, .accept_failed = 1}, &text, &err),
                 TC_OK, "%s\n%s", err.msg, text);
    cr_assert(strstr(text, "WARNING") && strstr(text, "3 of 3 runs failed"), "%s", text);
    free(text);
    cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(ref.m[tc_metrics_find(&ref, "m.acc")].value, 7.0);
    tc_metrics_free(&ref);
}

Test(check, update_new_adds_the_parameters_an_older_reference_lacks) {
    make_scratch();
    /* an older reference: the method without parameters, run counts or settings */
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    tc_metrics_ran(&ms, "m", NULL, NULL);
    tc_metrics_add(&ms, "m", "m.acc", 1.0, "m", 0, 0.01, 0, "");
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    tc_metrics_free(&ms);
    write_m("out/e1/metrics.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 0);
    char *text;
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_OK, "%s", text);
    free(text);
    cr_assert_eq(run_check_with((tc_check_opts){.update_new = 1}, &text, &err), TC_OK, "%s", text);
    free(text);
    tc_metrics ref;
    cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    const tc_metrics_method *m = &ref.methods[tc_metrics_find_method(&ref, "m")];
    cr_assert_str_eq(m->spec, "model/rk4");
    cr_assert_str_eq(m->params, "k=1");
    cr_assert_eq(m->runs, 3);
    cr_assert_eq(ref.nsetting, 1);
    cr_assert_eq(ref.m[tc_metrics_find(&ref, "m.acc")].value, 1.0);
    tc_metrics_free(&ref);
}

Test(metrics, parameters_runs_and_settings_round_trip) {
    make_scratch();
    write_m("m.cfg", 1.0, 0.01, 5.0, "k=100000 n=1.5", "0.001", 1);
    tc_metrics ms;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_read(&ms, in_scratch("m.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_str_eq(ms.methods[0].spec, "model/rk4");
    cr_assert_str_eq(ms.methods[0].params, "k=100000 n=1.5");
    cr_assert_eq(ms.methods[0].runs, 3);
    cr_assert_eq(ms.methods[0].failed, 1);
    cr_assert(strstr(ms.methods[0].failed_reason, "diverged"));
    cr_assert_eq(ms.nsetting, 1);
    cr_assert_str_eq(ms.setting[0].key, "scene.dt");
    cr_assert_str_eq(ms.setting[0].value, "0.001");
    cr_assert_eq(ms.m[tc_metrics_find(&ms, "m.speedup")].flags,
                 TC_METRIC_TIMING | TC_METRIC_HIGHER_FASTER);
    cr_assert_eq(ms.m[tc_metrics_find(&ms, "m.step_s")].flags, TC_METRIC_TIMING);
    tc_metrics_free(&ms);
    /* more failed runs than runs is an error naming the line */
    char *txt = slurp(in_scratch("m.cfg"));
    char *p = strstr(txt, "failed = 1;");
    cr_assert_not_null(p, "%s", txt);
    memcpy(p, "failed = 9;", 11);
    put_file(in_scratch("bad.cfg"), txt);
    free(txt);
    cr_assert_eq(tc_metrics_read(&ms, in_scratch("bad.cfg"), &err), TC_EPARSE);
    cr_assert(err.line > 0 && strstr(err.msg, "failed"), "%s", err.msg);
    tc_metrics_free(&ms);
}

/* ---------- figures ---------- */

Test(plot, renders_png_and_pdf) {
    if (!tc_plot_available()) cr_skip_test("gnuplot not on PATH");
    make_scratch();
    const char *tpl = in_scratch("t.gp");
    put_file(tpl, "set title ttl\nplot sin(x) * scale + 0 title ttl\n");
    tc_plot_var vars[] = {{"ttl", "it's a test"}, {"scale", "2"}};
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_plot_render(tpl, vars, 2, in_scratch("fig/f"), &err), TC_OK, "%s", err.msg);

    /* both files, by their magic bytes, and no temps left */
    char *png = slurp(in_scratch("fig/f.png")), *pdf = slurp(in_scratch("fig/f.pdf"));
    cr_assert_not_null(png);
    cr_assert_not_null(pdf);
    cr_assert_eq(memcmp(png, "\x89PNG", 4), 0);
    cr_assert_eq(memcmp(pdf, "%PDF", 4), 0);
    free(png);
    free(pdf);
    cr_assert_eq(count_named(in_scratch("fig"), ".tmp."), 0);
}

Test(plot, broken_template_points_at_the_log) {
    if (!tc_plot_available()) cr_skip_test("gnuplot not on PATH");
    make_scratch();
    char tpl[512];
    snprintf(tpl, sizeof tpl, "%s", in_scratch("bad.gp"));
    put_file(tpl, "plot sin(x\n");
    tc_error err;
    tc_error_clear(&err);
    cr_assert_neq(tc_plot_render(tpl, NULL, 0, in_scratch("g"), &err), TC_OK);
    cr_assert(strstr(err.msg, in_scratch("g.log")), "message does not name the log: %s", err.msg);
    cr_assert_not(tc_file_readable(in_scratch("g.png")));
    cr_assert_eq(count_named(scratch, ".tmp."), 0);

    /* a variable name that would be code is refused */
    tc_plot_var bad[] = {{"x;system('true')", "1"}};
    tc_error_clear(&err);
    cr_assert_eq(tc_plot_render(tpl, bad, 1, in_scratch("h"), &err), TC_EINVAL);
}

/* ---------- the report ---------- */

Test(report, assembles_sections_in_order) {
    make_scratch();
    /* no paper/ in this source dir: report.md is written, and the missing PDF is an error */
    setenv("TOUCHE_SOURCE_DIR", scratch, 1);
    cr_assert_eq(mkdir(in_scratch("e1"), 0755), 0);
    put_file(in_scratch("e1/section.md"), "## E1\n\n![fig](e1/fig.png)");
    /* a user's own script's directory comes after the known ones */
    cr_assert_eq(mkdir(in_scratch("mine"), 0755), 0);
    put_file(in_scratch("mine/section.md"), "## Mine\n");
    const tc_report_entry names[] = {{"e1", "Sphere profiles (E1)"}, {"e2", "T-pushing (E2)"}};
    tc_error err;
    tc_error_clear(&err);
    cr_redirect_stderr();
    tc_status st = tc_report_write(scratch, names, 2, &err);
    if (tc_have_program("pdflatex"))
        cr_assert(st == TC_EIO && strstr(err.msg, "PDF's source is missing"), "%d %s", st, err.msg);
    else
        cr_assert(st == TC_EUNSUP && strstr(err.msg, "pdflatex not found"), "%d %s", st, err.msg);
    /* asked for report.md only: no error */
    setenv("TOUCHE_NO_PDF", "1", 1);
    cr_assert_eq(tc_report_write(scratch, names, 2, &err), TC_OK, "%s", err.msg);
    unsetenv("TOUCHE_NO_PDF");

    char *s = slurp(in_scratch("report.md"));
    cr_assert_not_null(s);
    cr_assert_eq(strncmp(s, "# touche reproduction report\n", 29), 0, "%s", s);
    cr_assert(strstr(s, tc_revision()), "%s", s);
    char *e1 = strstr(s, "<!-- e1 -->\n## E1\n\n![fig](e1/fig.png)\n");
    char *e2 = strstr(s, "<!-- e2: no section.md");
    char *mine = strstr(s, "<!-- mine -->\n## Mine");
    cr_assert(e1 && e2 && mine && e1 < e2 && e2 < mine, "%s", s);
    free(s);
    /* the PDF's list: each section when it exists, else "Not run." under its heading */
    s = slurp(in_scratch("experiments.tex"));
    cr_assert_not_null(s);
    cr_assert(strstr(s, "\\IfFileExists{e2/section.tex}{\\input{e2/"
                        "section.tex}}{\\section{T-pushing (E2)}Not run.}"),
              "%s", s);
    cr_assert(strstr(s, "mine/section.tex"), "%s", s);
    free(s);
}

/* a PDF that does not build is an error naming the log and LaTeX's message; report.md stays */
Test(report, a_failed_pdf_is_an_error_not_a_warning) {
    if (!tc_have_program("pdflatex")) cr_skip_test("pdflatex not on PATH");
    make_scratch();
    setenv("TOUCHE_SOURCE_DIR", scratch, 1);
    cr_assert_eq(mkdir(in_scratch("paper"), 0755), 0);
    put_file(in_scratch("paper/touche.tex"),
             "\\documentclass{article}\\begin{document}\\undefinedmacro\\end{document}\n");
    const tc_report_entry names[] = {{"e1", "E1"}};
    tc_error err;
    tc_error_clear(&err);
    cr_redirect_stderr();
    cr_assert_eq(tc_report_write(scratch, names, 1, &err), TC_EENGINE);
    cr_assert(strstr(err.msg, "Undefined control sequence"), "%s", err.msg);
    cr_assert(strstr(err.file, "paper/latex.log"), "%s", err.file);
    cr_assert(tc_file_readable(in_scratch("report.md")));
    cr_assert_not(tc_file_readable(in_scratch("paper/touche.pdf")));
}

/* without pdflatex on the PATH the report is incomplete, and says how to get the PDF */
Test(report, a_missing_pdflatex_is_an_error) {
    make_scratch();
    setenv("TOUCHE_SOURCE_DIR", scratch, 1);
    const char *path = getenv("PATH");
    char *saved = path ? strdup(path) : NULL;
    setenv("PATH", scratch, 1);
    const tc_report_entry names[] = {{"e1", "E1"}};
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_report_write(scratch, names, 1, &err);
    if (saved) {
        setenv("PATH", saved, 1);
        free(saved);
    }
    cr_assert_eq(st, TC_EUNSUP, "%s", err.msg);
    cr_assert(strstr(err.msg, "pdflatex not found") && strstr(err.msg, "TOUCHE_NO_PDF"), "%s",
              err.msg);
    cr_assert(tc_file_readable(in_scratch("report.md")));
}

/* ---------- method styles ---------- */

/* one method, one style, whichever figure and position: mujoco's colour in two label lists;
 * touche's methods told apart; no colour too light to see on white */
Test(style, a_method_keeps_its_style_across_figures) {
    char c1[256], d1[64], c2[256], d2[64];
    cr_assert_eq(tc_plot_styles("scm-sharp pfc mujoco", c1, sizeof c1, d1, sizeof d1), TC_OK);
    cr_assert_eq(tc_plot_styles("mujoco points", c2, sizeof c2, d2, sizeof d2), TC_OK);
    cr_expect(!strncmp(c1 + 16, c2, 7), "mujoco: '%s' against '%s'", c1, c2);
    static const char *const known[] = {
        "mujoco",     "scm",        "scm-medium",     "scm-sharp",      "hunt-crossley", "pfc",
        "penalty-dp", "penalty-mp", "multi-point-r1", "multi-point-se", "rigid",         "lcp",
        "rigid-vp",   "points",     "single-level",   "bilevel",        "bullet",        "ode"};
    const int n = sizeof known / sizeof *known;
    char col[32][8];
    int dash[32];
    for (int i = 0; i < n; i++) {
        tc_plot_style(known[i], col[i], &dash[i]);
        unsigned r, g, b;
        cr_assert_eq(sscanf(col[i] + 1, "%2x%2x%2x", &r, &g, &b), 3, "%s", col[i]);
        double lum = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        cr_expect_lt(lum, 0.7, "%s's colour %s is too light", known[i], col[i]);
        for (int j = 0; j < i; j++)
            cr_expect(strcmp(col[i], col[j]) || dash[i] != dash[j], "%s and %s look alike",
                      known[i], known[j]);
    }
    /* a label touche does not know gets the same style every time */
    char a[8], b[8];
    int da, db;
    tc_plot_style("my-new-model", a, &da);
    tc_plot_style("my-new-model", b, &db);
    cr_expect(!strcmp(a, b) && da == db);
}

/* every template that draws methods (the experiments' own and plots/) takes their styles from
 * touche, none keeps its own palette */
Test(style, templates_use_the_one_style_table) {
    const char *src = getenv("TOUCHE_SOURCE_DIR");
    char pattern[2][1100];
    snprintf(pattern[0], sizeof pattern[0], "%s/plots/*.gp", src);
    snprintf(pattern[1], sizeof pattern[1], "%s/experiments/*/*.gp", src);
    glob_t g;
    cr_assert_eq(glob(pattern[0], 0, NULL, &g), 0, "%s", pattern[0]);
    cr_assert_eq(glob(pattern[1], GLOB_APPEND, NULL, &g), 0, "%s", pattern[1]);
    int checked = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *path = g.gl_pathv[i], *name = strrchr(path, '/') + 1;
        char *t = slurp(path);
        cr_assert_not_null(t, "%s", path);
        /* a template with a line or point per method (a panel per method needs no colour) */
        if ((strstr(t, "with lines") || strstr(t, "with points") ||
             strstr(t, "with linespoints")) &&
            (strstr(t, "word(labels") || strstr(t, "word(colors"))) {
            cr_expect(strstr(t, "word(colors") && strstr(t, "word(dashes"), "%s: no method styles",
                      name);
            cr_expect_null(strstr(t, "lc k+1"), "%s colours methods by position", name);
            checked++;
        }
        cr_expect_null(strstr(t, "colors ="), "%s sets its own palette", name);
        free(t);
    }
    globfree(&g);
    cr_expect_geq(checked, 7, "templates that draw methods: %d", checked);
}

/* ---------- the history of checks ---------- */

#define HIST_HEAD "time\trevision\texperiment\ttier\tmetric\tvalue\treference\tstatus\n"

/* three checks of one experiment: a metric that drifts 20 %, one that stays, a digest; the table
 * gives first, last and change, and the figure is drawn */
Test(history, a_drift_shows_in_the_table_and_figure) {
    make_scratch();
    put_file(in_scratch("h.tsv"),
             HIST_HEAD "2026-01-01T00:00:00Z\tr1\te\tquick\ta.x\t1\t1\tPASS\n"
                       "2026-01-01T00:00:00Z\tr1\te\tquick\tb.y\t5\t5\tPASS\n"
                       "2026-01-01T00:00:00Z\tr1\te\tquick\tdigest:a\tnan\tnan\tPASS\n"
                       "2026-01-02T00:00:00Z\tr2\te\tquick\ta.x\t1.1\t1\tPASS\n"
                       "2026-01-02T00:00:00Z\tr2\te\tquick\tb.y\t5\t5\tPASS\n"
                       "2026-01-03T00:00:00Z\tr3\te\tquick\ta.x\t1.2\t1\tFAIL\n"
                       "2026-01-03T00:00:00Z\tr3\te\tquick\tb.y\t5\t5\tPASS\n"
                       "2026-01-03T00:00:00Z\tr3\te\tquick\tdigest:a\tnan\tnan\tFAIL\n");
    tc_history h;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_history_read(&h, in_scratch("h.tsv"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(h.n, 8);
    int moved = -1;
    cr_redirect_stderr();
    cr_assert_eq(
        tc_history_report(&h, in_scratch("hist"), getenv("TOUCHE_SOURCE_DIR"), &moved, &err), TC_OK,
        "%s", err.msg);
    cr_expect_eq(moved, 1);
    char *md = slurp(in_scratch("hist/history.md"));
    cr_assert_not_null(md);
    cr_expect(strstr(md, "## e (quick): 3 checks, r1 to r3"), "%s", md);
    cr_expect(strstr(md, "| a.x | 3 | 1 | 1.2 | +0.2 | FAIL |"), "%s", md);
    cr_expect(strstr(md, "| b.y | 3 | 5 | 5 | +0 | PASS |"), "%s", md);
    cr_expect(strstr(md, "| digest:a | - | - | - | - | FAIL |"), "%s", md);
    free(md);
    cr_expect(tc_file_readable(in_scratch("hist/history_e_quick.png")));
    tc_history_free(&h);
}

/* a claim's text is judged by its characters, not by the length of its LaTeX: a note of 450
 * backslashes (7 kB of LaTeX) loads; a character without a LaTeX form does not */
Test(claims, long_escapes_load_and_unmapped_characters_do_not) {
    make_scratch();
    char note[451];
    memset(note, '\\', 450);
    note[450] = 0;
    for (int bad = 0; bad < 2; bad++) {
        char *text = malloc(4096);
        cr_assert_not_null(text);
        snprintf(text, 4096,
                 "claims = ( { id = \"E4.1\"; experiment = \"e4_penalty\"; paper = \"fig. 6\";\n"
                 "  claim = \"less\"; paper_value = \"less\"; note = \"%s%s\"; } );\n",
                 bad ? "\xe2\x9c\x93" : "", note); /* U+2713, no LaTeX form */
        /* libconfig's string escapes: every backslash doubled */
        char *esc = malloc(8192), *o = esc;
        for (const char *p = text; *p; p++) {
            if (*p == '\\') *o++ = '\\';
            *o++ = *p;
        }
        *o = 0;
        put_file(in_scratch("c.cfg"), esc);
        free(text);
        free(esc);
        tc_claims c;
        tc_error err;
        tc_error_clear(&err);
        tc_status st = tc_claims_load(&c, in_scratch("c.cfg"), &err);
        if (bad) {
            cr_expect_eq(st, TC_EINVAL);
            cr_expect(strstr(err.msg, "without a LaTeX form"), "%s", err.msg);
        } else {
            cr_expect_eq(st, TC_OK, "%s", err.msg);
            cr_expect_eq(c.n, 1);
        }
        tc_claims_free(&c);
    }
}

/* a history file that is not what `touche check` writes: the line and field named */
Test(history, bad_files_name_the_line_and_field) {
    make_scratch();
    static const struct {
        const char *text, *field;
        int line;
    } bad[] = {
        {"time\tvalue\n", "", 1},
        {HIST_HEAD "t\tr\te\tquick\ta.x\t1\t1\n", "", 2},
        {HIST_HEAD "t\tr\te\tquick\ta.x\t1\t1\tPASS\nt\tr\te\tquick\ta.x\t1.5x\t1\tPASS\n", "value",
         3},
        {HIST_HEAD "t\tr\te\tquick\ta.x\t1\t1\tGOOD\n", "status", 2},
        {HIST_HEAD "t\tr\t\tquick\ta.x\t1\t1\tPASS\n", "experiment", 2},
        /* names that become the figures' file names (issue 33, finding 2: a crafted file wrote
         * /tmp/X_quick.png) */
        {HIST_HEAD "t\tr\t../../../tmp/X\tquick\ta.x\t1\t1\tPASS\n", "experiment", 2},
        {HIST_HEAD "t\tr\te\tq/../../y\ta.x\t1\t1\tPASS\n", "tier", 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        put_file(in_scratch("b.tsv"), bad[i].text);
        tc_history h;
        tc_error err;
        tc_error_clear(&err);
        if (bad[i].line == 1) {
            /* no header: not a history file */
            cr_expect_eq(tc_history_read(&h, in_scratch("b.tsv"), &err), TC_EINVAL, "case %zu", i);
            cr_expect_eq(err.line, 1, "case %zu: %s", i, err.msg);
            cr_expect_eq(h.n, 0);
        } else {
            /* a bad line is left out and named; the good ones are read (issue 33, finding 8: one
             * cut line made every later `touche history` exit 2) */
            cr_expect_eq(tc_history_read(&h, in_scratch("b.tsv"), &err), TC_OK, "case %zu: %s", i,
                         err.msg);
            cr_expect_eq(h.nskipped, 1, "case %zu", i);
            cr_expect_eq(h.skipped[0].line, bad[i].line, "case %zu: %s", i, h.skipped[0].msg);
            cr_expect_str_eq(h.skipped[0].param, bad[i].field, "case %zu: %s", i, h.skipped[0].msg);
            cr_expect_eq(h.n, bad[i].line - 2, "case %zu", i);
        }
        tc_history_free(&h);
    }
}

/* a line too long for any valid one, and a cut last line, are left out; the figure's data and
 * the table keep the rest, and the table says what was left out */
Test(history, malformed_lines_are_left_out_and_listed) {
    make_scratch();
    char *text = malloc(6000);
    cr_assert_not_null(text);
    snprintf(text, 6000, HIST_HEAD "t1\tr1\te\tquick\ta.x\t1\t1\tPASS\n");
    size_t len = strlen(text);
    memset(text + len, 'x', 3000);
    snprintf(text + len + 3000, 6000 - len - 3000,
             "\nt2\tr2\te\tquick\ta.x\t2\t1\tFAIL\nt3\tr3\te\tqu");
    put_file(in_scratch("h.tsv"), text);
    free(text);
    tc_history h;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_history_read(&h, in_scratch("h.tsv"), &err), TC_OK, "%s", err.msg);
    cr_expect_eq(h.n, 2);
    cr_expect_eq(h.nskipped, 2);
    cr_expect_eq(h.skipped[0].line, 3, "%s", h.skipped[0].msg);
    cr_expect(strstr(h.skipped[0].msg, "longer than"), "%s", h.skipped[0].msg);
    cr_expect_eq(h.skipped[1].line, 5, "%s", h.skipped[1].msg);
    int moved = -1;
    cr_assert_eq(tc_history_report(&h, in_scratch("hist"), NULL, &moved, &err), TC_OK, "%s",
                 err.msg);
    cr_expect_eq(moved, 1);
    char *md = slurp(in_scratch("hist/history.md"));
    cr_assert_not_null(md);
    cr_expect(strstr(md, "2 malformed lines of the history file left out"), "%s", md);
    cr_expect(strstr(md, "| a.x | 2 | 1 | 2 | +1 | FAIL |"), "%s", md);
    free(md);
    tc_history_free(&h);
}

/* 20,000 checks of 20,000 different metrics: memory grows with the lines, not with metrics times
 * checks (3.2 GB before, issue 33 finding 8); under a limit of 1 GiB more address space than now
 * (not under ASan, whose shadow needs the address space) */
Test(history, memory_grows_with_the_lines) {
    make_scratch();
    enum { N = 20000 };
    FILE *f = fopen(in_scratch("big.tsv"), "w");
    cr_assert_not_null(f);
    fputs(HIST_HEAD, f);
    for (int i = 0; i < N; i++)
        fprintf(f, "t%d\tr%d\te\tquick\tm%d\t%d\t1\tPASS\n", i, i, i, i + 1);
    fclose(f);
#ifndef __SANITIZE_ADDRESS__
    struct rlimit lim;
    getrlimit(RLIMIT_AS, &lim);
    FILE *st_f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (st_f && fscanf(st_f, "%lu", &pages) == 1) {
        lim.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 30);
        setrlimit(RLIMIT_AS, &lim);
    }
    if (st_f) fclose(st_f);
#endif
    tc_history h;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_history_read(&h, in_scratch("big.tsv"), &err), TC_OK, "%s", err.msg);
    int moved = -1;
    cr_assert_eq(tc_history_report(&h, in_scratch("hist"), NULL, &moved, &err), TC_OK, "%s",
                 err.msg);
    cr_expect_eq(moved, 0); /* each metric has one check: nothing moved */
    char *md = slurp(in_scratch("hist/history.md"));
    cr_assert_not_null(md);
    cr_expect(strstr(md, "## e (quick): 20000 checks, r0 to r19999"), "%.300s", md);
    cr_expect(strstr(md, "| m19999 | 1 | 20000 | 20000 | +0 | PASS |"));
    free(md);
    tc_history_free(&h);
}

/* a run's metrics.cfg whose experiment or tier would lead an update's reference file out of its
 * folder is refused when read, naming the file, line and key, and nothing is written (issue 33,
 * finding 2: `check --update` wrote <ref>/<experiment>.<tier>.cfg from a downloaded folder) */
Test(check, names_from_a_metrics_file_never_become_paths_outside) {
    make_scratch();
    mkdir(in_scratch("out"), 0755);
    mkdir(in_scratch("out/e1"), 0755);
    mkdir(in_scratch("ref"), 0755);
    static const char *const bad[][2] = {
        {"../../touche-i33-evil", "quick"}, {"e1", "quick/../../touche-i33-x"}, {"-e", "quick"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[256];
        snprintf(text, sizeof text, "experiment = \"%s\";\ntier = \"%s\";\nmetrics = ();\n",
                 bad[i][0], bad[i][1]);
        put_file(in_scratch("out/e1/metrics.cfg"), text);
        tc_metrics ms;
        tc_error err;
        tc_error_clear(&err);
        cr_expect_eq(tc_metrics_read(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_EINVAL,
                     "case %zu", i);
        cr_expect_str_eq(
            err.param,
            bad[i][0][0] && bad[i][0][0] != '-' && !strchr(bad[i][0], '.') ? "tier" : "experiment",
            "case %zu: %s", i, err.msg);
        cr_expect_gt(err.line, 0, "case %zu: %s", i, err.msg);
        tc_metrics_free(&ms);
        char *out = NULL;
        cr_expect_neq(run_check(1, "", &out, &err), TC_OK, "case %zu: the update is refused", i);
        free(out);
        /* where the reference would have gone: beside the scratch folder */
        char esc[600];
        snprintf(esc, sizeof esc, "%s/../touche-i33-evil.quick.cfg", scratch);
        cr_expect_neq(access(esc, F_OK), 0, "case %zu: %s written", i, esc);
        snprintf(esc, sizeof esc, "%s/../touche-i33-x.cfg", scratch);
        cr_expect_neq(access(esc, F_OK), 0, "case %zu: %s written", i, esc);
    }
    /* a file that names no tier names no reference either */
    put_file(in_scratch("out/e1/metrics.cfg"), "experiment = \"e1\";\nmetrics = ();\n");
    char *out = NULL;
    tc_error err;
    cr_expect_eq(run_check(1, "", &out, &err), TC_EINVAL, "%s", out);
    cr_expect_str_eq(err.param, "tier", "%s", err.msg);
    free(out);
}

/* a check that cannot check fails: no reference folder, a reference that is there but cannot be
 * read, a tolerance that would pass anything (issue 33, finding 9: each of these passed) */
Test(check, a_check_that_cannot_check_fails) {
    make_scratch();
    write_run("e1", 2.0, 1.0);
    char *text = NULL;
    tc_error err;
    /* no ref/ at all */
    cr_expect_eq(run_check(0, "", &text, &err), TC_ENOTFOUND, "%s", text);
    cr_expect(strstr(err.msg, "no reference folder"), "%s", err.msg);
    free(text);
    /* a dangling link where the reference should be */
    mkdir(in_scratch("ref"), 0755);
    cr_assert_eq(symlink(in_scratch("nowhere.cfg"), in_scratch("ref/e1.quick.cfg")), 0);
    cr_expect_eq(run_check(0, "", &text, &err), TC_EIO, "%s", text);
    cr_expect(strstr(err.msg, "cannot be read"), "%s", err.msg);
    free(text);
    unlink(in_scratch("ref/e1.quick.cfg"));
    /* tolerances that pass anything or nothing are refused when read, naming the metric */
    static const char *const tol[] = {"tol_abs_exact = \"inf\";", "tol_abs = 0.5; tol_rel = -1.0;",
                                      "tol_rel_exact = \"nan\";"};
    for (size_t i = 0; i < sizeof tol / sizeof *tol; i++) {
        char cfg[400];
        snprintf(cfg, sizeof cfg,
                 "experiment = \"e1\";\ntier = \"quick\";\nmetrics = ( { name = \"a\"; "
                 "value = 2.0; %s } );\n",
                 tol[i]);
        put_file(in_scratch("ref/e1.quick.cfg"), cfg);
        cr_expect_eq(run_check(0, "", &text, &err), TC_EPARSE, "case %zu: %s %s", i, err.msg, text);
        cr_expect(strstr(err.msg, "tolerance"), "case %zu: %s", i, err.msg);
        cr_expect_str_eq(err.param, "a", "case %zu", i);
        free(text);
    }
}

/* ---------- paper claims ---------- */

/* 1 when an experiment declares the paper it reproduces: its .paper is set and does not say
 * "none" (an experiment of one's own: .paper = "none: ...", docs/adding-an-experiment.md) */
static int declares_paper(const tc_experiment_type *t) {
    const char *p = t->paper;
    return p && p[0] && !(!strncmp(p, "none", 4) && (p[4] == 0 || p[4] == ':'));
}

/* paper/claims.cfg: it loads, every registered experiment that declares a paper has claims, and
 * the ids are in order of experiment (E<n> for the n-th) */
Test(claims, the_claims_file_covers_every_experiment) {
    char path[1200];
    snprintf(path, sizeof path, "%s/paper/claims.cfg", getenv("TOUCHE_SOURCE_DIR"));
    tc_claims c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_claims_load(&c, path, &err), TC_OK, "%s:%d: %s", err.file, err.line, err.msg);
    int papers = 0;
    for (int i = 0; tc_experiment_at(i); i++) {
        const tc_experiment_type *t = tc_experiment_at(i);
        int n = 0;
        char prefix[8];
        snprintf(prefix, sizeof prefix, "E%d.", i + 1);
        for (int k = 0; k < c.n; k++)
            if (!strcmp(c.c[k].experiment, t->name)) {
                n++;
                cr_expect(!strncmp(c.c[k].id, prefix, strlen(prefix)), "%s belongs to %s",
                          c.c[k].id, t->name);
            }
        /* a paper's experiment needs its claims; one of one's own may have none */
        if (!declares_paper(t)) continue;
        papers++;
        cr_expect_gt(
            n, 0,
            "no claim of %s in paper/claims.cfg, but it declares a paper (.paper = \"%s\"): "
            "add the paper's claims (docs/adding-an-experiment.md, \"Claims\"), or set "
            ".paper = \"none: ...\" when it reproduces no paper",
            t->name, t->paper);
    }
    /* the built-in experiments reproduce papers, so the check above is not empty */
    cr_expect_gt(papers, 0);
    tc_claims_free(&c);
}

/* which experiments declare a paper: a citation does, NULL, "" and "none..." do not */
Test(claims, an_experiment_without_a_paper_needs_no_claims) {
    tc_experiment_type t = {.name = "e8_mine", .paper = "Beker et al. 2025, fig. 5"};
    cr_expect(declares_paper(&t));
    t.paper = "none: an example";
    cr_expect(!declares_paper(&t));
    t.paper = "none";
    cr_expect(!declares_paper(&t));
    t.paper = "";
    cr_expect(!declares_paper(&t));
    t.paper = NULL;
    cr_expect(!declares_paper(&t));
    t.paper = "Nonet 2024, fig. 2";
    cr_expect(declares_paper(&t));
}

/* a claim judged from metrics: inside its range reproduced, inside "partly" partly, else not;
 * a ratio of two metrics; a metric the run lacks "not run"; no metric "not yet implemented" */
Test(claims, verdicts_follow_the_ranges) {
    make_scratch();
    put_file(
        in_scratch("c.cfg"),
        "claims = (\n"
        "{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"1\";\n"
        "  metric = \"a.x\"; reproduced = [0.5, 1.5]; partly = [0.0, 3.0]; note = \"n\"; },\n"
        "{ id = \"E1.2\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"1\";\n"
        "  metric = \"a.x\"; over = \"b.y\"; reproduced = [3.0, 5.0]; note = \"n\"; },\n"
        "{ id = \"E1.3\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"1\";\n"
        "  metric = \"c.z\"; reproduced = [0.0, 1.0]; note = \"n\"; },\n"
        "{ id = \"E1.4\"; experiment = \"\"; paper = \"p\"; claim = \"c\"; paper_value = \"1\"; "
        "note = \"n\"; },\n"
        "{ id = \"E1.5\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"f\";\n"
        "  figure = \"fig_x\"; note = \"n\"; }\n"
        ");\n");
    tc_claims c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_claims_load(&c, in_scratch("c.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(c.n, 5);
    tc_metrics ms;
    tc_metrics_init(&ms, "e", "quick");
    tc_metrics_add(&ms, "a", "a.x", 2.0, "m", 0, 0, 0, "");
    tc_metrics_add(&ms, "b", "b.y", 0.5, "m", 0, 0, 0, "");
    double v;
    cr_expect_eq(tc_claim_judge(&c.c[0], &ms, &v), TC_VERDICT_PARTLY);
    cr_expect_eq(v, 2.0);
    cr_expect_eq(tc_claim_judge(&c.c[1], &ms, &v), TC_VERDICT_REPRODUCED);
    cr_expect_eq(v, 4.0);
    cr_expect_eq(tc_claim_judge(&c.c[2], &ms, &v), TC_VERDICT_NOT_RUN);
    cr_expect_eq(tc_claim_judge(&c.c[3], &ms, &v), TC_VERDICT_MISSING);
    /* a claim shown by a figure: "figure only" when its experiment ran, else not run */
    cr_expect_eq(tc_claim_judge(&c.c[4], &ms, &v), TC_VERDICT_FIGURE);
    cr_expect_eq(tc_claim_judge(&c.c[4], NULL, &v), TC_VERDICT_NOT_RUN);
    cr_expect_eq(tc_claim_judge(&c.c[0], NULL, &v), TC_VERDICT_NOT_RUN);
    ms.m[0].value = 1.0;
    cr_expect_eq(tc_claim_judge(&c.c[0], &ms, &v), TC_VERDICT_REPRODUCED);
    ms.m[0].value = 7.0;
    cr_expect_eq(tc_claim_judge(&c.c[0], &ms, &v), TC_VERDICT_NOT);
    /* a method that ran and whose runs failed (its metric NaN) is not "not run" (issue 33,
     * finding 13) */
    ms.m[0].value = NAN;
    cr_expect_eq(tc_claim_judge(&c.c[0], &ms, &v), TC_VERDICT_FAILED);
    cr_expect_str_eq(tc_verdict_str(TC_VERDICT_FAILED), "its runs failed");
    /* the section lists experiment e's four claims, each with its verdict */
    ms.m[0].value = 2.0;
    char *md = NULL, *tex = NULL;
    size_t nmd, ntex;
    FILE *fm = open_memstream(&md, &nmd), *ft = open_memstream(&tex, &ntex);
    cr_expect_eq(tc_claims_section(&c, "e", &ms, fm, ft), 4);
    fclose(fm);
    fclose(ft);
    cr_expect(strstr(md, "**Verdicts**") && strstr(md, "**partly reproduced** E1.1") &&
                  strstr(md, "**reproduced** E1.2") && strstr(md, "**not run** E1.3") &&
                  strstr(md, "**figure only** E1.5") && strstr(md, "ours: fig_x"),
              "%s", md);
    cr_expect(strstr(tex, "\\paragraph{Verdicts}"), "%s", tex);
    free(md);
    free(tex);
    tc_metrics_free(&ms);
    tc_claims_free(&c);
}

/* a rate is judged by its 95 % interval, and a claim by the tiers that can test it */
Test(claims, rates_by_their_interval_and_claims_by_their_tiers) {
    make_scratch();
    put_file(
        in_scratch("c.cfg"),
        "claims = (\n"
        "{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"0.1 "
        "%\";\n"
        "  metric = \"a.rate\"; trials = \"a.n\"; reproduced = [0.0, 0.01]; partly = [0.0, 0.05];\n"
        "  null = 0.5; null_is = \"a coin\"; note = \"n\"; },\n"
        "{ id = \"E1.2\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; paper_value = \"1\";\n"
        "  metric = \"a.x\"; reproduced = [0.5, 1.5]; tiers = [\"full\"]; note = \"n\"; }\n"
        ");\n");
    tc_claims c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_claims_load(&c, in_scratch("c.cfg"), &err), TC_OK, "%s", err.msg);
    tc_metrics ms;
    tc_metrics_init(&ms, "e", "quick");
    tc_metrics_add(&ms, "a", "a.rate", 0.0, "1", 0, 0, 0, "");
    tc_metrics_add(&ms, "a", "a.n", 72, "1", 0, 0, 0, "");
    tc_metrics_add(&ms, "a", "a.x", 1.0, "1", 0, 0, 0, "");
    /* 0 of 72 cannot tell 0.1 % from 4 %: its interval [0, 5.1 %] straddles the range's edge */
    tc_judgement j = tc_claim_judgement(&c.c[0], &ms);
    cr_expect_eq(j.verdict, TC_VERDICT_UNTESTABLE);
    cr_expect(j.ci_lo == 0 && fabs(j.ci_hi - 0.0507) < 1e-3, "[%g, %g]", j.ci_lo, j.ci_hi);
    /* 0 of 3,600 can: [0, 0.107 %] */
    ms.m[1].value = 3600;
    cr_expect_eq(tc_claim_judgement(&c.c[0], &ms).verdict, TC_VERDICT_REPRODUCED);
    /* 4 % of 3,600 is partly (inside [0, 5 %] only), 50 % of 100 is not */
    ms.m[0].value = 0.04;
    cr_expect_eq(tc_claim_judgement(&c.c[0], &ms).verdict, TC_VERDICT_PARTLY);
    ms.m[0].value = 0.5;
    ms.m[1].value = 100;
    cr_expect_eq(tc_claim_judgement(&c.c[0], &ms).verdict, TC_VERDICT_NOT);
    /* the null outcome of the rate (a coin) is judged as a point: not reproduced */
    cr_expect_eq(tc_claim_judge_null(&c.c[0]), TC_VERDICT_NOT);
    cr_expect_eq(tc_claim_judge_null(&c.c[1]), TC_VERDICT_COUNT);
    /* a full-tier claim is not testable at the quick tier, and judged at the full one */
    cr_expect_eq(tc_claim_judgement(&c.c[1], &ms).verdict, TC_VERDICT_UNTESTABLE);
    snprintf(ms.tier, sizeof ms.tier, "full");
    cr_expect_eq(tc_claim_judgement(&c.c[1], &ms).verdict, TC_VERDICT_REPRODUCED);
    tc_metrics_free(&ms);
    tc_claims_free(&c);
}

/* every claim that a metric judges declares its null outcome (a body that never moves, zero
 * force, the reference copied as the result), and none passes it: a claim that its null outcome
 * passes cannot fail */
Test(claims, no_claim_passes_its_null_outcome) {
    char path[1024];
    snprintf(path, sizeof path, "%s/paper/claims.cfg", getenv("TOUCHE_SOURCE_DIR"));
    tc_claims c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_claims_load(&c, path, &err), TC_OK, "%s:%d: %s", err.file, err.line, err.msg);
    int judged = 0;
    for (int i = 0; i < c.n; i++) {
        const tc_claim *q = &c.c[i];
        if (!q->metric[0]) continue;
        judged++;
        cr_expect(!isnan(q->null_value), "%s (line %d) has no null outcome", q->id, q->line);
        tc_verdict v = tc_claim_judge_null(q);
        cr_expect(v != TC_VERDICT_REPRODUCED && v != TC_VERDICT_PARTLY,
                  "%s (line %d) is %s by its null outcome (%s: %g)", q->id, q->line,
                  tc_verdict_str(v), q->null_is, q->null_value);
    }
    cr_expect_gt(judged, 15);
    tc_claims_free(&c);
}

/* every metric a claim reads (metric, over, trials) is one the experiment emits at a tier that
 * can test it, as its committed references record: a misspelt name would read "not run" forever
 * (issue 33, finding 13) */
Test(claims, every_claim_names_metrics_its_experiment_emits) {
    const char *src = getenv("TOUCHE_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/paper/claims.cfg", src);
    tc_claims c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_claims_load(&c, path, &err), TC_OK, "%s:%d: %s", err.file, err.line, err.msg);
    static const char *const tier[2] = {"quick", "full"};
    for (int i = 0; i < c.n; i++) {
        const tc_claim *q = &c.c[i];
        if (!q->metric[0]) continue;
        const char *names[3] = {q->metric, q->over, q->trials};
        for (int k = 0; k < 3; k++) {
            if (!names[k][0]) continue;
            int found = 0, tested = 0;
            for (int t = 0; t < 2; t++) {
                /* only the tiers the claim can be judged at */
                if (q->tiers[0] && !strstr(q->tiers, tier[t])) continue;
                tested++;
                tc_experiment_reference(NULL, q->experiment, tier[t], path, sizeof path);
                tc_metrics ms;
                tc_error_clear(&err);
                if (tc_metrics_read(&ms, path, &err) == TC_OK)
                    found += tc_metrics_find(&ms, names[k]) >= 0;
                tc_metrics_free(&ms);
            }
            cr_expect(tested && found == tested,
                      "%s (line %d): '%s' is in %d of the %d references "
                      "of %s it can be judged at",
                      q->id, q->line, names[k], found, tested, q->experiment);
        }
    }
    tc_claims_free(&c);
}

/* a bad claims file names file, line and key */
Test(claims, bad_files_name_the_line_and_key) {
    make_scratch();
    static const struct {
        const char *text, *key;
        int line;
    } bad[] = {
        {"claims = (\n{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = \"c\";\n "
         "paper_value = \"1\"; note = \"n\"; colour = 1; }\n);\n",
         "colour", 3},
        {"claims = (\n{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; "
         "paper_value = \"1\";\n metric = \"a\"; reproduced = [2.0, 1.0]; note = \"n\"; }\n);\n",
         "reproduced", 3},
        {"claims = (\n{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = \"c\"; "
         "paper_value = \"1\";\n metric = \"a\"; note = \"n\"; }\n);\n",
         "reproduced", 2},
        {"claims = (\n{ id = \"E1.1\"; experiment = \"e\"; paper = \"p\"; claim = "
         "\"c\\xe2\\x9c\\x93\"; paper_value = \"1\"; note = \"n\"; }\n);\n",
         "claim", 2},
        {"claims = (\n{ id = \"E1.1\"; experiment = \"\"; paper = \"p\"; claim = \"c\"; "
         "paper_value = \"1\";\n figure = \"f\"; note = \"n\"; }\n);\n",
         "figure", 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        put_file(in_scratch("b.cfg"), bad[i].text);
        tc_claims c;
        tc_error err;
        tc_error_clear(&err);
        cr_expect_eq(tc_claims_load(&c, in_scratch("b.cfg"), &err), TC_EINVAL, "case %zu", i);
        cr_expect_str_eq(err.param, bad[i].key, "case %zu: %s", i, err.msg);
        cr_expect_eq(err.line, bad[i].line, "case %zu: %s", i, err.msg);
        tc_claims_free(&c);
    }
}

/* ---------- progress ---------- */

Test(progress, ticks_from_threads_all_count) {
    tc_progress p;
    tc_progress_start(&p, "test", 20000);
    p.enabled = 1; /* exercise the redraw path even without a terminal */
    cr_redirect_stderr();
    double t0 = tc_wall_time();
#pragma omp parallel for
    for (int i = 0; i < 20000; i++)
        tc_progress_tick(&p);
    tc_progress_end(&p);
    cr_assert_eq(p.done, 20000);
    cr_assert_geq(tc_wall_time(), t0);
}
