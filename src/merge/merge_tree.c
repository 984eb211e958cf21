/* Unifying stack IDs across ranks.
 *
 * 1. Every rank puts its stacks into a path set.  The sets travel up a
 *    binomial tree: in round k (k = 0, 1, ...) a rank whose bit k is its
 *    lowest set bit sends its set to rank - 2^k and is done; a rank with bit
 *    k clear receives from rank + 2^k (if it exists) and merges.  After
 *    ceil(log2 P) rounds rank 0 holds the union.
 * 2. Rank 0 numbers the union depth first, callees in name order (as a
 *    local profile is numbered, so one rank gets the IDs of a serial run),
 *    and broadcasts the table in ID order.
 * 3. Every rank looks its own stacks up in the table.
 *
 * Only PMPI calls, on a private communicator.  A rank that runs out of
 * memory still takes part in every step (sending a failure mark instead of
 * its set, or receiving into a scratch buffer), so nobody hangs; the mark
 * reaches rank 0, whose broadcast tells everyone to give up. */
#include <stdlib.h>
#include <string.h>

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

/* Steps 1 and 2: rank 0 gets the wire form of the numbered union (NULL if
 * anything failed anywhere); the other ranks get NULL. */
static char *reduce_paths(MPI_Comm comm, int rank, int size, const struct ht_profile *profile,
                          uint64_t *len_out)
{
    struct ht_pathset set;
    ht_pathset_init(&set);
    bool ok = true;
    if (profile && profile->nstacks) {
        int *index_of = malloc(profile->nstacks * sizeof *index_of);
        ok = index_of && ht_pathset_add_profile(&set, profile, index_of) == 0;
        free(index_of);
    }
    int parent = -1;
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rank & mask) {
            parent = rank - mask;
            break;
        }
        if (rank + mask >= size)
            continue;
        char *buf;
        uint64_t len;
        ht_blob_recv(rank + mask, comm, &buf, &len);
        if (len == FAILED || (ok && ht_pathset_merge_wire(&set, buf, len) < 0))
            ok = false;
        else if (!ok)
            free(buf);
    }
    char *out = NULL;
    uint64_t len = FAILED;
    int *order = NULL;
    if (ok && rank == 0 && (order = ht_pathset_number(&set)) == NULL)
        ok = false;
    if (ok && ht_pathset_serialize(&set, order, &out, &len) != 0) {
        out = NULL;
        len = FAILED;
    }
    free(order);
    ht_pathset_free(&set);
    if (parent >= 0) {
        ht_blob_send(out, len, parent, comm);
        free(out);
        out = NULL;
    }
    *len_out = len;
    return out;
}

void ht_merge_paths(MPI_Comm comm, const struct ht_profile *profile, int *gid_of,
                    int nthreads_max, struct ht_global_paths *global)
{
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    memset(global, 0, sizeof *global);
    ht_pathset_init(&global->set);

    uint64_t len = 0;
    char *table = reduce_paths(comm, rank, size, profile, &len);
    /* header: table length, threads, failed */
    uint64_t header[3] = {len, (uint64_t)nthreads_max, table == NULL || len == FAILED};
    PMPI_Bcast(header, 3, MPI_UINT64_T, 0, comm);
    global->nthreads = (int)header[1];
    if (header[2]) {
        global->failed = true;
        return;
    }
    bool ok = true;
    ht_blob_bcast(&table, header[0], rank, comm, &ok);
    if (ok && ht_pathset_merge_wire(&global->set, table, header[0]) < 0)
        ok = false;
    /* Step 3. */
    if (ok && profile) {
        for (size_t id = 0; id < profile->nstacks && ok; id++) {
            const struct ht_stack *s = &profile->stacks[id];
            const struct ht_function *f = s->function;
            int parent = s->parent < 0 ? -1 : gid_of[s->parent];
            gid_of[id] = ht_pathset_find(&global->set, parent, f->name ? f->name : "", f->file,
                                         f->line);
            ok = gid_of[id] >= 0;
        }
    }
    global->failed = !ok;
}
