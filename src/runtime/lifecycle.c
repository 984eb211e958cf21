/* Start-up before main and shut-down at exit.
 *
 * The constructor runs before the program's own constructors (libhooktrace is
 * a dependency of the executable, so its initialisers run first): a bad
 * config stops the program there, before main, with a non-zero status.  The
 * destructor writes the profile; it runs after main returned or exit() was
 * called, from whatever depth. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack/thread.h"
#include "common/clock.h"
#include "common/library_close.h"
#include "counters/counters.h"
#include "mpit/mpit.h"
#include "runtime/exclusions.h"
#include "runtime/runtime.h"
#include "throttle/throttle.h"
#include "symbols/symbols.h"
#include "trace/trace.h"

const char ht_runtime_anchor = 0; /* see hooks.c */

int ht_recording;
uintptr_t ht_self_text_start, ht_self_text_size;
struct ht_world ht_world;

static struct ht_config config;
static bool started;
static time_t start_time;
static uint64_t start_ns;
static struct timespec start_realtime;
static double hook_pair_seconds;

double ht_runtime_hook_pair_seconds(void)
{
    return hook_pair_seconds;
}

struct timespec ht_runtime_start_realtime(void)
{
    return start_realtime;
}

const struct ht_config *ht_runtime_config(void)
{
    return &config;
}

bool ht_runtime_started(void)
{
    return started;
}

time_t ht_runtime_start_time(void)
{
    return start_time;
}

uint64_t ht_runtime_start_ns(void)
{
    return start_ns;
}

void ht_runtime_restart_clock(void)
{
    start_ns = ht_clock_monotonic_ns();
    start_time = time(NULL);
    clock_gettime(CLOCK_REALTIME, &start_realtime);
}

struct self_search {
    uintptr_t base;
    uintptr_t start, end;
    bool is_main_program;
};

static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct self_search *s = data;
    if (info->dlpi_addr != s->base && !(s->base == 0 && info->dlpi_name[0] == '\0'))
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        uintptr_t hi = lo + ph->p_memsz;
        if (s->start == 0 || lo < s->start)
            s->start = lo;
        if (hi > s->end)
            s->end = hi;
    }
    s->is_main_program = info->dlpi_name[0] == '\0';
    return 1;
}

/* The address range of libhooktrace's own code, which the hooks ignore.  When
 * the library is linked statically it is part of the executable, and we
 * cannot tell its code from the program's: the range stays empty and the
 * build flags alone keep our code uninstrumented. */
static void find_own_code(void)
{
    Dl_info info;
    if (!dladdr((void *)&find_own_code, &info) || !info.dli_fbase)
        return;
    struct self_search s = {.base = (uintptr_t)info.dli_fbase};
    /* dlpi_addr is the load bias, which equals the base for shared objects. */
    dl_iterate_phdr(find_self, &s);
    if (s.is_main_program || s.end <= s.start)
        return;
    ht_self_text_start = s.start;
    ht_self_text_size = s.end - s.start;
}

/* --- what throttling must never touch -------------------------------------- */

/* The functions named by the config (and main), by address: a list the
 * scan fills. */
struct never_scan {
    struct ht_address_list found;
    bool patterns; /* match throttle.never (else: main only) */
};

static bool is_never(const char *name, void *ctx)
{
    const struct never_scan *scan = ctx;
    /* main, and gfortran's name for the main program */
    if (strcmp(name, "main") == 0 || strcmp(name, "MAIN__") == 0)
        return true;
    return scan->patterns && ht_config_function_never_throttled(&config, name);
}

static void add_never(uintptr_t address, void *ctx)
{
    struct never_scan *scan = ctx;
    ht_address_list_add(&scan->found, address);
}

/* A new thread, before it joins the registry: its trace buffer, and the
 * pauses before it, which its tree has nothing of. */
static void prepare_thread(struct ht_thread *t)
{
    ht_trace_attach(t);
    ht_runtime_pause_attach(t);
}

static void setup_throttle(void)
{
    const struct ht_throttle_config *tc = &config.throttle;
    struct never_scan scan = {.patterns = tc->never.count > 0};
    /* Patterns may name functions of any library; main is in the
     * executable, whose table alone is quick to read. */
    if (tc->enabled)
        ht_symbols_scan(!scan.patterns, is_never, add_never, &scan);
    uintptr_t *excluded = NULL;
    size_t nexcluded = 0;
    ht_exclusions_setup(&config, &excluded, &nexcluded);
    struct ht_throttle_settings s = {
        .enabled = tc->enabled,
        .min_calls = tc->min_calls,
        .hook_pair_ns = hook_pair_seconds * 1e9,
        .budget = tc->budget,
        .max_ns_per_call = tc->max_ns_per_call,
        .patch_code = tc->patch_code,
        .never = scan.found.addresses,
        .nnever = scan.found.count,
        .excluded = excluded,
        .nexcluded = nexcluded,
        .exclusions = ht_exclusions_wanted(&config),
        .observer = ht_exclusions_wanted(&config) ? ht_exclusions_function_seen : NULL,
    };
    ht_throttle_setup(&s);
    free(scan.found.addresses);
    free(excluded);
}

/* Whether a secure-execution process says why it is not profiled: only
 * when someone asked for profiling (a HOOKTRACE_* variable, HOOKTRACE_OFF
 * aside), so that a setuid program is otherwise as quiet as without
 * hooktrace. */
static bool secure_note_wanted(void)
{
    extern char **environ;
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, "HOOKTRACE_", 10) == 0 && strncmp(*e, "HOOKTRACE_OFF=", 14) != 0)
            return true;
    return false;
}

__attribute__((constructor(101))) static void hooktrace_start(void)
{
    char err[2048];
    ht_clock_init();
    /* hooktrace's own closes (held MPI components, the demangler) take the
     * same path as the program's dlclose (libraries.c). */
    ht_library_close_register(ht_runtime_dlclose);
    start_ns = ht_clock_monotonic_ns();
    start_time = time(NULL);
    clock_gettime(CLOCK_REALTIME, &start_realtime);
    if (ht_config_from_environment(&config, err, sizeof err) != 0) {
        fprintf(stderr, "hooktrace: %s\n", err);
        fprintf(stderr, "hooktrace: not starting the program; fix the configuration "
                        "(hooktrace-check-config FILE) or set HOOKTRACE_OFF=1\n");
        ht_config_free(&config);
        exit(1);
    }
    if (config.off) {
        if (ht_config_secure_execution() && secure_note_wanted())
            fprintf(stderr, "hooktrace: a setuid or setgid program: not profiled, and the "
                            "HOOKTRACE_* variables are ignored\n");
        return;
    }
    ht_runtime_check_hook_binding();
    ht_thread_max_depth = config.max_stack_depth;
    find_own_code();
    /* Throttling's threshold derives from what a hook pair costs, so it is
     * measured before anything records (under a millisecond); the
     * profile's overhead figure is the same measurement. */
    hook_pair_seconds = ht_overhead_seconds_per_call();
    setup_throttle();
    ht_trace_setup(&config);
    /* PAPI starts only if the config names events; every thread's nodes
     * then carry the events kept. */
    ht_thread_counters = ht_counters_setup(&config);
    /* Every thread, this one first, starts with throttling's first check
     * and its trace buffer. */
    ht_thread_configure(ht_throttle_look_calls, prepare_thread);
    if (!ht_thread_self && !ht_thread_attach())
        return;
    started = true;
    ht_fork_setup();
    ht_mpit_hold_begin(&config);
    ht_signals_start();
    __atomic_store_n(&ht_recording, HT_RECORDING_ON, __ATOMIC_RELEASE);
}

__attribute__((destructor)) static void hooktrace_stop(void)
{
    ht_runtime_finish();
    /* The config stays allocated: hooks of other threads may still read
     * the state derived from it until the process is gone. */
}
