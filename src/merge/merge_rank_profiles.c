/* Step 4c of the merge (merge.c): the whole profile of a few ranks, at
 * rank 0, for the HTML report's rank selector (docs/report.md): the summary's "rank_profiles".
 *
 * Every rank, when the job has at most mpi.rank_profiles_all ranks (4);
 * else the slowest, the median and the fastest rank by their recorded time
 * (the inclusive time of their root stacks, summed over threads), so that
 * the summary of a 10,000-rank job grows by three ranks' stacks, not
 * 10,000; none with mpi.rank_profiles_all 0.
 * Each chosen rank sends one row per stack it entered: its global ID,
 * calls and inclusive and exclusive seconds, summed over its threads (its
 * own file's figures for the same path).
 *
 * With outputs.hatchet every rank sends its rows as well, for the Hatchet
 * file's (node, rank) frame (hatchet.c), which needs each rank's figures on
 * every stack; the JSON still lists only the ranks chosen above.
 *
 * Collectives, the same on every rank whatever happens: PMPI_Bcast (rank 0
 * can hold the times), PMPI_Gather (one double per rank), PMPI_Bcast (the
 * ranks chosen, and whether every rank sends), PMPI_Gather (one count per
 * rank), PMPI_Bcast (rank 0 can hold the rows), PMPI_Gatherv (of rows: a
 * contiguous type, so that an int counts 2^31 rows, not bytes).  A rank
 * that cannot build its rows sends none; when rank 0 cannot hold
 * something, the summary goes without the field. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge/merge_internal.h"

#define MAX_ALL HT_CONFIG_MAX_RANK_PROFILES_ALL

static const char *const why_few[3] = {"slowest", "median", "fastest"};

/* This rank's recorded time: its root stacks' inclusive time. */
static double recorded_time(const struct ht_profile *p)
{
    double t = 0;
    for (size_t id = 0; p && id < p->nstacks; id++)
        if (p->stacks[id].parent < 0)
            t += p->stacks[id].total.time_incl;
    return t;
}

static const double *sort_times;

static int by_time_then_rank(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (sort_times[x] != sort_times[y])
        return sort_times[x] > sort_times[y] ? -1 : 1;
    return (x > y) - (x < y);
}

static int by_gid(const void *a, const void *b)
{
    const struct ht_mpi_rank_row *x = a, *y = b;
    return (x->stack > y->stack) - (x->stack < y->stack);
}

/* Rank 0: the ranks chosen, into chosen[]; their number. */
static int choose(const double *times, int size, unsigned all, int32_t *chosen, int *order)
{
    if (all == 0)
        return 0;
    if ((unsigned)size <= all || size <= 3) {
        for (int r = 0; r < size; r++)
            chosen[r] = r;
        return size;
    }
    for (int r = 0; r < size; r++)
        order[r] = r;
    sort_times = times;
    qsort(order, (size_t)size, sizeof *order, by_time_then_rank);
    chosen[0] = order[0];
    chosen[1] = order[size / 2]; /* order: the slowest first */
    chosen[2] = order[size - 1];
    return 3;
}

/* This rank's rows, ordered by global ID, the rows of one global stack
 * summed; *n their number.  NULL with *n 0 if it has none or no memory. */
static struct ht_mpi_rank_row *own_rows(const struct ht_profile *p, const int *gid_of, size_t *n)
{
    *n = 0;
    if (!p || !gid_of || !p->nstacks)
        return NULL;
    struct ht_mpi_rank_row *rows = malloc(p->nstacks * sizeof *rows);
    if (!rows)
        return NULL;
    size_t k = 0;
    for (size_t id = 0; id < p->nstacks; id++) {
        if (gid_of[id] < 0)
            continue;
        const struct ht_stack *s = &p->stacks[id];
        rows[k++] = (struct ht_mpi_rank_row){gid_of[id], 0, s->total.calls, s->total.time_incl,
                                             s->total.time_excl};
    }
    qsort(rows, k, sizeof *rows, by_gid);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        if (m > 0 && rows[m - 1].stack == rows[i].stack) {
            rows[m - 1].calls += rows[i].calls;
            rows[m - 1].time_incl += rows[i].time_incl;
            rows[m - 1].time_excl += rows[i].time_excl;
        } else {
            rows[m++] = rows[i];
        }
    }
    *n = m;
    return rows;
}

void ht_merge_rank_profiles(const struct ht_merge_rank_profiles_input *in,
                            struct ht_mpi_rank_profiles *out)
{
    memset(out, 0, sizeof *out);
    bool root = in->rank == 0;
    double *times = NULL;
    int *counts = NULL, *displs = NULL, *order = NULL;
    struct ht_mpi_rank_row *mine = NULL;
    int ok = 1;
    if (root) {
        times = malloc((size_t)in->size * sizeof *times);
        counts = malloc((size_t)in->size * sizeof *counts);
        displs = malloc((size_t)in->size * sizeof *displs);
        order = malloc((size_t)in->size * sizeof *order);
        ok = times && counts && displs && order;
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, in->comm);
    if (!ok)
        goto out;
    double my_time = recorded_time(in->gid_of ? in->profile : NULL);
    PMPI_Gather(&my_time, 1, MPI_DOUBLE, times, 1, MPI_DOUBLE, 0, in->comm);
    /* [0]: how many listed; [1]: whether every rank sends; then the listed ranks */
    int32_t message[2 + MAX_ALL];
    memset(message, 0, sizeof message);
    if (root) {
        message[0] = choose(times, in->size, in->all < MAX_ALL ? in->all : MAX_ALL, message + 2,
                            order);
        message[1] = in->every;
    }
    PMPI_Bcast(message, 2 + MAX_ALL, MPI_INT32_T, 0, in->comm);
    int nchosen = message[0] > 0 && message[0] <= (int32_t)MAX_ALL ? message[0] : 0;
    bool every = message[1] != 0;
    if (nchosen == 0 && !every)
        goto out; /* every rank alike: rank 0 said so */
    bool chosen = every;
    for (int j = 0; j < nchosen; j++)
        chosen = chosen || message[2 + j] == in->rank;
    size_t n = 0;
    if (chosen)
        mine = own_rows(in->profile, in->gid_of, &n);
    /* Counted in rows, so that the displacements at rank 0 fit an int.
     * -1: too many to send (only when every rank sends: the listed ones
     * are few). */
    size_t senders = every ? (size_t)in->size : (size_t)nchosen;
    int nrows = n <= (size_t)INT_MAX / senders ? (int)n : -1;
    PMPI_Gather(&nrows, 1, MPI_INT, counts, 1, MPI_INT, 0, in->comm);
    bool complete = every;
    if (root) {
        size_t total = 0;
        for (int r = 0; r < in->size; r++) {
            complete = complete && counts[r] >= 0;
            counts[r] = counts[r] > 0 ? counts[r] : 0;
            displs[r] = (int)total;
            total += (size_t)counts[r];
        }
        out->rows = malloc((total + 1) * sizeof *out->rows);
        out->ranks = calloc((size_t)nchosen + 1, sizeof *out->ranks);
        ok = out->rows && out->ranks;
        if (ok && complete) {
            out->every_first = malloc(((size_t)in->size + 1) * sizeof *out->every_first);
            for (int r = 0; out->every_first && r <= in->size; r++)
                out->every_first[r] = r < in->size ? (size_t)displs[r] : total;
        }
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, in->comm);
    if (!ok) {
        if (root)
            fprintf(stderr, "hooktrace: out of memory on rank 0: the summary goes without the"
                            " per-rank profiles\n");
        ht_mpi_rank_profiles_free(out);
        goto out;
    }
    MPI_Datatype row;
    PMPI_Type_contiguous((int)sizeof *mine, MPI_BYTE, &row);
    PMPI_Type_commit(&row);
    PMPI_Gatherv(mine, nrows > 0 ? nrows : 0, row, out->rows, counts, displs, row, 0, in->comm);
    PMPI_Type_free(&row);
    if (!root)
        goto out;
    if (every && !out->every_first)
        fprintf(stderr, "hooktrace: %s: the Hatchet file has no per-rank rows, only each"
                        " stack's sum over the ranks\n",
                complete ? "out of memory on rank 0" : "too many stacks x ranks to gather");
    for (int j = 0; j < nchosen; j++) {
        int r = message[2 + j];
        struct ht_mpi_rank_profile *rp = &out->ranks[j];
        rp->rank = r;
        rp->why = nchosen == in->size ? "every rank" : why_few[j];
        rp->time_incl = times[r];
        rp->first = (size_t)displs[r];
        rp->count = (size_t)counts[r];
    }
    out->count = (size_t)nchosen;
out:
    free(mine);
    free(times);
    free(counts);
    free(displs);
    free(order);
}

void ht_mpi_rank_profiles_free(struct ht_mpi_rank_profiles *t)
{
    free(t->every_first);
    free(t->ranks);
    free(t->rows);
    memset(t, 0, sizeof *t);
}
