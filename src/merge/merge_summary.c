/* On rank 0 after the reductions: the merged profile (stacks in global ID
 * order, figures summed over ranks, per thread index summed over ranks), the
 * MPI view (per-rank figures, spread, matrices) and the run header, written
 * as <basename>.{log,json,folded}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge/merge_internal.h"

struct summary {
    struct ht_profile profile;
    struct ht_function *functions;
    struct ht_stack_stats *per_thread;
    double *seconds;
    size_t *start;
    struct ht_mpi_rank_figures *figures;
    struct ht_mpi_spread *spread;
    struct ht_mpi_rank_summary *ranks;
    struct ht_mpi_cell *comm, *coll;
    struct ht_mpi_view view;
    struct ht_run_info run;
    int64_t *counters; /* [nstacks * 2 * ncounters] */
};

static void summary_free(struct summary *s)
{
    free(s->profile.stacks);
    free(s->profile.thread_tids);
    free(s->counters);
    free(s->functions);
    free(s->per_thread);
    free(s->seconds);
    free(s->start);
    free(s->figures);
    free(s->spread);
    free(s->ranks);
    free(s->comm);
    free(s->coll);
}

static void fill_stacks(struct summary *s, const struct ht_merge_result *r, int t)
{
    const struct ht_pathset *set = &r->global->set;
    size_t g = set->count;
    size_t us = HT_MERGE_U64_STRIDE(t, r->ncounters), fs = HT_MERGE_F64_STRIDE(t);
    for (size_t k = 0; k < g; k++) {
        const struct ht_path_node *n = &set->nodes[k];
        struct ht_function *f = &s->functions[k];
        *f = (struct ht_function){.name = n->name, .file = n->file, .line = n->line, .kept = true};
        struct ht_stack *st = &s->profile.stacks[k];
        st->id = (int)k;
        st->parent = n->parent;
        st->depth = n->parent < 0 ? 1 : s->profile.stacks[n->parent].depth + 1;
        st->function = f;
        st->per_thread = s->per_thread + k * (size_t)t;
        const uint64_t *u = r->u64 + k * us;
        const double *d = r->f64 + k * fs;
        for (int th = 0; th < t; th++) {
            struct ht_stack_stats *pt = &st->per_thread[th];
            pt->calls = u[2 * th];
            pt->folded_calls = u[2 * th + 1];
            pt->time_incl = d[2 * th];
            pt->time_excl = d[2 * th + 1];
            st->total.calls += pt->calls;
            st->total.folded_calls += pt->folded_calls;
            st->total.time_incl += pt->time_incl;
            st->total.time_excl += pt->time_excl;
        }
        /* Message durations are kept in seconds in the view: ticks of
         * different ranks do not add up. */
        st->total.mpi = (struct ht_mpi_stats){.messages_sent = u[2 * t],
                                              .messages_received = u[2 * t + 1],
                                              .bytes_sent = u[2 * t + 2],
                                              .bytes_received = u[2 * t + 3]};
        st->throttled = (u[2 * t + 4] & (HT_MERGE_INLINED_RANK - 1)) != 0;
        st->inlined = u[2 * t + 4] >= HT_MERGE_INLINED_RANK;
        /* Counters over threads and ranks: the stacks' own words (the
         * threads' are not summed over ranks). */
        if (r->ncounters && s->counters) {
            st->total.counters = s->counters + k * 2 * r->ncounters;
            for (unsigned c = 0; c < 2 * r->ncounters; c++)
                st->total.counters[c] = (int64_t)u[2 * t + 5 + c];
        }
        s->seconds[k] = d[2 * t];
        s->seconds[g + k] = d[2 * t + 1];
        s->spread[k] = (struct ht_mpi_spread){r->min[k].value, r->max[k].value, r->min[k].rank,
                                              r->max[k].rank};
    }
}

static void fill_totals(struct summary *s, const struct ht_merge_result *r,
                        const struct ht_profile *own, const struct ht_run_info *run)
{
    struct ht_profile *p = &s->profile;
    for (int k = 0; own && k < own->nthreads && k < p->nthreads; k++)
        p->thread_tids[k] = own->thread_tids[k];
    double wall = 0.0, overhead = 0.0;
    s->run = *run;
    struct ht_throttle_info *th = &s->run.throttle;
    th->sites_patched = th->sites_unpatched = 0;
    th->hook_calls_avoided = 0.0;
    for (int k = 0; k < r->nranks; k++) {
        const struct ht_merge_rank_info *i = &r->infos[k];
        s->ranks[k] = (struct ht_mpi_rank_summary){i->profiled != 0, i->nthreads, i->wall_seconds,
                                                   i->instrumented_calls, ""};
        memcpy(s->ranks[k].host, i->host, sizeof s->ranks[k].host);
        s->ranks[k].host[sizeof s->ranks[k].host - 1] = '\0';
        p->instrumented_calls += i->instrumented_calls;
        p->inlined_calls += i->inlined_calls;
        p->folded_calls += i->folded_calls;
        p->mismatched_exits += i->mismatched_exits;
        p->nested_hooks_declined += i->nested_hooks_declined;
        p->tree_nodes += i->tree_nodes;
        p->tree_bytes += i->tree_bytes;
        p->out_of_memory |= i->out_of_memory != 0;
        p->has_mpi |= i->has_mpi != 0;
        p->time_excluded_at_root += i->time_excluded_at_root;
        if (i->wall_seconds > wall)
            wall = i->wall_seconds;
        overhead += i->overhead_seconds;
        p->throttled_hook_calls += i->throttled_hook_calls;
        th->sites_patched += i->sites_patched;
        th->sites_unpatched += i->sites_unpatched;
        th->hook_calls_avoided += i->hook_calls_avoided;
        if (i->patch_refused_errno)
            th->patch_refused_errno = (int)i->patch_refused_errno;
    }
    if (!s->run.command)
        s->run.command = "(unknown)";
    if (!s->run.executable)
        s->run.executable = "";
    if (!s->run.clock_source)
        s->run.clock_source = "(unknown)";
    s->run.wall_seconds = wall;
    s->run.overhead_seconds = overhead;
    if (p->instrumented_calls)
        s->run.overhead_ns_per_call = overhead / (double)p->instrumented_calls * 1e9;
}

/* Per-rank figures ordered by stack, then rank (they arrive rank-major). */
static void sort_figures(struct summary *s, const struct ht_merge_result *r, size_t g)
{
    for (size_t i = 0; i < r->nfigures; i++)
        if (r->figures[i].stack >= 0 && (size_t)r->figures[i].stack < g)
            s->start[r->figures[i].stack + 1]++;
    for (size_t k = 0; k < g; k++)
        s->start[k + 1] += s->start[k];
    size_t *next = s->start; /* reuse: shifted by one while filling */
    for (size_t i = 0; i < r->nfigures; i++) {
        const struct ht_mpi_rank_figures *f = &r->figures[i];
        if (f->stack >= 0 && (size_t)f->stack < g)
            s->figures[next[f->stack]++] = *f;
    }
    /* next[k] now holds the end of stack k = the start of stack k + 1. */
    memmove(s->start + 1, s->start, g * sizeof *s->start);
    s->start[0] = 0;
}

static void split_cells(struct summary *s, const struct ht_merge_result *r)
{
    size_t at = 0;
    for (int k = 0; k < r->nranks; k++) {
        const struct ht_merge_rank_info *i = &r->infos[k];
        memcpy(s->comm + s->view.ncomm, r->cells + at, i->ncomm * sizeof *s->comm);
        s->view.ncomm += i->ncomm;
        at += i->ncomm;
        memcpy(s->coll + s->view.ncoll, r->cells + at, i->ncoll * sizeof *s->coll);
        s->view.ncoll += i->ncoll;
        at += i->ncoll;
    }
}

void ht_merge_write_summary(const struct ht_merge_result *r, const struct ht_profile *own,
                            const struct ht_run_info *run, const struct ht_config *config,
                            const char *basename)
{
    struct summary s;
    memset(&s, 0, sizeof s);
    size_t g = r->global->set.count;
    int t = r->global->nthreads > 0 ? r->global->nthreads : 1;
    s.profile.nthreads = t;
    s.profile.nstacks = g;
    s.profile.ncounters = r->ncounters;
    s.counters = r->ncounters ? calloc(g * 2 * r->ncounters + 1, sizeof *s.counters) : NULL;
    s.profile.thread_tids = calloc((size_t)t, sizeof *s.profile.thread_tids);
    s.profile.stacks = calloc(g + 1, sizeof *s.profile.stacks);
    s.functions = calloc(g + 1, sizeof *s.functions);
    s.per_thread = calloc(g * (size_t)t + 1, sizeof *s.per_thread);
    s.seconds = calloc(2 * g + 1, sizeof *s.seconds);
    s.start = calloc(g + 1, sizeof *s.start);
    s.figures = malloc((r->nfigures + 1) * sizeof *s.figures);
    s.spread = malloc((g + 1) * sizeof *s.spread);
    s.ranks = calloc((size_t)r->nranks, sizeof *s.ranks);
    s.comm = malloc((r->ncells + 1) * sizeof *s.comm);
    s.coll = malloc((r->ncells + 1) * sizeof *s.coll);
    if (!s.profile.thread_tids || !s.profile.stacks || !s.functions || !s.per_thread ||
        !s.seconds || !s.start || !s.figures || !s.spread || !s.ranks || !s.comm || !s.coll ||
        (r->ncounters && !s.counters)) {
        fprintf(stderr, "hooktrace: out of memory on rank 0: no summary profile written\n");
        summary_free(&s);
        return;
    }
    fill_stacks(&s, r, t);
    fill_totals(&s, r, own, run);
    sort_figures(&s, r, g);
    split_cells(&s, r);
    s.view.nranks = r->nranks;
    s.view.rank = -1;
    s.view.seconds_sent = s.seconds;
    s.view.seconds_received = s.seconds + g;
    s.view.figures = s.figures;
    s.view.figures_start = s.start;
    s.view.spread = s.spread;
    s.view.ranks = s.ranks;
    s.view.comm = s.comm;
    s.view.coll = s.coll;
    s.view.mpit = r->mpit;
    s.view.rank_times = r->rank_times;
    s.view.rank_profiles = r->rank_profiles;
    ht_output_write_all_mpi(&s.profile, &s.run, config, basename, &s.view);
    summary_free(&s);
}
