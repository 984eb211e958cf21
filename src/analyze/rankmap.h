/* Rank mapping: from the communicator-local rank in an MPI event record to
 * a rank in MPI_COMM_WORLD, and from an OTF2 location to the world rank of
 * its process.
 *
 * OTF2 records MPI peers as the application saw them: a rank in the
 * event's communicator.  The global definitions carry what is needed to
 * translate it (seed 003):
 *   communicator -> its group (type COMM_GROUP): member i is the world rank
 *   of local rank i, i.e. an index into
 *   the COMM_LOCATIONS group of the MPI paradigm: member w is the location
 *   of world rank w.
 * Special cases handled here: a group flagged GLOBAL_MEMBERS (local ranks
 * are world ranks already), the COMM_SELF group (rank 0 is the process
 * itself), a communicator whose group is the COMM_LOCATIONS group, and
 * inter-communicators, whose peer ranks index the group the process is
 * not in.  A location that is not a member of COMM_LOCATIONS (a second
 * thread of a process) takes the rank of the member in its location group.
 *
 * Usage: rankmap_add_* for every definition, in any order, then
 * rankmap_finish once, then the lookups. */
#ifndef HT_ANALYZE_RANKMAP_H
#define HT_ANALYZE_RANKMAP_H

#include <stdint.h>

#include "analyze/hashmap.h"

/* "No rank": the location or peer cannot be mapped. */
#define RANKMAP_NONE UINT32_MAX

struct rankmap_location {
    uint64_t ref;
    uint64_t location_group;
    uint64_t events;     /* numberOfEvents from the definition (may be 0) */
    uint32_t index;      /* 0 .. nlocations-1, in definition order */
    uint32_t world_rank; /* or RANKMAP_NONE */
};

struct rankmap_group {
    uint32_t ref;
    uint8_t type;     /* OTF2_GroupType */
    uint8_t paradigm; /* OTF2_Paradigm */
    uint32_t flags;   /* OTF2_GroupFlag */
    uint32_t size;
    uint64_t *members;
    uint32_t *world;  /* members as world ranks (built by rankmap_finish) */
};

enum rankmap_comm_kind { RANKMAP_INTRA, RANKMAP_INTER };

struct rankmap_comm {
    uint32_t ref;
    uint32_t name; /* string ref */
    enum rankmap_comm_kind kind;
    uint32_t group_ref, group_b_ref;
    const struct rankmap_group *group, *group_b; /* resolved by finish */
    /* Inter-communicators: side[w] is 1 if world rank w is in group A,
     * 2 if in group B, 0 if neither. */
    uint8_t *side;
    /* An intra-communicator whose group lists its members: its world
     * ranks by rank (the group's), for rankmap_world_rank's fast path. */
    const uint32_t *direct;
    uint32_t direct_size;
};

struct rankmap {
    struct hashmap strings;   /* ref -> char* */
    struct hashmap locations; /* ref -> struct rankmap_location* */
    struct hashmap groups;    /* ref -> struct rankmap_group* */
    struct hashmap comms;     /* ref -> struct rankmap_comm* */
    struct rankmap_location **location_list; /* by index */
    uint32_t nlocations;
    /* Every event looks its location up: when the references are small
     * numbers, as writers make them, a plain array indexed by reference
     * (built by rankmap_finish) replaces the hash table. */
    struct rankmap_location **dense;
    uint64_t dense_size;
    const struct rankmap_group *world; /* the MPI COMM_LOCATIONS group, or NULL */
    uint32_t world_size;
    /* The last communicator looked up: events come in runs on one. */
    const struct rankmap_comm *last_comm;
    uint32_t duplicate_definitions; /* definitions repeated: first one kept */
};

void rankmap_init(struct rankmap *map);
void rankmap_free(struct rankmap *map);

void rankmap_add_string(struct rankmap *map, uint32_t ref, const char *string);
void rankmap_add_location(struct rankmap *map, uint64_t ref, uint64_t location_group,
                          uint64_t events);
void rankmap_add_group(struct rankmap *map, uint32_t ref, uint8_t type, uint8_t paradigm,
                       uint32_t flags, uint32_t size, const uint64_t *members);
void rankmap_add_comm(struct rankmap *map, uint32_t ref, uint32_t name, uint32_t group);
void rankmap_add_inter_comm(struct rankmap *map, uint32_t ref, uint32_t name, uint32_t group_a,
                            uint32_t group_b);

/* Resolves groups and location ranks once all definitions are in. */
void rankmap_finish(struct rankmap *map);

/* The location's definition, or NULL if it was never defined. */
static inline const struct rankmap_location *rankmap_location(const struct rankmap *map,
                                                              uint64_t ref)
{
    if (map->dense)
        return ref < map->dense_size ? map->dense[ref] : NULL;
    return hashmap_get(&map->locations, ref, 0);
}

/* World rank of local rank `rank` of communicator `comm`, seen from the
 * process with world rank `self` (needed for COMM_SELF and
 * inter-communicators).  RANKMAP_NONE if the communicator is unknown, the
 * rank is outside its group, or the group does not lead to a world rank. */
uint32_t rankmap_world_rank_lookup(struct rankmap *map, uint32_t comm, uint32_t self,
                                   uint32_t rank);
/* Every point-to-point record asks, most on the communicator of the
 * record before: that case is a table look-up here. */
static inline uint32_t rankmap_world_rank(struct rankmap *map, uint32_t comm, uint32_t self,
                                          uint32_t rank)
{
    const struct rankmap_comm *c = map->last_comm;
    if (c && c->ref == comm && c->direct)
        return rank < c->direct_size ? c->direct[rank] : RANKMAP_NONE;
    return rankmap_world_rank_lookup(map, comm, self, rank);
}

/* Name of a string definition, or NULL. */
const char *rankmap_string(const struct rankmap *map, uint32_t ref);

/* Size of a communicator as seen by a member (the local group), 0 if
 * unknown.  For reports only. */
uint32_t rankmap_comm_size(const struct rankmap_comm *comm);

#endif
