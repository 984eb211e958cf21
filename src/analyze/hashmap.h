/* An open-addressing hash table from a key of two 64-bit words to a
 * pointer.  Every lookup table of the analyzer is one of these: requests by
 * (location, request id), match queues by (sender, receiver, communicator,
 * tag), matrix cells by (sender, receiver), definitions by reference.
 *
 * Linear probing with backward-shift deletion (no tombstones), so a table
 * that sees millions of inserts and removals keeps short probe sequences;
 * the load factor stays at or below one half. */
#ifndef HT_ANALYZE_HASHMAP_H
#define HT_ANALYZE_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

struct hashmap_slot {
    uint64_t k1, k2;
    void *value; /* NULL: the slot is empty */
};

struct hashmap {
    struct hashmap_slot *slots;
    size_t mask;  /* capacity - 1; the capacity is a power of two */
    size_t count; /* occupied slots */
};

void hashmap_init(struct hashmap *map);
void hashmap_free(struct hashmap *map);

/* The value stored under (k1, k2), or NULL. */
void *hashmap_get(const struct hashmap *map, uint64_t k1, uint64_t k2);

/* Stores value (not NULL) under (k1, k2) and returns the value it
 * replaces, or NULL.  Exits through fail_out_of_memory() if the table
 * cannot grow. */
void *hashmap_put(struct hashmap *map, uint64_t k1, uint64_t k2, void *value);

/* Removes (k1, k2) and returns its value, or NULL if it was not there. */
void *hashmap_remove(struct hashmap *map, uint64_t k1, uint64_t k2);

/* Iteration in slot order (unspecified but deterministic for the same
 * sequence of operations): for (size_t i = 0; i < hashmap_capacity(m); i++)
 * if (m->slots[i].value) ...  The table must not change meanwhile. */
static inline size_t hashmap_capacity(const struct hashmap *map)
{
    return map->slots ? map->mask + 1 : 0;
}

#endif
