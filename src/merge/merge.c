/* The cross-rank merge, inside the MPI_Finalize wrapper before
 * PMPI_Finalize, on every rank (docs/output_mpi.md, "How the ranks are merged"):
 *
 *   1. rank 0 checks it can take the per-rank records (one broadcast), then
 *      gathers a fixed-size record from every rank (PMPI_Gather, O(P));
 *   2. stack IDs are unified by path up a binomial tree, and each rank's
 *      global IDs come back down it (merge_tree.c: only rank 0 holds the
 *      whole table);
 *   3. every rank maps its stacks to global IDs (rank 0 also makes the
 *      dense arrays it will write from); one PMPI_Allreduce agrees that
 *      every rank got this far (else every rank writes its own files);
 *   4. the sums of each stack's figures and its least and most inclusive
 *      time over the ranks go up a tree of sparse lists to rank 0
 *      (merge_reduce.c: no rank but 0 holds anything for a stack it never
 *      visited), and rank 0 broadcasts whether that worked; then every
 *      rank's inclusive time on the top K of them goes to rank 0 (one
 *      broadcast of their IDs, one PMPI_Gather: merge_rank_times.c), and
 *      the whole profile of a few ranks, of every rank for a Hatchet file
 *      (merge_rank_profiles.c);
 *   5. PMPI_Gatherv brings rank 0 the per-rank figures of the stacks that
 *      moved messages, and each rank's nonzero matrix cells;
 *   6. every stack's MPI_T performance-variable figures over the ranks
 *      (mpit_merge.c: a broadcast of rank 0's columns, three PMPI_Reduce);
 *   7. rank 0 writes the summary; ranks named by mpi.rank_files write their
 *      own files.
 *
 * Every rank calls the same collectives in the same order whatever
 * happened to it (no profile, out of memory), so the merge cannot hang. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/counters.h"
#include "merge/merge.h"
#include "merge/merge_internal.h"
#include "merge/mpit_merge.h"


struct merge {
    MPI_Comm comm;
    int rank, size;
    const struct ht_profile *profile;
    double seconds_per_tick;
    struct ht_mpi_local local;
    bool have_local;
    struct ht_merge_rank_info info, *infos; /* infos: rank 0 only */
    int nthreads_max;
    unsigned ncounters; /* the same on every rank, or 0 (then left out) */
    int *gid_of;
    struct ht_global_paths global;
    uint64_t *u64;
    double *f64;
    struct ht_double_int *min, *max; /* max: rank 0 only */
    /* rank 0: the gathers */
    int *counts, *displs;
    struct ht_mpi_rank_figures *figures;
    struct ht_mpi_cell *cells;
    size_t nfigures, ncells;
    struct ht_mpit_output mpit; /* MPI_T figures over ranks: rank 0 */
    struct ht_mpi_rank_times rank_times; /* the top stacks per rank: rank 0 */
    struct ht_mpi_rank_profiles rank_profiles; /* a few ranks' stacks: rank 0 */
};

/* The counter events every rank kept (src/counters): one config, so the
 * same list, unless PAPI could read an event on some nodes only; then the
 * summary leaves the counters out (each rank's own file keeps its own). */
static void agree_on_counters(struct merge *m)
{
    const struct ht_counters_info *ci = ht_counters_info();
    int mine[2] = {ci ? (int)ci->nevents : 0, ci ? -(int)ci->nevents : 0}, all[2];
    PMPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, m->comm);
    m->ncounters = all[0] == -all[1] ? (unsigned)all[0] : 0;
    if (all[0] != -all[1] && m->rank == 0)
        fprintf(stderr, "hooktrace: the ranks could read different numbers of counter events"
                        " (%d to %d): the summary has no counters; each rank's own file has"
                        " its own\n", -all[1], all[0]);
}

static void describe_self(struct merge *m, const struct ht_run_info *run)
{
    const struct ht_profile *p = m->profile;
    struct ht_merge_rank_info *i = &m->info;
    memset(i, 0, sizeof *i);
    if (m->have_local) {
        i->nfigures = m->local.start[p ? p->nstacks : 0];
        i->ncomm = m->local.view.ncomm;
        i->ncoll = m->local.view.ncoll;
    }
    if (run->meta)
        memcpy(i->host, run->meta->host, sizeof i->host);
    if (!p)
        return;
    i->profiled = 1;
    i->nthreads = p->nthreads;
    i->instrumented_calls = p->instrumented_calls;
    i->inlined_calls = p->inlined_calls;
    i->folded_calls = p->folded_calls;
    i->mismatched_exits = p->mismatched_exits;
    i->tree_nodes = p->tree_nodes;
    i->tree_bytes = p->tree_bytes;
    i->out_of_memory = p->out_of_memory;
    i->has_mpi = p->has_mpi;
    i->wall_seconds = run->wall_seconds;
    i->overhead_seconds = run->overhead_seconds;
    i->time_excluded_at_root = p->time_excluded_at_root;
    i->throttled_hook_calls = p->throttled_hook_calls;
    i->nested_hooks_declined = p->nested_hooks_declined;
    i->sites_patched = run->throttle.sites_patched;
    i->sites_unpatched = run->throttle.sites_unpatched;
    i->patch_refused_errno = run->throttle.patch_refused_errno;
    i->hook_calls_avoided = run->throttle.hook_calls_avoided;
}

/* Step 3: this rank's per-rank figures under global IDs, and rank 0's
 * dense arrays (the only ones: the other ranks keep nothing for stacks
 * they never visited) and buffers for the gathers.  Returns false if out
 * of memory. */
static bool prepare_arrays(struct merge *m)
{
    if (m->have_local)
        for (size_t i = 0; i < m->info.nfigures; i++)
            m->local.figures[i].stack = m->gid_of[m->local.figures[i].stack];
    if (m->rank != 0)
        return true;
    size_t g = m->global.set.count;
    int t = m->global.nthreads > 0 ? m->global.nthreads : 1;
    m->u64 = calloc(g * HT_MERGE_U64_STRIDE(t, m->ncounters) + 1, sizeof *m->u64);
    m->f64 = calloc(g * HT_MERGE_F64_STRIDE(t) + 1, sizeof *m->f64);
    m->min = calloc(g + 1, sizeof *m->min);
    m->max = calloc(g + 1, sizeof *m->max);
    if (!m->u64 || !m->f64 || !m->min || !m->max)
        return false;
    size_t nfig = 0, ncell = 0;
    for (int r = 0; r < m->size; r++) {
        nfig += m->infos[r].nfigures;
        ncell += m->infos[r].ncomm + m->infos[r].ncoll;
    }
    if (nfig > INT_MAX || ncell > INT_MAX) {
        fprintf(stderr, "hooktrace: too many per-rank records to gather (%zu, %zu)\n", nfig, ncell);
        return false;
    }
    m->nfigures = nfig;
    m->ncells = ncell;
    m->counts = malloc((size_t)m->size * sizeof *m->counts);
    m->displs = malloc((size_t)m->size * sizeof *m->displs);
    m->figures = malloc((nfig + 1) * sizeof *m->figures);
    m->cells = malloc((ncell + 1) * sizeof *m->cells);
    return m->counts && m->displs && m->figures && m->cells;
}


static void gatherv(struct merge *m, const void *send, int count, void *recv, size_t elem,
                    int which)
{
    MPI_Datatype type;
    PMPI_Type_contiguous((int)elem, MPI_BYTE, &type);
    PMPI_Type_commit(&type);
    if (m->rank == 0) {
        int off = 0;
        for (int r = 0; r < m->size; r++) {
            const struct ht_merge_rank_info *i = &m->infos[r];
            m->counts[r] = (int)(which == 0 ? i->nfigures : i->ncomm + i->ncoll);
            m->displs[r] = off;
            off += m->counts[r];
        }
    }
    PMPI_Gatherv(send, count, type, recv, m->counts, m->displs, type, 0, m->comm);
    PMPI_Type_free(&type);
}

/* Steps 4 and 5; false on every rank if the reduction failed anywhere. */
static bool reduce_and_gather(struct merge *m, const struct ht_config *whole)
{
    const struct ht_mpi_config *config = &whole->mpi;
    struct ht_merge_reduce_input in = {
        .comm = m->comm,
        .rank = m->rank,
        .size = m->size,
        .profile = m->gid_of ? m->profile : NULL,
        .gid_of = m->gid_of,
        .nthreads = m->global.nthreads > 0 ? m->global.nthreads : 1,
        .ncounters = m->ncounters,
        .seconds_per_tick = m->seconds_per_tick,
        .nstacks = m->global.set.count,
    };
    struct ht_merge_reduce_output out = {m->u64, m->f64, m->min, m->max};
    int ok = ht_merge_reduce(&in, &out);
    PMPI_Bcast(&ok, 1, MPI_INT, 0, m->comm);
    if (!ok)
        return false;
    struct ht_merge_rank_times_input top = {
        .comm = m->comm,
        .rank = m->rank,
        .size = m->size,
        .profile = in.profile,
        .gid_of = m->gid_of,
        .top = config->rank_times_top,
        .max = m->max,
        .nstacks = m->global.set.count,
    };
    ht_merge_rank_times(&top, &m->rank_times);
    struct ht_merge_rank_profiles_input few = {m->comm,      m->rank, m->size,
                                               in.profile,   m->gid_of,
                                               config->rank_profiles_all,
                                               whole->write_hatchet};
    ht_merge_rank_profiles(&few, &m->rank_profiles);
    int nfig = m->have_local ? (int)m->info.nfigures : 0;
    int ncell = m->have_local ? (int)(m->info.ncomm + m->info.ncoll) : 0;
    gatherv(m, m->have_local ? m->local.figures : NULL, nfig, m->figures, sizeof *m->figures, 0);
    gatherv(m, m->have_local ? m->local.cells : NULL, ncell, m->cells, sizeof *m->cells, 1);
    return true;
}

static void merge_free(struct merge *m)
{
    ht_mpi_local_free(&m->local);
    ht_global_paths_free(&m->global);
    free(m->infos);
    free(m->gid_of);
    free(m->u64);
    free(m->f64);
    free(m->min);
    free(m->max);
    free(m->counts);
    free(m->displs);
    free(m->figures);
    free(m->cells);
    ht_mpit_output_free(&m->mpit);
    ht_mpi_rank_times_free(&m->rank_times);
    ht_mpi_rank_profiles_free(&m->rank_profiles);
}

static void write_own(const struct ht_merge_rank *me, bool failed)
{
    if (!me->profile)
        return;
    char name[PATH_MAX];
    snprintf(name, sizeof name, "%s_%d", me->basename, me->rank);
    ht_merge_write_own_files(me, name, failed);
}

void ht_merge_and_write(const struct ht_merge_rank *me)
{
    const struct ht_profile *profile = me->profile;
    const struct ht_run_info *run = me->run;
    const struct ht_config *config = me->config;
    const char *basename = me->basename;
    struct merge m;
    memset(&m, 0, sizeof m);
    m.profile = profile;
    m.seconds_per_tick = me->seconds_per_tick;
    bool own_comm = me->comm == MPI_COMM_NULL;
    if (!own_comm)
        m.comm = me->comm;
    else if (PMPI_Comm_dup(MPI_COMM_WORLD, &m.comm) != MPI_SUCCESS) {
        fprintf(stderr, "hooktrace: rank %d: cannot merge the ranks' profiles (MPI_Comm_dup"
                        " failed)\n", me->rank);
        write_own(me, true);
        return;
    }
    PMPI_Comm_rank(m.comm, &m.rank);
    PMPI_Comm_size(m.comm, &m.size);
    m.have_local = ht_mpi_local_build(&m.local, profile, m.rank, m.size,
                                      me->seconds_per_tick) == 0;
    if (!m.have_local)
        fprintf(stderr, "hooktrace: rank %d: out of memory: its messages are left out\n", m.rank);
    describe_self(&m, run);

    /* Step 1. */
    int root_ok = 1;
    if (m.rank == 0)
        root_ok = (m.infos = calloc((size_t)m.size, sizeof *m.infos)) != NULL;
    PMPI_Bcast(&root_ok, 1, MPI_INT, 0, m.comm);
    bool failed = !root_ok;
    if (root_ok) {
        PMPI_Gather(&m.info, (int)sizeof m.info, MPI_BYTE, m.infos, (int)sizeof m.info, MPI_BYTE,
                    0, m.comm);
        for (int r = 0; m.rank == 0 && r < m.size; r++)
            if (m.infos[r].nthreads > m.nthreads_max)
                m.nthreads_max = m.infos[r].nthreads;
        /* Steps 2 and 3. */
        size_t n = profile ? profile->nstacks : 0;
        m.gid_of = malloc((n + 1) * sizeof *m.gid_of);
        ht_merge_paths(m.comm, m.gid_of ? profile : NULL, m.gid_of, m.nthreads_max, &m.global);
        agree_on_counters(&m);
        int bad = m.global.failed || (n && !m.gid_of) || !prepare_arrays(&m), any_bad = 0;
        PMPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, m.comm);
        failed = any_bad != 0;
    }
    if (!failed && !reduce_and_gather(&m, config))
        failed = true;
    if (!failed) {
        struct ht_mpit_stacks stacks = {&m.global.own, m.global.own_ids, m.global.nstacks,
                                        me->table};
        ht_mpit_merge(m.comm, &stacks, config, &m.mpit);
        if (m.rank == 0) {
            struct ht_merge_result r = {
                .global = &m.global,
                .nranks = m.size,
                .infos = m.infos,
                .ncounters = m.ncounters,
                .u64 = m.u64,
                .f64 = m.f64,
                .min = m.min,
                .max = m.max,
                .figures = m.figures,
                .nfigures = m.nfigures,
                .cells = m.cells,
                .ncells = m.ncells,
                .mpit = &m.mpit.view,
                .rank_times = &m.rank_times,
                .rank_profiles = &m.rank_profiles,
            };
            ht_merge_write_summary(&r, profile, run, config, basename);
        }
        /* A rank's own files carry the suffix the summary got (a
         * concurrent run had the plain name): one job, one suffix. */
        char suffix[256];
        snprintf(suffix, sizeof suffix, "%s", m.rank == 0 ? ht_output_last_suffix() : "");
        ht_bcast_waiting_lazily(suffix, (int)sizeof suffix, MPI_CHAR, m.comm);
        if (suffix[0])
            ht_output_force_suffix(suffix);
    } else if (m.rank == 0) {
        fprintf(stderr, "hooktrace: the profiles of the %d ranks could not be merged (out of"
                        " memory); each rank writes %s_<rank>.* instead\n", m.size, basename);
    }
    merge_free(&m);
    if (own_comm)
        PMPI_Comm_free(&m.comm);
    if (failed || me->rank_file)
        write_own(me, failed);
}
