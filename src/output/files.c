#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/directory.h"
#include "common/quiet_thread.h"
#include "output/html.h"
#include "output/naming.h"
#include "output/output.h"
#include "output/output_mpi.h"
#include "output/room.h"
#include "output/temporary.h"

static int write_files(const struct ht_profile *profile, const struct ht_run_info *run,
                       const struct ht_config *config, const char *basename,
                       const struct ht_mpi_view *mpi, const char *dir);

int ht_output_write_all(const struct ht_profile *profile, const struct ht_run_info *run,
                        const struct ht_config *config, const char *basename)
{
    return ht_output_write_all_mpi(profile, run, config, basename, NULL);
}

int ht_output_write_all_mpi(const struct ht_profile *profile, const struct ht_run_info *given,
                            const struct ht_config *config, const char *basename,
                            const struct ht_mpi_view *mpi)
{
    const char *dir = config->output_directory;
    /* What the GCC plugin left out is read here, by the process that
     * writes, and only then: it opens every instrumented object, which an
     * MPI job's other ranks need not do. */
    struct ht_run_info listed = *given, *run = &listed;
    if ((config->write_logfile || config->write_json) &&
        (ht_symbols_uninstrumented(&listed.uninstrumented) != 0 || ht_symbols_inlined(&listed.inlined) != 0))
        fprintf(stderr, "hooktrace: out of memory listing the functions the GCC plugin left out\n");
    char exclude_path[PATH_MAX + 256];
    if (config->write_logfile || config->write_json)
        ht_output_exclude_prepare(profile, &listed, dir, basename, exclude_path, sizeof exclude_path);
    /* MPI_T's control variables, most of an MPI profile's JSON, go beside
     * it unless mpi_t.cvars_in_json; a file only when there is a list. */
    char mpit_name[PATH_MAX];
    const struct ht_mpit_view *mpit = mpi ? mpi->mpit : NULL;
    listed.cvars_inline = config->mpi_t.cvars_in_json;
    listed.mpit_file = NULL;
    if (config->write_json && !listed.cvars_inline && mpit && !mpit->status && mpit->ncvars > 0) {
        snprintf(mpit_name, sizeof mpit_name, "%s.mpit.json", basename);
        listed.mpit_file = mpit_name;
    }
    int failures = write_files(profile, run, config, basename, mpi, dir);
    ht_name_list_free(&listed.uninstrumented);
    ht_inlined_list_free(&listed.inlined);
    ht_name_list_free(&listed.exclude_symbols);
    return failures;
}

static char last_suffix[256], forced[256];
static bool have_forced;
/* The logfiles this process placed (an MPI rank 0 may place a summary and
 * its own), for ht_output_append_log; the oldest is forgotten first. */
enum { LOGS_KEPT = 4 };
static struct {
    char name[PATH_MAX + 256];
    dev_t dev;
    ino_t ino;
} placed_logs[LOGS_KEPT];
static unsigned logs_placed;

const char *ht_output_last_suffix(void)
{
    return last_suffix;
}

void ht_output_force_suffix(const char *suffix)
{
    snprintf(forced, sizeof forced, "%s", suffix);
    have_forced = true;
}

/* Writes one output into a new temporary file beside its final place,
 * kept open (out->fd) until it is placed; on any error the temporary file
 * is removed and the final file untouched. */
static bool write_temporary(struct ht_pending_output *out, int dirfd, const char *dir,
                            const char *basename, int (*write)(FILE *f, const void *ctx),
                            const void *ctx)
{
    char final[PATH_MAX + 64];
    snprintf(final, sizeof final, "%s/%s%s", dir, basename, out->ext);
    out->cut = false;
    out->fd = ht_output_temporary_open(dirfd, basename, out->ext, out->tmp, sizeof out->tmp,
                                       &out->unnamed);
    int dup_fd = out->fd >= 0 ? dup(out->fd) : -1;
    FILE *f = dup_fd >= 0 ? fdopen(dup_fd, "w") : NULL;
    if (!f) {
        int err = errno;
        if (dup_fd >= 0)
            close(dup_fd);
        if (out->fd >= 0) {
            if (!out->unnamed)
                unlinkat(dirfd, out->tmp, 0);
            close(out->fd);
            out->fd = -1;
        }
        fprintf(stderr, "hooktrace: cannot write %s: cannot create a temporary file beside it: %s\n",
                final, strerror(err));
        return false;
    }
    unsigned stops = ht_output_room_stops();
    errno = 0;
    int rc = write(f, ctx);
    int err = errno;
    if (fflush(f) != 0)
        err = errno;
    bool write_error = ferror(f);
    if (fclose(f) != 0) {
        write_error = true;
        err = errno;
    }
    out->cut = ht_output_room_stops() != stops;
    if (rc != 0 || write_error) {
        /* A write error first: a writer whose write failed says -2 too. */
        const char *why = write_error ? strerror(err ? err : EIO)
                          : rc == -2  ? "out of memory"
                                      : strerror(err ? err : EIO);
        if (!out->unnamed)
            unlinkat(dirfd, out->tmp, 0);
        close(out->fd);
        out->fd = -1;
        char name[PATH_MAX];
        snprintf(name, sizeof name, "%s%s", basename, out->ext);
        fprintf(stderr, "hooktrace: cannot write %s: %s; the temporary file %s/%s was removed%s\n",
                final, why, dir, out->tmp,
                faccessat(dirfd, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0
                    ? " and the existing file left as it was"
                    : "");
        return false;
    }
    return true;
}

struct outputs_ctx {
    const struct ht_profile *profile;
    const struct ht_run_info *run;
    const struct ht_config *config;
    const struct ht_mpi_view *mpi;
    int json_fd; /* the JSON just written, for the HTML report; -1: none */
};

static int write_log(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    ht_output_logfile(f, c->profile, c->run, c->config, c->mpi);
    return 0;
}

static int write_json(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    return ht_output_json_write(f, c->profile, c->run, c->mpi) != 0 ? -2 : 0;
}

static int write_mpit(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    return ht_output_json_mpit_file(f, c->mpi->mpit, c->run) != 0 ? -2 : 0;
}

static int write_exclude(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    return ht_output_exclude_write(f, c->run);
}

static int write_folded(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    ht_output_folded(f, c->profile);
    return 0;
}

static int write_speedscope(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    int summed_ranks = c->mpi && c->mpi->rank < 0 ? c->mpi->nranks : 0;
    return ht_output_speedscope_write(f, c->profile, c->run, summed_ranks) != 0 ? -2 : 0;
}

static int write_hatchet(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    return ht_output_hatchet_write(f, c->profile, c->run, c->mpi) != 0 ? -2 : 0;
}

struct html_room {
    struct ht_output_room room;
    FILE *f;
};

static bool html_room_left(void *ctx)
{
    struct html_room *r = ctx;
    return ht_output_room_left(&r->room, r->f, "HTML report");
}

/* The JSON is read back through this run's own descriptor, never by name,
 * and no further than the size it was written to: nothing another process
 * does in the folder can change what the page holds, or make it grow. */
struct json_reader {
    int fd;
    off_t offset, size;
};

static ssize_t json_read(void *cookie, char *buf, size_t len)
{
    struct json_reader *r = cookie;
    if ((off_t)len > r->size - r->offset)
        len = (size_t)(r->size - r->offset);
    ssize_t n;
    while ((n = pread(r->fd, buf, len, r->offset)) < 0 && errno == EINTR)
        ;
    if (n > 0)
        r->offset += n;
    return n;
}

/* The report embeds the JSON file as written, read back a block at a time
 * (html.c), so that the profile is not built in memory a second time. */
static int write_html(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    struct stat st;
    if (fstat(c->json_fd, &st) != 0)
        return -1;
    struct json_reader reader = {c->json_fd, 0, st.st_size};
    cookie_io_functions_t io = {.read = json_read};
    FILE *json = fopencookie(&reader, "r", io);
    if (!json)
        return -1;
    struct html_room room = {.f = f};
    ht_output_room_init(&room.room, f);
    int rc = ht_output_html_write(f, json, html_room_left, &room);
    int err = errno;
    fclose(json);
    errno = err;
    return rc;
}

/* One output to write: its kind and its slot among the pending outputs. */
struct output_job {
    int (*write)(FILE *f, const void *ctx);
    struct ht_pending_output *out;
};

/* The outputs a second thread writes while this one writes the JSON and
 * then the page that embeds it (files_beside_json): none reads the JSON. */
struct beside_json {
    struct output_job *jobs;
    int njobs, dirfd;
    const char *dir, *basename;
    const struct outputs_ctx *ctx;
};

static void write_jobs(struct output_job *jobs, int njobs, int dirfd, const char *dir,
                       const char *basename, const struct outputs_ctx *ctx)
{
    for (int i = 0; i < njobs; i++)
        jobs[i].out->ok = write_temporary(jobs[i].out, dirfd, dir, basename, jobs[i].write, ctx);
}

static void *files_beside_json(void *arg)
{
    struct beside_json *b = arg;
    write_jobs(b->jobs, b->njobs, b->dirfd, b->dir, b->basename, b->ctx);
    return NULL;
}

static int write_files(const struct ht_profile *profile, const struct ht_run_info *run,
                       const struct ht_config *config, const char *basename,
                       const struct ht_mpi_view *mpi, const char *dir)
{
    last_suffix[0] = '\0';
    int all = (int)config->write_logfile + (int)config->write_json + (int)config->write_folded +
              (int)config->write_speedscope + (int)config->write_hatchet + (run->exclude_file != NULL) +
              (run->mpit_file != NULL);
    int dirfd = ht_make_directory(dir) == 0 ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (dirfd < 0) {
        fprintf(stderr, "hooktrace: cannot write the profile to output directory '%s': %s\n",
                dir, strerror(errno));
        return all;
    }
    struct outputs_ctx ctx = {profile, run, config, mpi, -1};
    /* beside: at an MPI job's end, written by a second thread beside the
     * JSON (it neither reads the JSON nor is read by it). */
    struct {
        bool enabled;
        const char *ext;
        int (*write)(FILE *f, const void *ctx);
        bool beside;
    } kinds[] = {
        {config->write_logfile, ".log", write_log, true},
        {config->write_json, ".json", write_json, false},
        /* the JSON and the logfile name it (run->mpit_file:
         * "<basename>.mpit.json"); written even if the JSON fails */
        {run->mpit_file != NULL, ".mpit.json", write_mpit, true},
        {config->write_folded, ".folded", write_folded, true},
        {config->write_speedscope, ".speedscope.json", write_speedscope, false},
        {config->write_hatchet, ".hatchet.json", write_hatchet, false},
        /* what the logfile and the JSON name, under the same name */
        {run->exclude_file != NULL, ".exclude", write_exclude, true},
        /* last: it reads the JSON written above, through its descriptor.
         * Not in a partial profile: a killed rank may have a second left
         * (Open MPI's SIGKILL), and hooktrace-report makes the page later. */
        {config->write_html && config->write_json && !run->partial, ".html", write_html, false},
    };
    enum { KINDS = sizeof kinds / sizeof kinds[0] };
    struct ht_pending_output out[KINDS];
    struct output_job beside[KINDS], here[KINDS];
    int n = 0, nbeside = 0, nhere = 0, failures = 0;
    /* A complete MPI profile only: a partial one may be written from a
     * signal handler, where no thread may be made. */
    bool parallel = mpi && !run->partial;
    for (int i = 0; i < KINDS; i++) {
        if (!kinds[i].enabled)
            continue;
        out[n].ext = kinds[i].ext;
        out[n].ok = false;
        out[n].fd = -1;
        struct output_job job = {kinds[i].write, &out[n++]};
        if (parallel && kinds[i].beside)
            beside[nbeside++] = job;
        else
            here[nhere++] = job;
    }
    /* A file size limit fails a write with EFBIG; its signal must neither
     * kill the program nor reach it later. */
    struct ht_xfsz_guard xfsz;
    ht_output_xfsz_block(&xfsz);
    struct beside_json b = {beside, nbeside, dirfd, dir, basename, &ctx};
    pthread_t thread;
    /* false: none could be made, and this thread writes them after */
    bool started = nbeside > 0 && ht_quiet_thread_start(&thread, files_beside_json, &b);
    bool json_cut = false;
    for (int i = 0; i < nhere; i++) {
        struct output_job *job = &here[i];
        /* no page without the JSON it embeds, whose failure was said
         * already (the MPI_T file stands alone: the logfile names it too) */
        if (job->write == write_html && ctx.json_fd < 0) {
            job->out->ext = NULL;
            continue;
        }
        job->out->ok = write_temporary(job->out, dirfd, dir, basename, job->write, &ctx);
        if (job->write == write_json && job->out->ok) {
            ctx.json_fd = job->out->fd;
            json_cut = job->out->cut;
        }
        if (job->write == write_html) /* a cut JSON's page is cut too */
            job->out->cut = job->out->cut || json_cut;
    }
    if (started)
        pthread_join(thread, NULL);
    else
        write_jobs(beside, nbeside, dirfd, dir, basename, &ctx);
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (!out[i].ext)
            continue;
        failures += !out[i].ok;
        if (kept != i)
            out[kept] = out[i];
        kept++;
    }
    n = kept;
    ht_output_xfsz_restore(&xfsz);
    char chosen[PATH_MAX];
    failures += ht_output_place(dirfd, dir, basename, have_forced ? forced : NULL, out, n,
                                &run->start_realtime, chosen, sizeof chosen);
    close(dirfd);
    for (int i = 0; i < n; i++)
        if (out[i].ok && strcmp(out[i].ext, ".log") == 0) {
            unsigned k = logs_placed++ % LOGS_KEPT;
            snprintf(placed_logs[k].name, sizeof placed_logs[k].name, "%s/%s", dir, chosen);
            placed_logs[k].dev = out[i].dev;
            placed_logs[k].ino = out[i].ino;
        }
    snprintf(last_suffix, sizeof last_suffix, "%s", chosen + strlen(basename));
    if (last_suffix[0])
        fprintf(stderr, "hooktrace: %s/%s.* was written by a concurrent run: this run's files "
                        "are %s/%s.*\n", dir, basename, dir, chosen);
    return failures;
}

void ht_output_append_log(const char *dir, const char *name, void (*write)(FILE *f, void *ctx),
                          void *ctx)
{
    char whole[PATH_MAX + 256];
    snprintf(whole, sizeof whole, "%s/%s", dir, name);
    int k = -1;
    for (int i = 0; i < LOGS_KEPT && i < (int)logs_placed; i++)
        if (strcmp(placed_logs[i].name, whole) == 0)
            k = i;
    if (k < 0)
        return;
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0)
        return;
    char file[PATH_MAX];
    snprintf(file, sizeof file, "%s.log", name);
    int fd = openat(dirfd, file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
                                     O_CLOEXEC);
    close(dirfd);
    struct stat st;
    /* Only the file this run wrote: not one that took its name since. */
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_dev != placed_logs[k].dev ||
        st.st_ino != placed_logs[k].ino) {
        if (fd >= 0)
            close(fd);
        return;
    }
    FILE *f = fdopen(fd, "a");
    if (!f) {
        close(fd);
        return;
    }
    struct ht_xfsz_guard xfsz;
    ht_output_xfsz_block(&xfsz);
    write(f, ctx);
    fclose(f);
    ht_output_xfsz_restore(&xfsz);
}
