/* One rank's own MPI view: the message figures of its stacks and its row of
 * the communication matrices, for its own files (mpi.rank_files, a program
 * that never reached MPI_Finalize) and as its share of the merge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack/thread.h"
#include "merge/merge.h"
#include "merge/merge_internal.h"
#include "merge/mpit_merge.h"

void ht_mpi_local_free(struct ht_mpi_local *lv)
{
    free(lv->seconds);
    free(lv->figures);
    free(lv->start);
    free(lv->cells);
    memset(lv, 0, sizeof *lv);
}

/* Sums every thread's per-peer counts: this rank's row. */
static int collect_cells(struct ht_mpi_local *lv, int rank, int nranks)
{
    size_t n = nranks > 0 ? (size_t)nranks : 0;
    uint64_t *sum = calloc(4 * n + 1, sizeof *sum);
    if (!sum)
        return -1;
    for (struct ht_thread *t = ht_thread_registry(); t; t = t->next) {
        const struct ht_peer_counts *peers = __atomic_load_n(&t->peers, __ATOMIC_ACQUIRE);
        if (!peers)
            continue;
        /* The arrays have world-size entries, the same on every thread. */
        for (size_t r = 0; r < n; r++) {
            sum[r] += peers->p2p_messages[r];
            sum[n + r] += peers->p2p_bytes[r];
            sum[2 * n + r] += peers->coll_messages[r];
            sum[3 * n + r] += peers->coll_bytes[r];
        }
        /* A collective recorded once per call: one message to each peer
         * per call, sent side only, as ht_mpi_message counts them. */
        for (const struct ht_group_messages *g = __atomic_load_n(&peers->groups, __ATOMIC_ACQUIRE);
             g; g = g->thread_next) {
            if (!g->send_bytes)
                continue;
            for (int i = 0; i < g->size; i++) {
                int w = g->world[i];
                if (i == g->self || w < 0 || (size_t)w >= n)
                    continue;
                sum[2 * n + (size_t)w] += g->calls;
                sum[3 * n + (size_t)w] += g->calls * g->send_bytes;
            }
        }
    }
    size_t ncomm = 0, ncoll = 0;
    for (size_t r = 0; r < n; r++) {
        ncomm += sum[r] != 0;
        ncoll += sum[2 * n + r] != 0;
    }
    lv->cells = malloc((ncomm + ncoll + 1) * sizeof *lv->cells);
    if (!lv->cells) {
        free(sum);
        return -1;
    }
    size_t k = 0;
    for (int part = 0; part < 2; part++)
        for (size_t r = 0; r < n; r++)
            if (sum[2 * n * part + r])
                lv->cells[k++] = (struct ht_mpi_cell){rank, (int32_t)r, sum[2 * n * part + r],
                                                      sum[2 * n * part + n + r]};
    lv->view.comm = lv->cells;
    lv->view.ncomm = ncomm;
    lv->view.coll = lv->cells + ncomm;
    lv->view.ncoll = ncoll;
    free(sum);
    return 0;
}

int ht_mpi_local_build(struct ht_mpi_local *lv, const struct ht_profile *p, int rank,
                       int nranks, double spt)
{
    memset(lv, 0, sizeof *lv);
    lv->view.rank = rank;
    lv->view.nranks = nranks;
    size_t n = p ? p->nstacks : 0, nfig = 0;
    for (size_t id = 0; id < n; id++)
        nfig += ht_output_stack_has_messages(&p->stacks[id]);
    lv->seconds = calloc(2 * n + 1, sizeof *lv->seconds);
    lv->figures = malloc((nfig + 1) * sizeof *lv->figures);
    lv->start = calloc(n + 1, sizeof *lv->start);
    if (!lv->seconds || !lv->figures || !lv->start || collect_cells(lv, rank, nranks) != 0) {
        ht_mpi_local_free(lv);
        return -1;
    }
    size_t k = 0;
    for (size_t id = 0; id < n; id++) {
        const struct ht_stack *s = &p->stacks[id];
        const struct ht_mpi_stats *m = &s->total.mpi;
        lv->start[id] = k;
        lv->seconds[id] = (double)m->ticks_sent * spt;
        lv->seconds[n + id] = (double)m->ticks_received * spt;
        if (!ht_output_stack_has_messages(s))
            continue;
        lv->figures[k++] = (struct ht_mpi_rank_figures){
            .rank = rank,
            .stack = (int32_t)id,
            .calls = s->total.calls,
            .time_incl = s->total.time_incl,
            .time_excl = s->total.time_excl,
            .messages_sent = m->messages_sent,
            .messages_received = m->messages_received,
            .bytes_sent = m->bytes_sent,
            .bytes_received = m->bytes_received,
            .seconds_sent = lv->seconds[id],
            .seconds_received = lv->seconds[n + id],
        };
    }
    lv->start[n] = k;
    lv->view.seconds_sent = lv->seconds;
    lv->view.seconds_received = lv->seconds + n;
    lv->view.figures = lv->figures;
    lv->view.figures_start = lv->start;
    return 0;
}

int ht_merge_write_own_files(const struct ht_merge_rank *me, const char *name, bool merge_failed)
{
    const struct ht_profile *profile = me->profile;
    struct ht_mpi_local lv;
    struct ht_mpit_output mpit = {0};
    int rc;
    if (!me->without_mpit)
        ht_mpit_local(profile, me->config, me->job_file, &mpit);
    if (ht_mpi_local_build(&lv, profile, me->rank, me->size, me->seconds_per_tick) == 0) {
        lv.view.merge_failed = merge_failed;
        lv.view.mpit = me->without_mpit ? NULL : &mpit.view;
        rc = ht_output_write_all_mpi(profile, me->run, me->config, name, &lv.view);
    } else {
        fprintf(stderr, "hooktrace: rank %d: out of memory: its files have no MPI figures\n",
                me->rank);
        rc = ht_output_write_all(profile, me->run, me->config, name);
    }
    ht_mpi_local_free(&lv);
    ht_mpit_output_free(&mpit);
    return rc;
}
