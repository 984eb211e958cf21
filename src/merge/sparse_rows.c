/* Sparse rows summed up a binomial tree to rank 0 (merge_internal.h).
 *
 * A row is a global stack ID and a fixed number of doubles.  Each rank has
 * rows only for the stacks it has figures for; in round k a rank whose
 * bit k is its lowest set bit sends its rows to rank - 2^k and is done, a
 * rank with bit k clear merges in the rows of rank + 2^k, combining rows
 * with the same ID.  What travels in a round is in proportion to the
 * stacks of the sender's subtree, never to all stacks. */
#include <stdlib.h>
#include <string.h>

#include "merge/merge_internal.h"

static size_t row_size(const struct ht_rows *r)
{
    return sizeof(uint64_t) + r->width * sizeof(double);
}

uint64_t *ht_rows_id(const struct ht_rows *r, size_t i)
{
    return (uint64_t *)(void *)(r->data + i * row_size(r));
}

double *ht_rows_values(const struct ht_rows *r, size_t i)
{
    return (double *)(void *)(ht_rows_id(r, i) + 1);
}

double *ht_rows_add(struct ht_rows *r, uint64_t id)
{
    if (r->count == r->capacity) {
        size_t cap = r->capacity ? 2 * r->capacity : 64;
        char *v = realloc(r->data, cap * row_size(r));
        if (!v)
            return NULL;
        r->data = v;
        r->capacity = cap;
    }
    *ht_rows_id(r, r->count) = id;
    return ht_rows_values(r, r->count++);
}

static int by_id(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* mine := mine + theirs, both sorted by ID. */
static bool merge_rows(struct ht_rows *mine, const struct ht_rows *theirs, ht_rows_combine combine)
{
    struct ht_rows out = {.width = mine->width};
    size_t i = 0, j = 0, bytes = row_size(mine);
    while (i < mine->count || j < theirs->count) {
        uint64_t a = i < mine->count ? *ht_rows_id(mine, i) : UINT64_MAX;
        uint64_t b = j < theirs->count ? *ht_rows_id(theirs, j) : UINT64_MAX;
        bool take_a = i < mine->count && (j == theirs->count || a <= b);
        double *v = ht_rows_add(&out, take_a ? a : b);
        if (!v) {
            free(out.data);
            return false;
        }
        memcpy(v, take_a ? ht_rows_values(mine, i) : ht_rows_values(theirs, j), bytes - 8);
        if (take_a && j < theirs->count && a == b) {
            combine(v, ht_rows_values(theirs, j), out.width);
            j++;
        }
        if (take_a)
            i++;
        else
            j++;
    }
    free(mine->data);
    *mine = out;
    return true;
}

struct reduction {
    struct ht_rows *rows;
    ht_rows_combine combine;
};

static bool rows_out(void *ctx, const char **buf, uint64_t *len, char **owned)
{
    struct reduction *r = ctx;
    *buf = r->rows->data;
    *len = r->rows->count * row_size(r->rows);
    *owned = NULL;
    return true;
}

static bool rows_in(void *ctx, int child, char *buf, uint64_t len)
{
    struct reduction *r = ctx;
    (void)child;
    struct ht_rows theirs = {.data = buf, .width = r->rows->width};
    theirs.count = len / row_size(r->rows);
    bool ok = len % row_size(r->rows) == 0 && merge_rows(r->rows, &theirs, r->combine);
    free(buf);
    return ok;
}

bool ht_rows_reduce(MPI_Comm comm, int rank, int size, struct ht_rows *rows, bool ok,
                    ht_rows_combine combine)
{
    if (ok && rows->count > 1)
        qsort(rows->data, rows->count, row_size(rows), by_id);
    struct reduction r = {rows, combine};
    static const struct ht_blob_tree tree = {rows_out, rows_in};
    return ht_blob_tree_up(comm, rank, size, ok, &tree, &r, NULL);
}
