/* One-sided operations: one message from the origin (this rank) to the
 * target, whose rank is one of the window's group.
 *
 * The window's rank -> world rank table is cached on the window as an MPI
 * attribute, as ranks.c does for communicators: MPI frees it with the
 * window, so a handle reused for a new window never sees a stale table.
 * It is the same reference-counted struct ht_rank_map. */
#include "mpi/rma.h"

#include <pthread.h>
#include <stdlib.h>

#include "mpi/ranks.h"

static int win_keyval = MPI_KEYVAL_INVALID;
static pthread_once_t win_keyval_once = PTHREAD_ONCE_INIT;

/* MPI calls this when the window is freed. */
static int delete_map(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win;
    (void)keyval;
    (void)extra;
    ht_mpi_rank_map_put(value);
    return MPI_SUCCESS;
}

/* Made on first use: one-sided calls only happen after MPI_Init, and two
 * threads may get here at once. */
static void create_keyval(void)
{
    PMPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_map, &win_keyval, NULL);
}

static struct ht_rank_map *build_map(MPI_Win win)
{
    MPI_Group group;
    if (PMPI_Win_get_group(win, &group) != MPI_SUCCESS)
        return NULL;
    struct ht_rank_map *map = ht_mpi_rank_map_from_group(group, 0);
    PMPI_Group_free(&group);
    return map;
}

/* The table of win with a reference taken for the caller; NULL on error. */
static struct ht_rank_map *win_map_get(MPI_Win win)
{
    pthread_once(&win_keyval_once, create_keyval);
    if (win == MPI_WIN_NULL || win_keyval == MPI_KEYVAL_INVALID)
        return NULL;
    struct ht_rank_map *map = NULL;
    int found = 0;
    if (PMPI_Win_get_attr(win, win_keyval, &map, &found) != MPI_SUCCESS)
        return NULL;
    if (!found || !map) {
        map = build_map(win);
        if (!map)
            return NULL;
        /* Two threads may build the table at once; the attribute's delete
         * callback releases the one replaced. */
        if (PMPI_Win_set_attr(win, win_keyval, map) != MPI_SUCCESS) {
            ht_mpi_rank_map_put(map);
            return NULL;
        }
    }
    __atomic_add_fetch(&map->refs, 1, __ATOMIC_ACQ_REL);
    return map;
}

/* The one message of an operation; MPI_PROC_NULL as target moves nothing
 * and is not recorded (nor its request tracked). */
static void record(struct ht_mpi_call *c, int target_rank, MPI_Win win, uint64_t bytes,
                   MPI_Request request)
{
    if (target_rank == MPI_PROC_NULL || target_rank < 0)
        return;
    struct ht_rank_map *map = win_map_get(win);
    int peer = ht_mpi_rank_map_world(map, target_rank);
    ht_mpi_rank_map_put(map);
    if (peer < 0)
        return;
    struct ht_pair *p = malloc(sizeof *p);
    if (!p)
        return;
    *p = (struct ht_pair){.peer = peer, .send = true, .collective = false, .bytes = bytes};
    ht_mpi_record_pairs(c, p, 1, request);
}

void ht_rma_Put(struct ht_mpi_call *c, const void *origin_addr, MPI_Count origin_count,
                MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request request)
{
    (void)origin_addr;
    (void)target_disp;
    (void)target_count;
    (void)target_datatype;
    record(c, target_rank, win, ht_mpi_bytes(origin_count, origin_datatype), request);
}

void ht_rma_Get(struct ht_mpi_call *c, void *origin_addr, MPI_Count origin_count,
                MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request request)
{
    (void)origin_addr;
    (void)target_disp;
    (void)target_count;
    (void)target_datatype;
    record(c, target_rank, win, ht_mpi_bytes(origin_count, origin_datatype), request);
}

void ht_rma_Accumulate(struct ht_mpi_call *c, const void *origin_addr, MPI_Count origin_count,
                       MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                       MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                       MPI_Request request)
{
    (void)origin_addr;
    (void)target_disp;
    (void)target_count;
    (void)target_datatype;
    (void)op;
    record(c, target_rank, win, ht_mpi_bytes(origin_count, origin_datatype), request);
}

/* With MPI_NO_OP the origin buffer is ignored and programs often pass a
 * count of 0 for it: then only the result counts. */
void ht_rma_Get_accumulate(struct ht_mpi_call *c, const void *origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
                           MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request request)
{
    (void)origin_addr;
    (void)result_addr;
    (void)target_disp;
    (void)target_count;
    (void)target_datatype;
    (void)op;
    record(c, target_rank, win,
           ht_mpi_bytes(origin_count, origin_datatype) + ht_mpi_bytes(result_count, result_datatype),
           request);
}

void ht_rma_Fetch_and_op(struct ht_mpi_call *c, const void *origin_addr, void *result_addr,
                         MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op,
                         MPI_Win win, MPI_Request request)
{
    (void)origin_addr;
    (void)result_addr;
    (void)target_disp;
    (void)op;
    record(c, target_rank, win, 2 * ht_mpi_bytes(1, datatype), request);
}

void ht_rma_Compare_and_swap(struct ht_mpi_call *c, const void *origin_addr,
                             const void *compare_addr, void *result_addr, MPI_Datatype datatype,
                             int target_rank, MPI_Aint target_disp, MPI_Win win,
                             MPI_Request request)
{
    (void)origin_addr;
    (void)compare_addr;
    (void)result_addr;
    (void)target_disp;
    record(c, target_rank, win, 3 * ht_mpi_bytes(1, datatype), request);
}
