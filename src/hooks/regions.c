/* Regions the program names: hooktrace_region_begin/end from C and C++
 * (include/hooktrace.h) and hooktrace_region_begin_/end_ from Fortran
 * (use hooktrace, or a plain call: gfortran passes the name's length after
 * it).  A region is a node of the thread's tree, entered and left like a
 * function, so that what runs inside it is attributed below it
 * (docs/regions.md).
 *
 * The node takes the stack address and call site of the call it opens in
 * (tree.h, ht_tree_call_was_left): the tree then sees it as a copy inlined
 * there, as it sees a function inlined into that one.  So the region is
 * not taken for a call made after a longjmp, nor for one left by what runs
 * inside it: a callee's stack address is lower, and a function inlined
 * into the opener (or a region nested in the same frame) has the same
 * address and site. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hooks/hooks.h"
#include "callstack/regions.h"
#include "counters/counters.h"
#include "mpi/poll.h"
#include "trace/trace.h"

/* What hooks.c references, so that a static link brings this file along. */
const char ht_regions_anchor = 0;

/* Per thread, the names met last by where they are in memory: a string
 * literal then costs a comparison with its record's bytes, not a hash and
 * a lookup. */
#define CACHE_SLOTS 16
static __thread struct cached {
    const char *name;
    size_t length;
    struct ht_region *region;
} cache[CACHE_SLOTS] __attribute__((tls_model("initial-exec")));

HT_NOINSTR static struct ht_region *region_of(const char *name, size_t length)
{
    struct cached *c = &cache[((uintptr_t)name >> 3) % CACHE_SLOTS];
    if (HT_LIKELY(c->name == name && c->length == length && c->region != NULL &&
                  memcmp(c->region->name, name, length) == 0))
        return c->region;
    struct ht_region *r = ht_regions_intern(name, length);
    if (r)
        *c = (struct cached){name, length, r};
    return r;
}

/* Whether the C string s is name: inline, since names are short and a
 * call to the library's vector strcmp costs more than the loop. */
HT_NOINSTR static inline bool same_name(const char *s, const char *name)
{
    while (*s == *name) {
        if (*s == '\0')
            return true;
        s++;
        name++;
    }
    return false;
}

/* The same for a C string, in one pass over it when it is the one cached
 * at its address (it still holds the name it had then). */
HT_NOINSTR static struct ht_region *region_of_string(const char *name)
{
    const struct cached *c = &cache[((uintptr_t)name >> 3) % CACHE_SLOTS];
    if (HT_LIKELY(c->name == name && c->region != NULL && same_name(name, c->region->name)))
        return c->region;
    return name ? region_of(name, strlen(name)) : NULL;
}

HT_COLD HT_NOINSTR static void say(const char *a, const char *b, const char *c)
{
    char line[512];
    int n = snprintf(line, sizeof line, "hooktrace: %s%s%s\n", a, b, c);
    if (n > (int)sizeof line - 1)
        n = sizeof line - 1;
    ssize_t ignored = write(2, line, (size_t)n);
    (void)ignored;
}

HT_COLD HT_NOINSTR static void unnamed(void)
{
    static int said;
    if (__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED) == 0)
        say("a region without a name (a null or empty name) was ignored", "", " (said once)");
}

/* An end that did not close the innermost open region, said once per name. */
HT_COLD HT_NOINSTR static void mismatched(struct ht_region *r, enum ht_tree_move move)
{
    if (__atomic_exchange_n(&r->warned, 1, __ATOMIC_RELAXED) != 0)
        return;
    if (move == HT_UNWOUND)
        say("hooktrace_region_end(\"", r->name,
            "\") came while calls or regions opened inside it were still open: they end "
            "with it (said once per region name; docs/regions.md)");
    else
        say("hooktrace_region_end(\"", r->name,
            "\") came while no region of that name was open on this thread: ignored (said "
            "once per region name; docs/regions.md)");
}

/* r NULL: the name was null or empty (or memory ran out). */
HT_NOINSTR static void region_enter(struct ht_region *r)
{
    if (HT_UNLIKELY(r == NULL)) {
        unnamed();
        return;
    }
    struct ht_thread *t = ht_thread_self;
    if (t == NULL && (t = ht_thread_attach()) == NULL)
        return;
    if (!ht_hook_begin(t))
        return;
    if (HT_UNLIKELY(t->catch_up))
        ht_runtime_catch_up(t);
    uintptr_t f = (uintptr_t)r;
    uintptr_t sp = t->tree.current->enter_sp, site = t->tree.current->enter_site;
    uint64_t now = ht_clock_now();
    enum ht_tree_move move = HT_UNLIKELY(t->tracing) ? ht_trace_enter(t, f, now, sp, site)
                                                      : ht_tree_enter(&t->tree, f, now, sp, site);
    if (move == HT_MOVED) {
        t->tree.current->flags |= HT_NODE_NAMED_REGION;
        if (HT_UNLIKELY(t->counting))
            ht_counters_entered(t, t->tree.current);
    }
    if (t->poll_requests)
        ht_mpi_poll_from_hook(t, now);
    ht_hook_end(t);
}

HT_NOINSTR static void region_leave(struct ht_region *r)
{
    if (HT_UNLIKELY(r == NULL)) {
        unnamed();
        return;
    }
    struct ht_thread *t = ht_thread_self;
    if (__atomic_load_n(&ht_recording, __ATOMIC_RELAXED) == HT_RECORDING_PAUSED) {
        /* A region open since before the pause ends at its start; one begun
         * during it was never recorded. */
        ht_hook_leave_paused(t, (uintptr_t)r);
        return;
    }
    if (t == NULL) {
        mismatched(r, HT_IGNORED);
        return;
    }
    if (!ht_hook_begin(t))
        return;
    if (HT_UNLIKELY(t->catch_up))
        ht_runtime_catch_up(t);
    uintptr_t f = (uintptr_t)r;
    if (HT_UNLIKELY(t->counting) && ht_tree_current_if(&t->tree, f))
        ht_counters_left(t, t->tree.current);
    uint64_t now = ht_clock_now();
    enum ht_tree_move move = HT_UNLIKELY(t->tracing) ? ht_trace_exit(t, f, now)
                                                      : ht_tree_exit(&t->tree, f, now);
    if (HT_UNLIKELY(move != HT_MOVED))
        mismatched(r, move);
    if (t->poll_requests)
        ht_mpi_poll_from_hook(t, now);
    ht_hook_end(t);
}

HT_EXPORT HT_NOINSTR void(hooktrace_region_begin)(const char *name)
{
    if (HT_LIKELY(ht_recording == HT_RECORDING_ON))
        region_enter(region_of_string(name));
}

HT_EXPORT HT_NOINSTR void(hooktrace_region_end)(const char *name)
{
    if (HT_LIKELY(ht_recording != HT_RECORDING_OFF))
        region_leave(region_of_string(name));
}

/* A phase is named "phase:<name>" in the tree, so that it never takes a
 * region's or a function's node; longer names are cut at 255 bytes. */
HT_NOINSTR static void phase(const char *name, size_t length)
{
    if (name == NULL || length == 0) {
        static int said;
        if (__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED) == 0)
            say("a phase without a name (a null or empty name) was ignored", "", " (said once)");
        return;
    }
    char full[6 + 256];
    if (length > 255)
        length = 255;
    memcpy(full, "phase:", 6);
    memcpy(full + 6, name, length);
    struct ht_region *r = ht_regions_intern(full, 6 + length);
    if (r != NULL)
        ht_runtime_begin_phase((uintptr_t)r);
}

HT_EXPORT HT_NOINSTR void(hooktrace_phase)(const char *name)
{
    if (ht_recording != HT_RECORDING_OFF)
        phase(name, name ? strlen(name) : 0);
}

/* Fortran's blank padding is not part of the name. */
HT_NOINSTR static size_t trimmed(const char *name, size_t length)
{
    while (length > 0 && name[length - 1] == ' ')
        length--;
    return length;
}

HT_EXPORT HT_NOINSTR void hooktrace_region_begin_(const char *name, size_t length)
{
    if (HT_LIKELY(ht_recording == HT_RECORDING_ON))
        region_enter(name ? region_of(name, trimmed(name, length)) : NULL);
}

HT_EXPORT HT_NOINSTR void hooktrace_phase_(const char *name, size_t length)
{
    if (ht_recording != HT_RECORDING_OFF)
        phase(name, name ? trimmed(name, length) : 0);
}

HT_EXPORT HT_NOINSTR void hooktrace_region_end_(const char *name, size_t length)
{
    if (HT_LIKELY(ht_recording != HT_RECORDING_OFF))
        region_leave(name ? region_of(name, trimmed(name, length)) : NULL);
}
