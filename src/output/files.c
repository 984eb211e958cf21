#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/directory.h"
#include "output/output.h"

static FILE *open_output(const char *directory, const char *basename, const char *suffix,
                         char *path, size_t size)
{
    int n = snprintf(path, size, "%s/%s%s", directory, basename, suffix);
    if (n < 0 || (size_t)n >= size) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    return fopen(path, "w");
}

static int finish_file(FILE *f, const char *path)
{
    int failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        fprintf(stderr, "hooktrace: cannot write %s: %s\n", path, strerror(errno ? errno : EIO));
        return 1;
    }
    return 0;
}

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

static int write_files(const struct ht_profile *profile, const struct ht_run_info *run,
                       const struct ht_config *config, const char *basename,
                       const struct ht_mpi_view *mpi, const char *dir)
{
    if (ht_make_directory(dir) != 0) {
        fprintf(stderr, "hooktrace: cannot write the profile to output directory '%s': %s\n",
                dir, strerror(errno));
        return (int)config->write_logfile + (int)config->write_json + (int)config->write_folded;
    }
    char path[PATH_MAX];
    int failures = 0;
    FILE *f;
    if (config->write_logfile) {
        if ((f = open_output(dir, basename, ".log", path, sizeof path)) != NULL) {
            ht_output_logfile(f, profile, run, config, mpi);
            failures += finish_file(f, path);
        } else {
            fprintf(stderr, "hooktrace: cannot create %s: %s\n", path, strerror(errno));
            failures++;
        }
    }
    if (config->write_json) {
        if ((f = open_output(dir, basename, ".json", path, sizeof path)) != NULL) {
            if (ht_output_json_write(f, profile, run, mpi) != 0) {
                fprintf(stderr, "hooktrace: %s is incomplete: out of memory\n", path);
                failures++;
            }
            failures += finish_file(f, path);
        } else {
            fprintf(stderr, "hooktrace: cannot create %s: %s\n", path, strerror(errno));
            failures++;
        }
    }
    if (config->write_folded) {
        if ((f = open_output(dir, basename, ".folded", path, sizeof path)) != NULL) {
            ht_output_folded(f, profile);
            failures += finish_file(f, path);
        } else {
            fprintf(stderr, "hooktrace: cannot create %s: %s\n", path, strerror(errno));
            failures++;
        }
    }
    return failures;
}
