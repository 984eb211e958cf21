/* Enter and Leave events, derived from the moves of the tree's current node. */
#include "trace/trace.h"

int ht_trace_enabled;

bool ht_trace_setup(void)
{
    return false;
}

void ht_trace_attach(struct ht_thread *t)
{
    (void)t;
}

void ht_trace_enter(struct ht_thread *t, uintptr_t function, uint64_t now, uintptr_t sp,
                    uintptr_t site)
{
    ht_tree_enter(&t->tree, function, now, sp, site);
}

void ht_trace_exit(struct ht_thread *t, uintptr_t function, uint64_t now)
{
    ht_tree_exit(&t->tree, function, now);
}

void ht_trace_moved(struct ht_thread *t, struct ht_node *before, uint64_t now)
{
    (void)t;
    (void)before;
    (void)now;
}
