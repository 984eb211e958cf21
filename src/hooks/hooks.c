/* The entry points GCC, Clang and gfortran call from every function compiled
 * with -finstrument-functions.  Everything here is on the hot path: one global
 * flag, one range check, one TLS load, one timestamp, then the tree. */
#include "config.h"

#include "hooks/hooks.h"
#include "hooktrace.h"
#include "trace/trace.h"

int ht_recording;
uintptr_t ht_self_text_start, ht_self_text_size;

/* A program linked with libhooktrace.a pulls in only the objects it
 * references: the hooks.  This reference brings the start-up and shut-down
 * code (and its constructor and destructor) along. */
extern const char ht_lifecycle_anchor;
__attribute__((used)) static const char *const lifecycle_anchor = &ht_lifecycle_anchor;

/* The hook paths that call functions (attaching a new thread, reading
 * clock_gettime when there is no invariant TSC, polling open MPI requests,
 * tracing) live out of line, so the common path saves no registers. */
HT_COLD HT_NOINSTR static void enter_general(uintptr_t function, uintptr_t sp, uintptr_t site)
{
    struct ht_thread *t = ht_thread_self;
    if (t == NULL && (t = ht_thread_attach()) == NULL)
        return;
    uint64_t now = ht_clock_now();
    if (t->tracing)
        ht_trace_enter(t, function, now, sp, site);
    else
        ht_tree_enter(&t->tree, function, now, sp, site);
    if (t->poll_requests)
        ht_mpi_poll_from_hook(t, now);
}

HT_COLD HT_NOINSTR static void exit_general(uintptr_t function)
{
    struct ht_thread *t = ht_thread_self;
    if (t == NULL) /* an exit without an enter on this thread */
        return;
    uint64_t now = ht_clock_now();
    if (t->tracing)
        ht_trace_exit(t, function, now);
    else
        ht_tree_exit(&t->tree, function, now);
    if (t->poll_requests)
        ht_mpi_poll_from_hook(t, now);
}

HT_EXPORT HT_NOINSTR void __cyg_profile_func_enter(void *function, void *call_site)
{
    if (HT_UNLIKELY(!ht_recording))
        return;
    uintptr_t f = (uintptr_t)function;
    if (HT_UNLIKELY(f - ht_self_text_start < ht_self_text_size))
        return;
    struct ht_thread *t = ht_thread_self;
    if (HT_UNLIKELY(t == NULL || !ht_clock_uses_tsc || t->general_path)) {
        enter_general(f, HT_CALLER_SP(), (uintptr_t)call_site);
        return;
    }
    ht_tree_enter(&t->tree, f, __rdtsc(), HT_CALLER_SP(), (uintptr_t)call_site);
}

HT_EXPORT HT_NOINSTR void __cyg_profile_func_exit(void *function, void *call_site)
{
    (void)call_site;
    if (HT_UNLIKELY(!ht_recording))
        return;
    uintptr_t f = (uintptr_t)function;
    if (HT_UNLIKELY(f - ht_self_text_start < ht_self_text_size))
        return;
    struct ht_thread *t = ht_thread_self;
    if (HT_UNLIKELY(t == NULL || !ht_clock_uses_tsc || t->general_path)) {
        exit_general(f);
        return;
    }
    ht_tree_exit(&t->tree, f, __rdtsc());
}

HT_EXPORT const char *hooktrace_version(void)
{
    return PACKAGE_VERSION;
}
