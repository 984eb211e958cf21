/* Rank mapping (seed 003); see rankmap.h for the chain of definitions. */
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/fail.h"
#include "analyze/rankmap.h"

void rankmap_init(struct rankmap *map)
{
    memset(map, 0, sizeof *map);
    hashmap_init(&map->strings);
    hashmap_init(&map->locations);
    hashmap_init(&map->groups);
    hashmap_init(&map->comms);
}

void rankmap_free(struct rankmap *map)
{
    for (size_t i = 0; i < hashmap_capacity(&map->strings); i++)
        free(map->strings.slots[i].value);
    for (size_t i = 0; i < hashmap_capacity(&map->groups); i++) {
        struct rankmap_group *g = map->groups.slots[i].value;
        if (g) {
            free(g->members);
            free(g->world);
            free(g);
        }
    }
    for (size_t i = 0; i < hashmap_capacity(&map->comms); i++) {
        struct rankmap_comm *c = map->comms.slots[i].value;
        if (c) {
            free(c->side);
            free(c);
        }
    }
    for (uint32_t i = 0; i < map->nlocations; i++)
        free(map->location_list[i]);
    free(map->location_list);
    free(map->dense);
    hashmap_free(&map->strings);
    hashmap_free(&map->locations);
    hashmap_free(&map->groups);
    hashmap_free(&map->comms);
}

void rankmap_add_string(struct rankmap *map, uint32_t ref, const char *string)
{
    if (hashmap_get(&map->strings, ref, 0)) {
        map->duplicate_definitions++;
        return;
    }
    hashmap_put(&map->strings, ref, 0, xstrdup(string ? string : ""));
}

const char *rankmap_string(const struct rankmap *map, uint32_t ref)
{
    return hashmap_get(&map->strings, ref, 0);
}

void rankmap_add_location(struct rankmap *map, uint64_t ref, uint64_t location_group,
                          uint64_t events)
{
    if (hashmap_get(&map->locations, ref, 0)) {
        map->duplicate_definitions++;
        return;
    }
    struct rankmap_location *loc = xmalloc(sizeof *loc);
    loc->ref = ref;
    loc->location_group = location_group;
    loc->events = events;
    loc->index = map->nlocations;
    loc->world_rank = RANKMAP_NONE;
    /* Grow by doubling: nlocations is a power of two exactly when full. */
    if ((map->nlocations & (map->nlocations - 1)) == 0) {
        size_t capacity = map->nlocations ? (size_t)map->nlocations * 2 : 8;
        map->location_list = xrealloc(map->location_list, capacity * sizeof *map->location_list);
    }
    map->location_list[map->nlocations++] = loc;
    hashmap_put(&map->locations, ref, 0, loc);
}

void rankmap_add_group(struct rankmap *map, uint32_t ref, uint8_t type, uint8_t paradigm,
                       uint32_t flags, uint32_t size, const uint64_t *members)
{
    if (hashmap_get(&map->groups, ref, 0)) {
        map->duplicate_definitions++;
        return;
    }
    struct rankmap_group *g = xcalloc(1, sizeof *g);
    g->ref = ref;
    g->type = type;
    g->paradigm = paradigm;
    g->flags = flags;
    g->size = members ? size : 0;
    g->members = xmalloc((g->size ? g->size : 1) * sizeof *g->members);
    if (g->size)
        memcpy(g->members, members, g->size * sizeof *members);
    hashmap_put(&map->groups, ref, 0, g);
    if (!map->world && type == OTF2_GROUP_TYPE_COMM_LOCATIONS && paradigm == OTF2_PARADIGM_MPI)
        map->world = g;
}

static struct rankmap_comm *new_comm(struct rankmap *map, uint32_t ref)
{
    if (hashmap_get(&map->comms, ref, 0)) {
        map->duplicate_definitions++;
        return NULL;
    }
    struct rankmap_comm *c = xcalloc(1, sizeof *c);
    c->ref = ref;
    hashmap_put(&map->comms, ref, 0, c);
    return c;
}

void rankmap_add_comm(struct rankmap *map, uint32_t ref, uint32_t name, uint32_t group)
{
    struct rankmap_comm *c = new_comm(map, ref);
    if (c) {
        c->kind = RANKMAP_INTRA;
        c->name = name;
        c->group_ref = group;
    }
}

void rankmap_add_inter_comm(struct rankmap *map, uint32_t ref, uint32_t name, uint32_t group_a,
                            uint32_t group_b)
{
    struct rankmap_comm *c = new_comm(map, ref);
    if (c) {
        c->kind = RANKMAP_INTER;
        c->name = name;
        c->group_ref = group_a;
        c->group_b_ref = group_b;
    }
}

/* World rank of every location: a member of COMM_LOCATIONS has its index;
 * any other location (a second thread) that of the member sharing its
 * location group. */
static void map_locations(struct rankmap *map)
{
    struct hashmap by_group; /* location group -> world rank + 1 */
    hashmap_init(&by_group);
    for (uint32_t w = 0; w < map->world_size; w++) {
        struct rankmap_location *loc = hashmap_get(&map->locations, map->world->members[w], 0);
        if (!loc)
            continue;
        if (loc->world_rank == RANKMAP_NONE)
            loc->world_rank = w;
        if (!hashmap_get(&by_group, loc->location_group, 0))
            hashmap_put(&by_group, loc->location_group, 0, (void *)(uintptr_t)(w + 1));
    }
    for (uint32_t i = 0; i < map->nlocations; i++) {
        struct rankmap_location *loc = map->location_list[i];
        if (loc->world_rank == RANKMAP_NONE) {
            uintptr_t w = (uintptr_t)hashmap_get(&by_group, loc->location_group, 0);
            if (w)
                loc->world_rank = (uint32_t)(w - 1);
        }
    }
    hashmap_free(&by_group);
}

/* Members of a group as world ranks, where that means something. */
static void map_group(struct rankmap *map, struct rankmap_group *g)
{
    if (g->type != OTF2_GROUP_TYPE_COMM_GROUP && g->type != OTF2_GROUP_TYPE_COMM_LOCATIONS)
        return;
    g->world = xmalloc((g->size ? g->size : 1) * sizeof *g->world);
    for (uint32_t i = 0; i < g->size; i++) {
        uint32_t w = RANKMAP_NONE;
        if (g->type == OTF2_GROUP_TYPE_COMM_GROUP) {
            if (g->members[i] < map->world_size)
                w = (uint32_t)g->members[i];
        } else if (g == map->world) {
            w = i;
        } else {
            const struct rankmap_location *loc = rankmap_location(map, g->members[i]);
            if (loc)
                w = loc->world_rank;
        }
        g->world[i] = w;
    }
}

static void mark_side(struct rankmap_comm *c, const struct rankmap_group *g, uint8_t side,
                      uint32_t world_size)
{
    if (!g || !g->world)
        return;
    for (uint32_t i = 0; i < g->size; i++) {
        if (g->world[i] < world_size && !c->side[g->world[i]])
            c->side[g->world[i]] = side;
    }
}

/* The dense location table, if the largest reference is small: at most a
 * few entries per location, plus slack for writers that number from an
 * offset. */
static void index_locations(struct rankmap *map)
{
    uint64_t max = 0;
    for (uint32_t i = 0; i < map->nlocations; i++) {
        if (map->location_list[i]->ref > max)
            max = map->location_list[i]->ref;
    }
    if (map->nlocations == 0 || max >= 4 * (uint64_t)map->nlocations + 65536)
        return;
    map->dense_size = max + 1;
    map->dense = xcalloc(map->dense_size, sizeof *map->dense);
    for (uint32_t i = 0; i < map->nlocations; i++)
        map->dense[map->location_list[i]->ref] = map->location_list[i];
}

void rankmap_finish(struct rankmap *map)
{
    map->world_size = map->world ? map->world->size : 0;
    if (map->world)
        map_locations(map);
    for (size_t i = 0; i < hashmap_capacity(&map->groups); i++) {
        struct rankmap_group *g = map->groups.slots[i].value;
        if (g)
            map_group(map, g);
    }
    for (size_t i = 0; i < hashmap_capacity(&map->comms); i++) {
        struct rankmap_comm *c = map->comms.slots[i].value;
        if (!c)
            continue;
        c->group = hashmap_get(&map->groups, c->group_ref, 0);
        const struct rankmap_group *g = c->group;
        /* group_world_rank's last case, the one of most communicators */
        int global = g && g->type == OTF2_GROUP_TYPE_COMM_GROUP
                     && (g->flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS);
        if (c->kind == RANKMAP_INTRA && g && g->world && g->type != OTF2_GROUP_TYPE_COMM_SELF
            && !global) {
            c->direct = g->world;
            c->direct_size = g->size;
        }
        if (c->kind == RANKMAP_INTER) {
            c->group_b = hashmap_get(&map->groups, c->group_b_ref, 0);
            c->side = xcalloc(map->world_size ? map->world_size : 1, 1);
            mark_side(c, c->group, 1, map->world_size);
            mark_side(c, c->group_b, 2, map->world_size);
        }
    }
    index_locations(map);
}

static uint32_t group_world_rank(const struct rankmap *map, const struct rankmap_group *g,
                                 uint32_t self, uint32_t rank)
{
    if (!g)
        return RANKMAP_NONE;
    if (g->type == OTF2_GROUP_TYPE_COMM_SELF)
        return rank == 0 ? self : RANKMAP_NONE;
    if (g->type == OTF2_GROUP_TYPE_COMM_GROUP && (g->flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS))
        return rank < map->world_size ? rank : RANKMAP_NONE;
    if (!g->world || rank >= g->size)
        return RANKMAP_NONE;
    return g->world[rank];
}

uint32_t rankmap_world_rank_lookup(struct rankmap *map, uint32_t comm, uint32_t self,
                                   uint32_t rank)
{
    const struct rankmap_comm *c = map->last_comm;
    if (!c || c->ref != comm) {
        c = hashmap_get(&map->comms, comm, 0);
        if (!c)
            return RANKMAP_NONE;
        map->last_comm = c;
    }
    if (c->kind == RANKMAP_INTRA)
        return group_world_rank(map, c->group, self, rank);
    /* Inter-communicator: the peer is in the group this process is not
     * in.  A COMM_SELF group on the remote side names nobody in
     * particular, so it does not map. */
    if (self >= map->world_size)
        return RANKMAP_NONE;
    const struct rankmap_group *remote =
        c->side[self] == 1 ? c->group_b : c->side[self] == 2 ? c->group : NULL;
    if (!remote || remote->type == OTF2_GROUP_TYPE_COMM_SELF)
        return RANKMAP_NONE;
    return group_world_rank(map, remote, self, rank);
}

static uint32_t group_size(const struct rankmap_group *g)
{
    if (!g)
        return 0;
    return g->type == OTF2_GROUP_TYPE_COMM_SELF ? 1 : g->size;
}

uint32_t rankmap_comm_size(const struct rankmap_comm *comm)
{
    if (comm->kind == RANKMAP_INTRA)
        return group_size(comm->group);
    return group_size(comm->group) + group_size(comm->group_b);
}
