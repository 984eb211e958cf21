/* The entry points GCC, Clang and gfortran call from every function compiled
 * with -finstrument-functions.  Everything here is on the hot path: one global
 * flag, one range check, one TLS load, the tree, one timestamp; and on exit
 * one compare for throttling (throttle.h). */
#include "config.h"

#include <string.h>

#include "hooks/hooks.h"
#include "hooktrace.h"
#include "counters/counters.h"
#include "mpi/poll.h"
#include "throttle/throttle.h"
#include "trace/trace.h"

/* Where the program's hook calls land, for throttling to recognise them. */
static const struct ht_hook_pair own_hooks = {(uintptr_t)&__cyg_profile_func_enter,
                                              (uintptr_t)&__cyg_profile_func_exit,
                                              (uintptr_t)&hooktrace_inlined_calls_in};

/* A program linked with libhooktrace.a pulls in only the objects it
 * references: the hooks.  This reference brings the start-up and shut-down
 * code (and its constructor and destructor) along. */
extern const char ht_runtime_anchor;
__attribute__((used)) static const char *const lifecycle_anchor = &ht_runtime_anchor;
/* The region API (regions.c), which a program references only weakly. */
extern const char ht_regions_anchor;
__attribute__((used)) static const char *const regions_anchor = &ht_regions_anchor;

/* Everything but the two common cases, out of line so that the common path
 * saves no registers: attaching a new thread, reading clock_gettime when
 * there is no invariant TSC, a node not in the last-child cache, polling
 * open MPI requests, tracing, throttling, a pause to catch up with.  hook_site is the hook's return
 * address: where the call to the hook is, should it be rewritten. */

/* A node reached the call count at which throttling looks at it; a thread
 * that traces marks the point in its trace if the function was throttled. */
HT_COLD HT_NOINSTR static void consider(struct ht_thread *t, struct ht_node *node,
                                        uintptr_t exit_site)
{
    if (ht_throttle_consider(t, node, exit_site, &own_hooks) && t->tracing)
        ht_trace_throttled(t, node, ht_clock_now());
}

/* Calls of throttled functions that could not be rewritten (a proof that
 * fails, say for an argument reloaded from a stack slot that a call might
 * have written): each would otherwise go through the tree and try the
 * rewrite again at every call.  Throttling is for good, so a call site
 * found once with a throttled function (a hook's) or scope (a hand-over's)
 * stays found, until code is unmapped (the generation).  The function is
 * part of the key: an unproven site may serve another, not throttled. */
#define DECLINED_SLOTS 16
static __thread struct declined {
    uintptr_t site, function;
} declined_sites[DECLINED_SLOTS] __attribute__((tls_model("initial-exec")));
static __thread uint64_t declined_generation __attribute__((tls_model("initial-exec")));

HT_NOINSTR static inline struct declined *declined_slot(uintptr_t site)
{
    uint64_t generation = __atomic_load_n(&ht_throttle_code_generation, __ATOMIC_RELAXED);
    if (HT_UNLIKELY(declined_generation != generation)) {
        memset(declined_sites, 0, sizeof declined_sites);
        declined_generation = generation;
    }
    return &declined_sites[(site ^ (site >> 7)) & (DECLINED_SLOTS - 1)];
}

HT_NOINSTR static inline bool declined_before(uintptr_t site, uintptr_t function)
{
    const struct declined *d = declined_slot(site);
    return d->site == site && d->function == function;
}

HT_NOINSTR static inline void remember_declined(uintptr_t site, uintptr_t function)
{
    *declined_slot(site) = (struct declined){site, function};
}

HT_COLD HT_NOINSTR static void enter_general(struct ht_thread *t, uintptr_t function, uintptr_t sp,
                                             uintptr_t site, uintptr_t hook_site)
{
    if (t == NULL && (t = ht_thread_attach_entering(function)) == NULL)
        return;
    if (!t->tracing && declined_before(hook_site, function)) {
        t->tree.declined++;
        return;
    }
    if (!ht_hook_begin(t))
        return;
    if (HT_UNLIKELY(t->catch_up))
        ht_runtime_catch_up(t);
    enum ht_tree_move move;
    uint64_t now = HT_TICK_UNKNOWN;
    if (t->tracing) {
        now = ht_clock_now();
        move = ht_trace_enter(t, function, now, sp, site);
    } else {
        /* The last-child cache first, as on the fast path: a thread with
         * open requests comes here for every call. */
        struct ht_node *child = ht_tree_cached_child(&t->tree, function, sp, site);
        if (child) {
            now = ht_clock_now();
            ht_tree_push(&t->tree, child, now, sp, site);
            move = HT_MOVED;
        } else {
            move = ht_tree_enter_slow(&t->tree, function, now, sp, site);
        }
    }
    if (move == HT_THROTTLED) {
        ht_throttle_site_reached(t, hook_site, function, false, &own_hooks);
        remember_declined(hook_site, function);
    } else if (t->counting && move == HT_MOVED)
        ht_counters_entered(t, t->tree.current);
    if (t->poll_requests)
        ht_mpi_poll_from_hook(t, now == HT_TICK_UNKNOWN ? ht_clock_now() : now);
    ht_hook_end(t);
}

HT_COLD HT_NOINSTR static void exit_general(struct ht_thread *t, uintptr_t function,
                                            uintptr_t hook_site)
{
    if (t == NULL) /* an exit without an enter on this thread */
        return;
    /* Not when a call of it entered before its throttling is the one
     * returning: that frame is closed here, as it was opened. */
    if (!t->tracing && ht_node_function(t->tree.current) != function &&
        declined_before(hook_site, function)) {
        t->tree.declined++;
        return;
    }
    if (!ht_hook_begin(t))
        return;
    if (HT_UNLIKELY(t->catch_up))
        ht_runtime_catch_up(t);
    struct ht_node *before = t->tree.current;
    enum ht_tree_move move;
    uint64_t now = HT_TICK_UNKNOWN;
    /* Counted before the tree moves, so the hook's own work is the
     * caller's; only the innermost call returning (the common exit). */
    if (t->counting && before != &t->tree.root && ht_tree_current_if(&t->tree, function))
        ht_counters_left(t, before);
    if (t->tracing) {
        now = ht_clock_now();
        move = ht_trace_exit(t, function, now);
    } else if (ht_tree_current_if(&t->tree, function)) {
        now = ht_clock_now();
        ht_tree_pop(&t->tree, before, now);
        move = HT_MOVED;
    } else {
        move = ht_tree_exit_slow(&t->tree, function, now);
    }
    if (move == HT_MOVED && ht_thread_throttle_look(t, before->calls) &&
        t->tree.current == before->parent)
        consider(t, before, hook_site);
    else if (move == HT_THROTTLED) {
        ht_throttle_site_reached(t, hook_site, function, true, &own_hooks);
        remember_declined(hook_site, function);
    }
    if (t->poll_requests)
        ht_mpi_poll_from_hook(t, now == HT_TICK_UNKNOWN ? ht_clock_now() : now);
    ht_hook_end(t);
}

/* A call that returns while recording is paused (MPI_Pcontrol(0)): the
 * one open since before the pause, if it is the innermost recorded call,
 * ends at the pause's start; any other was entered during the pause and
 * was never recorded.  (A recursive call of the innermost function
 * entered during the pause, returning first, ends it there too: the time
 * is the same, the pause's start.) */
HT_COLD HT_NOINSTR void ht_hook_leave_paused(struct ht_thread *t, uintptr_t function)
{
    if (t == NULL || !ht_hook_begin(t))
        return;
    if (HT_UNLIKELY(t->catch_up))
        ht_runtime_catch_up(t);
    struct ht_node *cur = ht_tree_current_if(&t->tree, function);
    if (cur != NULL) {
        uint64_t at = ht_runtime_pause_start();
        if (at < cur->enter_tick)
            at = cur->enter_tick; /* entered by a hook that raced the pause */
        if (t->counting)
            ht_counters_left(t, cur);
        if (t->tracing)
            ht_trace_exit(t, function, at);
        else
            ht_tree_pop(&t->tree, cur, at);
    }
    ht_hook_end(t);
}

HT_COLD HT_NOINSTR static void exit_not_recording(uintptr_t function)
{
    if (__atomic_load_n(&ht_recording, __ATOMIC_RELAXED) == HT_RECORDING_PAUSED &&
        function - ht_self_text_start >= ht_self_text_size)
        ht_hook_leave_paused(ht_thread_self, function);
}

/* The common paths: recording on, a thread with nothing else to do, an
 * invariant TSC, and (enter) the last child entered from here again, or
 * (exit) the innermost call returning.  The timestamp is taken only once
 * the hook knows it records, so a throttled function whose call could not
 * be rewritten costs no clock read. */
HT_EXPORT HT_NOINSTR void __cyg_profile_func_enter(void *function, void *call_site)
{
    if (HT_UNLIKELY(ht_recording != HT_RECORDING_ON))
        return;
    uintptr_t f = (uintptr_t)function;
    if (HT_UNLIKELY(f - ht_self_text_start < ht_self_text_size))
        return;
    struct ht_thread *t = ht_thread_self;
    uintptr_t sp = HT_CALLER_SP(), site = (uintptr_t)call_site;
    if (HT_LIKELY(t != NULL && ht_clock_uses_tsc && !t->general_path)) {
        struct ht_node *child = ht_tree_cached_child(&t->tree, f, sp, site);
        if (HT_LIKELY(child != NULL)) {
            ht_tree_push(&t->tree, child, __rdtsc(), sp, site);
            return;
        }
    }
    enter_general(t, f, sp, site, (uintptr_t)__builtin_return_address(0));
}

HT_EXPORT HT_NOINSTR void __cyg_profile_func_exit(void *function, void *call_site)
{
    (void)call_site;
    if (HT_UNLIKELY(ht_recording != HT_RECORDING_ON)) {
        exit_not_recording((uintptr_t)function);
        return;
    }
    uintptr_t f = (uintptr_t)function;
    if (HT_UNLIKELY(f - ht_self_text_start < ht_self_text_size))
        return;
    struct ht_thread *t = ht_thread_self;
    if (HT_LIKELY(t != NULL && ht_clock_uses_tsc && !t->general_path)) {
        struct ht_node *cur = ht_tree_current_if(&t->tree, f);
        if (HT_LIKELY(cur != NULL)) {
            ht_tree_pop(&t->tree, cur, __rdtsc());
            if (HT_UNLIKELY(ht_thread_throttle_look(t, cur->calls)))
                consider(t, cur, (uintptr_t)__builtin_return_address(0));
            return;
        }
    }
    exit_general(t, f, (uintptr_t)__builtin_return_address(0));
}

/* The calls of inlined copies the compiler plugins count instead of
 * hooking (docs/plugin.md, "Inlined copies"): handed over before the exit
 * hook of scope, the function or copy they were inlined into, so the
 * current node is scope's.  When it is not because scope is throttled,
 * the copies stop counting with it, and this call is rewritten into a
 * no-op as its hooks were; a NULL scope (a function without hooks of its
 * own, an OpenMP outlined body) counts under whatever is current. */
HT_EXPORT HT_NOINSTR void hooktrace_inlined_calls_in(const void *id, unsigned long count,
                                                     const void *scope)
{
    if (HT_UNLIKELY(ht_recording != HT_RECORDING_ON) || count == 0)
        return;
    uintptr_t site = (uintptr_t)__builtin_return_address(0);
    if (declined_before(site, (uintptr_t)scope))
        return;
    struct ht_thread *t = ht_thread_self;
    if (t == NULL && (t = ht_thread_attach()) == NULL)
        return;
    if (!ht_hook_begin(t))
        return;
    if (scope == NULL || t->tracing || ht_tree_current_if(&t->tree, (uintptr_t)scope))
        ht_tree_count_inlined(&t->tree, (uintptr_t)id, count);
    else if (ht_throttle_declines_counts(t, site, (uintptr_t)id, (uintptr_t)scope, &own_hooks))
        remember_declined(site, (uintptr_t)scope);
    else
        ht_tree_count_inlined(&t->tree, (uintptr_t)id, count);
    ht_hook_end(t);
}

/* The entry point of objects compiled before hand-overs named their scope. */
HT_EXPORT HT_NOINSTR void hooktrace_inlined_calls(const void *id, unsigned long count)
{
    hooktrace_inlined_calls_in(id, count, NULL);
}

HT_EXPORT const char *hooktrace_version(void)
{
    return PACKAGE_VERSION;
}

/* What every object compiled by the `hooktrace` prefix references (its
 * guard, scripts/link_guard.s): a program whose link step does not go
 * through the prefix then fails with "undefined reference to
 * `hooktrace_link_with_the_hooktrace_prefix'" instead of binding libc's
 * empty __cyg_profile_func_enter/exit and writing nothing.  Defined here,
 * beside the hooks, so that in a static link the reference also pulls in the
 * object that defines them. */
HT_EXPORT const char hooktrace_link_with_the_hooktrace_prefix[] =
    "link with the hooktrace prefix (docs/compile.md)";
