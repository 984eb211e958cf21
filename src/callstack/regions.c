/* The registry of region names: a chained hash table that only grows.
 * Readers walk it without the lock: a record is complete before it is
 * published (release store), and never changes or goes away. */
#include "callstack/regions.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler.h"

#define BUCKETS 1024 /* a program names tens of regions, rarely thousands */

static struct ht_region *buckets[BUCKETS], *by_address[BUCKETS];
static pthread_mutex_t adding = PTHREAD_MUTEX_INITIALIZER;

HT_NOINSTR static uint64_t hash_of(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

HT_NOINSTR static struct ht_region *find(struct ht_region *r, uint64_t h, const char *name,
                                         size_t length)
{
    for (; r; r = __atomic_load_n(&r->next, __ATOMIC_ACQUIRE))
        if (r->hash == h && r->length == length && memcmp(r->name, name, length) == 0)
            return r;
    return NULL;
}

HT_NOINSTR struct ht_region *ht_regions_intern(const char *name, size_t length)
{
    if (name == NULL || length == 0)
        return NULL;
    uint64_t h = hash_of(name, length);
    struct ht_region **bucket = &buckets[h % BUCKETS];
    struct ht_region *r = find(__atomic_load_n(bucket, __ATOMIC_ACQUIRE), h, name, length);
    if (r)
        return r;
    pthread_mutex_lock(&adding);
    r = find(*bucket, h, name, length);
    if (r == NULL && (r = malloc(sizeof *r + length + 1)) != NULL) {
        r->hash = h;
        r->warned = 0;
        r->length = length;
        memcpy(r->name, name, length);
        r->name[length] = '\0';
        r->next = *bucket;
        struct ht_region **at = &by_address[((uintptr_t)r >> 4) % BUCKETS];
        r->next_at = *at;
        __atomic_store_n(bucket, r, __ATOMIC_RELEASE);
        __atomic_store_n(at, r, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&adding);
    return r;
}

const struct ht_region *ht_regions_at(uintptr_t address)
{
    for (struct ht_region *r = __atomic_load_n(&by_address[(address >> 4) % BUCKETS],
                                               __ATOMIC_ACQUIRE);
         r; r = __atomic_load_n(&r->next_at, __ATOMIC_ACQUIRE))
        if ((uintptr_t)r == address)
            return r;
    return NULL;
}
