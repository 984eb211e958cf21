#include "trace/unify.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "trace/comms.h"

int ht_blobs_add(struct ht_blobs *b, const void *blob, uint32_t len)
{
    size_t need = b->bytes + sizeof len + len;
    if (need > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 4096;
        while (cap < need)
            cap *= 2;
        char *bigger = realloc(b->data, cap);
        if (!bigger)
            return -1;
        b->data = bigger;
        b->capacity = cap;
    }
    memcpy(b->data + b->bytes, &len, sizeof len);
    memcpy(b->data + b->bytes + sizeof len, blob, len);
    b->bytes = need;
    b->count++;
    return 0;
}

void ht_blobs_free(struct ht_blobs *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

bool ht_blobs_next(const struct ht_blobs *b, size_t *pos, const char **blob, uint32_t *len)
{
    if (*pos + sizeof *len > b->bytes)
        return false;
    memcpy(len, b->data + *pos, sizeof *len);
    *blob = b->data + *pos + sizeof *len;
    *pos += sizeof *len + *len;
    return *pos <= b->bytes;
}

/* --- the table of distinct blobs (rank 0) ---------------------------------- */

struct seen {
    uint32_t *slots; /* id + 1, 0 = empty */
    size_t mask;
    const char **blob; /* by id */
    uint32_t *len;
    uint32_t count, capacity;
};

static uint64_t hash_bytes(const char *p, uint32_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
    return h;
}

static int seen_grow(struct seen *s)
{
    size_t size = s->slots ? (s->mask + 1) * 2 : 1024;
    uint32_t *slots = calloc(size, sizeof *slots);
    if (!slots)
        return -1;
    for (uint32_t id = 0; id < s->count; id++) {
        size_t i = hash_bytes(s->blob[id], s->len[id]) & (size - 1);
        while (slots[i])
            i = (i + 1) & (size - 1);
        slots[i] = id + 1;
    }
    free(s->slots);
    s->slots = slots;
    s->mask = size - 1;
    return 0;
}

/* The id of blob, new if unseen; UINT32_MAX if out of memory.  The blob
 * must outlive the table. */
static uint32_t seen_id(struct seen *s, const char *blob, uint32_t len)
{
    if ((s->count + 1) * 2 > (s->slots ? s->mask + 1 : 0) && seen_grow(s) != 0)
        return UINT32_MAX;
    size_t i = hash_bytes(blob, len) & s->mask;
    while (s->slots[i]) {
        uint32_t id = s->slots[i] - 1;
        if (s->len[id] == len && memcmp(s->blob[id], blob, len) == 0)
            return id;
        i = (i + 1) & s->mask;
    }
    if (s->count == s->capacity) {
        uint32_t cap = s->capacity ? s->capacity * 2 : 256;
        const char **blobs = realloc(s->blob, cap * sizeof *blobs);
        if (!blobs)
            return UINT32_MAX;
        s->blob = blobs;
        uint32_t *lens = realloc(s->len, cap * sizeof *lens);
        if (!lens)
            return UINT32_MAX;
        s->len = lens;
        s->capacity = cap;
    }
    s->blob[s->count] = blob;
    s->len[s->count] = len;
    s->slots[i] = s->count + 1;
    return s->count++;
}

static void seen_free(struct seen *s)
{
    free(s->slots);
    free(s->blob);
    free(s->len);
}

/* Numbers the blobs of `all` (ranks' lists one after the other); ids get
 * one id per blob in that order, global the distinct ones. */
static int number(const struct ht_blobs *all, uint32_t *ids, struct ht_blobs *global)
{
    struct seen s = {0};
    size_t pos = 0;
    const char *blob;
    uint32_t len, i = 0;
    int rc = 0;
    while (ht_blobs_next(all, &pos, &blob, &len)) {
        uint32_t id = seen_id(&s, blob, len);
        if (id == UINT32_MAX) {
            rc = -1;
            break;
        }
        if (id == global->count && ht_blobs_add(global, blob, len) != 0) {
            rc = -1;
            break;
        }
        ids[i++] = id;
    }
    seen_free(&s);
    return rc;
}

static int unify_mpi(const struct ht_blobs *local, uint32_t *ids, struct ht_blobs *global)
{
    int rank, size;
    PMPI_Comm_rank(ht_trace_job(), &rank);
    PMPI_Comm_size(ht_trace_job(), &size);
    /* Sizes in bytes and counts; a rank that failed sends -1. */
    long long mine[2] = {(long long)local->bytes, (long long)local->count};
    long long *theirs = rank == 0 ? calloc((size_t)size * 2, sizeof *theirs) : NULL;
    int *bytes = rank == 0 ? calloc((size_t)size, sizeof *bytes) : NULL;
    int *byte_at = rank == 0 ? calloc((size_t)size, sizeof *byte_at) : NULL;
    int *counts = rank == 0 ? calloc((size_t)size, sizeof *counts) : NULL;
    int *count_at = rank == 0 ? calloc((size_t)size, sizeof *count_at) : NULL;
    int failed = rank == 0 && (!theirs || !bytes || !byte_at || !counts || !count_at);
    PMPI_Gather(mine, 2, MPI_LONG_LONG, theirs, 2, MPI_LONG_LONG, 0, ht_trace_job());
    struct ht_blobs all = {0};
    uint32_t *all_ids = NULL;
    if (rank == 0 && !failed) {
        long long total = 0, total_count = 0;
        for (int r = 0; r < size; r++) {
            bytes[r] = (int)theirs[2 * r];
            counts[r] = (int)theirs[2 * r + 1];
            byte_at[r] = (int)total;
            count_at[r] = (int)total_count;
            total += theirs[2 * r];
            total_count += theirs[2 * r + 1];
        }
        all.data = malloc(total > 0 ? (size_t)total : 1);
        all.bytes = all.capacity = (size_t)total;
        all.count = (uint32_t)total_count;
        all_ids = malloc(total_count > 0 ? (size_t)total_count * sizeof *all_ids : 1);
        failed = !all.data || !all_ids || total > 0x7fffffff;
    }
    PMPI_Bcast(&failed, 1, MPI_INT, 0, ht_trace_job());
    if (!failed) {
        PMPI_Gatherv(local->data, (int)local->bytes, MPI_BYTE, all.data, bytes, byte_at, MPI_BYTE,
                     0, ht_trace_job());
        if (rank == 0)
            failed = number(&all, all_ids, global) != 0;
        PMPI_Bcast(&failed, 1, MPI_INT, 0, ht_trace_job());
    }
    if (!failed) {
        /* uint32 ids travel as MPI_UNSIGNED (32 bits on every platform MPI runs on). */
        PMPI_Scatterv(all_ids, counts, count_at, MPI_UNSIGNED, ids, (int)local->count,
                      MPI_UNSIGNED, 0, ht_trace_job());
    }
    free(theirs);
    free(bytes);
    free(byte_at);
    free(counts);
    free(count_at);
    free(all_ids);
    ht_blobs_free(&all);
    return failed ? -1 : 0;
}

int ht_trace_unify(bool mpi, const struct ht_blobs *local, uint32_t *ids, struct ht_blobs *global)
{
    if (mpi)
        return unify_mpi(local, ids, global);
    return number(local, ids, global);
}
