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

#include "common/compiler.h"
#include "mpi/ranks.h"
#include "mpi/record.h"

/* An array of counts, one per peer, as the routine was given it: int in
 * the standard routines, MPI_Count in the MPI 4 large-count ones
 * (MPI_Gatherv_c, ...); the generated wrapper says which
 * (ht_counts_int, ht_counts_large).  Displacements are never passed:
 * counts and datatypes alone decide the bytes. */
struct ht_counts {
    const int *ints;
    const MPI_Count *large;
};

static inline struct ht_counts ht_counts_int(const int *counts)
{
    return (struct ht_counts){.ints = counts};
}

static inline struct ht_counts ht_counts_large(const MPI_Count *counts)
{
    return (struct ht_counts){.large = counts};
}

static inline bool ht_counts_given(struct ht_counts c)
{
    return c.ints || c.large;
}

static inline MPI_Count ht_counts_at(struct ht_counts c, int i)
{
    return c.large ? c.large[i] : c.ints[i];
}

/* --- intra- and inter-communicator collectives (collectives.c) ------------ */

void ht_coll_Barrier(struct ht_mpi_call *c, MPI_Comm comm, MPI_Request request);
void ht_coll_Bcast(struct ht_mpi_call *c, void *buffer, MPI_Count count, MPI_Datatype datatype,
                   int root, MPI_Comm comm, MPI_Request request);
void ht_coll_Gather(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request request);
void ht_coll_Gatherv(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, struct ht_counts recvcounts,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request request);
void ht_coll_Scatter(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request request);
void ht_coll_Scatterv(struct ht_mpi_call *c, const void *sendbuf, struct ht_counts sendcounts,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request request);
void ht_coll_Allgather(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request);
void ht_coll_Allgatherv(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, struct ht_counts recvcounts,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request);
void ht_coll_Alltoall(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request);
void ht_coll_Alltoallv(struct ht_mpi_call *c, const void *sendbuf, struct ht_counts sendcounts,
                       MPI_Datatype sendtype, void *recvbuf, struct ht_counts recvcounts,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request);
void ht_coll_Alltoallw(struct ht_mpi_call *c, const void *sendbuf, struct ht_counts sendcounts,
                       const MPI_Datatype sendtypes[], void *recvbuf, struct ht_counts recvcounts,
                       const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request request);
void ht_coll_Reduce(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf, MPI_Count count,
                    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request request);
void ht_coll_Allreduce_record(struct ht_mpi_call *c, MPI_Count count, MPI_Datatype datatype,
                              MPI_Comm comm, MPI_Request request);
void ht_coll_Reduce_scatter(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf,
                            struct ht_counts recvcounts, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Request request);
void ht_coll_Reduce_scatter_block(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, MPI_Request request);
void ht_coll_Scan(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf, MPI_Count count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request request);
void ht_coll_Exscan(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf, MPI_Count count,
                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request request);

/* --- neighbourhood collectives (collectives_neighbor.c) ------------------- */

void ht_coll_Neighbor_allgather(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request);
void ht_coll_Neighbor_allgatherv(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void *recvbuf, struct ht_counts recvcounts,
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request);
void ht_coll_Neighbor_alltoall(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request);
void ht_coll_Neighbor_alltoallv(struct ht_mpi_call *c, const void *sendbuf,
                                struct ht_counts sendcounts, MPI_Datatype sendtype, void *recvbuf,
                                struct ht_counts recvcounts, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request request);
void ht_coll_Neighbor_alltoallw(struct ht_mpi_call *c, const void *sendbuf,
                                struct ht_counts sendcounts, const MPI_Datatype sendtypes[],
                                void *recvbuf, struct ht_counts recvcounts,
                                const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request request);

/* --- shared by the pattern files ------------------------------------------ */

/* The size of the block a rank sends to / receives from peer i: a count
 * and a datatype, each either the same for every peer or per peer. */
struct ht_blocks {
    struct ht_counts counts; /* per peer, or none: count for every peer */
    MPI_Count count;
    const MPI_Datatype *types;  /* per peer, or NULL: type_size for every peer */
    uint64_t type_size;
};

struct ht_blocks ht_blocks_same(MPI_Count count, MPI_Datatype type);
struct ht_blocks ht_blocks_counts(struct ht_counts counts, MPI_Datatype type);
struct ht_blocks ht_blocks_typed(struct ht_counts counts, const MPI_Datatype *types);
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

/* The logical exchange of an allreduce: every rank's vector to every other
 * rank (on an inter-communicator: to every rank of the remote group, whose
 * result it is).  A code's Allreduce usually repeats from one place with
 * the same arguments (a dot product per iteration): then it only counts
 * itself in the record the first call made (thread_data.h,
 * ht_coll_memo), here in the wrapper.  Not in trace mode, which records
 * each call. */
HT_NOINSTR HT_ALWAYS_INLINE static inline void ht_coll_Allreduce(
    struct ht_mpi_call *c, const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request request)
{
    (void)sendbuf;
    (void)recvbuf;
    (void)op;
    const struct ht_coll_memo *memo = &c->mpi->allreduce;
    if (request == MPI_REQUEST_NULL && memo->node == c->node && memo->g != NULL &&
        memo->comm == comm && memo->type == datatype && memo->count == count &&
        !c->thread->tracing &&
        memo->generation == __atomic_load_n(&ht_mpi_comm_generation, __ATOMIC_ACQUIRE)) {
        memo->g->calls++;
        memo->g->ticks += c->end > c->start ? c->end - c->start : 0;
        return;
    }
    ht_coll_mark(c, comm, -1);
    ht_coll_Allreduce_record(c, count, datatype, comm, request);
}

#endif
