/* SPDX-License-Identifier: MIT */
/* atomic output files, directories, PATH lookup and logged child processes */
#include "core/tc_fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---------- directories and paths ---------- */

tc_status tc_mkdir_p(const char *path, tc_error *err) {
    char buf[1024];
    if (!path || !path[0])
        return tc_error_set(err, TC_EINVAL, NULL, 0, NULL, "empty directory path");
    if ((size_t)snprintf(buf, sizeof buf, "%s", path) >= sizeof buf)
        return tc_error_set(err, TC_EINVAL, path, 0, NULL, "directory path too long: %s", path);

    /* create each prefix ending at a '/', then the whole path */
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char c = *p;
        *p = '\0';
        struct stat st;
        if (stat(buf, &st) != 0 && mkdir(buf, 0755) != 0 && errno != EEXIST)
            return tc_error_set(err, TC_EIO, buf, 0, NULL, "cannot create directory %s: %s", buf,
                                strerror(errno));
        if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
            return tc_error_set(err, TC_EIO, buf, 0, NULL,
                                "cannot create directory %s: a file of that name exists", buf);
        *p = c;
        if (c == '\0') break;
    }
    return TC_OK;
}

tc_status tc_mkdir_parent(const char *path, tc_error *err) {
    char dir[1024];
    if ((size_t)snprintf(dir, sizeof dir, "%s", path) >= sizeof dir)
        return tc_error_set(err, TC_EINVAL, path, 0, NULL, "path too long: %s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return TC_OK;
    *slash = '\0';
    return tc_mkdir_p(dir, err);
}

void tc_path_under(const char *dir, const char *path, char *buf, size_t n) {
    if (path[0] == '/' || !dir || !dir[0])
        snprintf(buf, n, "%s", path);
    else
        snprintf(buf, n, "%s/%s", dir, path);
}

tc_status tc_path_join(char *buf, size_t n, const char *a, const char *b) {
    /* an empty a, or one ending in '/', needs no separator */
    size_t la = strlen(a);
    const char *sep = (la == 0 || a[la - 1] == '/') ? "" : "/";
    int len = snprintf(buf, n, "%s%s%s", a, sep, b);
    return (len < 0 || (size_t)len >= n) ? TC_EINVAL : TC_OK;
}

int tc_files_equal(const char *a, const char *b) {
    if (!tc_file_readable(a) || !tc_file_readable(b)) return 0;
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    int same = f && g;
    char x[4096], y[4096];
    for (size_t n, m; same;) {
        n = fread(x, 1, sizeof x, f);
        m = fread(y, 1, sizeof y, g);
        same = n == m && !memcmp(x, y, n);
        if (n < sizeof x) break;
    }
    same = same && !ferror(f) && !ferror(g);
    if (f) fclose(f);
    if (g) fclose(g);
    return same;
}

int tc_file_readable(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

/* 1 if path is a regular file this process may execute */
static int is_executable(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int tc_find_program(const char *name, char *buf, size_t n) {
    /* a name with a slash is a path, not looked up on PATH */
    if (!name || !name[0]) return 0;
    if (strchr(name, '/')) {
        snprintf(buf, n, "%s", name);
        return is_executable(name);
    }
    /* try each PATH entry; an empty entry means the current directory */
    const char *path = getenv("PATH");
    if (!path) path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char dir[1024];
        snprintf(dir, sizeof dir, "%.*s", (int)len, len ? p : ".");
        if (tc_path_join(buf, n, dir, name) == TC_OK && is_executable(buf)) return 1;
        if (!end) return 0;
        p = end + 1;
    }
}

int tc_have_program(const char *name) {
    char buf[1280];
    return tc_find_program(name, buf, sizeof buf);
}

void tc_remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[1400];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(dir);
}

/* one entry of a tree being removed, deepest first */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path) != 0 && errno != ENOENT;
}

void tc_remove_tree(const char *path) {
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---------- staging directories ---------- */

#define STAGE_PREFIX ".touche-"
/* the suffix of an earlier output set moved aside by a swap without RENAME_EXCHANGE: the
 * stale-staging cleaner never removes it (it may be the only copy) */
#define STAGE_KEEP ".old"
/* the name a staging folder has between mkdtemp and its lock (the cleaner ignores it) */
#define STAGE_MAKING ".touche~"

/* the staging directories this process made: each one's last component and the name it takes
 * when it is renamed into place (the oldest entry goes when the table is full) */
#define STAGE_MAX 128
static struct {
    char comp[320], name[256];
    int lock;
} staged[STAGE_MAX];
static int nstaged;
static pthread_mutex_t staged_lock = PTHREAD_MUTEX_INITIALIZER;

tc_status tc_stage_dir(const char *root, const char *name, char *buf, size_t n, tc_error *err) {
    tc_status st = tc_mkdir_p(root, err);
    if (st) return st;
    /* made under a name the stale cleaner ignores, locked, then renamed to its own: the cleaner
     * never sees it unlocked */
    char tmp[1200];
    if ((size_t)snprintf(buf, n, "%s/" STAGE_PREFIX "%ld-%s-XXXXXX", root, (long)getpid(), name) >=
            n ||
        (size_t)snprintf(tmp, sizeof tmp, "%s/" STAGE_MAKING "%ld-%s-XXXXXX", root, (long)getpid(),
                         name) >= sizeof tmp)
        return tc_error_set(err, TC_EINVAL, root, 0, NULL, "output path too long: %s", root);
    if (!mkdtemp(tmp))
        return tc_error_set(err, TC_EIO, root, 0, NULL, "cannot create a directory in %s: %s", root,
                            strerror(errno));
    chmod(tmp, 0755);
    /* held for this process's life: the kernel releases it when the process ends, wherever it
     * ran (another PID namespace, container or host sharing the folder), and the stale cleaner
     * removes only a staging folder nobody holds */
    int lock = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    memcpy(buf + strlen(buf) - 6, tmp + strlen(tmp) - 6, 6);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0 ||
        renameat2(AT_FDCWD, tmp, AT_FDCWD, buf, RENAME_NOREPLACE) != 0) {
        int code = errno;
        if (lock >= 0) close(lock);
        rmdir(tmp);
        return tc_error_set(err, TC_EIO, root, 0, NULL, "cannot lock a directory in %s: %s", root,
                            strerror(code));
    }
    /* remembered, so that messages naming it can name root/name instead */
    const char *comp = strrchr(buf, '/') + 1;
    pthread_mutex_lock(&staged_lock);
    int k = nstaged++ % STAGE_MAX;
    /* the slot's older folder was put in place or removed long ago: its lock goes */
    if (nstaged > STAGE_MAX && staged[k].lock > 0) close(staged[k].lock);
    snprintf(staged[k].comp, sizeof staged[k].comp, "%s", comp);
    snprintf(staged[k].name, sizeof staged[k].name, "%s", name);
    staged[k].lock = lock;
    pthread_mutex_unlock(&staged_lock);
    return TC_OK;
}

tc_status tc_scratch_dir(const char *name, char *buf, size_t n, tc_error *err) {
    const char *tmp = getenv("TMPDIR");
    const char *root = tmp && *tmp ? tmp : "/tmp";
    tc_clean_stale(root);
    tc_status st = tc_stage_dir(root, name, buf, n, err);
    if (st) return st;
    /* it never becomes root/name: messages keep naming it as it is */
    const char *comp = strrchr(buf, '/') + 1;
    pthread_mutex_lock(&staged_lock);
    const int m = nstaged < STAGE_MAX ? nstaged : STAGE_MAX;
    for (int k = 0; k < m; k++)
        if (!strcmp(staged[k].comp, comp))
            snprintf(staged[k].name, sizeof staged[k].name, "%s", comp);
    pthread_mutex_unlock(&staged_lock);
    return TC_OK;
}

void tc_scratch_done(const char *dir) {
    /* its lock goes with it: a process making many scratch folders keeps no descriptors */
    const char *comp = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    pthread_mutex_lock(&staged_lock);
    const int m = nstaged < STAGE_MAX ? nstaged : STAGE_MAX;
    for (int k = 0; k < m; k++)
        if (staged[k].lock > 0 && !strcmp(staged[k].comp, comp)) {
            close(staged[k].lock);
            staged[k].lock = -1;
            staged[k].comp[0] = 0;
        }
    pthread_mutex_unlock(&staged_lock);
    tc_remove_tree(dir);
}

char *tc_unstage_text(const char *in, char *out, size_t n) {
    if (!n) return out;
    size_t o = 0;
    pthread_mutex_lock(&staged_lock);
    const int m = nstaged < STAGE_MAX ? nstaged : STAGE_MAX;
    for (const char *p = in; *p && o + 1 < n;) {
        /* a staging directory of this process: its final name instead */
        int hit = -1;
        if (!strncmp(p, STAGE_PREFIX, strlen(STAGE_PREFIX)))
            for (int k = 0; k < m && hit < 0; k++)
                if (staged[k].comp[0] && !strncmp(p, staged[k].comp, strlen(staged[k].comp)))
                    hit = k;
        if (hit < 0) {
            out[o++] = *p++;
            continue;
        }
        for (const char *q = staged[hit].name; *q && o + 1 < n;)
            out[o++] = *q++;
        p += strlen(staged[hit].comp);
    }
    pthread_mutex_unlock(&staged_lock);
    out[o] = 0;
    return out;
}

tc_status tc_unstage_file(const char *path, tc_error *err) {
    FILE *f = fopen(path, "rb");
    if (!f) return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot read %s", path);
    /* the whole file, then a copy with the names replaced (never longer) */
    size_t len = 0, cap = 1 << 16;
    char *text = malloc(cap), *out = NULL;
    for (size_t got; text && (got = fread(text + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (len + 1 == cap) {
            char *bigger = realloc(text, cap *= 2);
            if (!bigger) free(text);
            text = bigger;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!text) return tc_error_set(err, TC_ENOMEM, path, 0, NULL, "out of memory reading %s", path);
    text[len] = 0;
    /* nothing to rewrite (or a file with NUL bytes, left as it is) */
    if (bad || strlen(text) != len || !strstr(text, STAGE_PREFIX) || !(out = malloc(len + 1))) {
        free(text);
        return bad ? tc_error_set(err, TC_EIO, path, 0, NULL, "cannot read %s", path) : TC_OK;
    }
    tc_unstage_text(text, out, len + 1);
    free(text);
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, path, err);
    if (!st) {
        fputs(out, o.f);
        st = tc_outfile_commit(&o, err);
    }
    free(out);
    return st;
}

/* faults injected by the tests (tc_fs_inject): no RENAME_EXCHANGE, and the renames that fail */
static int inject_no_exchange, renames;
static unsigned inject_fail_mask;

void tc_fs_inject(int no_exchange, unsigned fail_mask) {
    inject_no_exchange = no_exchange;
    inject_fail_mask = fail_mask;
    renames = 0;
}

/* rename, failing where a test asks (EXDEV: as a file system that cannot) */
static int do_rename(const char *from, const char *to) {
    int k = renames++;
    if (k < 32 && (inject_fail_mask >> k) & 1u) {
        errno = EXDEV;
        return -1;
    }
    return rename(from, to);
}

tc_status tc_swap_dir(const char *stage, const char *dir, tc_error *err) {
    struct stat st;
    if (stat(dir, &st) != 0) {
        if (do_rename(stage, dir) == 0) return TC_OK;
        return tc_error_set(err, TC_EIO, dir, 0, NULL, "cannot move the outputs to %s: %s", dir,
                            strerror(errno));
    }
    /* both exist: exchange them atomically, then the old set (now at stage) goes */
    if (!inject_no_exchange && renameat2(AT_FDCWD, stage, AT_FDCWD, dir, RENAME_EXCHANGE) == 0) {
        tc_remove_tree(stage);
        return TC_OK;
    }
    /* a file system without RENAME_EXCHANGE (NFS, vfat, CIFS): move the old set aside first,
     * and back if the new one cannot take its place */
    char old[1200];
    snprintf(old, sizeof old, "%s" STAGE_KEEP, stage);
    if (do_rename(dir, old) != 0)
        return tc_error_set(err, TC_EIO, dir, 0, NULL,
                            "cannot replace %s: %s; the earlier outputs stay where they were", dir,
                            strerror(errno));
    if (do_rename(stage, dir) != 0) {
        int code = errno;
        if (do_rename(old, dir) == 0)
            return tc_error_set(err, TC_EIO, dir, 0, NULL,
                                "cannot replace %s: %s; the earlier outputs are back in place", dir,
                                strerror(code));
        /* the earlier set is whole, under a name no cleaner removes: say where */
        return tc_error_set(err, TC_EIO, dir, 0, NULL,
                            "cannot replace %s: %s, nor put the earlier outputs back: they are "
                            "whole in %s (move that folder to %s by hand); the new ones are in %s",
                            dir, strerror(code), old, dir, stage);
    }
    tc_remove_tree(old);
    return TC_OK;
}

int tc_clean_stale(const char *root) {
    DIR *d = opendir(root);
    if (!d) return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        long pid;
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, STAGE_PREFIX, strlen(STAGE_PREFIX)) ||
            sscanf(e->d_name + strlen(STAGE_PREFIX), "%ld-", &pid) != 1)
            continue;
        /* an earlier output set moved aside by a swap that could not finish: kept */
        if (len > strlen(STAGE_KEEP) && !strcmp(e->d_name + len - strlen(STAGE_KEEP), STAGE_KEEP))
            continue;
        /* nobody holds its lock: the process that made it is gone, wherever it ran (a PID
         * says nothing across namespaces and hosts) */
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", root, e->d_name);
        int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) continue;
        int held = flock(fd, LOCK_EX | LOCK_NB) != 0;
        if (!held) {
            tc_remove_tree(path);
            n++;
        }
        close(fd);
    }
    closedir(d);
    return n;
}

/* ---------- atomic output files ---------- */

tc_status tc_outfile_target(const char *path, tc_error *err) {
    /* only a regular file is ever replaced: a device (--timings /dev/null), a link, a folder or a
     * pipe at the path stays as it is, and the write is refused */
    struct stat sb;
    if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return tc_error_set(err, TC_EINVAL, path, 0, NULL,
                            "%s is %s, not a regular file: touche replaces only regular files "
                            "(name another path)",
                            path,
                            S_ISLNK(sb.st_mode)                          ? "a symbolic link"
                            : S_ISDIR(sb.st_mode)                        ? "a folder"
                            : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device"
                                                                         : "a special file");
    return TC_OK;
}

tc_status tc_outfile_open(tc_outfile *o, const char *path, tc_error *err) {
    memset(o, 0, sizeof *o);
    if ((size_t)snprintf(o->path, sizeof o->path, "%s", path) >= sizeof o->path)
        return tc_error_set(err, TC_EINVAL, path, 0, NULL, "output path too long: %s", path);

    tc_status st = tc_outfile_target(path, err);
    if (st) return st;

    /* the parent directory must exist for the temp file */
    tc_error e;
    tc_error_clear(&e);
    if (tc_mkdir_parent(path, &e) != TC_OK)
        return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot create %s: %s", path, e.msg);

    /* a unique temp name next to the final path, closed in spawned children */
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", path);
    int fd = mkostemp(o->tmp, O_CLOEXEC);
    if (fd < 0) {
        int code = errno;
        o->tmp[0] = '\0';
        return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot create %s: %s", path,
                            strerror(code));
    }

    /* mkstemp makes 0600; outputs are meant to be read by others */
    if (fchmod(fd, 0644) != 0 || !(o->f = fdopen(fd, "w"))) {
        int code = errno;
        close(fd);
        unlink(o->tmp);
        o->tmp[0] = '\0';
        return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot open %s: %s", path, strerror(code));
    }
    return TC_OK;
}

tc_status tc_outfile_commit(tc_outfile *o, tc_error *err) {
    if (!o->tmp[0])
        return tc_error_set(err, TC_EINVAL, o->path, 0, NULL, "%s is not open for writing",
                            o->path);

    /* flush to disk and catch any write error before the rename makes the file visible */
    int e = 0;
    if (o->f) {
        if (fflush(o->f) != 0 || ferror(o->f)) e = errno ? errno : EIO;
        if (!e && fsync(fileno(o->f)) != 0 && errno != EINVAL) e = errno;
        if (fclose(o->f) != 0 && !e) e = errno ? errno : EIO;
        o->f = NULL;
    }
    if (!e && rename(o->tmp, o->path) != 0) e = errno;

    /* on any failure the temp goes away and the old file stays */
    if (e) {
        unlink(o->tmp);
        o->tmp[0] = '\0';
        return tc_error_set(err, TC_EIO, o->path, 0, NULL, "writing %s failed: %s", o->path,
                            strerror(e));
    }
    o->tmp[0] = '\0';
    return TC_OK;
}

void tc_outfile_abort(tc_outfile *o) {
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = '\0';
}

/* ---------- child processes ---------- */

/* the last nlines lines of a text file into buf ("" if unreadable) */
static void file_tail(const char *path, int nlines, char *buf, size_t n) {
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) return;

    /* read the last few KiB; the tail of a log is all that matters */
    char tail[4096];
    long off = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        off = size > (long)sizeof tail - 1 ? size - (long)sizeof tail + 1 : 0;
    }
    fseek(f, off, SEEK_SET);
    size_t len = fread(tail, 1, sizeof tail - 1, f);
    fclose(f);
    tail[len] = '\0';

    /* drop trailing newlines, then walk back over nlines line breaks */
    while (len > 0 && (tail[len - 1] == '\n' || tail[len - 1] == '\r'))
        tail[--len] = '\0';
    size_t start = len;
    for (int k = 0; start > 0; start--)
        if (tail[start - 1] == '\n' && ++k == nlines) break;

    /* if that is still too long, keep its end: the error is usually on the last line */
    size_t keep = len - start;
    if (keep > n - 1) {
        start += keep - (n - 1);
        keep = n - 1;
    }
    memcpy(buf, tail + start, keep);
    buf[keep] = '\0';
}

/* environ with the NAME=value entries of env replacing or extending it (malloc'd array) */
static char **merged_env(const char *const *env) {
    size_t ne = 0, nx = 0;
    while (environ && environ[ne])
        ne++;
    while (env && env[nx])
        nx++;
    char **out = malloc((ne + nx + 1) * sizeof *out);
    if (!out) return NULL;

    /* keep inherited entries that env does not override */
    size_t k = 0;
    for (size_t i = 0; i < ne; i++) {
        int keep = 1;
        for (size_t j = 0; j < nx && keep; j++) {
            size_t len = strcspn(env[j], "=");
            if (strncmp(environ[i], env[j], len) == 0 && environ[i][len] == '=') keep = 0;
        }
        if (keep) out[k++] = environ[i];
    }
    for (size_t j = 0; j < nx; j++)
        out[k++] = (char *)env[j];
    out[k] = NULL;
    return out;
}

/* wait up to ms milliseconds for child pid to end (pfd: its pidfd, or -1: short sleeps);
 * 1 when it has ended (reaped into *ws), 0 when not yet, -1 on error */
static int wait_some(pid_t pid, int pfd, int ms, int *ws) {
    if (pfd >= 0) {
        /* a signal cuts the poll short: the interrupt is seen at once */
        struct pollfd q = {.fd = pfd, .events = POLLIN};
        poll(&q, 1, ms);
    }
    for (int slept = 0;; slept += 2) {
        pid_t r = waitpid(pid, ws, WNOHANG);
        if (r == pid) return 1;
        if (r < 0 && errno != EINTR) return -1;
        if (pfd >= 0 || slept >= ms) return 0;
        struct timespec t = {0, 2000000};
        nanosleep(&t, NULL);
    }
}

/* wait for child pid; on an interrupt (tc_interrupted) stop it (SIGTERM, then SIGKILL after 2 s)
 * and set *stopped. 0 when it has ended (*ws its wait status), -1 on error */
static int wait_child(pid_t pid, int *ws, int *stopped) {
    int pfd = (int)syscall(SYS_pidfd_open, pid, 0), r = 0;
    struct timespec t0 = {0, 0}, now;
    for (;;) {
        /* short slices: an interrupt stops the program within one */
        if ((r = wait_some(pid, pfd, 50, ws))) break;
        if (tc_interrupted() && !*stopped) {
            kill(pid, SIGTERM);
            clock_gettime(CLOCK_MONOTONIC, &t0);
            *stopped = 1;
        } else if (*stopped && !clock_gettime(CLOCK_MONOTONIC, &now) &&
                   now.tv_sec - t0.tv_sec > 2) {
            kill(pid, SIGKILL);
        }
    }
    if (pfd >= 0) close(pfd);
    return r < 0 ? -1 : 0;
}

tc_status tc_run_logged_status(const char *const *argv, const char *const *env, const char *cwd,
                               const char *log_path, int append, int *status, tc_error *err) {
    *status = -1;
    /* the log takes both output streams */
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
    int logfd = open(log_path, flags, 0644);
    if (logfd < 0)
        return tc_error_set(err, TC_EIO, log_path, 0, NULL, "cannot open log %s: %s", log_path,
                            strerror(errno));

    /* stdin from /dev/null, stdout and stderr to the log */
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, logfd, 1);
    posix_spawn_file_actions_adddup2(&fa, logfd, 2);
    if (cwd) posix_spawn_file_actions_addchdir_np(&fa, cwd);

    /* start it with the merged environment */
    char **envp = merged_env(env);
    pid_t pid;
    int rc = envp ? posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, envp) : ENOMEM;
    free(envp);
    posix_spawn_file_actions_destroy(&fa);
    close(logfd);
    if (rc != 0)
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL, "cannot run %s: %s", argv[0],
                            strerror(rc));

    /* wait, watching for an interrupt: then the program is stopped too */
    int ws, stopped = 0;
    if (wait_child(pid, &ws, &stopped) < 0)
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL, "waiting for %s: %s", argv[0],
                            strerror(errno));
    /* its exit status, or 128 + the signal that ended it (as a shell says) */
    *status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + (WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
    if (stopped)
        return tc_error_set(err, TC_EINTR, log_path, 0, NULL, "interrupted: %s stopped; see %s",
                            argv[0], log_path);
    return TC_OK;
}

tc_status tc_run_logged(const char *const *argv, const char *const *env, const char *cwd,
                        const char *log_path, int append, tc_error *err) {
    int ws;
    tc_status st = tc_run_logged_status(argv, env, cwd, log_path, append, &ws, err);
    if (st || ws == 0) return st;

    /* failure: say how it ended and quote the end of the log */
    char how[64], tail[384];
    snprintf(how, sizeof how, ws > 128 ? "exit status %d: 128 + a signal" : "exit status %d", ws);
    file_tail(log_path, 3, tail, sizeof tail);
    return tc_error_set(err, TC_EENGINE, log_path, 0, NULL, "%s failed (%s); see %s:\n%s", argv[0],
                        how, log_path, tail);
}

/* write all n bytes at fd's end (O_APPEND); 0 on success, else errno */
static int write_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return w < 0 ? errno : ENOSPC;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

tc_status tc_file_append_whole(const char *path, const char *header, const char *data, size_t n,
                               tc_error *err) {
    tc_status st = tc_outfile_target(path, err);
    if (!st) st = tc_mkdir_parent(path, err);
    if (st) return st;
    int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot append to %s: %s", path,
                            strerror(errno));
    /* one appender at a time; the size under the lock is what a failure restores */
    int e = 0, undone = 1;
    off_t size = -1;
    struct stat sb;
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            e = errno;
            break;
        }
    if (!e) e = fstat(fd, &sb) != 0 ? errno : !S_ISREG(sb.st_mode) ? EINVAL : 0;
    if (!e) size = sb.st_size;
    char last = '\n';
    if (!e && size > 0 && pread(fd, &last, 1, size - 1) != 1) e = errno ? errno : EIO;
    if (!e && size == 0 && header) e = write_all(fd, header, strlen(header));
    if (!e && size > 0 && last != '\n') e = write_all(fd, "\n", 1);
    if (!e) e = write_all(fd, data, n);
    /* undo a part-written append: nothing cut is left for the next reader */
    if (e && size >= 0) undone = ftruncate(fd, size) == 0;
    if (close(fd) != 0 && !e) {
        e = errno;
        undone = 0;
    }
    if (e)
        return tc_error_set(err, TC_EIO, path, 0, NULL, "appending to %s failed (%s); %s", path,
                            strerror(e),
                            undone ? "the file is as it was" : "the file may end in a cut line");
    return TC_OK;
}

tc_status tc_file_append(FILE *dst, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return TC_EIO;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;)
        fwrite(buf, 1, n, dst);
    fclose(f);
    return TC_OK;
}
