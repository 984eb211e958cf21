/* Call paths for the wait-state analysis: each distinct stack of regions
 * (from the root of a location's Enter/Leave stack down to an MPI routine)
 * becomes one small number, a node of a tree of regions.  Nodes are made
 * only when a wait state may need one (at an MPI event), not at every
 * Enter, so the cost of a trace's millions of Enter/Leave events stays a
 * push and a pop (locstate.c).
 *
 * Also the table of Region definitions: a region's name and what kind of
 * MPI routine it is, which decides the patterns it can take part in. */
#ifndef HT_ANALYZE_CALLTREE_H
#define HT_ANALYZE_CALLTREE_H

#include <stdint.h>

#include "analyze/hashmap.h"

/* Node 0 is the root: no region, the empty path. */
#define CALLTREE_ROOT 0u

/* What a region is, for the wait states. */
enum region_kind {
    REGION_OTHER,      /* not an MPI routine */
    REGION_MPI,        /* an MPI routine no pattern looks at */
    REGION_RECV,       /* blocking receive: MPI_Recv, MPI_Sendrecv(_replace), MPI_Mrecv */
    REGION_WAIT,       /* MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome */
    REGION_SEND,       /* a send that may wait for its receive: MPI_Send, MPI_Ssend */
};

struct calltree_node {
    uint32_t parent;
    uint32_t region; /* OTF2 region reference */
};

struct calltree_region {
    uint32_t name;  /* string reference */
    int8_t kind;    /* enum region_kind, or -1 until first asked */
};

struct calltree {
    struct calltree_node *nodes;
    uint32_t count, capacity;
    struct hashmap children; /* (parent, region) -> node + 1 */
    struct hashmap regions;  /* region ref -> struct calltree_region* */
};

void calltree_init(struct calltree *t);
void calltree_free(struct calltree *t);

/* A Region definition. */
void calltree_add_region(struct calltree *t, uint32_t region, uint32_t name);
/* The kind of a region; names is the string table (rankmap_string). */
enum region_kind calltree_region_kind(struct calltree *t, uint32_t region,
                                      const char *(*names)(const void *, uint32_t),
                                      const void *strings);
/* The region's name string reference, or UINT32_MAX if undefined. */
uint32_t calltree_region_name(const struct calltree *t, uint32_t region);

/* The node for `region` called from `parent`, made if new. */
uint32_t calltree_child(struct calltree *t, uint32_t parent, uint32_t region);

/* Depth of a node: 0 for the root. */
uint32_t calltree_depth(const struct calltree *t, uint32_t node);

#endif
