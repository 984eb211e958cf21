/* Temporary output files (temporary.h).
 *
 * A name must be one no other run can take, even a run with the same PID
 * (another container, another node sharing the folder): the host name, the
 * PID and 64 random bits.  Created with O_EXCL | O_NOFOLLOW, a file is
 * never one planted in advance, and never reached through a link.
 *
 * Where the file system has O_TMPFILE, a file is named only at the end,
 * just before it is renamed into place.  Elsewhere, or in that moment, a
 * killed run leaves its temporary files behind.  The next run in the
 * folder removes one when all of these hold:
 *   - its name carries this host's name and a PID other than this run's,
 *     and no process of that PID exists here (kill(pid, 0): ESRCH);
 *   - it belongs to this user and was last written over a minute ago;
 *   - nobody holds its flock: a live run holds one on each of its
 *     temporary files from creation to rename.
 * The last two are for a live run in another PID namespace on this host
 * (a container sharing the host name): its PID means nothing here, but it
 * holds its locks, and a file younger than a minute may be one it created
 * and has not locked yet. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "output/temporary.h"

enum { STALE_AFTER_SECONDS = 60, HOST_MAX = 64 };

/* The host name as it goes into a file name: [A-Za-z0-9_.] kept, any other
 * byte (a '-' too, which separates the fields) made '_'. */
static void host_name(char *out, size_t len)
{
    char raw[256] = "";
    if (gethostname(raw, sizeof raw - 1) != 0 || !raw[0])
        snprintf(raw, sizeof raw, "localhost");
    size_t n = 0;
    for (; raw[n] && n + 1 < len && n < HOST_MAX; n++) {
        char c = raw[n];
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                     c == '.';
        out[n] = plain ? c : '_';
    }
    out[n] = '\0';
}

static unsigned long long random_bits(void)
{
    unsigned long long r = 0;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) == (ssize_t)sizeof r)
        return r;
    /* no entropy yet (early boot): still differs between runs of one PID */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    r = (unsigned long long)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (unsigned long long)ts.tv_sec;
    return r ^ (unsigned long long)(uintptr_t)&ts ^ ((unsigned long long)getpid() << 32);
}

/* The O_TMPFILE file, with the mode a named one would get (0666 less the
 * umask, which O_TMPFILE applies too); -1 where the file system has none. */
static int open_unnamed(int dirfd)
{
    int fd = openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
    if (fd >= 0)
        flock(fd, LOCK_EX | LOCK_NB);
    return fd;
}

int ht_output_temporary_name(int fd, int dirfd, const char *name)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, path, dirfd, name, AT_SYMLINK_FOLLOW) == 0)
        return 0;
    if (errno != ENOENT)
        return -1;
    /* No /proc: AT_EMPTY_PATH, which needs CAP_DAC_READ_SEARCH. */
    return linkat(fd, "", dirfd, name, AT_EMPTY_PATH);
}

int ht_output_temporary_open(int dirfd, const char *basename, const char *ext, char *name,
                             size_t len, bool *unnamed)
{
    char host[HOST_MAX + 1], tail[HOST_MAX + 64];
    *unnamed = false;
    host_name(host, sizeof host);
    for (int attempt = 0; attempt < 16; attempt++) {
        int tn = snprintf(tail, sizeof tail, ".tmp-%s-%ld-%016llx", host, (long)getpid(),
                          random_bits());
        /* A long basename is cut in the temporary name only: it must stay
         * within NAME_MAX, and no reader relies on it. */
        size_t keep = strlen(basename) + strlen(ext);
        if (1 + keep + (size_t)tn > 255)
            keep = 255 > 1 + (size_t)tn ? 255 - 1 - (size_t)tn : 0;
        char whole[512];
        snprintf(whole, sizeof whole, "%s%s", basename, ext);
        if (keep < strlen(whole))
            whole[keep] = '\0';
        if ((size_t)snprintf(name, len, ".%s%s", whole, tail) >= len) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = attempt == 0 ? open_unnamed(dirfd) : -1;
        if (fd >= 0) {
            *unnamed = true;
            return fd;
        }
        fd = openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST)
            continue; /* taken: planted, or (2^-64) another run's */
        if (fd >= 0)
            flock(fd, LOCK_EX | LOCK_NB); /* ours alone: it cannot be held */
        return fd;
    }
    errno = EEXIST;
    return -1;
}

/* The PID of a temporary name of this host's runs ("...<ext>.tmp-<host>-
 * <pid>-<16 hex>"), or 0 if the name is not one. */
static long stale_pid(const char *name, const char *host)
{
    size_t n = strlen(name);
    if (name[0] != '.' || n < 18)
        return 0;
    const char *hex = name + n - 16;
    if (hex[-1] != '-' || strspn(hex, "0123456789abcdef") != 16)
        return 0;
    const char *end = hex - 1, *p = end;
    while (p > name && p[-1] >= '0' && p[-1] <= '9')
        p--;
    if (p == end || end - p > 10 || p[-1] != '-')
        return 0;
    char marker[HOST_MAX + 8];
    int m = snprintf(marker, sizeof marker, ".tmp-%s", host);
    if ((p - 1) - name <= m) /* room for "." and the marker before the PID */
        return 0;
    const char *at = p - 1 - m;
    if (strncmp(at, marker, (size_t)m) != 0)
        return 0;
    return strtol(p, NULL, 10);
}

static bool is_stale(int dirfd, const char *name, long pid)
{
    if (pid <= 0 || pid == (long)getpid())
        return false;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
        return false;
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    bool stale = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
                 st.st_mtim.tv_sec + STALE_AFTER_SECONDS < now.tv_sec &&
                 flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd); /* the lock, if taken, goes with it */
    return stale;
}

void ht_output_sweep_stale(int dirfd, const char *dir)
{
    int fd = dup(dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    rewinddir(d);
    char host[HOST_MAX + 1];
    host_name(host, sizeof host);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = stale_pid(e->d_name, host);
        if (!pid || !is_stale(dirfd, e->d_name, pid))
            continue;
        if (unlinkat(dirfd, e->d_name, 0) == 0)
            fprintf(stderr, "hooktrace: removed %s/%s, left by process %ld of this host, which "
                            "is gone\n", dir, e->d_name, pid);
    }
    closedir(d);
}

void ht_output_xfsz_block(struct ht_xfsz_guard *g)
{
    sigset_t xfsz, pending;
    sigemptyset(&xfsz);
    sigaddset(&xfsz, SIGXFSZ);
    g->blocked = pthread_sigmask(SIG_BLOCK, &xfsz, &g->saved) == 0;
    g->pending_before = sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ);
}

void ht_output_xfsz_restore(struct ht_xfsz_guard *g)
{
    if (!g->blocked)
        return;
    sigset_t xfsz, pending;
    sigemptyset(&xfsz);
    sigaddset(&xfsz, SIGXFSZ);
    /* Raised by our own writes (it is sent to the writing thread): the
     * program must not receive it.  One pending before was the program's
     * own and is left for it. */
    if (!g->pending_before && sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ)) {
        struct timespec zero = {0, 0};
        while (sigtimedwait(&xfsz, NULL, &zero) < 0 && errno == EINTR)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &g->saved, NULL);
}
