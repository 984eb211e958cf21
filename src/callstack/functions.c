#include "callstack/functions.h"

#include <stddef.h>
#include <sys/mman.h>

#define BUCKET_BITS 16
#define NBUCKETS ((size_t)1 << BUCKET_BITS)
#define CHUNK_BYTES ((size_t)64 << 10)

int ht_functions_on;

/* mmap'ed on enable: 512 KiB of address space, touched as buckets fill. */
static struct ht_function_record **buckets;

/* Every record, for the walks at a dlclose and at the end: walking the
 * 64 Ki buckets instead cost 0.5 M instructions per dlclose, and Open
 * MPI's MPI_Init closes about 50 components. */
static struct ht_function_record *all_records;

/* Records come from 64 KiB chunks; a chunk's first word counts the bytes
 * handed out, bumped atomically, so any thread can allocate without a lock. */
struct chunk {
    size_t used;
    struct chunk *previous;
};
static struct chunk *current_chunk;

static bool (*observer)(uintptr_t address);

void ht_functions_observe(bool (*fn)(uintptr_t address))
{
    __atomic_store_n(&observer, fn, __ATOMIC_RELEASE);
}

void ht_functions_see_slow(struct ht_function_record *rec)
{
    bool (*fn)(uintptr_t) = __atomic_load_n(&observer, __ATOMIC_ACQUIRE);
    if (!fn || fn(rec->address))
        __atomic_store_n(&rec->seen, 1, __ATOMIC_RELEASE);
}

void ht_functions_enable(void)
{
    if (buckets)
        return;
    void *p = mmap(NULL, NBUCKETS * sizeof *buckets, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    buckets = p;
    __atomic_store_n(&ht_functions_on, 1, __ATOMIC_RELEASE);
}

static size_t bucket_of(uintptr_t address)
{
    uint64_t h = (uint64_t)address * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> (64 - BUCKET_BITS));
}

static void *allocate(size_t bytes)
{
    const size_t header = (sizeof(struct chunk) + 63) & ~(size_t)63;
    bytes = (bytes + 63) & ~(size_t)63;
    for (;;) {
        struct chunk *c = __atomic_load_n(&current_chunk, __ATOMIC_ACQUIRE);
        if (c) {
            size_t at = __atomic_fetch_add(&c->used, bytes, __ATOMIC_RELAXED);
            if (at + bytes <= CHUNK_BYTES)
                return (char *)c + at;
        }
        struct chunk *fresh = mmap(NULL, CHUNK_BYTES, PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (fresh == MAP_FAILED)
            return NULL;
        fresh->used = header + bytes;
        fresh->previous = c;
        if (__atomic_compare_exchange_n(&current_chunk, &c, fresh, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            return (char *)fresh + header;
        munmap(fresh, CHUNK_BYTES); /* another thread installed one: use it */
    }
}

static struct ht_function_record *search(struct ht_function_record *from,
                                         const struct ht_function_record *until,
                                         uintptr_t address)
{
    for (struct ht_function_record *r = from; r != until;
         r = __atomic_load_n(&r->next, __ATOMIC_ACQUIRE))
        if (r->address == address && !__atomic_load_n(&r->retired, __ATOMIC_ACQUIRE))
            return r;
    return NULL;
}

struct ht_function_record *ht_functions_find(uintptr_t address)
{
    if (!buckets)
        return NULL;
    return search(__atomic_load_n(&buckets[bucket_of(address)], __ATOMIC_ACQUIRE), NULL, address);
}

struct ht_function_record *ht_functions_get(uintptr_t address, uint64_t now)
{
    if (!buckets)
        return NULL;
    struct ht_function_record **bucket = &buckets[bucket_of(address)];
    struct ht_function_record *head = __atomic_load_n(bucket, __ATOMIC_ACQUIRE);
    struct ht_function_record *found = search(head, NULL, address);
    if (found)
        return found;
    struct ht_function_record *rec = allocate(sizeof *rec);
    if (!rec)
        return NULL;
    rec->address = address;
    rec->first_tick = now;
    for (;;) {
        rec->next = head;
        struct ht_function_record *seen = head;
        if (__atomic_compare_exchange_n(bucket, &head, rec, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            struct ht_function_record *first = __atomic_load_n(&all_records, __ATOMIC_ACQUIRE);
            do
                rec->all_next = first;
            while (!__atomic_compare_exchange_n(&all_records, &first, rec, true, __ATOMIC_ACQ_REL,
                                                __ATOMIC_ACQUIRE));
            return rec;
        }
        /* Someone pushed first: it may be the same function.  (The record
         * just allocated is then left unused: a few bytes, once.) */
        found = search(head, seen, address);
        if (found)
            return found;
    }
}

bool ht_functions_add_node(struct ht_function_record *rec, struct ht_node *node)
{
    struct ht_node *head = __atomic_load_n(&rec->nodes, __ATOMIC_ACQUIRE);
    do {
        node->same_function_next = head;
    } while (!__atomic_compare_exchange_n(&rec->nodes, &head, node, true, __ATOMIC_SEQ_CST,
                                          __ATOMIC_ACQUIRE));
    if (!ht_function_is_throttled(rec))
        return false;
    __atomic_or_fetch(&node->function, HT_NODE_THROTTLED, __ATOMIC_RELAXED);
    return true;
}

void ht_functions_tag_node(struct ht_node *n)
{
    __atomic_or_fetch(&n->function, HT_NODE_THROTTLED, __ATOMIC_RELAXED);
    /* A frame of it still open must not find its callees through the fast
     * path: its thread's next slow path closes it first. */
    __atomic_store_n(&n->last_child, NULL, __ATOMIC_RELAXED);
    __atomic_store_n(&n->second_child, NULL, __ATOMIC_RELAXED);
}

bool ht_functions_throttle(struct ht_function_record *rec, uint64_t now)
{
    uint32_t expected = 0;
    if (!__atomic_compare_exchange_n(&rec->throttled, &expected, 1, false, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST))
        return false;
    rec->throttled_tick = now;
    for (struct ht_node *n = __atomic_load_n(&rec->nodes, __ATOMIC_SEQ_CST); n;
         n = n->same_function_next)
        ht_functions_tag_node(n);
    return true;
}

void ht_functions_set_flags(uintptr_t address, uint32_t flags, uint64_t now)
{
    struct ht_function_record *rec = ht_functions_get(address, now);
    if (rec && (__atomic_load_n(&rec->flags, __ATOMIC_RELAXED) & flags) != flags)
        __atomic_or_fetch(&rec->flags, flags, __ATOMIC_RELAXED);
}

void ht_functions_mark_mpi_path(struct ht_node *node, uint64_t now)
{
    if (node->flags & HT_NODE_MPI_ROUTINE)
        return;
    node->flags |= HT_NODE_MPI_ROUTINE;
    if (!ht_functions_on)
        return;
    for (struct ht_node *n = node; n && n->parent; n = n->parent)
        ht_functions_set_flags(ht_node_function(n), HT_FUNCTION_CALLS_MPI, now);
}

void ht_functions_retire(uintptr_t lo, uintptr_t hi)
{
    for (struct ht_function_record *r = __atomic_load_n(&all_records, __ATOMIC_ACQUIRE); r;
         r = __atomic_load_n(&r->all_next, __ATOMIC_ACQUIRE)) {
        if (r->address < lo || r->address >= hi || __atomic_load_n(&r->retired, __ATOMIC_ACQUIRE))
            continue;
        for (struct ht_node *n = __atomic_load_n(&r->nodes, __ATOMIC_ACQUIRE); n;
             n = n->same_function_next) {
            __atomic_or_fetch(&n->function, HT_NODE_RETIRED, __ATOMIC_RELAXED);
            /* Its parent's caches compare the function word: they
             * miss it now, and the slow path makes a new node. */
        }
        __atomic_store_n(&r->retired, 1, __ATOMIC_RELEASE);
    }
}

void ht_functions_visit(void (*visit)(struct ht_function_record *rec, void *ctx), void *ctx)
{
    for (struct ht_function_record *r = __atomic_load_n(&all_records, __ATOMIC_ACQUIRE); r;
         r = __atomic_load_n(&r->all_next, __ATOMIC_ACQUIRE))
        visit(r, ctx);
}
