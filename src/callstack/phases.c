/* Named phases (hooktrace_phase, docs/regions.md "Named phases"): a phase
 * is a node at the root of every thread's tree, and the calls open when
 * the phase begins go on below it.  The whole run's profile is then the
 * sum over phases, and a phase's own profile is its subtree. */
#include "callstack/phases.h"

#include <string.h>

/* The open calls below the root, outermost first: each frame's parent
 * points up, so the chain is threaded downwards through `spare` (scratch
 * that only the output uses) and cleared again. */
static struct ht_node *thread_down(struct ht_tree *tree)
{
    struct ht_node *below = NULL;
    for (struct ht_node *n = tree->current; n && n != &tree->root; n = n->parent) {
        n->spare = (uint64_t)(uintptr_t)below;
        below = n;
    }
    return below;
}

static struct ht_node *below(const struct ht_node *n)
{
    return (struct ht_node *)(uintptr_t)n->spare;
}

static void clear_chain(struct ht_node *outer)
{
    for (struct ht_node *n = outer, *next; n; n = next) {
        next = below(n);
        n->spare = 0;
    }
}

bool ht_tree_switch_phase(struct ht_tree *tree, uintptr_t phase, uint64_t now)
{
    if (tree->overflow)
        return false; /* calls beyond the depth limit: not now */
    struct ht_node *outer = thread_down(tree);
    /* An MPI call in progress keeps its node until it returns (its wrapper
     * holds it): the switch waits for the thread's next hook after it. */
    for (struct ht_node *n = outer; n; n = below(n))
        if (n->flags & HT_NODE_MPI_ROUTINE) {
            clear_chain(outer);
            return false;
        }
    bool throttled = false;
    struct ht_node *top = ht_tree_find_or_add_child(tree, &tree->root, phase, now, &throttled);
    if (top == NULL) {
        clear_chain(outer);
        return false;
    }
    /* A phase begun again is the same node, one call per beginning. */
    top->flags |= HT_NODE_PHASE | HT_NODE_NAMED_REGION;
    top->calls++;
    top->enter_tick = now;
    top->enter_sp = 0; /* never taken for a call left (tree.h) */
    top->enter_site = 0;
    tree->root.last_child = top;
    struct ht_node *parent = top;
    bool copying = true;
    uint32_t K = tree->counters;
    for (struct ht_node *n = outer, *next; n; n = next) {
        next = below(n);
        n->spare = 0;
        /* The call's time so far is the phase's it began in; from now on
         * it counts in the new one, where it is not a call of its own. */
        n->ticks_incl += now > n->enter_tick ? now - n->enter_tick : 0;
        if (!copying || (n->flags & HT_NODE_PHASE))
            continue; /* the phase before this one ends here */
        struct ht_node *copy =
            ht_tree_find_or_add_child(tree, parent, ht_node_function(n), now, &throttled);
        if (copy == NULL || ht_node_throttled(copy)) {
            copying = false; /* the calls further in end here; their exits are ignored */
            continue;
        }
        copy->flags |= n->flags & (HT_NODE_NAMED_REGION | HT_NODE_INLINED_COUNT);
        copy->enter_tick = now;
        copy->enter_sp = n->enter_sp;
        copy->enter_site = n->enter_site;
        if (K) {
            memcpy(ht_node_counters(copy) + K, ht_node_counters(n) + K, K * sizeof(int64_t));
            ht_node_read_ticks(copy, K)[1] = ht_node_read_ticks(n, K)[1];
        }
        parent->last_child = copy;
        parent = copy;
    }
    tree->current = parent;
    return true;
}
