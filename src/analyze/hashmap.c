/* Open addressing, linear probing, backward-shift deletion. */
#include <stdlib.h>

#include "analyze/fail.h"
#include "analyze/hashmap.h"

#define HASHMAP_MIN_CAPACITY 16

/* Both words matter (a request id alone repeats across locations; tags
 * alone repeat across pairs), so both are multiplied in before the final
 * avalanche. */
static inline uint64_t hash_key(uint64_t k1, uint64_t k2)
{
    uint64_t h = k1 * 0x9E3779B97F4A7C15ull + k2 * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    return h;
}

void hashmap_init(struct hashmap *map)
{
    map->slots = NULL;
    map->mask = 0;
    map->count = 0;
}

void hashmap_free(struct hashmap *map)
{
    free(map->slots);
    hashmap_init(map);
}

static size_t find_slot(const struct hashmap *map, uint64_t k1, uint64_t k2)
{
    size_t i = hash_key(k1, k2) & map->mask;
    for (;;) {
        const struct hashmap_slot *s = &map->slots[i];
        if (!s->value || (s->k1 == k1 && s->k2 == k2))
            return i;
        i = (i + 1) & map->mask;
    }
}

void *hashmap_get(const struct hashmap *map, uint64_t k1, uint64_t k2)
{
    if (!map->slots)
        return NULL;
    return map->slots[find_slot(map, k1, k2)].value;
}

static void grow(struct hashmap *map)
{
    size_t old_capacity = hashmap_capacity(map);
    struct hashmap_slot *old = map->slots;
    size_t capacity = old_capacity ? old_capacity * 2 : HASHMAP_MIN_CAPACITY;
    if (capacity > SIZE_MAX / sizeof *old)
        fail_out_of_memory();
    map->slots = xcalloc(capacity, sizeof *map->slots);
    map->mask = capacity - 1;
    for (size_t i = 0; i < old_capacity; i++) {
        if (old[i].value)
            map->slots[find_slot(map, old[i].k1, old[i].k2)] = old[i];
    }
    free(old);
}

void *hashmap_put(struct hashmap *map, uint64_t k1, uint64_t k2, void *value)
{
    if (!map->slots || (map->count + 1) * 2 > hashmap_capacity(map))
        grow(map);
    struct hashmap_slot *s = &map->slots[find_slot(map, k1, k2)];
    void *old = s->value;
    if (!old)
        map->count++;
    s->k1 = k1;
    s->k2 = k2;
    s->value = value;
    return old;
}

void *hashmap_remove(struct hashmap *map, uint64_t k1, uint64_t k2)
{
    if (!map->slots)
        return NULL;
    size_t hole = find_slot(map, k1, k2);
    void *value = map->slots[hole].value;
    if (!value)
        return NULL;
    map->count--;
    /* Pull later members of the probe run back into the hole unless their
     * home slot lies cyclically in (hole, j]: then they must stay put. */
    size_t j = hole;
    for (;;) {
        j = (j + 1) & map->mask;
        struct hashmap_slot *s = &map->slots[j];
        if (!s->value)
            break;
        size_t home = hash_key(s->k1, s->k2) & map->mask;
        int stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays) {
            map->slots[hole] = *s;
            hole = j;
        }
    }
    map->slots[hole].value = NULL;
    return value;
}
