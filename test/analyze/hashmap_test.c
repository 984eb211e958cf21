/* The analyzer's hash table against a plain array: random puts, gets and
 * removals over a small key space, so that probe runs collide, wrap around
 * the end of the table and are cut by backward-shift deletion; after each
 * step every key must still be found with its value, and nothing else. */
#include <stdint.h>
#include <stdlib.h>

#include "analyze/hashmap.h"
#include "unit/check.h"

#define KEYS 3000 /* distinct keys: (k % 60, k / 60) */
#define STEPS 200000

static uint64_t state = 88172645463325252ull;

static uint64_t next_random(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(void)
{
    struct hashmap map;
    hashmap_init(&map);
    static uintptr_t reference[KEYS]; /* 0: absent, else the value */
    uint64_t present = 0, mismatches = 0, count_errors = 0, put_errors = 0, remove_errors = 0;

    CHECK(hashmap_get(&map, 1, 2) == NULL);
    CHECK(hashmap_remove(&map, 1, 2) == NULL);
    for (uint64_t step = 1; step <= STEPS; step++) {
        uint64_t r = next_random();
        uint32_t k = (uint32_t)(r % KEYS);
        uint64_t k1 = k % 60, k2 = k / 60;
        if ((r >> 32) % 3 != 0) {
            uintptr_t value = (uintptr_t)step;
            void *old = hashmap_put(&map, k1, k2, (void *)value);
            if ((uintptr_t)old != reference[k])
                put_errors++;
            if (!reference[k])
                present++;
            reference[k] = value;
        } else {
            void *old = hashmap_remove(&map, k1, k2);
            if ((uintptr_t)old != reference[k])
                remove_errors++;
            if (reference[k])
                present--;
            reference[k] = 0;
        }
        if (map.count != present)
            count_errors++;
        if (step % 1000 == 0) {
            for (uint32_t j = 0; j < KEYS; j++) {
                if ((uintptr_t)hashmap_get(&map, j % 60, j / 60) != reference[j])
                    mismatches++;
            }
        }
    }
    CHECK_EQ_U64(put_errors, 0);
    CHECK_EQ_U64(remove_errors, 0);
    CHECK_EQ_U64(count_errors, 0);
    CHECK_EQ_U64(mismatches, 0);
    uint64_t occupied = 0;
    for (size_t i = 0; i < hashmap_capacity(&map); i++)
        occupied += map.slots[i].value != NULL;
    CHECK_EQ_U64(occupied, present);
    CHECK(present > 0);
    /* Emptied completely, the table answers nothing. */
    for (uint32_t j = 0; j < KEYS; j++)
        hashmap_remove(&map, j % 60, j / 60);
    CHECK_EQ_U64(map.count, 0);
    CHECK(hashmap_get(&map, 0, 0) == NULL);
    hashmap_free(&map);
    return CHECK_DONE();
}
