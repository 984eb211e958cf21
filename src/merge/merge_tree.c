/* Unifying stack IDs across ranks.
 *
 * 1. Every rank puts its stacks into a path set.  The sets travel up a
 *    binomial tree: in round k (k = 0, 1, ...) a rank whose bit k is its
 *    lowest set bit sends its set to rank - 2^k and is done; a rank with bit
 *    k clear receives from rank + 2^k (if it exists) and merges, keeping
 *    where each of the child's nodes went in its own set.  After
 *    ceil(log2 P) rounds rank 0 holds the union.
 * 2. Rank 0 numbers the union depth first, callees in name order (as a
 *    local profile is numbered, so one rank gets the IDs of a serial run),
 *    keeps the table in ID order, and broadcasts only its size.
 * 3. The IDs go back down the same tree: each rank sends each child the
 *    global ID of every node of the set that child sent it.  So a rank
 *    learns the IDs of its own stacks (and of the ranks below it) and never
 *    holds the stacks of other ranks.
 *
 * Only PMPI calls, on a private communicator.  A rank that runs out of
 * memory still takes part in every step (sending a failure mark instead of
 * its set or its IDs, or receiving into a scratch buffer), so nobody hangs;
 * a mark on the way up reaches rank 0, whose broadcast tells everyone to
 * give up, and one on the way down reaches the ranks below, whose caller
 * agrees with all the others before going on. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "merge/merge_internal.h"

#define TAG_LENGTH 7101
#define TAG_DATA 7102
#define CHUNK ((uint64_t)1 << 18)
#define FAILED HT_BLOB_FAILED

static char scratch[CHUNK]; /* where data goes that we cannot keep */

void ht_blob_send(const char *buf, uint64_t len, int dest, MPI_Comm comm)
{
    PMPI_Send(&len, 1, MPI_UINT64_T, dest, TAG_LENGTH, comm);
    if (len == FAILED)
        return;
    for (uint64_t off = 0; off < len; off += CHUNK) {
        uint64_t n = len - off < CHUNK ? len - off : CHUNK;
        PMPI_Send(buf + off, (int)n, MPI_BYTE, dest, TAG_DATA, comm);
    }
}

/* *buf is NULL (and *len FAILED) if the sender failed or we cannot keep it. */
void ht_blob_recv(int src, MPI_Comm comm, char **buf, uint64_t *len)
{
    PMPI_Recv(len, 1, MPI_UINT64_T, src, TAG_LENGTH, comm, MPI_STATUS_IGNORE);
    *buf = NULL;
    if (*len == FAILED)
        return;
    char *data = malloc(*len ? *len : 1);
    for (uint64_t off = 0; off < *len; off += CHUNK) {
        uint64_t n = *len - off < CHUNK ? *len - off : CHUNK;
        PMPI_Recv(data ? data + off : scratch, (int)n, MPI_BYTE, src, TAG_DATA, comm,
                  MPI_STATUS_IGNORE);
    }
    if (!data)
        *len = FAILED;
    *buf = data;
}

void ht_bcast_waiting_lazily(void *buf, int count, MPI_Datatype type, MPI_Comm comm)
{
    MPI_Request req;
    if (PMPI_Ibcast(buf, count, type, 0, comm, &req) != MPI_SUCCESS) {
        PMPI_Bcast(buf, count, type, 0, comm);
        return;
    }
    /* From 20 us, doubling to 1 ms: a wait of a few ms ends within a few
     * percent of it, and one of a second costs a thousand tests. */
    long pause_ns = 20000;
    int done = 0;
    while (PMPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) {
        struct timespec pause = {0, pause_ns};
        nanosleep(&pause, NULL);
        pause_ns = pause_ns < 500000 ? 2 * pause_ns : 1000000;
    }
    if (!done)
        PMPI_Wait(&req, MPI_STATUS_IGNORE);
}

void ht_blob_bcast(char **buf, uint64_t len, int rank, MPI_Comm comm, bool *ok)
{
    char *data = rank == 0 ? *buf : malloc(len ? len : 1);
    for (uint64_t off = 0; off < len; off += CHUNK) {
        uint64_t n = len - off < CHUNK ? len - off : CHUNK;
        PMPI_Bcast(data ? data + off : scratch, (int)n, MPI_BYTE, 0, comm);
    }
    if (!data)
        *ok = false;
    *buf = data;
}

bool ht_blob_tree_up(MPI_Comm comm, int rank, int size, bool ok,
                     const struct ht_blob_tree *tree, void *ctx, int *parent)
{
    if (parent)
        *parent = -1;
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rank & mask) {
            if (parent)
                *parent = rank - mask;
            const char *out = NULL;
            char *owned = NULL;
            uint64_t len = FAILED;
            if (ok && !tree->outgoing(ctx, &out, &len, &owned))
                ok = false;
            ht_blob_send(out, ok ? len : FAILED, rank - mask, comm);
            free(owned);
            return ok;
        }
        if (rank + mask >= size)
            continue;
        char *buf;
        uint64_t len;
        ht_blob_recv(rank + mask, comm, &buf, &len);
        if (!ok || len == FAILED || !buf) {
            free(buf);
            ok = false;
        } else if (!tree->incoming(ctx, rank + mask, buf, len)) {
            ok = false;
        }
    }
    return ok;
}

struct child {
    int rank;
    int *map; /* the child's node k is our node map[k] */
    size_t count;
};

struct paths_up {
    struct ht_pathset *set;
    struct child *children;
    int nchildren;
};

static bool paths_out(void *ctx, const char **buf, uint64_t *len, char **owned)
{
    struct paths_up *u = ctx;
    if (ht_pathset_serialize(u->set, NULL, owned, len) != 0)
        return false;
    *buf = *owned;
    return true;
}

/* A child's set, merged into ours; where each of its nodes went is kept
 * for the IDs on the way down. */
static bool paths_in(void *ctx, int child, char *buf, uint64_t len)
{
    struct paths_up *u = ctx;
    struct child *c = &u->children[u->nchildren++];
    *c = (struct child){child, NULL, 0};
    long n = ht_pathset_merge_wire(u->set, buf, len, &c->map);
    c->count = n < 0 ? 0 : (size_t)n;
    return n >= 0;
}

/* Step 1: this rank's set grows to the union of its subtree; children[]
 * says where each child's nodes went.  Returns false if anything failed
 * here or below. */
static bool paths_up(MPI_Comm comm, int rank, int size, const struct ht_profile *profile,
                     struct ht_pathset *set, int *index_of, struct child *children,
                     int *nchildren, int *parent)
{
    bool ok = !profile || !profile->nstacks ||
              (index_of && ht_pathset_add_profile(set, profile, index_of) == 0);
    struct paths_up u = {set, children, 0};
    static const struct ht_blob_tree tree = {paths_out, paths_in};
    ok = ht_blob_tree_up(comm, rank, size, ok, &tree, &u, parent);
    *nchildren = u.nchildren;
    return ok;
}

/* Step 3 for one child: the global IDs of the nodes it sent us. */
static void ids_down(MPI_Comm comm, const struct child *c, const int *ids, bool ok)
{
    int *theirs = ok ? malloc((c->count + 1) * sizeof *theirs) : NULL;
    for (size_t k = 0; theirs && k < c->count; k++)
        theirs[k] = ids[c->map[k]];
    uint64_t len = theirs ? c->count * sizeof *theirs : FAILED;
    ht_blob_send((const char *)theirs, len, c->rank, comm);
    free(theirs);
}

void ht_merge_paths(MPI_Comm comm, const struct ht_profile *profile, int *gid_of,
                    int nthreads_max, struct ht_global_paths *global)
{
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    memset(global, 0, sizeof *global);
    ht_pathset_init(&global->set);
    ht_pathset_init(&global->own);
    size_t n = profile ? profile->nstacks : 0;
    int *index_of = malloc((n + 1) * sizeof *index_of);
    struct child children[sizeof(int) * 8];
    int nchildren = 0, parent = -1;
    bool ok = index_of && gid_of;
    ok = paths_up(comm, rank, size, ok ? profile : NULL, &global->own, index_of, children,
                  &nchildren, &parent) && ok;

    /* Step 2. */
    int *order = NULL;
    if (rank == 0 && ok) {
        char *table = NULL;
        uint64_t len = 0;
        ok = (order = ht_pathset_number(&global->own)) != NULL &&
             ht_pathset_serialize(&global->own, order, &table, &len) == 0 &&
             ht_pathset_merge_wire(&global->set, table, len, NULL) >= 0;
        global->own_ids = ok ? malloc((global->own.count + 1) * sizeof *global->own_ids) : NULL;
        ok = ok && global->own_ids;
        for (size_t id = 0; ok && id < global->own.count; id++)
            global->own_ids[order[id]] = (int)id;
    }
    free(order);
    uint64_t header[3] = {global->own.count, (uint64_t)nthreads_max, rank == 0 && !ok};
    PMPI_Bcast(header, 3, MPI_UINT64_T, 0, comm);
    global->nstacks = (size_t)header[0];
    global->nthreads = (int)header[1];
    if (header[2]) {
        ok = false;
    } else {
        /* Step 3: from the parent, then to each child. */
        if (parent >= 0) {
            char *buf;
            uint64_t len;
            ht_blob_recv(parent, comm, &buf, &len);
            if (ok && len == global->own.count * sizeof(int) && buf)
                global->own_ids = (int *)(void *)buf;
            else {
                free(buf);
                ok = false;
            }
        }
        for (int k = nchildren - 1; k >= 0; k--)
            ids_down(comm, &children[k], global->own_ids, ok && children[k].map);
        for (size_t id = 0; ok && id < n; id++)
            gid_of[id] = global->own_ids[index_of[id]];
    }
    for (int k = 0; k < nchildren; k++)
        free(children[k].map);
    free(index_of);
    global->failed = !ok;
}

void ht_global_paths_free(struct ht_global_paths *global)
{
    ht_pathset_free(&global->set);
    ht_pathset_free(&global->own);
    free(global->own_ids);
    global->own_ids = NULL;
}
