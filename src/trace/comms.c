#include "trace/comms.h"

#include <pthread.h>
#include <stdlib.h>

#include "mpi/ranks.h"

/* Registration is rare (once per communicator), so a lock is fine here. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ht_trace_comm *comms;
static uint32_t count, capacity;

/* World ranks of a group, appended at out. */
static void world_ranks(MPI_Group group, int size, int *out)
{
    int *ranks = malloc((size_t)(size > 0 ? size : 1) * sizeof *ranks);
    MPI_Group world;
    for (int i = 0; ranks && i < size; i++)
        ranks[i] = i;
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    if (ranks)
        PMPI_Group_translate_ranks(group, size, ranks, world, out);
    else
        for (int i = 0; i < size; i++)
            out[i] = -1;
    PMPI_Group_free(&world);
    free(ranks);
}

/* Appends comm; with the lock held.  Returns its index, or 0 (world) if
 * out of memory: events then name the wrong communicator rather than none. */
static uint32_t add(MPI_Comm comm, const struct ht_rank_map *map)
{
    if (count == capacity) {
        uint32_t cap = capacity ? capacity * 2 : 16;
        struct ht_trace_comm *bigger = realloc(comms, cap * sizeof *bigger);
        if (!bigger)
            return 0;
        comms = bigger;
        capacity = cap;
    }
    struct ht_trace_comm *c = &comms[count];
    c->inter = map->inter;
    c->remote_size = map->inter ? map->size : 0;
    MPI_Group local;
    PMPI_Comm_group(comm, &local);
    PMPI_Group_size(local, &c->size);
    c->members = malloc((size_t)(c->size + c->remote_size + 1) * sizeof *c->members);
    if (!c->members) {
        PMPI_Group_free(&local);
        return 0;
    }
    world_ranks(local, c->size, c->members);
    PMPI_Group_free(&local);
    for (int i = 0; i < c->remote_size; i++)
        c->members[c->size + i] = map->world[i];
    return count++;
}

uint32_t ht_trace_comm_index(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return 0;
    /* World first, so that it is index 0 on every rank. */
    if (count == 0) {
        struct ht_rank_map *world = ht_mpi_rank_map_get(MPI_COMM_WORLD);
        if (world) {
            pthread_mutex_lock(&lock);
            if (!world->trace_id)
                world->trace_id = add(MPI_COMM_WORLD, world) + 1;
            pthread_mutex_unlock(&lock);
            ht_mpi_rank_map_put(world);
        }
    }
    struct ht_rank_map *map = ht_mpi_rank_map_get(comm);
    if (!map)
        return 0;
    uint32_t id = __atomic_load_n(&map->trace_id, __ATOMIC_ACQUIRE);
    if (!id) {
        pthread_mutex_lock(&lock);
        id = map->trace_id;
        if (!id) {
            id = add(comm, map) + 1;
            __atomic_store_n(&map->trace_id, id, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
    }
    ht_mpi_rank_map_put(map);
    return id - 1;
}

const struct ht_trace_comm *ht_trace_comms(uint32_t *n)
{
    *n = count;
    return comms;
}
