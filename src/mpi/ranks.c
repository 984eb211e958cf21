#include "config.h"

#include "mpi/ranks.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler.h"
#include "trace/comms.h"

static int comm_keyval = MPI_KEYVAL_INVALID;

unsigned ht_mpi_comm_generation;

/* MPI_COMM_WORLD's table: identity, made once, never freed, and handed out
 * without reference counting (most messages go through it). */
static struct ht_rank_map *world_map;

/* The job's group, in world numbering: MPI_COMM_WORLD's, or in a sessions
 * program that of mpi://WORLD (job.c).  Every table translates to it. */
static MPI_Group world_group = MPI_GROUP_NULL;

void ht_mpi_rank_map_put(struct ht_rank_map *map)
{
    if (map && map != world_map && __atomic_sub_fetch(&map->refs, 1, __ATOMIC_ACQ_REL) == 0)
        free(map);
}

void ht_mpi_rank_map_keep(struct ht_rank_map *map)
{
    if (map && map != world_map)
        __atomic_add_fetch(&map->refs, 1, __ATOMIC_RELAXED);
}

/* Set while this thread attaches a table: MPI then calls delete_map on the
 * table another thread attached since this one looked (two threads
 * building the same table at once), which that thread, or a third, may be
 * reading without a reference (ht_mpi_rank_map_peek).  That table is left
 * allocated: it is rare and small. */
static __thread int attaching __attribute__((tls_model("initial-exec")));

/* MPI calls this when the communicator is freed (or MPI finalized), and
 * when this thread's attach replaces another's table (attaching). */
static int delete_map(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    __atomic_add_fetch(&ht_mpi_comm_generation, 1, __ATOMIC_RELEASE);
    if (!attaching)
        ht_mpi_rank_map_put(value);
    return MPI_SUCCESS;
}

int ht_mpi_status_count_direct;

/* Whether the status field ht_mpi_status_bytes reads holds, for byte
 * counts around every boundary of its words, with the cancelled flag set
 * or not, exactly what MPI_Status_set_elements_x wrote there and what
 * MPI asks back from it. */
static bool status_count_readable(void)
{
#if HT_MPI_STATUS_COUNT_FIELD
    static const MPI_Count counts[] = {0, 1, 8, 255, 65536, INT32_MAX, (MPI_Count)INT32_MAX + 1,
                                       (MPI_Count)UINT32_MAX, (MPI_Count)UINT32_MAX + 2,
                                       ((MPI_Count)1 << 40) + 12345};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        for (int cancelled = 0; cancelled < 2; cancelled++) {
            MPI_Status st;
            memset(&st, cancelled ? 0x5a : 0xa5, sizeof st);
            if (PMPI_Status_set_elements_x(&st, MPI_BYTE, counts[i]) != MPI_SUCCESS ||
                PMPI_Status_set_cancelled(&st, cancelled) != MPI_SUCCESS)
                return false;
            uint64_t direct = ht_mpi_status_count_field(&st);
            if (direct != (uint64_t)counts[i] || ht_mpi_status_bytes_asked(&st) != direct)
                return false;
        }
    }
    return true;
#else
    return false;
#endif
}

void ht_mpi_ranks_init(MPI_Comm job)
{
    ht_mpi_status_count_direct = status_count_readable();
    if (comm_keyval == MPI_KEYVAL_INVALID)
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_map, &comm_keyval, NULL);
    if (world_group == MPI_GROUP_NULL && PMPI_Comm_group(job, &world_group) != MPI_SUCCESS)
        world_group = MPI_GROUP_NULL;
    if (!world_map && world_group != MPI_GROUP_NULL)
        world_map = ht_mpi_rank_map_from_group(world_group, 0);
}

void ht_mpi_ranks_end(void)
{
    /* A group derived from a session must go before the session does. */
    if (world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&world_group);
}

struct ht_rank_map *ht_mpi_rank_map_from_group(MPI_Group group, int inter)
{
    if (world_group == MPI_GROUP_NULL)
        return NULL;
    int size = 0;
    PMPI_Group_size(group, &size);
    /* world[] and, after it, the identity ranks translate_ranks reads. */
    struct ht_rank_map *map = malloc(sizeof *map + (size_t)(size > 0 ? size : 1) * 2 * sizeof(int));
    if (!map)
        return NULL;
    map->refs = 1;
    map->size = size;
    map->inter = inter;
    map->trace_id = 0;
    if (PMPI_Group_rank(group, &map->self) != MPI_SUCCESS)
        map->self = MPI_UNDEFINED;
    int *ranks = map->world + size;
    for (int i = 0; i < size; i++)
        ranks[i] = i;
    /* In a sessions program the group may come from another session than
     * world_group's: MPI 4 calls mixing them erroneous, MPICH 4.0 does it
     * right (lpids are per process); an error leaves the ranks unknown. */
    if (PMPI_Group_translate_ranks(group, size, ranks, world_group, map->world) != MPI_SUCCESS)
        for (int i = 0; i < size; i++)
            map->world[i] = MPI_UNDEFINED;
    return map;
}

static struct ht_rank_map *build_map(MPI_Comm comm)
{
    int inter = 0;
    MPI_Group group;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return NULL;
    if ((inter ? PMPI_Comm_remote_group(comm, &group) : PMPI_Comm_group(comm, &group)) !=
        MPI_SUCCESS)
        return NULL;
    struct ht_rank_map *map = ht_mpi_rank_map_from_group(group, inter);
    PMPI_Group_free(&group);
    /* An inter-communicator's table lists the remote group; its own rank
     * is in the local one. */
    if (map && inter && PMPI_Comm_rank(comm, &map->self) != MPI_SUCCESS)
        map->self = MPI_UNDEFINED;
    return map;
}

/* The communicator whose table this thread looked up last (ranks.h). */
__thread struct ht_last_map ht_last_map __attribute__((tls_model("initial-exec")));

struct ht_rank_map *ht_mpi_rank_map_lookup(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD && world_map)
        return world_map;
    unsigned generation = __atomic_load_n(&ht_mpi_comm_generation, __ATOMIC_ACQUIRE);
    struct ht_last_map *last = &ht_last_map;
    if (last->map && last->comm == comm && last->generation == generation)
        return last->map;
    if (comm == MPI_COMM_NULL || comm_keyval == MPI_KEYVAL_INVALID)
        return NULL;
    struct ht_rank_map *map = NULL;
    int found = 0;
    if (PMPI_Comm_get_attr(comm, comm_keyval, &map, &found) != MPI_SUCCESS)
        return NULL;
    if (!found || !map) {
        map = build_map(comm);
        if (!map)
            return NULL;
        attaching = 1;
        int rc = PMPI_Comm_set_attr(comm, comm_keyval, map);
        attaching = 0;
        if (rc != MPI_SUCCESS) {
            ht_mpi_rank_map_put(map);
            return NULL;
        }
    }
    *last = (struct ht_last_map){comm, generation, map};
    return map;
}

struct ht_rank_map *ht_mpi_rank_map_get(MPI_Comm comm)
{
    struct ht_rank_map *map = ht_mpi_rank_map_peek(comm);
    ht_mpi_rank_map_keep(map);
    return map;
}

/* The size of a datatype, in bytes, as an MPI_Count: MPI 4's
 * MPI_Type_size_c where the library has it, else MPI 3's
 * MPI_Type_size_x (both libraries have it); never the int MPI_Type_size,
 * which gives MPI_UNDEFINED for a type over INT_MAX bytes. */
static MPI_Count type_size(MPI_Datatype type)
{
    MPI_Count size = 0;
#if HAVE_PMPI_TYPE_SIZE_C
    if (PMPI_Type_size_c(type, &size) != MPI_SUCCESS)
        return 0;
#else
    if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS)
        return 0;
#endif
    return size == MPI_UNDEFINED || size < 0 ? 0 : size;
}

/* The sizes of the predefined datatypes this thread used last (ranks.h). */
__thread struct ht_type_size ht_type_sizes[HT_TYPE_SIZES] __attribute__((tls_model("initial-exec")));

static bool is_predefined(MPI_Datatype type)
{
    int integers, addresses, types, combiner;
    return PMPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner) ==
               MPI_SUCCESS &&
           combiner == MPI_COMBINER_NAMED;
}

uint64_t ht_mpi_bytes_asked(MPI_Count count, MPI_Datatype type)
{
    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    MPI_Count size = type_size(type);
    if (size > 0 && is_predefined(type)) {
        struct ht_type_size *e = &ht_type_sizes[ht_type_slot(type)];
        e->type = type;
        e->size = size;
    }
    return (uint64_t)count * (uint64_t)size;
}

uint64_t ht_mpi_status_bytes_asked(const MPI_Status *st)
{
    MPI_Count count = 0;
#if HAVE_PMPI_GET_COUNT_C
    if (PMPI_Get_count_c(st, MPI_BYTE, &count) != MPI_SUCCESS)
        return 0;
#else
    /* MPI_BYTE has one element per byte: the elements are the bytes. */
    if (PMPI_Get_elements_x(st, MPI_BYTE, &count) != MPI_SUCCESS)
        return 0;
#endif
    return count == MPI_UNDEFINED || count < 0 ? 0 : (uint64_t)count;
}

uint32_t ht_mpi_trace_comm(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return ht_trace_comm_index(MPI_COMM_WORLD, NULL, 0, NULL);
    struct ht_rank_map *map = ht_mpi_rank_map_get(comm);
    if (!map)
        return ht_trace_comm_index(MPI_COMM_WORLD, NULL, 0, NULL);
    /* The table of an inter-communicator lists its remote group. */
    uint32_t id = ht_trace_comm_index(comm, &map->trace_id, map->inter ? map->size : 0,
                                      map->world);
    ht_mpi_rank_map_put(map);
    return id;
}

