/* Collectives split into the pairwise messages this rank moves, one
 * function per pattern (see docs/mpi.md for the rule of each routine).
 * request is MPI_REQUEST_NULL for a blocking call; a non-blocking call
 * passes its request and the messages are recorded when it completes.
 *
 * The generated wrapper calls the pattern after the PMPI routine returned
 * MPI_SUCCESS, with every argument of the routine but the request.  Buffers
 * are only ever compared with MPI_IN_PLACE, never read: counts and
 * datatypes alone decide the bytes. */
#ifndef HT_MPI_COLLECTIVES_H
#define HT_MPI_COLLECTIVES_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi/record.h"

/* --- intra- and inter-communicator collectives (collectives.c) ------------ */

void ht_coll_Barrier(struct ht_mpi_call *c, MPI_Comm comm, MPI_Request request);
void ht_coll_Bcast(struct ht_mpi_call *c, void *buffer, int count, MPI_Datatype datatype, int root,
                   MPI_Comm comm, MPI_Request request);
void ht_coll_Gather(struct ht_mpi_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request request);
void ht_coll_Gatherv(struct ht_mpi_call *c, const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request request);
void ht_coll_Scatter(struct ht_mpi_call *c, const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, MPI_Request request);
void ht_coll_Scatterv(struct ht_mpi_call *c, const void *sendbuf, const int sendcounts[],
                      const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request request);
void ht_coll_Allgather(struct ht_mpi_call *c, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Request request);
void ht_coll_Allgatherv(struct ht_mpi_call *c, const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Request request);
void ht_coll_Alltoall(struct ht_mpi_call *c, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      MPI_Comm comm, MPI_Request request);
void ht_coll_Alltoallv(struct ht_mpi_call *c, const void *sendbuf, const int sendcounts[],
                       const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Request request);
void ht_coll_Alltoallw(struct ht_mpi_call *c, const void *sendbuf, const int sendcounts[],
                       const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                       const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                       MPI_Comm comm, MPI_Request request);
void ht_coll_Reduce(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf, int count,
                    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request request);
void ht_coll_Allreduce(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf, int count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request request);
void ht_coll_Reduce_scatter(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf,
                            const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Request request);
void ht_coll_Reduce_scatter_block(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf,
                                  int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  MPI_Request request);
void ht_coll_Scan(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request request);
void ht_coll_Exscan(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf, int count,
                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request request);

/* --- neighbourhood collectives (collectives_neighbor.c) ------------------- */

void ht_coll_Neighbor_allgather(struct ht_mpi_call *c, const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request);
void ht_coll_Neighbor_allgatherv(struct ht_mpi_call *c, const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Request request);
void ht_coll_Neighbor_alltoall(struct ht_mpi_call *c, const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request);
void ht_coll_Neighbor_alltoallv(struct ht_mpi_call *c, const void *sendbuf, const int sendcounts[],
                                const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const int rdispls[],
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request);
void ht_coll_Neighbor_alltoallw(struct ht_mpi_call *c, const void *sendbuf, const int sendcounts[],
                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm,
                                MPI_Request request);

/* --- shared by the pattern files ------------------------------------------ */

/* The size of the block a rank sends to / receives from peer i: a count
 * and a datatype, each either the same for every peer or per peer. */
struct ht_blocks {
    const int *counts;          /* per peer, or NULL: count for every peer */
    int count;
    const MPI_Datatype *types;  /* per peer, or NULL: type_size for every peer */
    uint64_t type_size;
};

struct ht_blocks ht_blocks_same(int count, MPI_Datatype type);
struct ht_blocks ht_blocks_counts(const int *counts, MPI_Datatype type);
struct ht_blocks ht_blocks_typed(const int *counts, const MPI_Datatype *types);
uint64_t ht_blocks_bytes(const struct ht_blocks *b, int i);

/* The messages of one call, built up to a bound known in advance. */
struct ht_pair_list {
    struct ht_pair *pairs;
    uint32_t n, cap;
};

/* false (and an empty list) if out of memory. */
bool ht_pair_list_init(struct ht_pair_list *l, size_t max);

/* A collective message with world rank peer.  No peer (< 0: MPI_PROC_NULL,
 * untranslatable) or no bytes: no message, since nothing moves. */
void ht_pair_list_add(struct ht_pair_list *l, int peer, bool send, uint64_t bytes);

/* Hands the list to ht_mpi_record_pairs (which owns it from then on). */
void ht_pair_list_emit(struct ht_mpi_call *c, struct ht_pair_list *l, MPI_Request request);

/* Every collective names its communicator and root (-1: none) first: trace
 * mode's collective events need them, and tell collectives from one-sided
 * operations by them. */
static inline void ht_coll_mark(struct ht_mpi_call *c, MPI_Comm comm, int root)
{
    c->comm = comm;
    c->root = root;
}

#endif
