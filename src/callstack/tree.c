#include "callstack/tree.h"

#include <string.h>
#include <sys/mman.h>

/* Memory comes from mmap rather than malloc: a hook may run inside a signal
 * handler, and malloc is not async-signal-safe. */
#define CHUNK_BYTES ((size_t)256 << 10)
#define INITIAL_SLOTS 1024u

/* The header takes a whole cache line so that every 96-byte node starts at
 * 0 or 32 modulo 64 and spans exactly two lines. */
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
    memset(tree, 0, sizeof *tree);
}

static struct ht_node *arena_new_node(struct ht_tree *tree)
{
    if ((size_t)(tree->arena_end - tree->arena_next) < sizeof(struct ht_node)) {
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
    tree->arena_next += sizeof(struct ht_node);
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
        size_t s = slot_of(tree, n->parent, n->function);
        while (slots[s])
            s = (s + 1) & tree->slot_mask;
        slots[s] = n;
    }
    if (old)
        munmap(old, old_count * sizeof *old);
    return true;
}

struct ht_node *ht_tree_find_or_add_child(struct ht_tree *tree, struct ht_node *parent,
                                          uintptr_t function)
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
        if (n->parent == parent && n->function == function)
            return n;
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

/* An exit for a function other than the innermost active one: some exits
 * were skipped (longjmp, exceptions through uninstrumented frames).  If the
 * function is active further up, close everything down to it; otherwise the
 * exit belongs to a call entered before recording began, and is ignored. */
void ht_tree_exit_mismatched(struct ht_tree *tree, uintptr_t function, uint64_t now)
{
    struct ht_node *n = tree->current;
    while (n != &tree->root && n->function != function)
        n = n->parent;
    if (n == &tree->root) {
        tree->mismatched_exits++;
        return;
    }
    struct ht_node *cur = tree->current;
    for (;;) {
        cur->ticks_incl += now - cur->enter_tick;
        if (cur == n)
            break;
        cur = cur->parent;
    }
    tree->current = n->parent;
}

void ht_tree_enter_slow(struct ht_tree *tree, uintptr_t function, uint64_t now, uintptr_t sp,
                        uintptr_t site)
{
    struct ht_node *cur = tree->current;
    if (ht_tree_call_was_left(cur, sp, site))
        cur = ht_tree_unwind_to(tree, sp, site, now);
    struct ht_node *child = NULL;
    if (cur->depth < tree->max_depth) {
        child = cur->last_child;
        if (child == NULL || child->function != function) {
            struct ht_node *second = cur->second_child;
            child = second && second->function == function
                        ? second
                        : ht_tree_find_or_add_child(tree, cur, function);
            if (child)
                cur->second_child = cur->last_child;
        }
    }
    if (child == NULL) { /* beyond the depth limit, or out of memory */
        tree->overflow++;
        cur->folded_calls++;
        return;
    }
    cur->last_child = child;
    child->calls++;
    child->enter_tick = now;
    child->enter_sp = sp;
    child->enter_site = site;
    tree->current = child;
}

size_t ht_tree_memory_bytes(const struct ht_tree *tree)
{
    size_t bytes = tree->slots ? (tree->slot_mask + 1) * sizeof *tree->slots : 0;
    for (const struct ht_tree_chunk *c = tree->chunks; c; c = c->next)
        bytes += c->bytes;
    return bytes;
}
