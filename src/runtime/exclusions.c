/* The functions the config excludes (exclude_functions, filter_file) cost
 * what a throttled function costs: their entry addresses are found in the
 * symbol tables at start-up, and as libraries load, and throttling marks
 * them throttled before their first call, so that each of their hook calls
 * is rewritten into a no-op the first time it is reached and they leave
 * no node (docs/config.md, "exclude_functions").  Naming a function in a
 * hook would cost far more than this one scan.  Libraries dlopen loads
 * later are not read: interposing dlopen would make libhooktrace the
 * caller whose RUNPATH the dynamic loader searches, which can change what
 * a program's dlopen finds; their excluded functions are left out of the
 * output only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/exclusions.h"
#include "runtime/runtime.h"
#include "symbols/symbols.h"

struct exclusion_scan {
    const struct ht_config *cfg;
    uintptr_t *addresses;
    size_t count, capacity;
};

static bool excluded(const char *name, const char *symbol, void *ctx)
{
    const struct exclusion_scan *scan = ctx;
    /* main stays: throttling never touches it either (docs/throttle.md);
     * excluded, it is still dropped from the output.  MPI routines are
     * never excluded (ht_config_name_is_mpi): with libhooktrace linked
     * statically, the executable holds their wrappers. */
    if (strcmp(name, "main") == 0 || strcmp(name, "MAIN__") == 0)
        return false;
    return ht_config_function_filtered_out(scan->cfg, name, symbol);
}

static void add(uintptr_t address, const char *symbol, void *ctx)
{
    (void)symbol;
    struct exclusion_scan *scan = ctx;
    if (scan->count == scan->capacity) {
        size_t cap = scan->capacity ? 2 * scan->capacity : 16;
        uintptr_t *v = realloc(scan->addresses, cap * sizeof *v);
        if (!v)
            return;
        scan->addresses = v;
        scan->capacity = cap;
    }
    scan->addresses[scan->count++] = address;
}

/* MPI routines are libhooktrace's wrappers, never instrumented functions:
 * no pattern rewrites them away or leaves them out of the output, and
 * their messages are always counted.  A pattern that matches one may
 * have been meant to, so the user is told once.  The names tried are the
 * routines programs call most. */
static void warn_mpi_patterns(const struct ht_config *cfg)
{
    static const char *const routines[] = {
        "MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Sendrecv", "MPI_Wait",
        "MPI_Waitall", "MPI_Test", "MPI_Barrier", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce",
        "MPI_Gather", "MPI_Allgather", "MPI_Scatter", "MPI_Alltoall", "MPI_Wtime",
        "MPI_Comm_rank", "MPI_Comm_size", "MPI_Init", "MPI_Finalize", "MPI_Probe", "MPI_Iprobe"};
    for (size_t i = 0; i < sizeof routines / sizeof routines[0]; i++) {
        if (ht_regex_list_matches(&cfg->exclude_functions, routines[i])) {
            fprintf(stderr, "hooktrace: \"exclude_functions\" matches the MPI routine %s: MPI "
                            "routines are never filtered out; their stacks, time and messages "
                            "stay in the profile (docs/filter.md)\n",
                    routines[i]);
            return;
        }
    }
}

void ht_exclusions_setup(const struct ht_config *cfg, uintptr_t **addresses, size_t *count)
{
    *addresses = NULL;
    *count = 0;
    bool speaks = ht_runtime_speaks_for_job();
    if (speaks && cfg->region_filter.file_rules_ignored)
        fprintf(stderr, "hooktrace: %s: the %zu file name patterns of SCOREP_FILE_NAMES blocks "
                        "are ignored (hooktrace filters functions by name only)\n",
                cfg->filter_file ? cfg->filter_file : "filter_file",
                cfg->region_filter.file_rules_ignored);
    if (speaks && cfg->exclude_functions.count)
        warn_mpi_patterns(cfg);
    if (!ht_exclusions_wanted(cfg))
        return;
    struct exclusion_scan scan = {.cfg = cfg};
    ht_symbols_scan_named(HT_SCAN_INSTRUMENTED, NULL, excluded, &scan, add, &scan);
    *addresses = scan.addresses;
    *count = scan.count;
}

bool ht_exclusions_wanted(const struct ht_config *cfg)
{
    return cfg->exclude_functions.count > 0 || cfg->region_filter.count > 0;
}
