/* Named regions (hooktrace_region_begin/end, src/hooks/regions.c): each
 * distinct name gets one record for the life of the process, and the
 * record's address is the region's "function" in every tree, so that a
 * region is a node like a function's.  A record lives on the heap, in no
 * ELF object, so the merge never takes it for code (merge/names.c): each
 * rank names its own regions, and the merge joins them by name. */
#ifndef HT_CALLSTACK_REGIONS_H
#define HT_CALLSTACK_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ht_region {
    uint64_t hash;
    struct ht_region *next;  /* the registry's chain by name */
    struct ht_region *next_at; /* its chain by address */
    int warned;              /* a mismatched end was said (once per name) */
    size_t length;
    char name[];             /* NUL-terminated */
};

/* The record of name[0..length), created on first use; NULL when memory
 * runs out or the name is empty.  Takes a lock only to add a name. */
struct ht_region *ht_regions_intern(const char *name, size_t length);

/* The region whose record is at address, or NULL: for naming nodes. */
const struct ht_region *ht_regions_at(uintptr_t address);

#endif
