/* Call-path nodes and the region table. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyze/calltree.h"
#include "analyze/fail.h"

void calltree_init(struct calltree *t)
{
    t->capacity = 64;
    t->nodes = xmalloc(t->capacity * sizeof *t->nodes);
    t->nodes[0].parent = CALLTREE_ROOT;
    t->nodes[0].region = UINT32_MAX;
    t->count = 1;
    hashmap_init(&t->children);
    hashmap_init(&t->regions);
}

void calltree_free(struct calltree *t)
{
    for (size_t i = 0; i < hashmap_capacity(&t->regions); i++)
        free(t->regions.slots[i].value);
    hashmap_free(&t->regions);
    hashmap_free(&t->children);
    free(t->nodes);
    t->nodes = NULL;
}

void calltree_add_region(struct calltree *t, uint32_t region, uint32_t name)
{
    if (hashmap_get(&t->regions, region, 0))
        return; /* the first definition counts, as for the others */
    struct calltree_region *r = xmalloc(sizeof *r);
    r->name = name;
    r->kind = -1;
    hashmap_put(&t->regions, region, 0, r);
}

uint32_t calltree_region_name(const struct calltree *t, uint32_t region)
{
    const struct calltree_region *r = hashmap_get(&t->regions, region, 0);
    return r ? r->name : UINT32_MAX;
}

/* By name, as every writer names MPI routines by their C names (Fortran
 * wrappers too may spell them in another case). */
static enum region_kind classify(const char *name)
{
    static const char *const recv[] = {"MPI_Recv", "MPI_Sendrecv", "MPI_Sendrecv_replace",
                                       "MPI_Mrecv"};
    static const char *const wait[] = {"MPI_Wait", "MPI_Waitall", "MPI_Waitany",
                                       "MPI_Waitsome"};
    static const char *const send[] = {"MPI_Send", "MPI_Ssend"};
    if (!name || strncasecmp(name, "MPI_", 4) != 0)
        return REGION_OTHER;
    for (size_t i = 0; i < sizeof recv / sizeof *recv; i++)
        if (strcasecmp(name, recv[i]) == 0)
            return REGION_RECV;
    for (size_t i = 0; i < sizeof wait / sizeof *wait; i++)
        if (strcasecmp(name, wait[i]) == 0)
            return REGION_WAIT;
    for (size_t i = 0; i < sizeof send / sizeof *send; i++)
        if (strcasecmp(name, send[i]) == 0)
            return REGION_SEND;
    return REGION_MPI;
}

enum region_kind calltree_region_kind(struct calltree *t, uint32_t region,
                                      const char *(*names)(const void *, uint32_t),
                                      const void *strings)
{
    struct calltree_region *r = hashmap_get(&t->regions, region, 0);
    if (!r)
        return REGION_OTHER;
    if (r->kind < 0)
        r->kind = (int8_t)classify(names(strings, r->name));
    return (enum region_kind)r->kind;
}

uint32_t calltree_child(struct calltree *t, uint32_t parent, uint32_t region)
{
    uintptr_t found = (uintptr_t)hashmap_get(&t->children, parent, region);
    if (found)
        return (uint32_t)(found - 1);
    if (t->count == t->capacity) {
        t->capacity *= 2;
        t->nodes = xrealloc(t->nodes, t->capacity * sizeof *t->nodes);
    }
    uint32_t node = t->count++;
    t->nodes[node].parent = parent;
    t->nodes[node].region = region;
    hashmap_put(&t->children, parent, region, (void *)(uintptr_t)(node + 1));
    return node;
}

uint32_t calltree_depth(const struct calltree *t, uint32_t node)
{
    uint32_t depth = 0;
    while (node != CALLTREE_ROOT) {
        node = t->nodes[node].parent;
        depth++;
    }
    return depth;
}
