/* Step 4 of the merge: every stack's figures summed over the ranks, and the
 * ranks with its least and most inclusive time, at rank 0 (merge.c).
 *
 * A rank holds figures only for the stacks it visited.  Each rank makes a
 * list of its own, sorted by global ID, and the lists travel up the same
 * binomial tree as the paths (merge_tree.c): in round k a rank whose bit k
 * is its lowest set bit sends its list to rank - 2^k and is done; a rank
 * with bit k clear merges in the list of rank + 2^k.  A list covers a
 * contiguous range of ranks, and a record in it says what its visitors
 * sum to, the least and most inclusive time among them (with the rank),
 * and the lowest rank of the range that did not visit the stack.  Such a
 * rank counts as 0 seconds, as it always has: at rank 0 that makes the
 * same minimum and maximum, ties to the lower rank, as MPI_MINLOC and
 * MPI_MAXLOC over one dense array per rank would.  Only rank 0, which
 * writes every stack, ends with dense arrays; the data in each round is in
 * proportion to the stacks of the ranks below.
 *
 * A rank that runs out of memory sends a failure mark instead of its list;
 * the mark reaches rank 0, which tells every rank (the caller's broadcast)
 * so that each writes its own files instead. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "merge/merge_internal.h"

struct record_head {
    uint64_t gid;
    double min_value, max_value;
    int64_t min_rank, max_rank;
    int64_t lowest_absent; /* INT64_MAX: every rank of the range visited */
};

struct list {
    char *data;
    size_t count, capacity;
    size_t size; /* bytes per record: the head, u64[us], f64[fs] */
    size_t us, fs;
};

static struct record_head *head_at(const struct list *l, size_t i)
{
    return (struct record_head *)(void *)(l->data + i * l->size);
}

static uint64_t *u64_of(struct record_head *h)
{
    return (uint64_t *)(void *)(h + 1);
}

static double *f64_of(struct record_head *h, size_t us)
{
    return (double *)(void *)(u64_of(h) + us);
}

static struct record_head *push(struct list *l)
{
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? 2 * l->capacity : 64;
        char *v = realloc(l->data, cap * l->size);
        if (!v)
            return NULL;
        l->data = v;
        l->capacity = cap;
    }
    return head_at(l, l->count++);
}

static int by_gid(const void *a, const void *b)
{
    const struct record_head *x = a, *y = b;
    return x->gid < y->gid ? -1 : x->gid > y->gid;
}

/* This rank's own list: one record per stack it visited. */
static bool own_list(const struct ht_merge_reduce_input *in, struct list *l)
{
    const struct ht_profile *p = in->profile;
    int t = in->nthreads;
    for (size_t id = 0; p && id < p->nstacks; id++) {
        const struct ht_stack *s = &p->stacks[id];
        struct record_head *h = push(l);
        if (!h)
            return false;
        memset(h, 0, l->size);
        h->gid = (uint64_t)in->gid_of[id];
        h->min_value = h->max_value = s->total.time_incl;
        h->min_rank = h->max_rank = in->rank;
        h->lowest_absent = INT64_MAX;
        uint64_t *u = u64_of(h);
        double *f = f64_of(h, l->us);
        for (int th = 0; th < p->nthreads && th < t; th++) {
            u[2 * th] = s->per_thread[th].calls;
            u[2 * th + 1] = s->per_thread[th].folded_calls;
            f[2 * th] = s->per_thread[th].time_incl;
            f[2 * th + 1] = s->per_thread[th].time_excl;
        }
        u[2 * t] = s->total.mpi.messages_sent;
        u[2 * t + 1] = s->total.mpi.messages_received;
        u[2 * t + 2] = s->total.mpi.bytes_sent;
        u[2 * t + 3] = s->total.mpi.bytes_received;
        u[2 * t + 4] = (uint64_t)s->throttled | (s->inlined ? HT_MERGE_INLINED_RANK : 0);
        for (unsigned k = 0; s->total.counters && p->ncounters == in->ncounters &&
                             k < 2 * in->ncounters; k++)
            u[2 * t + 5 + k] = (uint64_t)s->total.counters[k];
        f[2 * t] = (double)s->total.mpi.ticks_sent * in->seconds_per_tick;
        f[2 * t + 1] = (double)s->total.mpi.ticks_received * in->seconds_per_tick;
    }
    if (l->count > 1)
        qsort(l->data, l->count, l->size, by_gid);
    return true;
}

/* MPI_MINLOC's and MPI_MAXLOC's choice: the lower value (higher, for max),
 * the lower rank on a tie. */
static void pick(double *value, int64_t *rank, double other_value, int64_t other_rank, bool max)
{
    bool better = max ? other_value > *value : other_value < *value;
    if (better || (other_value == *value && other_rank < *rank)) {
        *value = other_value;
        *rank = other_rank;
    }
}

static int64_t lower(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* mine covers ranks [lo, mid), theirs [mid, hi); mine becomes their union. */
static bool merge_lists(struct list *mine, const struct list *theirs, int64_t lo, int64_t mid)
{
    struct list out = {.size = mine->size, .us = mine->us, .fs = mine->fs};
    size_t i = 0, j = 0;
    while (i < mine->count || j < theirs->count) {
        const struct record_head *a = i < mine->count ? head_at(mine, i) : NULL;
        const struct record_head *b = j < theirs->count ? head_at(theirs, j) : NULL;
        struct record_head *h = push(&out);
        if (!h) {
            free(out.data);
            return false;
        }
        if (a && (!b || a->gid < b->gid)) {
            memcpy(h, a, out.size);
            h->lowest_absent = lower(h->lowest_absent, mid); /* none of theirs visited */
            i++;
        } else if (b && (!a || b->gid < a->gid)) {
            memcpy(h, b, out.size);
            h->lowest_absent = lower(h->lowest_absent, lo); /* none of mine visited */
            j++;
        } else {
            memcpy(h, a, out.size);
            struct record_head *bh = (struct record_head *)b;
            uint64_t *u = u64_of(h), *bu = u64_of(bh);
            double *f = f64_of(h, out.us), *bf = f64_of(bh, out.us);
            for (size_t k = 0; k < out.us; k++)
                u[k] += bu[k];
            for (size_t k = 0; k < out.fs; k++)
                f[k] += bf[k];
            pick(&h->min_value, &h->min_rank, b->min_value, b->min_rank, false);
            pick(&h->max_value, &h->max_rank, b->max_value, b->max_rank, true);
            h->lowest_absent = lower(h->lowest_absent, b->lowest_absent);
            i++;
            j++;
        }
    }
    free(mine->data);
    *mine = out;
    return true;
}

struct reduction {
    struct list *list;
    int rank; /* our list covers ranks [rank, the child being merged) */
};

static bool list_out(void *ctx, const char **buf, uint64_t *len, char **owned)
{
    struct reduction *r = ctx;
    *buf = r->list->data;
    *len = r->list->count * r->list->size;
    *owned = NULL;
    return true;
}

static bool list_in(void *ctx, int child, char *buf, uint64_t len)
{
    struct reduction *r = ctx;
    struct list theirs = *r->list; /* covers ranks [child, child + its subtree) */
    theirs.data = buf;
    theirs.count = len / r->list->size;
    bool ok = len % r->list->size == 0 && merge_lists(r->list, &theirs, r->rank, child);
    free(buf);
    return ok;
}

bool ht_merge_reduce(const struct ht_merge_reduce_input *in, struct ht_merge_reduce_output *out)
{
    int t = in->nthreads;
    struct list l = {.us = HT_MERGE_U64_STRIDE(t, in->ncounters), .fs = HT_MERGE_F64_STRIDE(t)};
    l.size = sizeof(struct record_head) + 8 * (l.us + l.fs);
    bool ok = own_list(in, &l);
    struct reduction r = {&l, in->rank};
    static const struct ht_blob_tree tree = {list_out, list_in};
    int parent;
    ok = ht_blob_tree_up(in->comm, in->rank, in->size, ok, &tree, &r, &parent);
    if (parent >= 0) { /* sent: only rank 0 goes on */
        free(l.data);
        return true;
    }
    /* Rank 0: the whole job, into dense arrays indexed by global ID (the
     * caller's, zeroed).  Every global stack was visited somewhere. */
    size_t g = in->nstacks, next = 0;
    for (size_t i = 0; ok && i < l.count; i++) {
        struct record_head *h = head_at(&l, i);
        if (h->gid >= g || h->gid < next) {
            ok = false;
            break;
        }
        next = h->gid + 1;
        memcpy(out->u64 + h->gid * l.us, u64_of(h), 8 * l.us);
        memcpy(out->f64 + h->gid * l.fs, f64_of(h, l.us), 8 * l.fs);
        double minv = h->min_value, maxv = h->max_value;
        int64_t minr = h->min_rank, maxr = h->max_rank;
        if (h->lowest_absent != INT64_MAX) { /* some rank had it at 0 s */
            pick(&minv, &minr, 0.0, h->lowest_absent, false);
            pick(&maxv, &maxr, 0.0, h->lowest_absent, true);
        }
        out->min[h->gid] = (struct ht_double_int){minv, (int)minr};
        out->max[h->gid] = (struct ht_double_int){maxv, (int)maxr};
    }
    free(l.data);
    return ok;
}
