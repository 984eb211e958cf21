/* The run's metadata for the profile (struct ht_run_metadata, output.h):
 * the arguments, the host, the MPI library, the launcher's job id, the
 * config (the compiler is read by the outputs, only where a file is
 * written: src/output/metadata.c).  Read once at shut-down,
 * so the hot path never sees any of it (docs/output.md, "metadata"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/metadata.h"
#include "runtime/runtime.h"

/* /proc/self/cmdline: the arguments, each ended by a NUL. */
static void read_arguments(struct ht_run_metadata *m, char **text)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t len = 0, cap = 0;
    char *buf = NULL;
    int c;
    while (f && (c = fgetc(f)) != EOF) {
        if (len + 2 > cap) {
            char *bigger = realloc(buf, cap = cap ? cap * 2 : 256);
            if (!bigger)
                break;
            buf = bigger;
        }
        buf[len++] = (char)c;
    }
    if (f)
        fclose(f);
    if (!buf)
        return;
    if (len == 0 || buf[len - 1] != '\0')
        buf[len++] = '\0';
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += buf[i] == '\0';
    m->argv = calloc((size_t)n + 1, sizeof *m->argv);
    if (!m->argv) {
        free(buf);
        return;
    }
    for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
        m->argv[m->argc++] = buf + i;
    *text = buf;
}

/* The first variable a batch system or launcher sets for the job. */
static void job_id(struct ht_run_metadata *m)
{
    static const char *const vars[] = {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "COBALT_JOBID",
                                       "FLUX_JOB_ID", "OMPI_MCA_ess_base_jobid",
                                       "OMPI_MCA_orte_ess_jobid", "PMIX_NAMESPACE", NULL};
    for (int i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            m->job_id = v;
            m->job_id_variable = vars[i];
            return;
        }
    }
}

void ht_runtime_metadata(struct ht_run_metadata *m, char **args_text, const struct ht_config *cfg)
{
    memset(m, 0, sizeof *m);
    *args_text = NULL;
    read_arguments(m, args_text);
    if (gethostname(m->host, sizeof m->host) != 0)
        m->host[0] = '\0';
    m->host[sizeof m->host - 1] = '\0';
    m->mpi_library = ht_world.initialized && ht_world.mpi_library[0] ? ht_world.mpi_library : NULL;
    job_id(m);
    m->config = cfg;
}

void ht_runtime_metadata_free(struct ht_run_metadata *m, char *args_text)
{
    free(m->argv);
    free(args_text);
}
