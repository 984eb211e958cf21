/* The start of a wrapped MPI call (call.h): the common case, and the rest. */
#include "mpi/call.h"

#include "mpi/requests.h"

bool ht_mpi_call_begin(struct ht_mpi_call *c, uintptr_t routine, uintptr_t sp, uintptr_t site)
{
    if (!ht_mpi_logging)
        return false;
    struct ht_thread *t = ht_thread_self;
    struct ht_mpi_thread *m;
    /* general_path: requests to poll, a trace, counters (thread.h). */
    if (HT_UNLIKELY(t == NULL || (m = t->mpi) == NULL || m->in_mpi || m->epoch != ht_mpi.epoch ||
                    t->general_path || ht_mpit_pvars_active || !ht_clock_uses_tsc))
        return ht_mpi_call_begin_full(c, routine, sp, site);
    struct ht_node *node = ht_tree_either_child(&t->tree, routine, sp, site);
    if (HT_UNLIKELY(node == NULL || !(node->flags & HT_NODE_MPI_ROUTINE)))
        return ht_mpi_call_begin_full(c, routine, sp, site);
    uint64_t now = __rdtsc();
    ht_tree_push_either(&t->tree, node, now, sp, site);
    c->thread = t;
    c->mpi = m;
    c->node = node;
    c->routine = routine;
    c->start = now;
    c->comm = MPI_COMM_NULL;
    c->root = -1;
    c->counted = false;
    c->persistent = false;
    m->in_mpi = 1;
    return true;
}

bool ht_mpi_call_begin_full(struct ht_mpi_call *c, uintptr_t routine, uintptr_t sp,
                            uintptr_t site)
{
    if (!ht_mpi_logging)
        return false;
    struct ht_thread *t = ht_thread_self;
    if (t == NULL && (t = ht_thread_attach()) == NULL)
        return false;
    struct ht_mpi_thread *m = t->mpi ? t->mpi : ht_mpi_thread_data(t);
    /* A PMPI routine that calls another MPI routine: not the program's call. */
    if (m == NULL || m->in_mpi)
        return false;
    if (HT_UNLIKELY(m->epoch != ht_mpi.epoch))
        ht_request_forget_all(t);
    if (HT_UNLIKELY(t->catch_up))
        ht_runtime_catch_up(t);
    uint64_t now = ht_clock_now();
    /* The messages a poll sees complete end at their own, later ticks (the
     * library may even yield the CPU inside it): the routine starts after
     * them, so that a thread's events stay in time order and no send
     * seems to start after its message arrived. */
    /* poll_requests: open requests, or completions other threads handed
     * back (requests_shared.c). */
    if (t->poll_requests && ht_mpi.polling && ht_request_poll_paced(t, now))
        now = ht_clock_now();
    enum ht_tree_move move = ht_mpi_call_enter(c, t, routine, now, sp, site);
    c->mpi = m;
    m->in_mpi = 1;
    if (HT_UNLIKELY(ht_mpit_pvars_active))
        ht_mpit_call_begin(c->node);
    ht_mpi_call_count(c, t, move);
    return true;
}
