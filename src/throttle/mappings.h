/* The process's mappings and their permissions, from /proc/self/maps, read
 * once and again only when an address is in none of them (or after
 * ht_mappings_forget).  patch.c touches code only where this says it is
 * private, readable, executable and not writable, and restores exactly
 * these permissions.  Callers hold patch.c's lock.  Async-signal-safe. */
#ifndef HT_THROTTLE_MAPPINGS_H
#define HT_THROTTLE_MAPPINGS_H

#include <stdbool.h>
#include <stdint.h>

#define HT_PERM_R 1u
#define HT_PERM_W 2u
#define HT_PERM_X 4u
#define HT_PERM_PRIVATE 8u

struct ht_mapping {
    uintptr_t lo, hi;
    unsigned perms;
};

/* (Re)reads /proc/self/maps; false if it cannot. */
bool ht_mappings_load(void);

/* The mapping holding all of [lo, hi), or NULL. */
const struct ht_mapping *ht_mapping_of(uintptr_t lo, uintptr_t hi);

/* [lo, hi) lies in one mapping with these permissions (re-reading the maps
 * once, *reloaded, if it lies in none known). */
bool ht_mapped(uintptr_t lo, uintptr_t hi, unsigned perms, bool *reloaded);

/* Mappings changed (a library was unmapped): read them again when next
 * needed. */
void ht_mappings_forget(void);

#endif
