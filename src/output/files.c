#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/directory.h"
#include "output/html.h"
#include "output/naming.h"
#include "output/output.h"
#include "output/room.h"

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
     * writes, and only then: it opens every loaded object, which an MPI
     * job's other ranks need not do (30 ms at 16 ranks on 2 cores). */
    struct ht_run_info listed = *given, *run = &listed;
    if ((config->write_logfile || config->write_json) &&
        ht_symbols_uninstrumented(&listed.uninstrumented) != 0)
        fprintf(stderr, "hooktrace: out of memory listing the functions the GCC plugin left out\n");
    int failures = write_files(profile, run, config, basename, mpi, dir);
    ht_name_list_free(&listed.uninstrumented);
    return failures;
}

static char last_suffix[256], forced[256];
static bool have_forced;

const char *ht_output_last_suffix(void)
{
    return last_suffix;
}

void ht_output_force_suffix(const char *suffix)
{
    snprintf(forced, sizeof forced, "%s", suffix);
    have_forced = true;
}

/* Writes one output into a new temporary file beside its final place; on
 * any error the temporary file is removed and the final file untouched. */
static bool write_temporary(struct ht_pending_output *out, const char *dir, const char *basename,
                            int (*write)(FILE *f, const void *ctx), const void *ctx)
{
    char final[PATH_MAX + 64];
    snprintf(final, sizeof final, "%s/%s%s", dir, basename, out->ext);
    int n = snprintf(out->tmp, sizeof out->tmp, "%s/.%s%s.tmp-%ld", dir, basename, out->ext,
                     (long)getpid());
    if (n < 0 || (size_t)n >= sizeof out->tmp) {
        fprintf(stderr, "hooktrace: cannot write %s: %s\n", final, strerror(ENAMETOOLONG));
        return false;
    }
    int fd = open(out->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        unlink(out->tmp);
        fprintf(stderr, "hooktrace: cannot write %s: cannot create the temporary file %s: %s\n",
                final, out->tmp, strerror(err));
        return false;
    }
    errno = 0;
    int rc = write(f, ctx);
    int err = errno;
    if (fflush(f) != 0)
        err = errno;
    bool failed = rc != 0 || ferror(f);
    if (fclose(f) != 0) {
        failed = true;
        err = errno;
    }
    if (failed) {
        unlink(out->tmp);
        fprintf(stderr, "hooktrace: cannot write %s: %s; the temporary file %s was removed%s\n",
                final, rc == -2 ? "out of memory" : strerror(err ? err : EIO), out->tmp,
                access(final, F_OK) == 0 ? " and the existing file left as it was" : "");
        return false;
    }
    return true;
}

struct outputs_ctx {
    const struct ht_profile *profile;
    const struct ht_run_info *run;
    const struct ht_config *config;
    const struct ht_mpi_view *mpi;
    const char *json_tmp; /* the JSON just written, for the HTML report */
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

static int write_folded(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    ht_output_folded(f, c->profile);
    return 0;
}

static int write_speedscope(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    return ht_output_speedscope_write(f, c->profile, c->run) != 0 ? -2 : 0;
}

static int write_hatchet(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    return ht_output_hatchet_write(f, c->profile) != 0 ? -2 : 0;
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

/* The report embeds the JSON file as written, read back a block at a time
 * (html.c), so that the profile is not built in memory a second time. */
static int write_html(FILE *f, const void *ctx)
{
    const struct outputs_ctx *c = ctx;
    FILE *json = fopen(c->json_tmp, "re");
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

static int write_files(const struct ht_profile *profile, const struct ht_run_info *run,
                       const struct ht_config *config, const char *basename,
                       const struct ht_mpi_view *mpi, const char *dir)
{
    last_suffix[0] = '\0';
    if (ht_make_directory(dir) != 0) {
        fprintf(stderr, "hooktrace: cannot write the profile to output directory '%s': %s\n",
                dir, strerror(errno));
        return (int)config->write_logfile + (int)config->write_json + (int)config->write_folded +
               (int)config->write_speedscope + (int)config->write_hatchet;
    }
    struct outputs_ctx ctx = {profile, run, config, mpi, NULL};
    struct {
        bool enabled;
        const char *ext;
        int (*write)(FILE *f, const void *ctx);
    } kinds[] = {
        {config->write_logfile, ".log", write_log},
        {config->write_json, ".json", write_json},
        {config->write_folded, ".folded", write_folded},
        {config->write_speedscope, ".speedscope.json", write_speedscope},
        {config->write_hatchet, ".hatchet.json", write_hatchet},
        /* last: it reads the JSON's temporary file, written above.  Not in
         * a partial profile: a killed rank may have a second left (Open
         * MPI's SIGKILL), and hooktrace-report makes the page later. */
        {config->write_html && config->write_json && !run->partial, ".html", write_html},
    };
    enum { KINDS = sizeof kinds / sizeof kinds[0] };
    struct ht_pending_output out[KINDS];
    int n = 0, failures = 0;
    for (int i = 0; i < KINDS; i++) {
        /* no report without its JSON, whose failure was said already */
        if (!kinds[i].enabled || (kinds[i].write == write_html && !ctx.json_tmp))
            continue;
        out[n].ext = kinds[i].ext;
        out[n].ok = write_temporary(&out[n], dir, basename, kinds[i].write, &ctx);
        failures += !out[n].ok;
        if (kinds[i].write == write_json && out[n].ok)
            ctx.json_tmp = out[n].tmp;
        n++;
    }
    char chosen[PATH_MAX];
    failures += ht_output_place(dir, basename, have_forced ? forced : NULL, out, n,
                                &run->start_realtime, chosen, sizeof chosen);
    snprintf(last_suffix, sizeof last_suffix, "%s", chosen + strlen(basename));
    if (last_suffix[0])
        fprintf(stderr, "hooktrace: %s/%s.* was written by a concurrent run: this run's files "
                        "are %s/%s.*\n", dir, basename, dir, chosen);
    return failures;
}
