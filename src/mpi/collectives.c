/* Collectives on intra- and inter-communicators as the pairwise messages
 * this rank moves (the rules, routine by routine, are in docs/mpi.md).
 *
 * What is recorded is the logical exchange the routine defines, not what
 * the MPI library's algorithm (trees, rings, ...) happens to send: that
 * way the counts are the same with every MPI and every message size, and
 * the sends of one rank match the receives of the others.  A rank's block
 * for itself moves no data between processes and is never a message. */
#include "mpi/collectives.h"

#include <stdlib.h>

#include "mpi/ranks.h"

/* --- blocks and pair lists ------------------------------------------------ */

struct ht_blocks ht_blocks_same(MPI_Count count, MPI_Datatype type)
{
    return (struct ht_blocks){.count = count, .type_size = ht_mpi_bytes(1, type)};
}

struct ht_blocks ht_blocks_counts(struct ht_counts counts, MPI_Datatype type)
{
    return (struct ht_blocks){.counts = counts, .type_size = ht_mpi_bytes(1, type)};
}

struct ht_blocks ht_blocks_typed(struct ht_counts counts, const MPI_Datatype *types)
{
    return (struct ht_blocks){.counts = counts, .types = types};
}

/* Only called for peers whose block is significant at this rank: the
 * arrays of a v/w routine may be NULL where MPI ignores them. */
uint64_t ht_blocks_bytes(const struct ht_blocks *b, int i)
{
    MPI_Count n = ht_counts_given(b->counts) ? ht_counts_at(b->counts, i) : b->count;
    if (n <= 0)
        return 0;
    if (b->types)
        return ht_mpi_bytes(n, b->types[i]);
    return (uint64_t)n * b->type_size;
}

bool ht_pair_list_init(struct ht_pair_list *l, size_t max)
{
    l->n = 0;
    l->cap = 0;
    l->pairs = NULL;
    if (max == 0)
        return true;
    if (max > UINT32_MAX)
        max = UINT32_MAX;
    l->pairs = malloc(max * sizeof *l->pairs);
    if (!l->pairs)
        return false;
    l->cap = (uint32_t)max;
    return true;
}

void ht_pair_list_add(struct ht_pair_list *l, int peer, bool send, uint64_t bytes)
{
    if (peer < 0 || bytes == 0 || l->n >= l->cap)
        return;
    l->pairs[l->n++] = (struct ht_pair){.peer = peer, .send = send, .collective = true, .bytes = bytes};
}

void ht_pair_list_emit(struct ht_mpi_call *c, struct ht_pair_list *l, MPI_Request request)
{
    ht_mpi_record_pairs(c, l->pairs, l->n, request);
    l->pairs = NULL;
    l->n = l->cap = 0;
}

/* --- the communicator ----------------------------------------------------- */

/* The peers a collective can name: for an intra-communicator its group
 * (rank is this process's rank in it), for an inter-communicator the remote
 * group (this process is never in it). */
struct group_view {
    struct ht_rank_map *map;
    int size;
    int rank;   /* this rank in the local group */
    bool inter;
};

static bool view_get(MPI_Comm comm, struct group_view *v)
{
    v->map = ht_mpi_rank_map_get(comm);
    if (!v->map)
        return false;
    v->size = v->map->size;
    v->inter = v->map->inter != 0;
    v->rank = v->map->self;
    if (v->rank == MPI_UNDEFINED) {
        ht_mpi_rank_map_put(v->map);
        return false;
    }
    return true;
}

static int view_world(const struct group_view *v, int rank)
{
    return ht_mpi_rank_map_world(v->map, rank);
}

static bool view_is_self(const struct group_view *v, int rank)
{
    return !v->inter && rank == v->rank;
}

/* Records nothing, but the call stays a node and a non-blocking call's
 * request is still tracked (so that its handle is not mistaken later). */
static void emit_nothing(struct ht_mpi_call *c, MPI_Request request)
{
    ht_mpi_record_pairs(c, NULL, 0, request);
}

/* --- the shapes ----------------------------------------------------- */

/* The same block for every peer: a call of such a shape is recorded once,
 * not once per peer (ht_mpi_record_group). */
static bool uniform(const struct ht_blocks *b)
{
    return !ht_counts_given(b->counts) && !b->types;
}

/* The record a blocking call's messages went to, if one. */
static struct ht_group_messages *emit_group(struct ht_mpi_call *c, const struct ht_group_shape *g,
                                            MPI_Request request)
{
    if (request == MPI_REQUEST_NULL)
        return ht_mpi_record_group(c, g);
    ht_mpi_record_group_request(c, g, request);
    return NULL;
}

/* Rooted (Bcast, Scatter(v) with root_sends; Gather(v), Reduce without):
 * the root moves block i of root_blocks to (or from) every peer i; every
 * other rank moves leaf_bytes the other way.  On an inter-communicator root
 * is MPI_ROOT in the root itself, MPI_PROC_NULL in the rest of its group
 * (which takes no part) and the root's rank in the remote group on the
 * other side. */
static void rooted(struct ht_mpi_call *c, MPI_Comm comm, int root, bool root_sends,
                   struct ht_blocks root_blocks, uint64_t leaf_bytes, MPI_Request request)
{
    struct group_view v;
    struct ht_pair_list l;
    if (!view_get(comm, &v)) {
        emit_nothing(c, request);
        return;
    }
    bool is_root = v.inter ? root == MPI_ROOT : root == v.rank;
    if (is_root && uniform(&root_blocks)) {
        uint64_t bytes = ht_blocks_bytes(&root_blocks, 0);
        struct ht_group_shape g = {v.map, v.inter ? -1 : v.rank, root_sends ? bytes : 0,
                                   root_sends ? 0 : bytes};
        emit_group(c, &g, request);
        ht_mpi_rank_map_put(v.map);
        return;
    }
    if (ht_pair_list_init(&l, is_root ? (size_t)v.size : 1)) {
        if (is_root) {
            for (int i = 0; i < v.size; i++)
                if (!view_is_self(&v, i))
                    ht_pair_list_add(&l, view_world(&v, i), root_sends,
                                     ht_blocks_bytes(&root_blocks, i));
        } else if (root != MPI_PROC_NULL) {
            ht_pair_list_add(&l, view_world(&v, root), !root_sends, leaf_bytes);
        }
    }
    ht_mpi_rank_map_put(v.map);
    ht_pair_list_emit(c, &l, request);
}

static void one_to_all(struct ht_mpi_call *c, MPI_Comm comm, int root, struct ht_blocks send,
                       uint64_t recv_bytes, MPI_Request request)
{
    rooted(c, comm, root, true, send, recv_bytes, request);
}

static void all_to_one(struct ht_mpi_call *c, MPI_Comm comm, int root, uint64_t send_bytes,
                       struct ht_blocks recv, MPI_Request request)
{
    rooted(c, comm, root, false, recv, send_bytes, request);
}

/* All-to-all (Allgather(v), Alltoall(v,w), Allreduce, Reduce_scatter on
 * intra-communicators): block i of send goes to every other peer i, block
 * i of recv comes from it.  On an inter-communicator the peers are the
 * remote group, indexed by their rank there. */
static struct ht_group_messages *all_to_all(struct ht_mpi_call *c, MPI_Comm comm,
                                            struct ht_blocks send, struct ht_blocks recv,
                                            MPI_Request request)
{
    struct group_view v;
    struct ht_pair_list l;
    if (!view_get(comm, &v)) {
        emit_nothing(c, request);
        return NULL;
    }
    if (uniform(&send) && uniform(&recv)) {
        struct ht_group_shape g = {v.map, v.inter ? -1 : v.rank, ht_blocks_bytes(&send, 0),
                                   ht_blocks_bytes(&recv, 0)};
        struct ht_group_messages *record = emit_group(c, &g, request);
        ht_mpi_rank_map_put(v.map);
        return record;
    }
    if (ht_pair_list_init(&l, 2 * (size_t)v.size)) {
        for (int i = 0; i < v.size; i++) {
            if (view_is_self(&v, i))
                continue;
            int peer = view_world(&v, i);
            ht_pair_list_add(&l, peer, true, ht_blocks_bytes(&send, i));
            ht_pair_list_add(&l, peer, false, ht_blocks_bytes(&recv, i));
        }
    }
    ht_mpi_rank_map_put(v.map);
    ht_pair_list_emit(c, &l, request);
    return NULL;
}

/* --- the routines --------------------------------------------------------- */

void ht_coll_Barrier(struct ht_mpi_call *c, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)comm;
    emit_nothing(c, request);
}

void ht_coll_Bcast(struct ht_mpi_call *c, void *buffer, MPI_Count count, MPI_Datatype datatype,
                   int root, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, root);
    (void)buffer;
    one_to_all(c, comm, root, ht_blocks_same(count, datatype), ht_mpi_bytes(count, datatype),
               request);
}

/* The root's own block, in place or not, is a copy to itself. */
void ht_coll_Gather(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, root);
    (void)sendbuf;
    (void)recvbuf;
    all_to_one(c, comm, root, ht_mpi_bytes(sendcount, sendtype),
               ht_blocks_same(recvcount, recvtype), request);
}

void ht_coll_Gatherv(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, struct ht_counts recvcounts,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, root);
    (void)sendbuf;
    (void)recvbuf;
    all_to_one(c, comm, root, ht_mpi_bytes(sendcount, sendtype),
               ht_blocks_counts(recvcounts, recvtype), request);
}

void ht_coll_Scatter(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, root);
    (void)sendbuf;
    (void)recvbuf;
    one_to_all(c, comm, root, ht_blocks_same(sendcount, sendtype),
               ht_mpi_bytes(recvcount, recvtype), request);
}

void ht_coll_Scatterv(struct ht_mpi_call *c, const void *sendbuf, struct ht_counts sendcounts,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, root);
    (void)sendbuf;
    (void)recvbuf;
    one_to_all(c, comm, root, ht_blocks_counts(sendcounts, sendtype),
               ht_mpi_bytes(recvcount, recvtype), request);
}

/* In place, a rank's contribution is its own block of the receive buffer,
 * recvcount elements of recvtype (MPI_IN_PLACE exists only on
 * intra-communicators, so "its own block" is well defined). */
void ht_coll_Allgather(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)recvbuf;
    struct ht_blocks send = sendbuf == MPI_IN_PLACE ? ht_blocks_same(recvcount, recvtype)
                                                    : ht_blocks_same(sendcount, sendtype);
    all_to_all(c, comm, send, ht_blocks_same(recvcount, recvtype), request);
}

void ht_coll_Allgatherv(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, struct ht_counts recvcounts,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)recvbuf;
    struct ht_blocks send = ht_blocks_same(sendcount, sendtype);
    if (sendbuf == MPI_IN_PLACE) {
        int rank = 0;
        PMPI_Comm_rank(comm, &rank);
        send = ht_blocks_same(ht_counts_at(recvcounts, rank), recvtype);
    }
    all_to_all(c, comm, send, ht_blocks_counts(recvcounts, recvtype), request);
}

/* In place, what goes to peer i is what comes from it: the receive
 * arguments describe both directions. */
void ht_coll_Alltoall(struct ht_mpi_call *c, const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)recvbuf;
    struct ht_blocks recv = ht_blocks_same(recvcount, recvtype);
    all_to_all(c, comm, sendbuf == MPI_IN_PLACE ? recv : ht_blocks_same(sendcount, sendtype), recv,
               request);
}

void ht_coll_Alltoallv(struct ht_mpi_call *c, const void *sendbuf, struct ht_counts sendcounts,
                       MPI_Datatype sendtype, void *recvbuf, struct ht_counts recvcounts,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)recvbuf;
    struct ht_blocks recv = ht_blocks_counts(recvcounts, recvtype);
    all_to_all(c, comm, sendbuf == MPI_IN_PLACE ? recv : ht_blocks_counts(sendcounts, sendtype),
               recv, request);
}

void ht_coll_Alltoallw(struct ht_mpi_call *c, const void *sendbuf, struct ht_counts sendcounts,
                       const MPI_Datatype sendtypes[], void *recvbuf, struct ht_counts recvcounts,
                       const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)recvbuf;
    struct ht_blocks recv = ht_blocks_typed(recvcounts, recvtypes);
    all_to_all(c, comm, sendbuf == MPI_IN_PLACE ? recv : ht_blocks_typed(sendcounts, sendtypes),
               recv, request);
}

/* Reductions: count elements of datatype in each direction, in place or
 * not (in place changes where the data sits, not what moves). */
void ht_coll_Reduce(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf, MPI_Count count,
                    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, root);
    (void)sendbuf;
    (void)recvbuf;
    (void)op;
    all_to_one(c, comm, root, ht_mpi_bytes(count, datatype), ht_blocks_same(count, datatype),
               request);
}

/* ht_coll_Allreduce (collectives.h) when the thread's memo does not hold. */
void ht_coll_Allreduce_record(struct ht_mpi_call *c, MPI_Count count, MPI_Datatype datatype,
                              MPI_Comm comm, MPI_Request request)
{
    struct ht_coll_memo *memo = &c->mpi->allreduce;
    unsigned generation = __atomic_load_n(&ht_mpi_comm_generation, __ATOMIC_ACQUIRE);
    bool memo_ok = request == MPI_REQUEST_NULL && !c->thread->tracing;
    struct ht_blocks b = ht_blocks_same(count, datatype);
    struct ht_group_messages *g = all_to_all(c, comm, b, b, request);
    if (memo_ok && g && ht_mpi_type_is_kept(datatype))
        *memo = (struct ht_coll_memo){c->node, comm, datatype, count, generation, g};
}

/* Element j of the split of `total` elements into `parts` blocks as even as
 * possible (the first total % parts blocks one larger). */
static uint64_t even_block(uint64_t total, int parts, int j)
{
    uint64_t q = total / (uint64_t)parts, r = total % (uint64_t)parts;
    return q + ((uint64_t)j < r ? 1 : 0);
}

/* Reduce_scatter on an inter-communicator: the reduction of this group's
 * vectors (total elements each) is scattered over the remote group by the
 * remote group's counts, which this rank cannot see.  It sends its vector
 * split over the remote ranks, evenly (exact whenever the remote counts
 * are equal, as in Reduce_scatter_block), and receives its own block,
 * recv_count elements, from every remote rank.  Sum of what a rank sends:
 * its whole vector; sum of what it receives: its block from each remote
 * rank's vector. */
static void reduce_scatter_inter(struct ht_mpi_call *c, MPI_Comm comm, uint64_t total,
                                 MPI_Count recv_count, MPI_Datatype datatype, MPI_Request request)
{
    struct group_view v;
    struct ht_pair_list l;
    if (!view_get(comm, &v)) {
        emit_nothing(c, request);
        return;
    }
    uint64_t type_size = ht_mpi_bytes(1, datatype);
    if (v.size > 0 && ht_pair_list_init(&l, 2 * (size_t)v.size)) {
        for (int j = 0; j < v.size; j++) {
            int peer = view_world(&v, j);
            ht_pair_list_add(&l, peer, true, even_block(total, v.size, j) * type_size);
            ht_pair_list_add(&l, peer, false, ht_mpi_bytes(recv_count, datatype));
        }
    } else {
        ht_pair_list_init(&l, 0);
    }
    ht_mpi_rank_map_put(v.map);
    ht_pair_list_emit(c, &l, request);
}

static bool is_inter(MPI_Comm comm)
{
    int inter = 0;
    return PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter;
}

/* Intra: rank r sends block i (recvcounts[i]) of its vector to each rank
 * i != r, and receives its own block (recvcounts[r]) from each. */
void ht_coll_Reduce_scatter(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf,
                            struct ht_counts recvcounts, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)sendbuf;
    (void)recvbuf;
    (void)op;
    int rank = 0, size = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size); /* the local group */
    if (is_inter(comm)) {
        uint64_t total = 0;
        for (int i = 0; i < size; i++) {
            MPI_Count n = ht_counts_at(recvcounts, i);
            total += n > 0 ? (uint64_t)n : 0;
        }
        reduce_scatter_inter(c, comm, total, ht_counts_at(recvcounts, rank), datatype, request);
        return;
    }
    all_to_all(c, comm, ht_blocks_counts(recvcounts, datatype),
               ht_blocks_same(ht_counts_at(recvcounts, rank), datatype), request);
}

void ht_coll_Reduce_scatter_block(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)sendbuf;
    (void)recvbuf;
    (void)op;
    if (is_inter(comm)) {
        int size = 0;
        PMPI_Comm_size(comm, &size);
        uint64_t total = recvcount > 0 ? (uint64_t)size * (uint64_t)recvcount : 0;
        reduce_scatter_inter(c, comm, total, recvcount, datatype, request);
        return;
    }
    struct ht_blocks b = ht_blocks_same(recvcount, datatype);
    all_to_all(c, comm, b, b, request);
}

/* Prefix reductions: rank r's vector goes into the result of every rank
 * j > r, and r's result takes the vector of every rank j < r.  Exscan
 * follows the same rule (rank r's own vector is not part of its result,
 * which changes nothing between processes).  Not defined on
 * inter-communicators: nothing is recorded there. */
static void prefix(struct ht_mpi_call *c, MPI_Count count, MPI_Datatype datatype, MPI_Comm comm,
                   MPI_Request request)
{
    struct group_view v;
    struct ht_pair_list l;
    if (!view_get(comm, &v)) {
        emit_nothing(c, request);
        return;
    }
    uint64_t bytes = ht_mpi_bytes(count, datatype);
    if (!v.inter && ht_pair_list_init(&l, (size_t)v.size)) {
        for (int j = 0; j < v.size; j++)
            if (j != v.rank)
                ht_pair_list_add(&l, view_world(&v, j), j > v.rank, bytes);
    } else {
        ht_pair_list_init(&l, 0);
    }
    ht_mpi_rank_map_put(v.map);
    ht_pair_list_emit(c, &l, request);
}

void ht_coll_Scan(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf, MPI_Count count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)sendbuf;
    (void)recvbuf;
    (void)op;
    prefix(c, count, datatype, comm, request);
}

void ht_coll_Exscan(struct ht_mpi_call *c, const void *sendbuf, void *recvbuf, MPI_Count count,
                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request request)
{
    ht_coll_mark(c, comm, -1);
    (void)sendbuf;
    (void)recvbuf;
    (void)op;
    prefix(c, count, datatype, comm, request);
}
