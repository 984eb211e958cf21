/* Where a finished output file goes (docs/files.md, "Concurrent runs in one folder").
 *
 * Each output is written to a temporary file in the output directory and
 * renamed into place only once complete, so that a reader never sees half
 * a file.  The names are chosen with the directory locked (flock on the
 * directory itself: no lock file is left behind), so two runs finishing at
 * once never both take one name:
 *
 * - <basename>.<ext> that does not exist, or was last written before this
 *   run started (an earlier run's, re-run in place), is replaced;
 * - one written since this run started is a concurrent run's and is kept:
 *   this run's files are named <basename>.<suffix>.<ext> instead, the
 *   suffix being the job id from the environment (SLURM_JOB_ID, PBS_JOBID,
 *   Open MPI's OMPI_MCA_ess_base_jobid / PMIX_NAMESPACE; under MPICH's
 *   hydra, which exports none, the PMI proxy's PID) or else the PID, and
 *   <jobid>.<pid>, then <pid>.<n>, if that is taken too.
 *
 * "Written" is the file's mtime, which hooktrace sets itself, on the open
 * descriptor, to the moment of the rename (CLOCK_REALTIME, to the
 * nanosecond): the kernel's own file times come from a coarse clock, a
 * tick behind, which would make a file completed just after this run
 * started look older.  Two runs are
 * concurrent when they overlap in time: a run that started after another
 * finished replaces its files, as re-running in place does.
 *
 * Everything is done relative to the directory's descriptor and nothing
 * follows a link: a link planted at a final name is replaced, its target
 * untouched. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/naming.h"
#include "output/temporary.h"

static bool written_since(int dirfd, const char *name, const struct timespec *start)
{
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return false;
    if (st.st_mtim.tv_sec != start->tv_sec)
        return st.st_mtim.tv_sec > start->tv_sec;
    return st.st_mtim.tv_nsec > start->tv_nsec;
}

/* The job id, made safe for a file name; "" if none. */
static void job_id(char *out, size_t len)
{
    static const char *const vars[] = {"SLURM_JOB_ID", "PBS_JOBID", "OMPI_MCA_ess_base_jobid",
                                       "OMPI_MCA_orte_ess_jobid", "PMIX_NAMESPACE", NULL};
    const char *id = NULL;
    for (int i = 0; vars[i] && !id; i++) {
        id = getenv(vars[i]);
        if (id && !*id)
            id = NULL;
    }
    char proxy[32];
    if (!id && getenv("PMI_RANK")) { /* MPICH's hydra: the proxy's PID */
        snprintf(proxy, sizeof proxy, "%ld", (long)getppid());
        id = proxy;
    }
    size_t n = 0;
    for (; id && id[n] && n + 1 < len; n++) {
        char c = id[n];
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                     c == '-' || c == '_' || c == '.';
        out[n] = plain ? c : '_';
    }
    out[n] = '\0';
}

/* The suffix'th candidate name ("" for the plain one). */
static void candidate(int attempt, char *suffix, size_t len)
{
    char job[49]; /* with the PID, at most 60 bytes: HT_CONFIG_BASENAME_MAX */
    job_id(job, sizeof job);
    long pid = (long)getpid();
    if (attempt == 0)
        suffix[0] = '\0';
    else if (attempt == 1)
        job[0] ? snprintf(suffix, len, ".%s", job) : snprintf(suffix, len, ".%ld", pid);
    else if (attempt == 2 && job[0])
        snprintf(suffix, len, ".%s.%ld", job, pid);
    else
        snprintf(suffix, len, ".%ld.%d", pid, attempt);
}

static bool name_free(int dirfd, const char *name, const struct ht_pending_output *out, int n,
                      const struct timespec *start)
{
    char path[PATH_MAX + 256];
    for (int i = 0; i < n; i++) {
        if (!out[i].ok)
            continue;
        snprintf(path, sizeof path, "%s%s", name, out[i].ext);
        if (written_since(dirfd, path, start))
            return false;
    }
    return true;
}

/* A cut file goes only where no file is: renameat2's RENAME_NOREPLACE, or
 * where the file system has no such rename, a hard link (which never
 * replaces either) and the temporary name removed. */
static int place_one(int dirfd, const struct ht_pending_output *out, const char *path)
{
    if (!out->cut)
        return renameat(dirfd, out->tmp, dirfd, path);
    if (renameat2(dirfd, out->tmp, dirfd, path, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    if (linkat(dirfd, out->tmp, dirfd, path, 0) != 0)
        return -1;
    unlinkat(dirfd, out->tmp, 0);
    return 0;
}

int ht_output_place(int dirfd, const char *dir, const char *basename, const char *forced_suffix,
                    struct ht_pending_output *out, int n, const struct timespec *start,
                    char *chosen, size_t chosen_len)
{
    while (flock(dirfd, LOCK_EX) != 0 && errno == EINTR)
        ;
    ht_output_sweep_stale(dirfd, dir);
    char suffix[256], name[PATH_MAX];
    for (int attempt = 0;; attempt++) {
        if (forced_suffix && attempt == 0)
            snprintf(suffix, sizeof suffix, "%s", forced_suffix);
        else
            candidate(attempt, suffix, sizeof suffix);
        snprintf(name, sizeof name, "%s%s", basename, suffix);
        if (name_free(dirfd, name, out, n, start) || attempt >= 1000)
            break;
    }
    int failures = 0;
    char path[PATH_MAX + 256];
    for (int i = 0; i < n; i++) {
        if (!out[i].ok)
            continue;
        snprintf(path, sizeof path, "%s%s", name, out[i].ext);
        struct timespec times[2] = {{.tv_nsec = UTIME_OMIT}};
        clock_gettime(CLOCK_REALTIME, &times[1]);
        struct stat st = {0};
        if (out[i].fd >= 0) {
            futimens(out[i].fd, times);
            fstat(out[i].fd, &st);
        }
        out[i].dev = st.st_dev;
        out[i].ino = st.st_ino;
        if (out[i].unnamed && ht_output_temporary_name(out[i].fd, dirfd, out[i].tmp) != 0) {
            fprintf(stderr, "hooktrace: cannot write %s/%s: cannot name its temporary file %s/%s: "
                            "%s\n", dir, path, dir, out[i].tmp, strerror(errno));
            out[i].ok = false;
            failures++;
            continue;
        }
        out[i].unnamed = false;
        if (place_one(dirfd, &out[i], path) != 0) {
            int err = errno;
            unlinkat(dirfd, out[i].tmp, 0);
            if (out[i].cut && err == EEXIST)
                fprintf(stderr, "hooktrace: %s/%s was not replaced by an incomplete one: "
                                "the incomplete %s/%s was removed\n",
                        dir, path, dir, out[i].tmp);
            else
                fprintf(stderr, "hooktrace: cannot write %s/%s: rename from %s/%s: %s (removed)\n",
                        dir, path, dir, out[i].tmp, strerror(err));
            out[i].ok = false;
            failures++;
        }
    }
    for (int i = 0; i < n; i++)
        if (out[i].fd >= 0) {
            close(out[i].fd); /* and its flock: the file is no longer temporary */
            out[i].fd = -1;
        }
    flock(dirfd, LOCK_UN);
    snprintf(chosen, chosen_len, "%s", name);
    return failures;
}
