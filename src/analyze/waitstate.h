/* Wait-state analysis (Scalasca's patterns, docs/analyze.md): where ranks
 * lose time waiting for each other, per pattern, world rank and call
 * path, with a count and the time in ticks.
 *
 *   locstate.c    per location: region stack, call paths, collective numbers
 *   collective.c  collective instances across ranks: NxN, barrier, 1-to-N, N-to-1
 *   here          the point-to-point patterns, judged on each matched
 *                 message, and the table of results
 *
 * Point-to-point ends carry the context of their region (endpoint.h):
 * stamped by the translator when the record is read (waits_stamp), judged
 * when the matcher pairs them (waits_message). */
#ifndef HT_ANALYZE_WAITSTATE_H
#define HT_ANALYZE_WAITSTATE_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/calltree.h"
#include "analyze/collective.h"
#include "analyze/endpoint.h"
#include "analyze/hashmap.h"
#include "analyze/locstate.h"
#include "analyze/pool.h"
#include "analyze/rankmap.h"
#include "analyze/wait_pattern.h"

struct wait_entry {
    uint32_t pattern;  /* enum wait_pattern */
    uint32_t rank;     /* world rank */
    uint32_t callpath; /* call-path node */
    uint64_t count;    /* instances that waited */
    uint64_t ticks;    /* time waited */
    char *path;        /* the call path's names joined by " > " (waits_finish) */
};

struct waits {
    struct calltree tree;
    struct rankmap *ranks;
    struct locstate *locs; /* by location index */
    uint32_t nlocations;
    struct collectives collectives;
    struct hashmap entries; /* (pattern << 32 | rank, call path) -> struct wait_entry* */
    struct pool entry_pool;
};

/* "late_sender", ... */
const char *wait_pattern_name(enum wait_pattern pattern);

/* Before the definitions (Region definitions go into the tree). */
void waits_init(struct waits *w);
/* After them: the locations are known. */
void waits_start(struct waits *w, struct rankmap *ranks);
/* After the last event: incomplete collectives dropped, paths named. */
void waits_finish(struct waits *w);
void waits_free(struct waits *w);

static inline void waits_enter(struct waits *w, uint32_t location_index, uint32_t region,
                               uint64_t time)
{
    locstate_enter(&w->locs[location_index], region, time);
}

void waits_leave(struct waits *w, uint32_t location_index, uint64_t time);

/* Fills in the region context of a point-to-point end read now on
 * location `loc`.  completion: the record completes an end started
 * earlier (MpiIrecv), whose start time stays. */
void waits_stamp(struct waits *w, const struct rankmap_location *loc, struct endpoint *e,
                 int completion);

/* A matched message: late sender, late receiver. */
void waits_message(struct waits *w, const struct endpoint *send, const struct endpoint *receive);

void waits_collective_begin(struct waits *w, const struct rankmap_location *loc, uint64_t time);
void waits_collective_end(struct waits *w, const struct rankmap_location *loc, uint64_t time,
                          uint8_t op, uint32_t comm, uint32_t root);

/* The entries, biggest time first (then pattern, rank, call path);
 * a malloc'ed array (free it), after waits_finish. */
const struct wait_entry **waits_sorted(const struct waits *w, size_t *n);

/* The names of a call path from the root; returns its depth.  names must
 * hold calltree_depth(node) entries. */
uint32_t waits_path_names(const struct waits *w, uint32_t node, const char **names);

#endif
