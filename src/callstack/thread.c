#include "callstack/thread.h"

#include "common/clock.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

__thread struct ht_thread *ht_thread_self __attribute__((tls_model("initial-exec")));
unsigned ht_thread_max_depth = 512;
uint32_t ht_thread_counters;

/* What start-up decided every new thread gets (src/runtime). */
static uint64_t throttle_looks[HT_THROTTLE_LOOKS] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
static void (*prepare)(struct ht_thread *t);

void ht_thread_configure(const uint64_t looks[HT_THROTTLE_LOOKS],
                         void (*prepare_thread)(struct ht_thread *t))
{
    memcpy(throttle_looks, looks, sizeof throttle_looks);
    prepare = prepare_thread;
}

static struct ht_thread *registry_head;
static int registry_count;

struct ht_thread *ht_thread_attach(void)
{
    return ht_thread_attach_entering(0);
}

struct ht_thread *ht_thread_attach_entering(uintptr_t function)
{
    struct ht_thread *t = function ? ht_thread_reuse(function) : NULL;
    if (t)
        return t;
    t = mmap(NULL, sizeof *t, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t == MAP_FAILED)
        return NULL;
    ht_tree_init(&t->tree, ht_thread_max_depth);
    t->tree.clock = ht_clock_now_fn;
    t->tree.counters = ht_thread_counters;
    t->counting = ht_thread_counters != 0;
    memcpy(t->throttle_looks, throttle_looks, sizeof t->throttle_looks);
    t->tid = (pid_t)syscall(SYS_gettid);
    t->index = __atomic_fetch_add(&registry_count, 1, __ATOMIC_RELAXED);
    t->start_routine = function;
    t->threads_served = 1;
    if (prepare)
        prepare(t); /* before other threads can see it in the registry */
    struct ht_thread *head = __atomic_load_n(&registry_head, __ATOMIC_RELAXED);
    do {
        t->next = head;
    } while (!__atomic_compare_exchange_n(&registry_head, &head, t, true,
                                          __ATOMIC_RELEASE, __ATOMIC_RELAXED));
    ht_thread_self = t;
    if (function)
        ht_thread_watch_end(t);
    return t;
}

struct ht_thread *ht_thread_registry(void)
{
    return __atomic_load_n(&registry_head, __ATOMIC_ACQUIRE);
}

int ht_thread_count(void)
{
    return __atomic_load_n(&registry_count, __ATOMIC_RELAXED);
}
