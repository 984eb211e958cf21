/* Neighbourhood collectives: the peers come from the communicator's
 * virtual topology, in the order MPI-3.1 section 7.6 fixes for the
 * buffers, so block i goes to destination i and comes from source i. */
#include "mpi/collectives.h"

#include <stdlib.h>

#include "mpi/ranks.h"

/* The neighbour lists almost always fit here (a 3-D torus has 6), which
 * spares a malloc per call. */
#define LOCAL_INTS 64

struct neighbors {
    int nsrc, ndst;
    int *src, *dst;      /* ranks in the communicator; MPI_PROC_NULL possible */
    int *heap;           /* to free, or NULL */
    int local[LOCAL_INTS];
};

static int *ints(struct neighbors *nb, size_t n)
{
    if (n <= LOCAL_INTS)
        return nb->local;
    nb->heap = malloc(n * sizeof *nb->heap);
    return nb->heap;
}

/* false if the communicator has no topology or on error. */
static bool neighbors_get(MPI_Comm comm, int rank, struct neighbors *nb)
{
    int topo = MPI_UNDEFINED;
    nb->nsrc = nb->ndst = 0;
    nb->heap = NULL;
    if (PMPI_Topo_test(comm, &topo) != MPI_SUCCESS)
        return false;
    if (topo == MPI_CART) {
        /* For each dimension the -1 side then the +1 side, both for the
         * sources and for the destinations (what MPI_Cart_shift calls
         * source and destination of a shift by +1). */
        int ndims = 0;
        if (PMPI_Cartdim_get(comm, &ndims) != MPI_SUCCESS || ndims < 0)
            return false;
        int *list = ints(nb, 2 * (size_t)ndims);
        if (!list)
            return false;
        for (int d = 0; d < ndims; d++)
            if (PMPI_Cart_shift(comm, d, 1, &list[2 * d], &list[2 * d + 1]) != MPI_SUCCESS)
                return false;
        nb->src = nb->dst = list;
        nb->nsrc = nb->ndst = 2 * ndims;
        return true;
    }
    if (topo == MPI_GRAPH) {
        /* An undirected graph: the same neighbours both ways. */
        int n = 0;
        if (PMPI_Graph_neighbors_count(comm, rank, &n) != MPI_SUCCESS || n < 0)
            return false;
        int *list = ints(nb, (size_t)n + 1);
        if (!list || PMPI_Graph_neighbors(comm, rank, n, list) != MPI_SUCCESS)
            return false;
        nb->src = nb->dst = list;
        nb->nsrc = nb->ndst = n;
        return true;
    }
    if (topo == MPI_DIST_GRAPH) {
        int indeg = 0, outdeg = 0, weighted = 0;
        if (PMPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted) != MPI_SUCCESS ||
            indeg < 0 || outdeg < 0)
            return false;
        /* Room for the weights too: MPI may fill them in for a weighted
         * graph, and real arrays are valid either way. */
        size_t in = (size_t)indeg + 1, out = (size_t)outdeg + 1;
        int *list = ints(nb, 2 * (in + out));
        if (!list)
            return false;
        nb->src = list;
        nb->dst = list + in;
        if (PMPI_Dist_graph_neighbors(comm, indeg, nb->src, list + in + out, outdeg, nb->dst,
                                      list + 2 * in + out) != MPI_SUCCESS)
            return false;
        nb->nsrc = indeg;
        nb->ndst = outdeg;
        return true;
    }
    return false;
}

/* Block i of send to destination i, block i of recv from source i; no
 * neighbour (MPI_PROC_NULL, the edge of a non-periodic grid) and this
 * rank itself are no message. */
static void neighbor_exchange(struct ht_mpi_call *c, MPI_Comm comm, struct ht_blocks send,
                              struct ht_blocks recv, MPI_Request request)
{
    struct ht_pair_list l;
    struct neighbors nb;
    nb.heap = NULL;
    int rank = MPI_PROC_NULL;
    struct ht_rank_map *map = ht_mpi_rank_map_get(comm);
    ht_pair_list_init(&l, 0);
    if (map && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS && neighbors_get(comm, rank, &nb)) {
        if (ht_pair_list_init(&l, (size_t)nb.nsrc + (size_t)nb.ndst)) {
            for (int i = 0; i < nb.ndst; i++)
                if (nb.dst[i] != rank)
                    ht_pair_list_add(&l, ht_mpi_rank_map_world(map, nb.dst[i]), true,
                                     ht_blocks_bytes(&send, i));
            for (int i = 0; i < nb.nsrc; i++)
                if (nb.src[i] != rank)
                    ht_pair_list_add(&l, ht_mpi_rank_map_world(map, nb.src[i]), false,
                                     ht_blocks_bytes(&recv, i));
        }
    }
    free(nb.heap);
    ht_mpi_rank_map_put(map);
    ht_pair_list_emit(c, &l, request);
}

void ht_coll_Neighbor_allgather(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)sendbuf;
    (void)recvbuf;
    neighbor_exchange(c, comm, ht_blocks_same(sendcount, sendtype),
                      ht_blocks_same(recvcount, recvtype), request);
}

void ht_coll_Neighbor_allgatherv(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void *recvbuf, struct ht_counts recvcounts,
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)sendbuf;
    (void)recvbuf;
    neighbor_exchange(c, comm, ht_blocks_same(sendcount, sendtype),
                      ht_blocks_counts(recvcounts, recvtype), request);
}

void ht_coll_Neighbor_alltoall(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)sendbuf;
    (void)recvbuf;
    neighbor_exchange(c, comm, ht_blocks_same(sendcount, sendtype),
                      ht_blocks_same(recvcount, recvtype), request);
}

void ht_coll_Neighbor_alltoallv(struct ht_mpi_call *c, const void *sendbuf,
                                struct ht_counts sendcounts, MPI_Datatype sendtype, void *recvbuf,
                                struct ht_counts recvcounts, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)sendbuf;
    (void)recvbuf;
    neighbor_exchange(c, comm, ht_blocks_counts(sendcounts, sendtype),
                      ht_blocks_counts(recvcounts, recvtype), request);
}

void ht_coll_Neighbor_alltoallw(struct ht_mpi_call *c, const void *sendbuf,
                                struct ht_counts sendcounts, const MPI_Datatype sendtypes[],
                                void *recvbuf, struct ht_counts recvcounts,
                                const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)sendbuf;
    (void)recvbuf;
    neighbor_exchange(c, comm, ht_blocks_typed(sendcounts, sendtypes),
                      ht_blocks_typed(recvcounts, recvtypes), request);
}
