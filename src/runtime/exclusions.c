/* The functions the config excludes (exclude_functions, filter_file) cost
 * what a throttled function costs: their entry addresses are found in the
 * symbol tables, and throttling marks them throttled before their first
 * call, so that each of their hook calls is rewritten into a no-op the
 * first time it is reached and they leave no node (docs/filter.md).
 * Naming a function in a hook would cost far more than these scans.
 *
 * At start-up the executable and the libraries loaded then that call the
 * hooks are read.  A library loaded later (dlopen) is read when the first
 * of its functions is about to get a node: the registry asks this file's
 * observer about every function before its first node, and a function
 * outside the objects read so far makes the observer find its object
 * (_dl_find_object: lock-free) and read that object's symbol table, on
 * the thread that reached it, before the node is made.  Interposing
 * dlopen instead would make libhooktrace the caller whose RUNPATH and
 * namespace the dynamic loader uses, which can change what the program's
 * dlopen finds.
 *
 * One thread reads at a time.  A thread that finds another reading waits
 * for it, but for at most WAIT_NS: the reader may need the dynamic
 * loader's lock (the demangler's dlopen of libstdc++), which a thread
 * running a library's constructors holds.  Past that its function gets
 * its node and is asked about again at its next new node; if it is
 * excluded, it is recorded (and left out of the output) until its object
 * is read, which throttles it and tags that node. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack/thread.h"
#include "common/clock.h"
#include "runtime/exclusions.h"
#include "runtime/runtime.h"
#include "symbols/symbols.h"
#include "throttle/throttle.h"

struct exclusion_scan {
    const struct ht_config *cfg;
    struct ht_address_list found;
    uintptr_t bias; /* the one object read (a library loaded later) */
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
    ht_address_list_add(&scan->found, address);
}

/* --- the objects read ---------------------------------------------------- */

/* Their extents, [lo, hi): filled at start-up, then by the one thread
 * holding `reading`; an entry dlclose unmapped has hi 0 and is reused.
 * Readers take no lock: hi is written last (release) and read first. */
#define MAX_OBJECTS 4096
static struct extent {
    uintptr_t lo, hi;
} objects[MAX_OBJECTS];
static size_t nobjects;
static int reading;
#define WAIT_NS 500000000ull
static bool table_full; /* no room left: libraries loaded later are not read */
static const struct ht_config *config;

static bool object_known(uintptr_t address)
{
    size_t n = __atomic_load_n(&nobjects, __ATOMIC_ACQUIRE);
    for (size_t i = 0; i < n; i++) {
        uintptr_t hi = __atomic_load_n(&objects[i].hi, __ATOMIC_ACQUIRE);
        if (address < hi && address >= __atomic_load_n(&objects[i].lo, __ATOMIC_ACQUIRE) &&
            __atomic_load_n(&objects[i].hi, __ATOMIC_ACQUIRE) == hi)
            return true;
    }
    return false;
}

/* By the thread holding `reading` (or at start-up). */
static void note_object(uintptr_t lo, uintptr_t hi)
{
    size_t n = __atomic_load_n(&nobjects, __ATOMIC_RELAXED), i = 0;
    while (i < n && __atomic_load_n(&objects[i].hi, __ATOMIC_ACQUIRE) != 0)
        i++;
    if (i == MAX_OBJECTS) {
        table_full = true;
        return;
    }
    __atomic_store_n(&objects[i].lo, lo, __ATOMIC_RELAXED);
    __atomic_store_n(&objects[i].hi, hi, __ATOMIC_RELEASE);
    if (i == n)
        __atomic_store_n(&nobjects, n + 1, __ATOMIC_RELEASE);
}

static int note_loaded(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    (void)ctx;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t a = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    if (hi > lo)
        note_object(lo, hi);
    return 0;
}

void ht_exclusions_unmapped(uintptr_t lo, uintptr_t hi)
{
    size_t n = __atomic_load_n(&nobjects, __ATOMIC_ACQUIRE);
    for (size_t i = 0; i < n; i++) {
        uintptr_t h = __atomic_load_n(&objects[i].hi, __ATOMIC_ACQUIRE);
        if (h != 0 && h > lo && __atomic_load_n(&objects[i].lo, __ATOMIC_ACQUIRE) < hi)
            __atomic_compare_exchange_n(&objects[i].hi, &h, 0, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED);
    }
}

void ht_exclusions_after_fork(void)
{
    /* A thread of the parent's that was reading is not in the child. */
    __atomic_store_n(&reading, 0, __ATOMIC_RELEASE);
}

/* --- libraries loaded later ---------------------------------------------- */

/* Takes `reading`, waiting WAIT_NS at most for another thread's reading. */
static bool take_reading(void)
{
    if (!__atomic_exchange_n(&reading, 1, __ATOMIC_ACQUIRE))
        return true;
    uint64_t deadline = ht_clock_monotonic_ns() + WAIT_NS;
    do {
        sched_yield();
        if (!__atomic_load_n(&reading, __ATOMIC_RELAXED) &&
            !__atomic_exchange_n(&reading, 1, __ATOMIC_ACQUIRE))
            return true;
    } while (ht_clock_monotonic_ns() < deadline);
    return false;
}

static bool is_the_object(uintptr_t bias, const char *path, void *ctx)
{
    (void)path;
    return bias == ((const struct exclusion_scan *)ctx)->bias;
}

bool ht_exclusions_function_seen(uintptr_t address)
{
    if (object_known(address))
        return true;
    struct dl_find_object found;
    if (_dl_find_object((void *)address, &found) != 0 || !found.dlfo_link_map)
        return true; /* in no object (generated code): nothing to read */
    if (!take_reading())
        return false; /* another thread still reads one: asked again later */
    if (!object_known(address) && !table_full) {
        uint64_t start = ht_clock_now();
        struct exclusion_scan scan = {.cfg = config, .bias = found.dlfo_link_map->l_addr};
        ht_symbols_scan_named(HT_SCAN_INSTRUMENTED, is_the_object, excluded, &scan, add, &scan);
        ht_throttle_exclude(scan.found.addresses, scan.found.count);
        free(scan.found.addresses);
        note_object((uintptr_t)found.dlfo_map_start, (uintptr_t)found.dlfo_map_end);
        /* The reading is hooktrace's time, not the calls open around it
         * (as throttling does with its rewriting). */
        struct ht_thread *t = ht_thread_self;
        uint64_t now = ht_clock_now();
        if (t && !t->tracing && now > start)
            ht_tree_exclude_ticks(&t->tree, now - start);
    }
    __atomic_store_n(&reading, 0, __ATOMIC_RELEASE);
    return true;
}

void ht_address_list_add(struct ht_address_list *list, uintptr_t address)
{
    if (list->count == list->capacity) {
        size_t cap = list->capacity ? 2 * list->capacity : 16;
        uintptr_t *v = realloc(list->addresses, cap * sizeof *v);
        if (!v)
            return;
        list->addresses = v;
        list->capacity = cap;
    }
    list->addresses[list->count++] = address;
}

/* --- start-up ------------------------------------------------------------ */

/* MPI routines are libhooktrace's wrappers, never instrumented functions:
 * nothing rewrites them away, their messages are always counted, and only
 * an entry that names one whole ("^MPI_Wtime$") leaves it out of the
 * output.  A pattern that merely matches one may have been meant to, so
 * the user is told once.  The names tried are the routines programs call
 * most. */
static void warn_mpi_patterns(const struct ht_config *cfg)
{
    static const char *const routines[] = {
        "MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Sendrecv", "MPI_Wait",
        "MPI_Waitall", "MPI_Test", "MPI_Barrier", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce",
        "MPI_Gather", "MPI_Allgather", "MPI_Scatter", "MPI_Alltoall", "MPI_Wtime",
        "MPI_Comm_rank", "MPI_Comm_size", "MPI_Init", "MPI_Finalize", "MPI_Probe", "MPI_Iprobe"};
    for (size_t i = 0; i < sizeof routines / sizeof routines[0]; i++) {
        if (ht_regex_list_matches(&cfg->exclude_functions, routines[i]) &&
            !ht_regex_list_names(&cfg->exclude_functions, routines[i])) {
            fprintf(stderr, "hooktrace: \"exclude_functions\" matches the MPI routine %s: MPI "
                            "routines are never filtered out by a pattern that matches them; "
                            "their stacks, time and messages stay in the profile (\"^%s$\", "
                            "the whole name, leaves it out of the output; docs/filter.md)\n",
                    routines[i], routines[i]);
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
    config = cfg;
    struct exclusion_scan scan = {.cfg = cfg};
    ht_symbols_scan_named(HT_SCAN_INSTRUMENTED, NULL, excluded, &scan, add, &scan);
    dl_iterate_phdr(note_loaded, NULL);
    *addresses = scan.found.addresses;
    *count = scan.found.count;
}

bool ht_exclusions_wanted(const struct ht_config *cfg)
{
    return cfg->exclude_functions.count > 0 || cfg->region_filter.count > 0;
}
