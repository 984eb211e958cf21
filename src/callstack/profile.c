#include "callstack/profile.h"

#include <stdlib.h>
#include <string.h>

/* A stack while the profile is being merged; index 0 is the virtual root
 * above every thread's first function. */
struct merged {
    const struct ht_function *function;
    int parent;
    int depth;
    bool throttled;
    bool counted, timed; /* nodes with and without HT_NODE_INLINED_COUNT */
    struct ht_stack_stats *per_thread;
};

struct builder {
    struct merged *nodes;
    size_t count, capacity;
    int *slots; /* (parent, function) -> node index + 1; 0 = empty */
    size_t slot_mask;
    int nthreads;
};

struct pending {
    const struct ht_node *node;
    int merged_parent;
};

static size_t slot_of(const struct builder *b, int parent, const struct ht_function *f)
{
    uint64_t h = (uint64_t)(unsigned)parent * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uintptr_t)f * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 31;
    return (size_t)h & b->slot_mask;
}

static int add_node(struct builder *b, int parent, const struct ht_function *f)
{
    if (b->count == b->capacity) {
        size_t cap = b->capacity ? b->capacity * 2 : 256;
        struct merged *n = realloc(b->nodes, cap * sizeof *n);
        if (!n)
            return -1;
        b->nodes = n;
        b->capacity = cap;
    }
    struct merged *m = &b->nodes[b->count];
    m->function = f;
    m->parent = parent;
    m->depth = parent < 0 ? 0 : b->nodes[parent].depth + 1;
    m->throttled = false;
    m->counted = m->timed = false;
    m->per_thread = calloc((size_t)b->nthreads, sizeof *m->per_thread);
    if (!m->per_thread)
        return -1;
    return (int)b->count++;
}

static int grow_index(struct builder *b)
{
    size_t old = b->slots ? b->slot_mask + 1 : 0;
    size_t size = old ? old * 2 : 1024;
    int *slots = calloc(size, sizeof *slots);
    if (!slots)
        return -1;
    int *previous = b->slots;
    b->slots = slots;
    b->slot_mask = size - 1;
    for (size_t i = 0; i < old; i++) {
        if (!previous[i])
            continue;
        const struct merged *m = &b->nodes[previous[i] - 1];
        size_t s = slot_of(b, m->parent, m->function);
        while (slots[s])
            s = (s + 1) & b->slot_mask;
        slots[s] = previous[i];
    }
    free(previous);
    return 0;
}

static int child_of(struct builder *b, int parent, const struct ht_function *f)
{
    if ((b->count + 1) * 2 > (b->slots ? b->slot_mask + 1 : 0) && grow_index(b) != 0)
        return -1;
    size_t s = slot_of(b, parent, f);
    for (; b->slots[s]; s = (s + 1) & b->slot_mask) {
        const struct merged *m = &b->nodes[b->slots[s] - 1];
        if (m->parent == parent && m->function == f)
            return b->slots[s] - 1;
    }
    int id = add_node(b, parent, f);
    if (id >= 0)
        b->slots[s] = id + 1;
    return id;
}

void ht_tree_visit_addresses(const struct ht_tree *tree, ht_address_fn visit, void *ctx)
{
    for (const struct ht_node *n = tree->root.first_child; n; n = ht_tree_next_node(tree, n))
        visit(ht_node_address(n), ctx);
}

static uint64_t node_ticks_incl(const struct ht_node *n, const struct ht_node *const *active,
                                uint32_t active_depth, uint64_t end)
{
    uint64_t ticks = n->ticks_incl;
    if (n->depth <= active_depth && active[n->depth] == n && end > n->enter_tick)
        ticks += end - n->enter_tick;
    return ticks;
}

int ht_stack_stats_add_counters(struct ht_stack_stats *into, const struct ht_stack_stats *from,
                                unsigned ncounters)
{
    if (!from->counters || ncounters == 0)
        return 0;
    if (!into->counters && !(into->counters = calloc(2 * ncounters, sizeof *into->counters)))
        return -1;
    for (unsigned k = 0; k < 2 * ncounters; k++)
        into->counters[k] += from->counters[k];
    return 0;
}

/* A node's counter figures into s (whose words it allocates): the
 * inclusive ones only when the node is a stack of its own (kept), the
 * exclusive ones always, as with time.  Calls still in progress were
 * closed by src/counters on the thread that writes the profile. */
static int add_node_counters(struct ht_stack_stats *s, const struct ht_node *n, unsigned K,
                             bool own_stack)
{
    if (!s->counters && !(s->counters = calloc(2 * K, sizeof *s->counters)))
        return -1;
    const int64_t *incl = ht_node_counters(n);
    for (unsigned k = 0; k < K; k++) {
        int64_t callees = 0;
        for (const struct ht_node *c = __atomic_load_n(&n->first_child, __ATOMIC_ACQUIRE); c;
             c = c->next_sibling)
            callees += ht_node_counters(c)[k];
        if (own_stack)
            s->counters[k] += incl[k];
        /* Clamp, as time is: a thread still running may show a callee
         * ahead of its caller. */
        s->counters[K + k] += incl[k] > callees ? incl[k] - callees : 0;
    }
    return 0;
}

static int merge_thread(struct builder *b, struct ht_profile *p, const struct ht_profile_thread *th,
                        uint64_t end, double spt, ht_describe_fn describe, void *ctx)
{
    const struct ht_tree *tree = th->tree;
    const struct ht_node *cur = tree->current;
    uint32_t active_depth = cur->depth;
    const struct ht_node **active = calloc(active_depth + 1, sizeof *active);
    size_t cap = 256, top = 0;
    struct pending *todo = malloc(cap * sizeof *todo);
    if (!active || !todo) {
        free(active);
        free(todo);
        return -1;
    }
    for (const struct ht_node *n = cur; n; n = n->parent)
        active[n->depth] = n;

    for (const struct ht_node *c = tree->root.first_child; c; c = c->next_sibling)
        todo[top++] = (struct pending){c, 0};
    int rc = 0;
    while (top > 0 && rc == 0) {
        struct pending item = todo[--top];
        const struct ht_node *n = item.node;
        uint64_t incl = node_ticks_incl(n, active, active_depth, end);
        uint64_t callees = 0;
        for (const struct ht_node *c = __atomic_load_n(&n->first_child, __ATOMIC_ACQUIRE); c;
             c = c->next_sibling)
            callees += node_ticks_incl(c, active, active_depth, end);
        /* Clamp: a thread still running while we read may show a callee
         * ahead of its caller. */
        uint64_t excl = incl > callees ? incl - callees : 0;

        const struct ht_function *f = describe(ht_node_address(n), ctx);
        int m = item.merged_parent;
        if (f && f->kept) {
            m = child_of(b, m, f);
            if (m < 0) {
                rc = -1;
                break;
            }
            if (ht_node_throttled(n))
                b->nodes[m].throttled = true;
            if (n->flags & HT_NODE_INLINED_COUNT)
                b->nodes[m].counted = true;
            else
                b->nodes[m].timed = true;
        }
        struct ht_stack_stats *s = &b->nodes[m].per_thread[th->index];
        if (m != item.merged_parent) {
            s->calls += n->calls;
            s->time_incl += (double)incl * spt;
        }
        s->folded_calls += n->folded_calls;
        s->time_excl += (double)excl * spt;
        if (p->ncounters && tree->counters == p->ncounters &&
            add_node_counters(s, n, p->ncounters, m != item.merged_parent) != 0) {
            rc = -1;
            break;
        }
        const struct ht_mpi_stats *ms = __atomic_load_n(&n->mpi, __ATOMIC_ACQUIRE);
        if (ms) {
            ht_mpi_stats_add(&s->mpi, ms);
            p->has_mpi = true;
        }
        if (m == 0)
            p->time_excluded_at_root += (double)excl * spt;
        /* Counted inlined copies ran no hook. */
        if (n->flags & HT_NODE_INLINED_COUNT)
            p->inlined_calls += n->calls;
        else
            p->instrumented_calls += n->calls + n->folded_calls;
        p->folded_calls += n->folded_calls;

        for (const struct ht_node *c = n->first_child; c; c = c->next_sibling) {
            if (top == cap) {
                struct pending *bigger = realloc(todo, 2 * cap * sizeof *todo);
                if (!bigger) {
                    rc = -1;
                    break;
                }
                todo = bigger;
                cap *= 2;
            }
            todo[top++] = (struct pending){c, m};
        }
    }
    p->mismatched_exits += tree->mismatched_exits;
    p->throttled_hook_calls += tree->declined;
    p->nested_hooks_declined += tree->nested_declined;
    p->tree_nodes += tree->node_count;
    p->tree_bytes += ht_tree_memory_bytes(tree);
    p->out_of_memory |= tree->out_of_memory;
    free(active);
    free(todo);
    return rc;
}

int ht_function_compare(const char *name_a, const char *file_a, unsigned line_a,
                        const char *name_b, const char *file_b, unsigned line_b)
{
    int c = strcmp(name_a, name_b);
    if (c)
        return c;
    c = strcmp(file_a ? file_a : "", file_b ? file_b : "");
    if (c)
        return c;
    if (line_a != line_b)
        return (line_a > line_b) - (line_a < line_b);
    return (file_a != NULL) - (file_b != NULL);
}

static const struct builder *sort_builder;

static int compare_merged(const void *pa, const void *pb)
{
    const struct merged *a = &sort_builder->nodes[*(const int *)pa];
    const struct merged *b = &sort_builder->nodes[*(const int *)pb];
    return ht_function_compare(a->function->name, a->function->file, a->function->line,
                               b->function->name, b->function->file, b->function->line);
}

/* Numbers the stacks depth-first from the roots, callees in name order, so
 * that IDs do not depend on thread scheduling or addresses. */
static int number_stacks(struct builder *b, struct ht_profile *p)
{
    size_t n = b->count;
    int *child_start = calloc(n + 1, sizeof *child_start);
    int *children = malloc(n * sizeof *children);
    int *order = malloc(n * sizeof *order);
    int *todo = malloc(n * sizeof *todo);
    int *id_of = malloc(n * sizeof *id_of);
    int rc = -1;
    if (!child_start || !children || !order || !todo || !id_of)
        goto out;
    for (size_t i = 1; i < n; i++)
        child_start[b->nodes[i].parent + 1]++;
    for (size_t i = 0; i < n; i++)
        child_start[i + 1] += child_start[i];
    {
        int *fill = calloc(n, sizeof *fill);
        if (!fill)
            goto out;
        for (size_t i = 1; i < n; i++) {
            int parent = b->nodes[i].parent;
            children[child_start[parent] + fill[parent]++] = (int)i;
        }
        free(fill);
    }
    sort_builder = b;
    for (size_t i = 0; i < n; i++)
        qsort(children + child_start[i], (size_t)(child_start[i + 1] - child_start[i]),
              sizeof *children, compare_merged);

    /* Pre-order walk; children pushed in reverse so the first is numbered first. */
    size_t top = 0, next = 0;
    for (int k = child_start[1] - 1; k >= child_start[0]; k--)
        todo[top++] = children[k];
    while (top > 0) {
        int m = todo[--top];
        id_of[m] = (int)next;
        order[next++] = m;
        for (int k = child_start[m + 1] - 1; k >= child_start[m]; k--)
            todo[top++] = children[k];
    }

    p->nstacks = next;
    p->stacks = calloc(next ? next : 1, sizeof *p->stacks);
    if (!p->stacks)
        goto out;
    for (size_t id = 0; id < next; id++) {
        struct merged *m = &b->nodes[order[id]];
        struct ht_stack *s = &p->stacks[id];
        s->id = (int)id;
        s->parent = m->parent == 0 ? -1 : id_of[m->parent];
        s->depth = m->depth;
        s->function = m->function;
        s->throttled = m->throttled;
        s->inlined = m->counted && !m->timed;
        s->per_thread = m->per_thread;
        m->per_thread = NULL; /* ownership moves to the profile */
        for (int t = 0; t < b->nthreads; t++) {
            s->total.calls += s->per_thread[t].calls;
            s->total.folded_calls += s->per_thread[t].folded_calls;
            s->total.time_incl += s->per_thread[t].time_incl;
            s->total.time_excl += s->per_thread[t].time_excl;
            ht_mpi_stats_add(&s->total.mpi, &s->per_thread[t].mpi);
            if (ht_stack_stats_add_counters(&s->total, &s->per_thread[t], p->ncounters) != 0)
                goto out;
        }
    }
    rc = 0;
out:
    free(child_start);
    free(children);
    free(order);
    free(todo);
    free(id_of);
    return rc;
}

/* The groups of the profile's thread indices (NULL if none is a group). */
static int note_groups(struct ht_profile *p, const struct ht_profile_thread *threads,
                       int nentries, ht_describe_fn describe, void *ctx)
{
    for (int t = 0; t < nentries; t++) {
        const struct ht_profile_thread *e = &threads[t];
        if (e->group_threads == 0 || e->index < 0 || e->index >= p->nthreads)
            continue;
        if (!p->thread_groups &&
            !(p->thread_groups = calloc((size_t)p->nthreads, sizeof *p->thread_groups)))
            return -1;
        struct ht_thread_group *g = &p->thread_groups[e->index];
        if (!g->start_routine) {
            const struct ht_function *f = describe(e->start_routine, ctx);
            g->start_routine = f && f->name ? f->name : "?";
        }
        g->threads += e->group_threads;
        g->running += e->group_running;
        p->thread_tids[e->index] = 0;
    }
    return 0;
}

int ht_profile_build(struct ht_profile *profile, const struct ht_profile_thread *threads,
                     int nentries, uint64_t end, double seconds_per_tick,
                     ht_describe_fn describe, void *ctx)
{
    memset(profile, 0, sizeof *profile);
    int nthreads = 1;
    for (int t = 0; t < nentries; t++)
        if (threads[t].index >= nthreads)
            nthreads = threads[t].index + 1;
    struct builder b = {.nthreads = nthreads};
    int rc = -1;
    profile->nthreads = b.nthreads;
    /* Every thread's tree has the same events (set before any attached),
     * but a thread attached before start-up decided them has none. */
    for (int t = 0; t < nentries; t++)
        if (threads[t].tree->counters > profile->ncounters)
            profile->ncounters = threads[t].tree->counters;
    profile->thread_tids = calloc((size_t)b.nthreads, sizeof *profile->thread_tids);
    if (!profile->thread_tids || add_node(&b, -1, NULL) != 0)
        goto out;
    for (int t = 0; t < nentries; t++) {
        if (threads[t].index < 0)
            continue;
        profile->thread_tids[threads[t].index] = threads[t].tid;
        if (merge_thread(&b, profile, &threads[t], end, seconds_per_tick, describe, ctx) != 0)
            goto out;
    }
    if (note_groups(profile, threads, nentries, describe, ctx) != 0)
        goto out;
    rc = number_stacks(&b, profile);
out:
    for (size_t i = 0; i < b.count; i++) {
        for (int t = 0; b.nodes[i].per_thread && t < b.nthreads; t++)
            free(b.nodes[i].per_thread[t].counters);
        free(b.nodes[i].per_thread);
    }
    free(b.nodes);
    free(b.slots);
    if (rc != 0)
        ht_profile_free(profile);
    return rc;
}

int ht_profile_path(const struct ht_profile *profile, int id, int *out, int max)
{
    int depth = 0;
    for (int s = id; s >= 0; s = profile->stacks[s].parent)
        depth++;
    if (depth > max)
        return -1;
    int k = depth;
    for (int s = id; s >= 0; s = profile->stacks[s].parent)
        out[--k] = s;
    return depth;
}

void ht_profile_free(struct ht_profile *profile)
{
    for (size_t i = 0; i < profile->nstacks; i++) {
        struct ht_stack *st = &profile->stacks[i];
        for (int t = 0; st->per_thread && t < profile->nthreads; t++)
            free(st->per_thread[t].counters);
        free(st->per_thread);
        free(st->total.counters);
    }
    free(profile->stacks);
    free(profile->thread_tids);
    free(profile->thread_groups);
    memset(profile, 0, sizeof *profile);
}
