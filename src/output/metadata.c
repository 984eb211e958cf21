/* The profile's "metadata" object: one place with what tells runs apart
 * (command, ranks, threads, start, hosts, MPI library, compiler, versions,
 * config, job id), for Thicket, pandas and scripts that group many runs
 * (docs/output.md, "metadata").  The JSON profile and the Hatchet file
 * carry the same object. */
#include <string.h>
#include <time.h>

#include "config.h"
#include "output/output.h"
#include "output/output_mpi.h"
#include "symbols/symbols.h"

static json_t *string_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* hosts: each host once, in the order of the first rank on it; rank_hosts:
 * each rank's index into hosts.  One process's own file: its host alone. */
static void hosts_json(json_t *obj, const struct ht_run_info *run, const struct ht_mpi_view *mpi)
{
    json_t *hosts = json_array(), *of_rank = json_array();
    if (mpi && mpi->rank < 0 && mpi->ranks) {
        for (int r = 0; r < mpi->nranks; r++) {
            const char *h = mpi->ranks[r].host;
            size_t k = 0, n = json_array_size(hosts);
            while (k < n && strcmp(json_string_value(json_array_get(hosts, k)), h) != 0)
                k++;
            if (k == n)
                json_array_append_new(hosts, json_string(h));
            json_array_append_new(of_rank, json_integer((json_int_t)k));
        }
    } else {
        json_array_append_new(hosts, json_string(run->meta->host));
        json_array_append_new(of_rank, json_integer(0));
    }
    json_object_set_new(obj, "host", json_string(run->meta->host));
    json_object_set_new(obj, "hosts", hosts);
    json_object_set_new(obj, "rank_hosts", of_rank);
}

/* The executable's compiler, read from its DWARF once per process and only
 * by a process that writes a file: of 1,024 ranks, rank 0 and those in
 * mpi.rank_files (the others' files are never written, and the DWARF of
 * one executable read by every rank at once would load a shared file
 * system for nothing).  Only the JSON and Hatchet writers ask, and files.c
 * writes both on one thread. */
static const char *compiler(const char *executable)
{
    static char *producer;
    static bool read;
    if (!read && executable && executable[0])
        producer = ht_symbols_producer(executable);
    read = true;
    return producer;
}

json_t *ht_output_metadata_json(const struct ht_profile *p, const struct ht_run_info *run,
                                const struct ht_mpi_view *mpi)
{
    const struct ht_run_metadata *m = run->meta;
    if (!m)
        return NULL;
    json_t *obj = json_object();
    json_t *argv = json_array();
    for (int i = 0; i < m->argc; i++)
        json_array_append_new(argv, json_string(m->argv[i]));
    json_object_set_new(obj, "command", argv);
    json_object_set_new(obj, "executable", string_or_null(run->executable));
    json_object_set_new(obj, "ranks", json_integer(mpi ? mpi->nranks : 1));
    if (mpi && mpi->rank >= 0)
        json_object_set_new(obj, "rank", json_integer(mpi->rank));
    json_object_set_new(obj, "threads", json_integer(p->nthreads));
    if (mpi && mpi->rank < 0 && mpi->ranks) {
        json_t *threads = json_array();
        for (int r = 0; r < mpi->nranks; r++)
            json_array_append_new(threads, json_integer(mpi->ranks[r].threads));
        json_object_set_new(obj, "rank_threads", threads);
    }
    char date[64];
    struct tm tm;
    gmtime_r(&run->start_time, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    json_object_set_new(obj, "start_time", json_string(date));
    json_object_set_new(obj, "start_time_epoch_s", json_integer((json_int_t)run->start_time));
    hosts_json(obj, run, mpi);
    json_object_set_new(obj, "mpi_library", string_or_null(m->mpi_library));
    json_object_set_new(obj, "compiler", string_or_null(compiler(run->executable)));
    json_object_set_new(obj, "hooktrace_version", json_string(PACKAGE_VERSION));
    json_object_set_new(obj, "job_id", string_or_null(m->job_id));
    json_object_set_new(obj, "job_id_variable", string_or_null(m->job_id_variable));
    json_t *config = m->config ? ht_config_json(m->config) : NULL;
    json_object_set_new(obj, "config", config ? config : json_null());
    return obj;
}
