/* Which MPI started us, and where its analyzer is (launcher.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

#include "analyze/fail.h"
#include "analyze/launcher.h"

/* The family by the variables its launcher sets, and the world size:
 * Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE; MPICH's Hydra (and Slurm
 * with PMI) PMI_SIZE; PMIx launchers PMIX_RANK, with the size unknown. */
static const char *launcher_family(long *size)
{
    const char *v;
    if ((v = getenv("OMPI_COMM_WORLD_SIZE"))) {
        *size = atol(v);
        return "openmpi";
    }
    if ((v = getenv("PMI_SIZE"))) {
        *size = atol(v);
        return "mpich";
    }
    if (getenv("PMIX_RANK")) {
        *size = 2;
        return "openmpi";
    }
    return NULL;
}

static int executable(const char *path)
{
    return access(path, X_OK) == 0;
}

/* Installed: PKGLIBEXECDIR/hooktrace-analyze-mpi-FAMILY.  In the build
 * tree (tests, benchmarks): hooktrace-analyze-mpi beside this program for
 * the primary MPI, mpi-FAMILY/hooktrace-analyze-mpi for the others. */
static int find_program(const char *family, char *path, size_t size)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            if (strcmp(family, HT_PRIMARY_MPI) == 0)
                snprintf(path, size, "%s/hooktrace-analyze-mpi", self);
            else
                snprintf(path, size, "%s/mpi-%s/hooktrace-analyze-mpi", self, family);
            if (executable(path))
                return 0;
        }
    }
    snprintf(path, size, "%s/hooktrace-analyze-mpi-%s", HT_PKGLIBEXECDIR, family);
    return executable(path) ? 0 : -1;
}

void launcher_exec(char **argv)
{
    long size = 0;
    const char *family = launcher_family(&size);
    /* One rank reads alone, as without a launcher: the same output. */
    if (!family || size == 1 || getenv("HOOKTRACE_ANALYZE_NO_MPI"))
        return;
    char path[PATH_MAX + 64];
    if (find_program(family, path, sizeof path) != 0)
        fail_exit("started by an MPI launcher (%s), but %s is not installed; run "
                  "hooktrace-analyze without mpirun, or install hooktrace for that MPI",
                  family, path);
    execv(path, argv);
    fail_exit("cannot run %s", path);
}
