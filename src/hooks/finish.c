/* Shut-down: stop recording, turn every thread's tree into the profile, name
 * the functions, write the outputs.  Everything expensive happens here. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hooks/hooks.h"
#include "hooks/lifecycle.h"
#include "output/function_table.h"
#include "output/output.h"

/* /proc/self/cmdline holds the arguments separated by NULs. */
static char *read_command_line(void)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (!f)
        return strdup("(unknown)");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (len + 2 > cap) {
            cap = cap ? cap * 2 : 256;
            char *bigger = realloc(buf, cap);
            if (!bigger)
                break;
            buf = bigger;
        }
        buf[len++] = c ? (char)c : ' ';
    }
    fclose(f);
    if (!buf)
        return strdup("(unknown)");
    while (len > 0 && buf[len - 1] == ' ')
        len--;
    buf[len] = '\0';
    return buf;
}

static struct ht_profile_thread *collect_threads(int *count)
{
    int n = 0;
    for (struct ht_thread *t = ht_thread_registry(); t; t = t->next)
        n++;
    struct ht_profile_thread *threads = calloc(n ? (size_t)n : 1, sizeof *threads);
    if (!threads)
        return NULL;
    int i = 0;
    for (struct ht_thread *t = ht_thread_registry(); t && i < n; t = t->next, i++)
        threads[i] = (struct ht_profile_thread){&t->tree, t->index, t->tid};
    *count = n;
    return threads;
}

static void write_profile(uint64_t end_tick, uint64_t end_ns)
{
    const struct ht_config *cfg = ht_lifecycle_config();
    int nthreads = 0;
    struct ht_profile_thread *threads = collect_threads(&nthreads);
    struct ht_symbols *symbols = ht_symbols_open();
    struct ht_function_table *table = ht_function_table_new(symbols, cfg);
    if (!threads || !symbols || !table) {
        fprintf(stderr, "hooktrace: out of memory at exit: no profile written\n");
        goto out;
    }
    for (int i = 0; i < nthreads; i++)
        ht_tree_visit_addresses(threads[i].tree, ht_function_table_add, table);
    if (ht_function_table_resolve(table) != 0) {
        fprintf(stderr, "hooktrace: out of memory at exit: no profile written\n");
        goto out;
    }

    double spt = ht_clock_seconds_per_tick();
    struct ht_profile profile;
    if (ht_profile_build(&profile, threads, ht_thread_count(), end_tick, spt,
                         ht_function_table_lookup, table) != 0) {
        fprintf(stderr, "hooktrace: out of memory at exit: no profile written\n");
        goto out;
    }

    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    char exe_copy[PATH_MAX];
    memcpy(exe_copy, exe, sizeof exe_copy);
    const char *basename_ = cfg->output_basename ? cfg->output_basename
                            : exe[0]             ? basename(exe_copy)
                                                 : "hooktrace";
    char *command = read_command_line();
    double per_call = ht_overhead_seconds_per_call();
    struct ht_run_info run = {
        .command = command ? command : "(unknown)",
        .executable = exe,
        .start_time = ht_lifecycle_start_time(),
        .wall_seconds = (double)(end_ns - ht_lifecycle_start_ns()) * 1e-9,
        .clock_source = ht_clock_source_name(),
        .ticks_per_second = 1.0 / spt,
        .overhead_ns_per_call = per_call * 1e9,
        .overhead_seconds = per_call * (double)profile.instrumented_calls,
    };
    ht_output_write_all(&profile, &run, cfg, basename_);
    free(command);
    ht_profile_free(&profile);
out:
    ht_function_table_free(table);
    if (symbols)
        ht_symbols_close(symbols);
    free(threads);
}

void ht_finish(void)
{
    static int finished;
    if (__atomic_exchange_n(&finished, 1, __ATOMIC_ACQ_REL))
        return;
    if (!ht_lifecycle_started())
        return;
    uint64_t end_tick = ht_clock_now();
    uint64_t end_ns = ht_clock_monotonic_ns();
    __atomic_store_n(&ht_recording, 0, __ATOMIC_RELEASE);
    int saved_errno = errno; /* the program may still look at it */
    write_profile(end_tick, end_ns);
    errno = saved_errno;
}
