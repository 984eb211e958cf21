/* libgomp's explicit tasks and taskloops, as nodes of the call tree
 * (openmp.h).  A task runs later, on whichever thread of the team takes
 * it, or at once on the thread that creates it, from a copy of its data
 * that libgomp makes (arg_size bytes aligned to arg_align, by memcpy or by
 * the program's cpyfn).  So the wrapper gives libgomp a block that starts
 * with a header saying which outlined function to run, followed by the
 * program's data at an offset that keeps its alignment; task_body, run
 * in the task's place, enters the node and calls the outlined function
 * with the program's part of the block.
 *
 * libgomp itself reads and writes a few words at the start of the block,
 * which the header therefore mirrors: a taskloop's bounds (two words that
 * it writes into every task's block), a taskloop reduction's descriptor
 * (the third word, read at creation) and a detached task's event (the
 * first word, written at creation).  The if clause, the flags, the depend
 * and priority arguments and the detach handle are passed on untouched.
 *
 * A task created in a region but run after the region's body returned on
 * that thread (at the barrier that ends the region) enters the region's
 * node again first, without counting a call, so that the task is under
 * the region on every thread. */
#define _GNU_SOURCE
#include <stdalign.h>
#include <stddef.h>
#include <string.h>

#include "hooks/openmp.h"

/* libgomp's GOMP_TASK_FLAG_* (gomp-constants.h) that concern the data. */
#define TASK_FLAG_REDUCTION (1u << 12)
#define TASK_FLAG_DETACH (1u << 13)

/* A task without a copy function whose data is larger is passed on
 * unwrapped (not a node): its data would be copied once more in the
 * creating thread's stack frame. */
#define MAX_COPIED_DATA 16384

/* What task_body must carry into the program's part before running it. */
enum { CARRY_BOUNDS = 1, CARRY_EVENT = 2 };

struct task_header {
    /* libgomp writes a taskloop task's first and last iteration here
     * (long or unsigned long long), and a detached task's event into the
     * first word. */
    uint64_t bounds[2];
    void *reduction;       /* a taskloop reduction's descriptor, read here */
    void (*fn)(void *);    /* the program's outlined function */
    uintptr_t region;      /* ht_omp_region where the task was created */
    uint32_t offset;       /* where the program's part starts */
    uint32_t carry;        /* CARRY_* */
};

/* What a wrapped copy function is given as its source. */
struct copy_source {
    struct task_header header; /* first: libgomp writes and reads it */
    void (*cpyfn)(void *, void *);
    void *data;
};

HT_NOINSTR static void task_body(void *arg)
{
    const struct task_header *h = arg;
    char *data = (char *)arg + h->offset;
    if (h->carry & CARRY_BOUNDS)
        memcpy(data, h->bounds, sizeof h->bounds);
    else if (h->carry & CARRY_EVENT)
        memcpy(data, h->bounds, sizeof(void *));
    uintptr_t fn = (uintptr_t)h->fn, region = h->region, outer = ht_omp_region;
    uintptr_t sp = HT_OMP_SP(), site = (uintptr_t)__builtin_return_address(0);
    struct ht_thread *in_region = NULL;
    if (region != 0 && region != outer) {
        in_region = ht_omp_enter(region, sp, site, false);
        ht_omp_region = region;
    }
    struct ht_thread *t = ht_omp_enter(fn, sp, site, true);
    h->fn(data);
    if (t != NULL)
        ht_omp_leave(t, fn);
    if (in_region != NULL)
        ht_omp_leave(in_region, region);
    ht_omp_region = outer;
}

/* libgomp calls this instead of the program's cpyfn, with the block it
 * allocated (aligned as asked) and the copy_source the wrapper passed. */
HT_NOINSTR static void copy_wrapped(void *block, void *source)
{
    const struct copy_source *s = source;
    memcpy(block, &s->header, sizeof s->header);
    /* libgomp wrote the event into the source's first word, where the
     * program's copy function expects it in the program's data. */
    if (s->header.carry & CARRY_EVENT)
        memcpy(s->data, s->header.bounds, sizeof(void *));
    s->cpyfn((char *)block + s->header.offset, s->data);
}

/* The layout of the wrapped block: the header, then the program's data
 * at a multiple of its alignment.  False if the arguments are not what
 * GCC emits (then the task is passed on unwrapped). */
HT_NOINSTR static bool task_layout(struct task_header *h, long arg_size, long arg_align,
                                   long *size, long *align)
{
    if (arg_size < 0 || arg_align < 1 || (arg_align & (arg_align - 1)) != 0 || arg_align > 4096)
        return false;
    long offset = ((long)sizeof *h + arg_align - 1) & ~(arg_align - 1);
    h->offset = (uint32_t)offset;
    *size = offset + arg_size;
    *align = arg_align > (long)alignof(struct task_header) ? arg_align
                                                           : (long)alignof(struct task_header);
    return true;
}

/* Fills the header; false if the task is to be passed on unwrapped. */
HT_NOINSTR static bool task_wrap(struct task_header *h, void (*fn)(void *),
                                 void (*cpyfn)(void *, void *), long arg_size, long arg_align,
                                 long *size, long *align)
{
    if (__atomic_load_n(&ht_recording, __ATOMIC_RELAXED) != HT_RECORDING_ON)
        return false;
    if (cpyfn == NULL && arg_size > MAX_COPIED_DATA)
        return false;
    memset(h, 0, sizeof *h);
    if (!task_layout(h, arg_size, arg_align, size, align))
        return false;
    h->fn = fn;
    h->region = ht_omp_region;
    return true;
}

typedef void (*task_fn)(void (*)(void *), void *, void (*)(void *, void *), long, long, bool,
                        unsigned, void **, int, void *);
static void *real_task;

/* GCC 6 and later pass priority, GCC 11 and later detach; code from an
 * older GCC does not, and then the flags tell libgomp to read neither, so
 * passing on whatever is in their registers is harmless. */
HT_EXPORT HT_NOINSTR void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                                    long arg_size, long arg_align, bool if_clause, unsigned flags,
                                    void **depend, int priority, void *detach)
{
    task_fn real = (task_fn)ht_omp_real_cached(&real_task, "GOMP_task");
    struct task_header h;
    long size, align;
    if (!task_wrap(&h, fn, cpyfn, arg_size, arg_align, &size, &align)) {
        real(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
        return;
    }
    if ((flags & TASK_FLAG_DETACH) && data != NULL && arg_size >= (long)sizeof(void *))
        h.carry = CARRY_EVENT;
    if (cpyfn != NULL) {
        struct copy_source s = {.header = h, .cpyfn = cpyfn, .data = data};
        real(task_body, &s, copy_wrapped, size, align, if_clause, flags, depend, priority, detach);
        return;
    }
    char buffer[size + align - 1];
    char *block = (char *)(((uintptr_t)buffer + (uintptr_t)align - 1) & ~((uintptr_t)align - 1));
    memcpy(block, &h, sizeof h);
    if (arg_size > 0)
        memcpy(block + h.offset, data, (size_t)arg_size);
    real(task_body, block, NULL, size, align, if_clause, flags, depend, priority, detach);
}

/* A taskloop: the same, with the bounds carried and the reduction's
 * descriptor mirrored.  TYPE is long or unsigned long long. */
#define TASKLOOP(name, slot, TYPE)                                                               \
    typedef void (*name##_fn)(void (*)(void *), void *, void (*)(void *, void *), long, long,    \
                              unsigned, unsigned long, int, TYPE, TYPE, TYPE);                   \
    static void *slot;                                                                           \
    HT_EXPORT HT_NOINSTR void name(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), \
                                   long arg_size, long arg_align, unsigned flags,               \
                                   unsigned long num_tasks, int priority, TYPE start, TYPE end, \
                                   TYPE step)                                                    \
    {                                                                                            \
        name##_fn real = (name##_fn)ht_omp_real_cached(&slot, #name);                            \
        struct task_header h;                                                                    \
        long size, align;                                                                        \
        if (arg_size < (long)(2 * sizeof(TYPE)) ||                                               \
            !task_wrap(&h, fn, cpyfn, arg_size, arg_align, &size, &align)) {               \
            real(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, end,   \
                 step);                                                                          \
            return;                                                                              \
        }                                                                                        \
        h.carry = CARRY_BOUNDS;                                                                  \
        if ((flags & TASK_FLAG_REDUCTION) && arg_size >= (long)offsetof(struct task_header, fn)) \
            memcpy(&h.reduction, (char *)data + 2 * sizeof(TYPE), sizeof h.reduction);          \
        if (cpyfn != NULL) {                                                                     \
            struct copy_source s = {.header = h, .cpyfn = cpyfn, .data = data};                  \
            real(task_body, &s, copy_wrapped, size, align, flags, num_tasks, priority, start,    \
                 end, step);                                                                     \
            return;                                                                              \
        }                                                                                        \
        char buffer[size + align - 1];                                                           \
        char *block =                                                                            \
            (char *)(((uintptr_t)buffer + (uintptr_t)align - 1) & ~((uintptr_t)align - 1));      \
        memcpy(block, &h, sizeof h);                                                             \
        memcpy(block + h.offset, data, (size_t)arg_size);                                        \
        real(task_body, block, NULL, size, align, flags, num_tasks, priority, start, end, step); \
    }

_Static_assert(sizeof(long) == 8 && sizeof(unsigned long long) == 8,
               "a taskloop's bounds fill task_header.bounds");
_Static_assert(offsetof(struct task_header, reduction) == 2 * sizeof(long),
               "the reduction's descriptor follows the bounds, as libgomp reads it");

TASKLOOP(GOMP_taskloop, real_taskloop, long)
TASKLOOP(GOMP_taskloop_ull, real_taskloop_ull, unsigned long long)
