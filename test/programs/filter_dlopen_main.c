/* Functions a config excludes in a library loaded with dlopen after
 * start-up (test/integration/filter_dlopen.py, docs/filter.md).
 *
 * Usage: filter_dlopen_main LIBRARY CYCLES N
 * Each cycle dlopens LIBRARY (whose constructor calls fd_helper 1000
 * times), calls fd_sweep(N) (fd_helper N times, fd_kept 10 times) and
 * dlcloses it.  Prints the sum. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long (*sweep_fn)(unsigned long);

__attribute__((noinline)) static int cycle(const char *path, unsigned long n, unsigned long *sum)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void *sym = lib ? dlsym(lib, "fd_sweep") : NULL;
    void *init = lib ? dlsym(lib, "fd_from_init") : NULL;
    if (!sym || !init) {
        fprintf(stderr, "filter_dlopen_main: %s\n", dlerror());
        return 1;
    }
    sweep_fn sweep;
    memcpy(&sweep, &sym, sizeof sweep);
    *sum += sweep(n) + *(unsigned long *)init;
    return dlclose(lib) != 0;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int cycles = atoi(argv[2]);
    unsigned long n = strtoul(argv[3], NULL, 10), sum = 0;
    for (int c = 0; c < cycles; c++)
        if (cycle(argv[1], n, &sum) != 0)
            return 1;
    printf("filter_dlopen_main: %lu\n", sum);
    return 0;
}
