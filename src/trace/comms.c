#include "trace/comms.h"

#include <pthread.h>
#include <stdlib.h>


/* Registration is rare (once per communicator), so a lock is fine here. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ht_trace_comm *comms;
static uint32_t count, capacity;

/* Every rank of the job in world order (ht_trace_set_job). */
static MPI_Comm job = MPI_COMM_WORLD;

void ht_trace_set_job(MPI_Comm comm)
{
    job = comm;
}

MPI_Comm ht_trace_job(void)
{
    return job;
}

/* World ranks of a group, appended at out. */
static void world_ranks(MPI_Group group, int size, int *out)
{
    int *ranks = malloc((size_t)(size > 0 ? size : 1) * sizeof *ranks);
    MPI_Group world;
    for (int i = 0; ranks && i < size; i++)
        ranks[i] = i;
    PMPI_Comm_group(job, &world);
    if (!ranks || PMPI_Group_translate_ranks(group, size, ranks, world, out) != MPI_SUCCESS)
        for (int i = 0; i < size; i++)
            out[i] = -1;
    PMPI_Group_free(&world);
    free(ranks);
}

/* Appends comm; with the lock held.  Returns its index, or 0 (world) if
 * out of memory: events then name the wrong communicator rather than none. */
static uint32_t add(MPI_Comm comm, int remote_size, const int *remote_world)
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
    c->inter = remote_size > 0;
    c->remote_size = remote_size;
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
        c->members[c->size + i] = remote_world[i];
    return count++;
}

/* 1 + the index of the job's communicator once registered. */
static uint32_t world_id;

/* Registers comm unless *cached says it is (double-checked under the lock). */
static uint32_t index_of(MPI_Comm comm, uint32_t *cached, int remote_size, const int *remote_world)
{
    uint32_t id = __atomic_load_n(cached, __ATOMIC_ACQUIRE);
    if (id)
        return id - 1;
    pthread_mutex_lock(&lock);
    id = *cached;
    if (!id) {
        id = add(comm, remote_size, remote_world) + 1;
        __atomic_store_n(cached, id, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
    return id - 1;
}

uint32_t ht_trace_comm_index(MPI_Comm comm, uint32_t *cached, int remote_size,
                             const int *remote_world)
{
    /* World first, so that it is index 0 on every rank. */
    uint32_t world = index_of(job, &world_id, 0, NULL);
    if (comm == MPI_COMM_WORLD || comm == job || comm == MPI_COMM_NULL || !cached)
        return world;
    return index_of(comm, cached, remote_size, remote_world);
}

const struct ht_trace_comm *ht_trace_comms(uint32_t *n)
{
    *n = count;
    return comms;
}
