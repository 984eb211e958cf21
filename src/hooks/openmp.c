/* libgomp's parallel regions and host teams, as nodes of the call tree
 * (openmp.h says why).  Each wrapper passes the real entry point
 * region_body instead of the program's outlined function; every thread
 * of the team runs it, and it enters a node for the outlined function
 * around the call: on the thread that met the pragma the node sits under
 * the function that contains it, on the other threads of the team it is
 * the root.  The team's threads wait for each other at the end of the
 * region after region_body returns, so a node's time is the thread's
 * time in the region's body; the master's wait is its caller's.
 *
 * Only the entry points GCC 4.9 and later emit are wrapped; the older
 * GOMP_parallel_start/GOMP_parallel_end pair is not (docs/reading.md).
 * A program without libgomp never calls these, so it pays nothing; a
 * region met while nothing is recorded is passed on unchanged. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hooks/openmp.h"
#include "trace/trace.h"

__thread uintptr_t ht_omp_region __attribute__((tls_model("initial-exec")));

HT_COLD HT_NOINSTR static void no_libgomp(const char *name)
{
    static const char prefix[] = "hooktrace: libgomp's ";
    static const char suffix[] = " was not found (neither after libhooktrace nor as libgomp.so.1)\n";
    ssize_t ignored = write(2, prefix, sizeof prefix - 1);
    ignored = write(2, name, strlen(name));
    ignored = write(2, suffix, sizeof suffix - 1);
    (void)ignored;
    abort();
}

HT_COLD HT_NOINSTR void *ht_omp_real(void **slot, const char *name)
{
    void *real = dlsym(RTLD_NEXT, name);
    if (real == NULL) {
        void *gomp = dlopen("libgomp.so.1", RTLD_NOW | RTLD_GLOBAL);
        if (gomp != NULL)
            real = dlsym(gomp, name);
    }
    if (real == NULL)
        no_libgomp(name);
    __atomic_store_n(slot, real, __ATOMIC_RELAXED);
    return real;
}

HT_NOINSTR struct ht_thread *ht_omp_enter(uintptr_t function, uintptr_t sp, uintptr_t site,
                                          bool counted)
{
    if (HT_UNLIKELY(__atomic_load_n(&ht_recording, __ATOMIC_RELAXED) != HT_RECORDING_ON))
        return NULL;
    struct ht_thread *t = ht_thread_self;
    if (t == NULL && (t = ht_thread_attach()) == NULL)
        return NULL;
    if (HT_UNLIKELY(t->catch_up))
        ht_runtime_catch_up(t);
    uint64_t now = ht_clock_now();
    enum ht_tree_move move = HT_UNLIKELY(t->tracing) ? ht_trace_enter(t, function, now, sp, site)
                                                      : ht_tree_enter(&t->tree, function, now, sp, site);
    if (!counted && move == HT_MOVED)
        t->tree.current->calls--;
    return t;
}

HT_NOINSTR void ht_omp_leave(struct ht_thread *t, uintptr_t function)
{
    /* Recording may have stopped meanwhile (another thread called exit):
     * the tree is being read then, as the hooks know. */
    int recording = __atomic_load_n(&ht_recording, __ATOMIC_RELAXED);
    if (HT_UNLIKELY(recording != HT_RECORDING_ON)) {
        if (recording == HT_RECORDING_PAUSED)
            ht_hook_leave_paused(t, function);
        return;
    }
    if (HT_UNLIKELY(t->catch_up))
        ht_runtime_catch_up(t);
    uint64_t now = ht_clock_now();
    if (HT_UNLIKELY(t->tracing))
        ht_trace_exit(t, function, now);
    else
        ht_tree_exit(&t->tree, function, now);
}

/* What region_body is given instead of the program's data.  It lives in
 * the wrapper's frame, which outlasts the region: the real entry point
 * returns only after every thread of the team has left region_body. */
struct region {
    /* GOMP_parallel_reductions reads the reductions' descriptor from the
     * first word of the data it is given: a copy of the program's. */
    void *first_word;
    void (*fn)(void *);
    void *data;
};

HT_NOINSTR static void region_body(void *arg)
{
    const struct region *r = arg;
    uintptr_t fn = (uintptr_t)r->fn;
    struct ht_thread *t = ht_omp_enter(fn, HT_OMP_SP(), (uintptr_t)__builtin_return_address(0), true);
    uintptr_t outer = ht_omp_region;
    ht_omp_region = fn;
    r->fn(r->data);
    ht_omp_region = outer;
    if (t != NULL)
        ht_omp_leave(t, fn);
}

/* Whether to wrap the region: only while recording (a region met before
 * start-up or after the profile is written runs untouched). */
HT_NOINSTR static inline bool region_wrap(struct region *r, void (*fn)(void *), void *data)
{
    if (__atomic_load_n(&ht_recording, __ATOMIC_RELAXED) != HT_RECORDING_ON)
        return false;
    r->first_word = NULL;
    r->fn = fn;
    r->data = data;
    return true;
}

/* The real entry points, looked up on first use. */
static void *real_parallel, *real_parallel_reductions, *real_parallel_sections, *real_teams_reg;
static void *real_loop_static, *real_loop_dynamic, *real_loop_guided, *real_loop_runtime;
static void *real_loop_nonmonotonic_dynamic, *real_loop_nonmonotonic_guided;
static void *real_loop_nonmonotonic_runtime, *real_loop_maybe_nonmonotonic_runtime;

typedef void (*outlined_fn)(void *);
typedef void (*parallel_fn)(outlined_fn, void *, unsigned, unsigned);
typedef unsigned (*parallel_reductions_fn)(outlined_fn, void *, unsigned, unsigned);
typedef void (*parallel_sections_fn)(outlined_fn, void *, unsigned, unsigned, unsigned);
typedef void (*teams_reg_fn)(outlined_fn, void *, unsigned, unsigned, unsigned);
typedef void (*loop_chunked_fn)(outlined_fn, void *, unsigned, long, long, long, long, unsigned);
typedef void (*loop_unchunked_fn)(outlined_fn, void *, unsigned, long, long, long, unsigned);

#define REAL(type, slot, name) ((type)ht_omp_real_cached(&(slot), (name)))

HT_EXPORT HT_NOINSTR void GOMP_parallel(outlined_fn fn, void *data, unsigned num_threads,
                                        unsigned flags)
{
    parallel_fn real = REAL(parallel_fn, real_parallel, "GOMP_parallel");
    struct region r;
    if (region_wrap(&r, fn, data))
        real(region_body, &r, num_threads, flags);
    else
        real(fn, data, num_threads, flags);
}

/* `parallel reduction(task, ...)` (OpenMP 5.0). */
HT_EXPORT HT_NOINSTR unsigned GOMP_parallel_reductions(outlined_fn fn, void *data,
                                                       unsigned num_threads, unsigned flags)
{
    parallel_reductions_fn real =
        REAL(parallel_reductions_fn, real_parallel_reductions, "GOMP_parallel_reductions");
    struct region r;
    if (!region_wrap(&r, fn, data))
        return real(fn, data, num_threads, flags);
    if (data != NULL)
        memcpy(&r.first_word, data, sizeof r.first_word);
    return real(region_body, &r, num_threads, flags);
}

HT_EXPORT HT_NOINSTR void GOMP_parallel_sections(outlined_fn fn, void *data, unsigned num_threads,
                                                 unsigned count, unsigned flags)
{
    parallel_sections_fn real =
        REAL(parallel_sections_fn, real_parallel_sections, "GOMP_parallel_sections");
    struct region r;
    if (region_wrap(&r, fn, data))
        real(region_body, &r, num_threads, count, flags);
    else
        real(fn, data, num_threads, count, flags);
}

/* Host teams: libgomp runs the outlined function once per team on the
 * calling thread, so the node counts one call per team under the caller. */
HT_EXPORT HT_NOINSTR void GOMP_teams_reg(outlined_fn fn, void *data, unsigned num_teams,
                                         unsigned thread_limit, unsigned flags)
{
    teams_reg_fn real = REAL(teams_reg_fn, real_teams_reg, "GOMP_teams_reg");
    struct region r;
    if (region_wrap(&r, fn, data))
        real(region_body, &r, num_teams, thread_limit, flags);
    else
        real(fn, data, num_teams, thread_limit, flags);
}

/* The combined `parallel for` entry points GCC emits when the loop's
 * bounds are known at the pragma (the static schedule is computed in the
 * outlined function and goes through GOMP_parallel). */
#define LOOP_CHUNKED(name, slot)                                                              \
    HT_EXPORT HT_NOINSTR void name(outlined_fn fn, void *data, unsigned num_threads, long start, \
                                   long end, long incr, long chunk_size, unsigned flags)     \
    {                                                                                         \
        loop_chunked_fn real = REAL(loop_chunked_fn, slot, #name);                            \
        struct region r;                                                                      \
        if (region_wrap(&r, fn, data))                                                        \
            real(region_body, &r, num_threads, start, end, incr, chunk_size, flags);          \
        else                                                                                  \
            real(fn, data, num_threads, start, end, incr, chunk_size, flags);                 \
    }

#define LOOP_UNCHUNKED(name, slot)                                                            \
    HT_EXPORT HT_NOINSTR void name(outlined_fn fn, void *data, unsigned num_threads, long start, \
                                   long end, long incr, unsigned flags)                      \
    {                                                                                         \
        loop_unchunked_fn real = REAL(loop_unchunked_fn, slot, #name);                        \
        struct region r;                                                                      \
        if (region_wrap(&r, fn, data))                                                        \
            real(region_body, &r, num_threads, start, end, incr, flags);                      \
        else                                                                                  \
            real(fn, data, num_threads, start, end, incr, flags);                             \
    }

LOOP_CHUNKED(GOMP_parallel_loop_static, real_loop_static)
LOOP_CHUNKED(GOMP_parallel_loop_dynamic, real_loop_dynamic)
LOOP_CHUNKED(GOMP_parallel_loop_guided, real_loop_guided)
LOOP_CHUNKED(GOMP_parallel_loop_nonmonotonic_dynamic, real_loop_nonmonotonic_dynamic)
LOOP_CHUNKED(GOMP_parallel_loop_nonmonotonic_guided, real_loop_nonmonotonic_guided)
LOOP_UNCHUNKED(GOMP_parallel_loop_runtime, real_loop_runtime)
LOOP_UNCHUNKED(GOMP_parallel_loop_nonmonotonic_runtime, real_loop_nonmonotonic_runtime)
LOOP_UNCHUNKED(GOMP_parallel_loop_maybe_nonmonotonic_runtime, real_loop_maybe_nonmonotonic_runtime)
