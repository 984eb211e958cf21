#include "callstack/tree.h"

#include <string.h>

#include "callstack/functions.h"
#include <sys/mman.h>

/* Memory comes from mmap rather than malloc: a hook may run inside a signal
 * handler, and malloc is not async-signal-safe. */
#define CHUNK_BYTES ((size_t)256 << 10)
#define INITIAL_SLOTS 1024u

/* The header takes a whole cache line so that every 128-byte node starts on
 * a line and its hot half is one line. */
struct ht_tree_chunk {
    struct ht_tree_chunk *next;
    size_t bytes;
} __attribute__((aligned(64)));

static void *map_bytes(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static size_t slot_of(const struct ht_tree *tree, const struct ht_node *parent,
                      uintptr_t function)
{
    uint64_t h = ((uint64_t)(uintptr_t)parent >> 4) * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)function * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return (size_t)h & tree->slot_mask;
}

void ht_tree_init(struct ht_tree *tree, uint32_t max_depth)
{
    memset(tree, 0, sizeof *tree);
    tree->current = &tree->root;
    tree->max_depth = max_depth ? max_depth : 1;
}

void ht_tree_release(struct ht_tree *tree)
{
    struct ht_tree_chunk *c = tree->chunks;
    while (c) {
        struct ht_tree_chunk *next = c->next;
        munmap(c, c->bytes);
        c = next;
    }
    if (tree->slots)
        munmap(tree->slots, (tree->slot_mask + 1) * sizeof *tree->slots);
    if (tree->folded)
        munmap(tree->folded, (size_t)tree->folded_capacity * sizeof *tree->folded);
    memset(tree, 0, sizeof *tree);
}

static struct ht_node *arena_new_node(struct ht_tree *tree)
{
    size_t bytes = ht_tree_node_bytes(tree->counters);
    if ((size_t)(tree->arena_end - tree->arena_next) < bytes) {
        struct ht_tree_chunk *c = map_bytes(CHUNK_BYTES);
        if (!c)
            return NULL;
        c->bytes = CHUNK_BYTES;
        c->next = tree->chunks;
        tree->chunks = c;
        tree->arena_next = (char *)(c + 1);
        tree->arena_end = (char *)c + CHUNK_BYTES;
    }
    struct ht_node *n = (struct ht_node *)tree->arena_next;
    tree->arena_next += bytes;
    return n; /* mmap'ed memory is zero-filled */
}

static bool index_grow(struct ht_tree *tree)
{
    size_t old_count = tree->slots ? tree->slot_mask + 1 : 0;
    size_t new_count = old_count ? old_count * 2 : INITIAL_SLOTS;
    struct ht_node **slots = map_bytes(new_count * sizeof *slots);
    if (!slots)
        return false;
    struct ht_node **old = tree->slots;
    tree->slots = slots;
    tree->slot_mask = new_count - 1;
    for (size_t i = 0; i < old_count; i++) {
        struct ht_node *n = old[i];
        if (!n)
            continue;
        size_t s = slot_of(tree, n->parent, ht_node_function(n));
        while (slots[s])
            s = (s + 1) & tree->slot_mask;
        slots[s] = n;
    }
    if (old)
        munmap(old, old_count * sizeof *old);
    return true;
}

/* The tick to record: the one given, or the clock read now. */
static uint64_t tick_of(const struct ht_tree *tree, uint64_t now)
{
    if (now != HT_TICK_UNKNOWN)
        return now;
    return tree->clock ? tree->clock() : 0;
}

struct ht_node *ht_tree_find_or_add_child(struct ht_tree *tree, struct ht_node *parent,
                                          uintptr_t function, uint64_t now, bool *throttled)
{
    if (tree->out_of_memory)
        return NULL;
    /* Keep the load factor at or below one half. */
    if (!tree->slots || (tree->node_count + 1) * 2 > tree->slot_mask + 1) {
        if (!index_grow(tree)) {
            tree->out_of_memory = true;
            return NULL;
        }
    }
    size_t s = slot_of(tree, parent, function);
    for (struct ht_node *n; (n = tree->slots[s]) != NULL; s = (s + 1) & tree->slot_mask) {
        if (n->parent == parent && ht_node_function(n) == function)
            return n;
    }
    struct ht_function_record *rec = NULL;
    if (ht_functions_on) {
        rec = ht_functions_get(function, tick_of(tree, now));
        if (rec)
            ht_functions_see(rec);
        if (rec && ht_function_is_throttled(rec)) {
            *throttled = true;
            return NULL;
        }
    }
    struct ht_node *n = arena_new_node(tree);
    if (!n) {
        tree->out_of_memory = true;
        return NULL;
    }
    n->function = function;
    n->parent = parent;
    n->depth = parent->depth + 1;
    n->next_sibling = parent->first_child;
    /* Publish the finished node last: the exit path may walk this list from
     * another thread while this one keeps running. */
    __atomic_store_n(&parent->first_child, n, __ATOMIC_RELEASE);
    tree->slots[s] = n;
    tree->node_count++;
    /* Throttled meanwhile: the node is tagged, and the caller declines it. */
    if (rec)
        ht_functions_add_node(rec, n);
    return n;
}

/* Closes every call that was left without an exit hook (longjmp), as told by
 * ht_tree_call_was_left. */
struct ht_node *ht_tree_unwind_to(struct ht_tree *tree, uintptr_t sp, uintptr_t site,
                                  uint64_t now)
{
    struct ht_node *cur = tree->current;
    while (cur != &tree->root && ht_tree_call_was_left(cur, sp, site)) {
        cur->ticks_incl += now - cur->enter_tick;
        cur = cur->parent;
    }
    tree->current = cur;
    /* Calls folded beyond max depth were deeper still: left as well. */
    tree->overflow = 0;
    return cur;
}

unsigned ht_tree_unwind_longjmp(struct ht_tree *tree, uintptr_t target_sp, uint64_t now)
{
    unsigned closed = 0;
    struct ht_node *cur = tree->current;
    while (cur != &tree->root && cur->enter_sp < target_sp) {
        cur->ticks_incl += now - cur->enter_tick;
        cur = cur->parent;
        closed++;
    }
    tree->current = cur;
    /* Folded calls were deeper than the first call closed. */
    if (closed)
        tree->overflow = 0;
    return closed;
}

struct ht_node *ht_tree_close_throttled(struct ht_tree *tree, uint64_t now)
{
    struct ht_node *cur = tree->current;
    if (cur == &tree->root || !ht_node_throttled(cur))
        return cur;
    while (cur != &tree->root && ht_node_throttled(cur)) {
        cur->ticks_incl += now - cur->enter_tick;
        cur = cur->parent;
    }
    tree->current = cur;
    /* Calls folded beneath a closed call were left with it. */
    tree->overflow = 0;
    return cur;
}

/* --- calls beyond the depth limit ----------------------------------------- */

#define FOLDED_INITIAL 4096u

/* Remembers the function of a call folded at the depth limit, so that its
 * exit can be told from the exit of a throttled function whose entry was
 * declined.  If the array cannot grow, the count alone is kept (folded_top
 * then answers 0: "unknown", and any exit pops). */
static void fold_push(struct ht_tree *tree, uintptr_t function)
{
    if (tree->overflow == tree->folded_capacity && tree->folded_capacity < (1u << 30)) {
        uint32_t cap = tree->folded_capacity ? 2 * tree->folded_capacity : FOLDED_INITIAL;
        uintptr_t *bigger = map_bytes((size_t)cap * sizeof *bigger);
        if (bigger) {
            if (tree->folded) {
                memcpy(bigger, tree->folded, (size_t)tree->overflow * sizeof *bigger);
                munmap(tree->folded, (size_t)tree->folded_capacity * sizeof *bigger);
            }
            tree->folded = bigger;
            tree->folded_capacity = cap;
        }
    }
    if (tree->overflow < tree->folded_capacity)
        tree->folded[tree->overflow] = function;
    tree->overflow++;
}

static uintptr_t folded_top(const struct ht_tree *tree)
{
    uint32_t k = tree->overflow - 1;
    return k < tree->folded_capacity ? tree->folded[k] : 0;
}

static bool function_throttled(uintptr_t function)
{
    if (!ht_functions_on)
        return false;
    const struct ht_function_record *rec = ht_functions_find(function);
    return rec && ht_function_is_throttled(rec);
}

/* An exit while calls are folded: normally the innermost folded call's. */
static enum ht_tree_move exit_folded(struct ht_tree *tree, uintptr_t function)
{
    uintptr_t top = folded_top(tree);
    if (top == 0 || top == function) {
        tree->overflow--;
        return HT_FOLDED;
    }
    if (function_throttled(function)) {
        tree->declined++;
        return HT_THROTTLED;
    }
    /* Folded calls of throttled functions whose exits were rewritten:
     * close them, as a throttled frame closes at the next hook. */
    while (tree->overflow > 0 && (top = folded_top(tree)) != 0 && top != function &&
           function_throttled(top))
        tree->overflow--;
    if (tree->overflow > 0)
        tree->overflow--; /* this call's exit, or one we cannot tell from it */
    return HT_FOLDED;
}

/* --- the slow paths -------------------------------------------------------- */

enum ht_tree_move ht_tree_exit_slow(struct ht_tree *tree, uintptr_t function, uint64_t now)
{
    if (tree->overflow != 0)
        return exit_folded(tree, function);
    struct ht_node *cur = tree->current;
    if (HT_UNLIKELY(ht_node_throttled(cur))) {
        now = tick_of(tree, now);
        if (ht_node_function(cur) == function) {
            /* A frame opened before its function was throttled, closing
             * on time; its exit can be rewritten now. */
            ht_tree_pop(tree, cur, now);
            return HT_THROTTLED;
        }
        cur = ht_tree_close_throttled(tree, now);
        if (cur->function == function) {
            ht_tree_pop(tree, cur, now);
            return HT_MOVED;
        }
    }
    /* An exit for a function other than the innermost active one: some
     * exits were skipped (longjmp, exceptions through uninstrumented
     * frames).  If the function is active further up, close everything
     * down to it; otherwise the exit belongs to a call entered before
     * recording began, or to a throttled function, and is ignored. */
    struct ht_node *n = cur;
    while (n != &tree->root && ht_node_function(n) != function)
        n = n->parent;
    if (n == &tree->root) {
        if (function_throttled(function)) {
            tree->declined++;
            return HT_THROTTLED;
        }
        tree->mismatched_exits++;
        return HT_IGNORED;
    }
    now = tick_of(tree, now);
    for (;;) {
        cur->ticks_incl += now - cur->enter_tick;
        if (cur == n)
            break;
        cur = cur->parent;
    }
    tree->current = n->parent;
    return HT_UNWOUND;
}

enum ht_tree_move ht_tree_enter_slow(struct ht_tree *tree, uintptr_t function, uint64_t now,
                                     uintptr_t sp, uintptr_t site)
{
    struct ht_node *cur = tree->current;
    if (HT_UNLIKELY(ht_node_throttled(cur))) {
        now = tick_of(tree, now);
        cur = ht_tree_close_throttled(tree, now);
    }
    if (ht_tree_call_was_left(cur, sp, site)) {
        now = tick_of(tree, now);
        cur = ht_tree_unwind_to(tree, sp, site, now);
    }
    struct ht_node *child = NULL;
    bool throttled = false;
    if (cur->depth < tree->max_depth) {
        child = cur->last_child;
        if (child == NULL || ht_node_function(child) != function) {
            struct ht_node *second = cur->second_child;
            child = second && ht_node_function(second) == function
                        ? second
                        : ht_tree_find_or_add_child(tree, cur, function, now, &throttled);
            if (child && !ht_node_throttled(child))
                cur->second_child = cur->last_child;
        }
    }
    if (throttled || (child && ht_node_throttled(child))) {
        tree->declined++;
        return HT_THROTTLED;
    }
    if (child == NULL) { /* beyond the depth limit, or out of memory */
        fold_push(tree, function);
        cur->folded_calls++;
        return HT_FOLDED;
    }
    cur->last_child = child;
    ht_tree_push(tree, child, tick_of(tree, now), sp, site);
    return HT_MOVED;
}

bool ht_tree_count_inlined(struct ht_tree *tree, uintptr_t id, uint64_t count)
{
    struct ht_node *cur = tree->current;
    if (tree->overflow || cur->depth >= tree->max_depth)
        return false;
    bool throttled = false;
    struct ht_node *child = ht_tree_find_or_add_child(tree, cur, id, HT_TICK_UNKNOWN, &throttled);
    if (!child || ht_node_throttled(child))
        return false;
    child->flags |= HT_NODE_INLINED_COUNT;
    child->calls += count;
    return true;
}

void ht_tree_exclude_ticks(struct ht_tree *tree, uint64_t ticks)
{
    for (struct ht_node *n = tree->current; n && n != &tree->root; n = n->parent)
        n->enter_tick += ticks;
}

void ht_tree_exclude_paused(struct ht_tree *tree, uint64_t ticks, uint64_t until)
{
    for (struct ht_node *n = tree->current; n && n != &tree->root; n = n->parent) {
        if (n->enter_tick >= until)
            continue;
        uint64_t later = n->enter_tick + ticks;
        n->enter_tick = later < until ? later : until;
    }
}

void ht_tree_count_open_calls(struct ht_tree *tree)
{
    for (struct ht_node *n = tree->current; n && n != &tree->root; n = n->parent)
        n->calls = 1;
}

size_t ht_tree_memory_bytes(const struct ht_tree *tree)
{
    size_t bytes = tree->slots ? (tree->slot_mask + 1) * sizeof *tree->slots : 0;
    for (const struct ht_tree_chunk *c = tree->chunks; c; c = c->next)
        bytes += c->bytes;
    return bytes;
}

struct ht_node *ht_tree_next_node(const struct ht_tree *tree, const struct ht_node *n)
{
    /* Depth-first without recursion: child, else sibling, else climb. */
    if (n->first_child)
        return n->first_child;
    while (n && !n->next_sibling)
        n = n->parent == &tree->root ? NULL : n->parent;
    return n ? n->next_sibling : NULL;
}

/* A fork child starts from nothing: what the parent recorded is the
 * parent's.  The nodes stay (the calls in progress are still open and their
 * exits must match); their figures go, and an open call's time counts from
 * now. */
void ht_tree_forget_counts(struct ht_tree *tree, uint64_t now)
{
    struct ht_node *n = tree->root.first_child;
    while (n) {
        n->calls = 0;
        n->ticks_incl = 0;
        n->folded_calls = 0;
        n->enter_tick = now;
        for (uint32_t k = 0; k < tree->counters; k++)
            ht_node_counters(n)[k] = 0; /* entry values stay: still running */
        if (tree->counters)
            ht_node_read_ticks(n, tree->counters)[0] = 0;
        if (n->mpi) {
            struct ht_mpi_stats *s = n->mpi;
            s->messages_sent = s->messages_received = 0;
            s->bytes_sent = s->bytes_received = 0;
            s->ticks_sent = s->ticks_received = 0;
            for (struct ht_group_messages *g = s->groups; g; g = g->next)
                g->calls = g->ticks = 0;
        }
        n = ht_tree_next_node(tree, n);
    }
    tree->mismatched_exits = 0;
    tree->declined = 0;
    tree->nested_declined = 0;
}
