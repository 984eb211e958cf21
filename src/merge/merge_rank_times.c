/* Step 4b of the merge (after the per-stack reduction, merge.c): every
 * rank's inclusive time on the top K stacks, at rank 0, for the per-rank
 * bars of the summary (docs/output_mpi.md, "How the ranks are merged").
 *
 * Rank 0 alone has every stack's largest inclusive time over the ranks
 * (merge_reduce.c).  It picks the K stacks with the largest, the lower ID
 * first on a tie, and broadcasts their global IDs in one fixed-size
 * message; every rank knows the global IDs of its own stacks (step 2), so
 * it can find them in its profile, and one PMPI_Gather of K doubles per
 * rank gives rank 0 K x P values: O(K * P) at rank 0 only, O(K) elsewhere.
 *
 * The other ranks allocate nothing (K <= HT_CONFIG_MAX_RANK_TIMES_TOP, on
 * the stack), so they cannot fail; if rank 0 cannot hold the K x P values
 * it broadcasts K = 0, nobody gathers, and the summary goes without the
 * field.  Every rank makes the same two collectives either way, or only
 * the broadcast, so nothing can hang.  The values are the very doubles
 * the reduction compared (struct ht_stack's total.time_incl, 0 for a stack
 * the rank never entered), so the largest of a stack's P values is its
 * imbalance maximum exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge/merge_internal.h"

#define MAX_TOP HT_CONFIG_MAX_RANK_TIMES_TOP

/* a before b in the ranking: larger maximum first, then lower ID */
static bool ranks_before(const struct ht_double_int *max, int32_t a, int32_t b)
{
    if (max[a].value != max[b].value)
        return max[a].value > max[b].value;
    return a < b;
}

/* Rank 0: the IDs of the k stacks ranked first, in order, into top; the
 * number found (k, or fewer stacks).  One pass keeps the best k in order by
 * insertion: O(G x k) at worst, K is small. */
static size_t pick_top(const struct ht_double_int *max, size_t nstacks, size_t k, int32_t *top)
{
    size_t n = 0;
    for (size_t id = 0; id < nstacks && k > 0; id++) {
        int32_t s = (int32_t)id;
        if (n == k && !ranks_before(max, s, top[n - 1]))
            continue;
        size_t at = n < k ? n++ : n - 1;
        while (at > 0 && ranks_before(max, s, top[at - 1])) {
            top[at] = top[at - 1];
            at--;
        }
        top[at] = s;
    }
    return n;
}

struct wanted {
    int32_t gid, row;
};

static int by_wanted_gid(const void *a, const void *b)
{
    const struct wanted *x = a, *y = b;
    return (x->gid > y->gid) - (x->gid < y->gid);
}

/* This rank's inclusive time on each of the k stacks (0 if it never
 * entered one): a binary search per own stack among the k wanted IDs. */
static void own_times(const struct ht_merge_rank_times_input *in, const int32_t *ids, size_t k,
                      double *times)
{
    struct wanted wanted[MAX_TOP];
    for (size_t j = 0; j < k; j++) {
        wanted[j] = (struct wanted){ids[j], (int32_t)j};
        times[j] = 0.0;
    }
    qsort(wanted, k, sizeof *wanted, by_wanted_gid);
    const struct ht_profile *p = in->profile;
    for (size_t id = 0; p && in->gid_of && id < p->nstacks; id++) {
        struct wanted key = {in->gid_of[id], 0};
        const struct wanted *w = bsearch(&key, wanted, k, sizeof *wanted, by_wanted_gid);
        if (w)
            times[w->row] += p->stacks[id].total.time_incl;
    }
}

void ht_merge_rank_times(const struct ht_merge_rank_times_input *in, struct ht_mpi_rank_times *out)
{
    memset(out, 0, sizeof *out);
    /* [0]: K; then K global IDs (rank 0 fills it) */
    int32_t message[1 + MAX_TOP];
    memset(message, 0, sizeof message);
    int32_t *ids = message + 1;
    if (in->rank == 0) {
        size_t k = in->top < MAX_TOP ? in->top : MAX_TOP;
        k = pick_top(in->max, in->nstacks, k, ids);
        if (k > 0) {
            out->seconds = malloc(k * (size_t)in->size * sizeof *out->seconds);
            out->stacks = malloc(k * sizeof *out->stacks);
            out->row_of = malloc((in->nstacks + 1) * sizeof *out->row_of);
            if (!out->seconds || !out->stacks || !out->row_of) {
                fprintf(stderr, "hooktrace: out of memory on rank 0: the summary goes without"
                                " the per-rank times of its top stacks\n");
                ht_mpi_rank_times_free(out);
                k = 0;
            }
        }
        message[0] = (int32_t)k;
    }
    PMPI_Bcast(message, 1 + MAX_TOP, MPI_INT32_T, 0, in->comm);
    size_t k = message[0] > 0 && message[0] <= (int32_t)MAX_TOP ? (size_t)message[0] : 0;
    if (k == 0)
        return;
    double mine[MAX_TOP];
    own_times(in, ids, k, mine);
    PMPI_Gather(mine, (int)k, MPI_DOUBLE, out->seconds, (int)k, MPI_DOUBLE, 0, in->comm);
    if (in->rank != 0)
        return;
    out->count = k;
    memcpy(out->stacks, ids, k * sizeof *ids);
    for (size_t g = 0; g < in->nstacks; g++)
        out->row_of[g] = -1;
    for (size_t j = 0; j < k; j++)
        out->row_of[ids[j]] = (int32_t)j;
}

void ht_mpi_rank_times_free(struct ht_mpi_rank_times *t)
{
    free(t->stacks);
    free(t->seconds);
    free(t->row_of);
    memset(t, 0, sizeof *t);
}
