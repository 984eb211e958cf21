#include "hooks/thread.h"

#include "hooks/clock.h"
#include "hooks/throttle.h"
#include "trace/trace.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

__thread struct ht_thread *ht_thread_self __attribute__((tls_model("initial-exec")));
unsigned ht_thread_max_depth = 512;

static struct ht_thread *registry_head;
static int registry_count;

struct ht_thread *ht_thread_attach(void)
{
    struct ht_thread *t = mmap(NULL, sizeof *t, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t == MAP_FAILED)
        return NULL;
    ht_tree_init(&t->tree, ht_thread_max_depth);
    t->tree.clock = ht_clock_now_fn;
    t->throttle_at = ht_throttle_check_calls;
    t->tid = (pid_t)syscall(SYS_gettid);
    t->index = __atomic_fetch_add(&registry_count, 1, __ATOMIC_RELAXED);
    ht_trace_attach(t);
    struct ht_thread *head = __atomic_load_n(&registry_head, __ATOMIC_RELAXED);
    do {
        t->next = head;
    } while (!__atomic_compare_exchange_n(&registry_head, &head, t, true,
                                          __ATOMIC_RELEASE, __ATOMIC_RELAXED));
    ht_thread_self = t;
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
