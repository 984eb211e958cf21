/* A library's functions recorded, then the library closed with dlclose
 * before the profile is named (test/integration/dlclose.py,
 * test/mpi/dlclose.py; docs/symbols.md, "Libraries closed with dlclose").
 *
 * Usage: dlclose_main LIBRARY CYCLES [open|delete]
 * Each cycle dlopens LIBRARY, calls dlc_alpha 3 times and dlc_beta 5 times
 * and dlcloses it.  "open": one more cycle whose library stays open at the
 * end (dlopen, dlclose, dlopen again).  "delete": LIBRARY is removed after
 * the last dlclose, as a scratch copy would be.  Built with and without
 * MPI (HT_WITH_MPI); every rank does the same.  Prints the sum. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HT_WITH_MPI
#include <mpi.h>
#endif

typedef int (*fn)(int);

static fn lookup(void *lib, const char *name)
{
    void *sym = dlsym(lib, name);
    fn f;
    memcpy(&f, &sym, sizeof f);
    return f;
}

/* Opens the library and calls its functions; returns the handle, or NULL
 * after printing why. */
static void *cycle(const char *path, long *sum)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    fn alpha = lib ? lookup(lib, "dlc_alpha") : NULL, beta = lib ? lookup(lib, "dlc_beta") : NULL;
    if (!alpha || !beta) {
        fprintf(stderr, "dlclose_main: %s\n", dlerror());
        return NULL;
    }
    for (int i = 0; i < 3; i++)
        *sum += alpha(i);
    for (int i = 0; i < 5; i++)
        *sum += beta(i);
    return lib;
}

int main(int argc, char **argv)
{
#ifdef HT_WITH_MPI
    MPI_Init(&argc, &argv);
#endif
    if (argc < 3)
        return 2;
    int cycles = atoi(argv[2]);
    const char *mode = argc > 3 ? argv[3] : "";
    long sum = 0;
    int status = 0;
    for (int c = 0; c < cycles && status == 0; c++) {
        void *lib = cycle(argv[1], &sum);
        if (!lib || dlclose(lib) != 0)
            status = 1;
    }
    if (status == 0 && strcmp(mode, "open") == 0 && !cycle(argv[1], &sum))
        status = 1;
    if (status == 0 && strcmp(mode, "delete") == 0 && unlink(argv[1]) != 0)
        status = 1;
#ifdef HT_WITH_MPI
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("dlclose_main: %ld\n", sum);
    MPI_Finalize();
#else
    printf("dlclose_main: %ld\n", sum);
#endif
    return status;
}
