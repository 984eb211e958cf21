/* Performance-variable figures per stack, at MPI_Finalize (over ranks) or
 * for one rank's own files.
 *
 * The figures live on tree nodes (ht_mpi_stats.pvars), but the profile's
 * stacks are merged by path of function names after the config's filters.
 * So each node that has figures is mapped to its stack the way the
 * profile was built: the functions on its path are named through a
 * function table of our own (the same symbols and filters, only the
 * addresses on those paths), excluded functions are skipped, and the path
 * is looked up in the path set of the stacks.
 *
 * Over ranks: rank 0 broadcasts its column names (its pvars, or their
 * elements), every rank fills dense arrays indexed by (global stack,
 * column) with its own figure where it has one, and three PMPI_Reduce calls
 * give the sum (and the number of ranks), the minimum and the maximum.
 * O(G x S) doubles per rank for G stacks and S columns; log P rounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack/thread.h"
#include "common/clock.h"
#include "merge/merge_internal.h"
#include "mpit/mpit_internal.h"
#include "merge/mpit_merge.h"
#include "callstack/function_table.h"
#include "symbols/symbols.h"


static const char *const how_names[] = {"change", "max", "min"};

/* --- nodes to stacks ------------------------------------------------------- */

static const struct ht_mpit_values *values_of(const struct ht_node *n)
{
    const struct ht_mpi_stats *s = __atomic_load_n(&n->mpi, __ATOMIC_ACQUIRE);
    const struct ht_mpit_values *v = s ? __atomic_load_n(&s->pvars, __ATOMIC_ACQUIRE) : NULL;
    return v && v->calls ? v : NULL;
}

typedef void (*node_fn)(const struct ht_node *n, void *ctx);

/* Depth first over a tree another thread may still be growing: a child is
 * published before it is linked, so what is reachable is complete. */
static void each_node(const struct ht_tree *tree, node_fn fn, void *ctx)
{
    const struct ht_node *n = __atomic_load_n(&tree->root.first_child, __ATOMIC_ACQUIRE);
    while (n) {
        fn(n, ctx);
        const struct ht_node *c = __atomic_load_n(&n->first_child, __ATOMIC_ACQUIRE);
        if (c) {
            n = c;
            continue;
        }
        while (n && !n->next_sibling)
            n = n->parent == &tree->root ? NULL : n->parent;
        if (n)
            n = n->next_sibling;
    }
}

static void add_path(const struct ht_node *n, void *table)
{
    if (!values_of(n))
        return;
    for (; n && n->function; n = n->parent)
        ht_function_table_add(ht_node_address(n), table);
}

/* What the nodes are gathered into: per (stack, column) the figure of this
 * rank and whether it has one. */
struct gather {
    const struct ht_pathset *set;
    const int *stack_of;           /* set node -> output stack; NULL: the same */
    const int *column_of;          /* our slot -> column; -1: not shown */
    size_t ncolumns;
    double *sum, *min, *max;       /* [nstacks * ncolumns] */
    double *ranks;                 /* [nstacks * ncolumns]: 1 where this rank has a figure */
    const struct ht_config *config; /* names functions as the outputs do */
    const struct ht_function_table *named; /* given, already named; or NULL */
    const struct ht_function_table *table; /* what gather_node looks up */
    const struct ht_node **chain;
    size_t chain_capacity;
    bool failed;
};

/* The set node of n's stack, or -1 (no stack, or not in the set). */
static int stack_of_node(struct gather *g, const struct ht_node *n)
{
    size_t depth = n->depth + 1u;
    if (depth > g->chain_capacity) {
        const struct ht_node **bigger = realloc(g->chain, depth * sizeof *bigger);
        if (!bigger) {
            g->failed = true;
            return -1;
        }
        g->chain = bigger;
        g->chain_capacity = depth;
    }
    size_t k = 0;
    for (; n && n->function && k < g->chain_capacity; n = n->parent)
        g->chain[k++] = n;
    int id = -1;
    while (k-- > 0) {
        const struct ht_function *f =
            ht_function_table_lookup(ht_node_address(g->chain[k]), (void *)g->table);
        if (!f || !f->kept)
            continue; /* its callees move up to the nearest kept caller */
        id = ht_pathset_find(g->set, id, f->name ? f->name : "", f->file, f->line);
        if (id < 0)
            return -1;
    }
    return id;
}

static void gather_node(const struct ht_node *n, void *ctx)
{
    struct gather *g = ctx;
    const struct ht_mpit_values *v = values_of(n);
    if (!v || g->failed)
        return;
    int id = stack_of_node(g, n);
    if (id < 0)
        return;
    if (g->stack_of)
        id = g->stack_of[id];
    for (size_t k = 0; k < ht_mpit.nslots; k++) {
        int col = g->column_of[k];
        enum ht_mpit_how how = ht_mpit.pvars[ht_mpit.slots[k].pvar].how;
        if (col < 0 || (how != HT_MPIT_CHANGE && !isfinite(v->v[k])))
            continue;
        size_t at = (size_t)id * g->ncolumns + (size_t)col;
        if (how == HT_MPIT_CHANGE)
            g->sum[at] += v->v[k];
        else if (how == HT_MPIT_MAX)
            g->max[at] = ht_mpit_combine(how, g->max[at], v->v[k]);
        else
            g->min[at] = ht_mpit_combine(how, g->min[at], v->v[k]);
        g->ranks[at] = 1.0;
    }
}

/* Fills the arrays (allocated by the caller for nstacks * ncolumns) with
 * this rank's figures; where it has one, sum = min = max = that figure. */
static void gather_rank(struct gather *g, size_t nstacks, const enum ht_mpit_how *how_of_column)
{
    size_t n = nstacks * g->ncolumns;
    for (size_t i = 0; i < n; i++) {
        g->sum[i] = 0.0;
        g->ranks[i] = 0.0;
        g->min[i] = INFINITY;
        g->max[i] = -INFINITY;
    }
    struct ht_symbols *symbols = NULL;
    struct ht_function_table *own = NULL;
    g->table = g->named;
    /* Without the profile's table (a rank's own files), name the functions
     * here; with it, they are named already (once per job, names.c). */
    if (!g->table && ht_mpit.nslots && n) {
        symbols = ht_symbols_open();
        own = symbols ? ht_function_table_new(symbols, g->config) : NULL;
        if (own) {
            for (struct ht_thread *t = ht_thread_registry(); t; t = t->next)
                each_node(&t->tree, add_path, own);
            if (ht_function_table_resolve(own) == 0)
                g->table = own;
        }
    }
    if (g->table) {
        for (struct ht_thread *t = ht_thread_registry(); t; t = t->next)
            each_node(&t->tree, gather_node, g);
    } else if (ht_mpit.nslots && n) {
        g->failed = true;
    }
    ht_function_table_free(own);
    if (symbols)
        ht_symbols_close(symbols);
    free(g->chain);
    g->chain = NULL;
    g->chain_capacity = 0;
    for (size_t i = 0; i < n; i++) {
        if (g->ranks[i] == 0.0)
            continue;
        switch (how_of_column[i % g->ncolumns]) {
        case HT_MPIT_CHANGE:
            g->min[i] = g->max[i] = g->sum[i];
            break;
        case HT_MPIT_MAX:
            g->min[i] = g->sum[i] = g->max[i];
            break;
        case HT_MPIT_MIN:
            g->max[i] = g->sum[i] = g->min[i];
            break;
        }
    }
}

/* --- the output's descriptors ---------------------------------------------- */

static uint64_t failed_reads(size_t pvar)
{
    uint64_t n = 0;
    pthread_mutex_lock(&ht_mpit.lock);
    for (const struct ht_mpit_thread *t = ht_mpit.threads; t; t = t->next)
        if (t->failed_reads)
            n += t->failed_reads[pvar];
    pthread_mutex_unlock(&ht_mpit.lock);
    return n;
}

/* Our pvars as the outputs describe them (failed reads: this rank's). */
static struct ht_mpit_pvar_desc *describe_pvars(void)
{
    struct ht_mpit_pvar_desc *d = calloc(ht_mpit.npvars ? ht_mpit.npvars : 1, sizeof *d);
    for (size_t i = 0; d && i < ht_mpit.npvars; i++) {
        const struct ht_mpit_pvar *p = &ht_mpit.pvars[i];
        d[i] = (struct ht_mpit_pvar_desc){
            .name = p->name,
            .description = p->description,
            .class_name = ht_mpit_class_names[p->class_id],
            .type = p->type_name,
            .binding = ht_mpit_bind_name(p->bind),
            .aggregation = how_names[p->how],
            .count = p->count,
            .continuous = p->continuous,
            .readonly = p->readonly,
            .atomic = p->atomic,
            .integral = p->num != HT_MPIT_F64,
            .failed_reads = failed_reads(i),
        };
    }
    return d;
}

void ht_mpit_output_free(struct ht_mpit_output *out)
{
    free(out->stats);
    free(out->pvars);
    free(out->notes);
    memset(out, 0, sizeof *out);
}

/* --- one rank ---------------------------------------------------------------- */

static void local_figures(const struct ht_profile *p, const struct ht_config *config,
                          struct ht_mpit_output *out)
{
    memset(out, 0, sizeof *out);
    out->pvars = describe_pvars();
    ht_mpit_fill_view(out);
    size_t n = p ? p->nstacks : 0, s = ht_mpit.nslots;
    if (!out->pvars || s == 0)
        return;
    out->view.pvars = out->pvars;
    out->view.npvars = ht_mpit.npvars;
    if (n == 0)
        return;
    struct ht_pathset set;
    ht_pathset_init(&set);
    int *index_of = malloc(n * sizeof *index_of);
    int *stack_of = malloc(n * sizeof *stack_of);
    int *column_of = malloc(s * sizeof *column_of);
    enum ht_mpit_how *how = malloc(s * sizeof *how);
    double *arrays = malloc(4 * n * s * sizeof *arrays);
    out->stats = calloc(n * s, sizeof *out->stats);
    bool ok = index_of && stack_of && column_of && how && arrays && out->stats &&
              ht_pathset_add_profile(&set, p, index_of) == 0;
    if (ok) {
        /* Stacks with the same path share a set node; each path is one stack. */
        for (size_t id = 0; id < n; id++)
            stack_of[index_of[id]] = (int)id;
        for (size_t k = 0; k < s; k++) {
            column_of[k] = (int)k;
            how[k] = ht_mpit.pvars[ht_mpit.slots[k].pvar].how;
        }
        struct gather g = {.set = &set, .stack_of = stack_of, .column_of = column_of,
                           .ncolumns = s, .sum = arrays, .min = arrays + n * s,
                           .max = arrays + 2 * n * s, .ranks = arrays + 3 * n * s,
                           .config = config};
        gather_rank(&g, n, how);
        ok = !g.failed;
        for (size_t i = 0; ok && i < n * s; i++)
            out->stats[i] = (struct ht_mpit_stat){g.min[i], g.sum[i], g.max[i],
                                                  (uint32_t)g.ranks[i]};
    }
    if (ok) {
        out->view.stats = out->stats;
        out->view.nstacks = n;
    } else {
        ht_mpit_note("out of memory: the performance variables have no figures per stack");
        ht_mpit_fill_view(out); /* the notes may have moved */
        out->view.pvars = out->pvars;
        out->view.npvars = ht_mpit.npvars;
    }
    ht_pathset_free(&set);
    free(index_of);
    free(stack_of);
    free(column_of);
    free(how);
    free(arrays);
}

/* Written once per job: a rank other than 0 writing alone leaves its
 * control variables out and names the file that has rank 0's.  (Telling
 * which of its own differ from rank 0's needs rank 0's values: a
 * broadcast in MPI_Init, which was tried, and which shifted the ranks'
 * timing out of MPI_Init enough to change what a program's first calls
 * see, test/mpit/pvars.py.) */
static void leave_out_cvars(struct ht_mpit_output *out, const char *complete_in)
{
    struct ht_mpit_view *v = &out->view;
    /* A status: MPI_T is not used here, there is nothing to point at. */
    if (!complete_in || v->status)
        return;
    v->cvars = NULL;
    v->ncvars = 0;
    v->cvars_complete_in = complete_in;
}

void ht_mpit_local(const struct ht_profile *p, const struct ht_config *config,
                   const char *complete_in, struct ht_mpit_output *out)
{
    if (complete_in)
        ht_mpit_skip_cvars();
    local_figures(p, config, out);
    leave_out_cvars(out, complete_in);
}

/* --- over ranks --------------------------------------------------------------- */

/* Rank 0's column names, NUL-separated: into *buf on every rank.  Returns
 * the number of names (0: nothing to merge); *ok false if this rank could
 * not keep them (it still took part). */
static size_t share_names(MPI_Comm comm, int rank, char **buf, bool *ok)
{
    uint64_t header[2] = {0, 0};
    char *names = NULL;
    if (rank == 0) {
        for (size_t k = 0; k < ht_mpit.nslots; k++)
            header[1] += strlen(ht_mpit.slots[k].name) + 1;
        names = malloc(header[1] + 1);
        if (names) {
            char *w = names;
            for (size_t k = 0; k < ht_mpit.nslots; k++) {
                size_t l = strlen(ht_mpit.slots[k].name) + 1;
                memcpy(w, ht_mpit.slots[k].name, l);
                w += l;
            }
            header[0] = ht_mpit.nslots;
        } else {
            header[1] = 0;
        }
    }
    PMPI_Bcast(header, 2, MPI_UINT64_T, 0, comm);
    if (header[0] == 0 || header[1] > INT32_MAX) {
        free(names);
        return 0;
    }
    if (rank != 0)
        names = malloc(header[1]);
    /* Everyone takes part in the broadcast, keeping the names or not. */
    char scratch[4096];
    for (uint64_t off = 0; off < header[1]; off += sizeof scratch) {
        uint64_t n = header[1] - off < sizeof scratch ? header[1] - off : sizeof scratch;
        PMPI_Bcast(names ? names + off : scratch, (int)n, MPI_CHAR, 0, comm);
    }
    *ok = names != NULL;
    *buf = names;
    return (size_t)header[0];
}

static const char *const *sort_names;

static int by_name(const void *a, const void *b)
{
    return strcmp(sort_names[*(const int *)a], sort_names[*(const int *)b]);
}

/* column_of[our slot] = the column of rank 0 with the same name, or -1. */
static bool map_columns(const char *names, size_t ncolumns, int *column_of)
{
    const char **name = malloc(ncolumns * sizeof *name);
    int *order = malloc(ncolumns * sizeof *order);
    if (!name || !order) {
        free(name);
        free(order);
        return false;
    }
    const char *r = names;
    for (size_t c = 0; c < ncolumns; c++) {
        name[c] = r;
        order[c] = (int)c;
        r += strlen(r) + 1;
    }
    sort_names = name;
    qsort(order, ncolumns, sizeof *order, by_name);
    for (size_t k = 0; k < ht_mpit.nslots; k++) {
        size_t lo = 0, hi = ncolumns;
        column_of[k] = -1;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            int c = strcmp(name[order[mid]], ht_mpit.slots[k].name);
            if (c == 0) {
                column_of[k] = order[mid];
                break;
            }
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    free(name);
    free(order);
    return true;
}

/* Rows per column: sum, ranks with a figure, min, max. */
static void combine_rows(double *into, const double *from, size_t width)
{
    for (size_t k = 0; k < width; k += 4) {
        into[k] += from[k];
        into[k + 1] += from[k + 1];
        into[k + 2] = fmin(into[k + 2], from[k + 2]);
        into[k + 3] = fmax(into[k + 3], from[k + 3]);
    }
}

/* The rows of the nodes this rank has a figure for, under their global
 * IDs.  arrays: [sum | ranks | min | max], each own x s. */
static bool to_rows(struct ht_rows *rows, const double *arrays, size_t own, size_t s,
                    const int *global_id)
{
    size_t cells = own * s;
    for (size_t i = 0; i < own; i++) {
        bool any = false;
        for (size_t c = 0; c < s; c++)
            any |= arrays[cells + i * s + c] != 0.0;
        if (!any)
            continue;
        double *v = ht_rows_add(rows, (uint64_t)global_id[i]);
        if (!v)
            return false;
        for (size_t c = 0; c < s; c++) {
            size_t at = i * s + c;
            v[4 * c] = arrays[at];
            v[4 * c + 1] = arrays[cells + at];
            v[4 * c + 2] = arrays[2 * cells + at];
            v[4 * c + 3] = arrays[3 * cells + at];
        }
    }
    return true;
}

void ht_mpit_merge(MPI_Comm comm, const struct ht_mpit_stacks *stacks,
                   const struct ht_config *config, struct ht_mpit_output *out)
{
    int rank;
    PMPI_Comm_rank(comm, &rank);
    memset(out, 0, sizeof *out);
    char *names = NULL;
    bool ok = true;
    size_t s = share_names(comm, rank, &names, &ok);
    if (rank == 0) {
        out->pvars = describe_pvars();
        ok = ok && out->pvars;
    }
    if (s == 0) {
        free(names);
        ht_mpit_fill_view(out);
        if (out->pvars) {
            out->view.pvars = out->pvars;
            out->view.npvars = ht_mpit.npvars;
        }
        return;
    }
    /* This rank's figures, one row per node of its own set: [sum | ranks |
     * min | max] per column, then what goes up the tree for the stacks it
     * has figures for; only rank 0 makes arrays over all G stacks. */
    size_t own = stacks->own->count, cells = own * s;
    double *arrays = ok ? malloc((4 * cells + 1) * sizeof *arrays) : NULL;
    double *failed = malloc((s + 1) * sizeof *failed);
    double *failed_all = rank == 0 ? calloc(s + 1, sizeof *failed_all) : NULL;
    int *column_of = malloc((ht_mpit.nslots + 1) * sizeof *column_of);
    enum ht_mpit_how *how = malloc(s * sizeof *how);
    ok = ok && arrays && failed && (rank != 0 || failed_all) && column_of && how &&
         map_columns(names, s, column_of);
    struct ht_rows rows = {.width = 4 * s};
    if (ok) {
        /* Unknown on this rank: 0, never read; rank 0's names give the how. */
        for (size_t c = 0; c < s; c++)
            how[c] = HT_MPIT_CHANGE;
        for (size_t k = 0; k < ht_mpit.nslots; k++)
            if (column_of[k] >= 0)
                how[column_of[k]] = ht_mpit.pvars[ht_mpit.slots[k].pvar].how;
        struct gather gt = {.set = stacks->own, .column_of = column_of, .ncolumns = s,
                            .sum = arrays, .ranks = arrays + cells, .min = arrays + 2 * cells,
                            .max = arrays + 3 * cells, .config = config, .named = stacks->table};
        gather_rank(&gt, own, how);
        ok = !gt.failed;
        memset(failed, 0, s * sizeof *failed);
        for (size_t i = 0; ok && i < ht_mpit.npvars; i++) {
            int col = column_of[ht_mpit.pvars[i].first_slot];
            if (col >= 0)
                failed[col] += (double)failed_reads(i);
        }
        ok = ok && to_rows(&rows, arrays, own, s, stacks->global_id);
    }
    int bad = !ok, any_bad = 0;
    PMPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, comm);
    if (!any_bad) {
        int size;
        PMPI_Comm_size(comm, &size);
        PMPI_Reduce(failed, failed_all, (int)s, MPI_DOUBLE, MPI_SUM, 0, comm);
        if (!ht_rows_reduce(comm, rank, size, &rows, true, combine_rows))
            any_bad = 1;
    }
    size_t g = stacks->nstacks;
    if (rank == 0 && !any_bad && (out->stats = calloc(g * s + 1, sizeof *out->stats))) {
        for (size_t i = 0; i < g * s; i++)
            out->stats[i] = (struct ht_mpit_stat){INFINITY, 0.0, -INFINITY, 0};
        for (size_t r = 0; r < rows.count; r++) {
            uint64_t id = *ht_rows_id(&rows, r);
            const double *v = ht_rows_values(&rows, r);
            for (size_t c = 0; id < g && c < s; c++)
                out->stats[id * s + c] = (struct ht_mpit_stat){v[4 * c + 2], v[4 * c],
                                                               v[4 * c + 3], (uint32_t)v[4 * c + 1]};
        }
        /* Rank 0's pvars are the columns: the failed reads of all ranks. */
        for (size_t i = 0; i < ht_mpit.npvars; i++)
            out->pvars[i].failed_reads = (uint64_t)failed_all[ht_mpit.pvars[i].first_slot];
    } else if (rank == 0) {
        ht_mpit_note("out of memory on some rank: the performance variables have no figures"
                     " per stack");
    }
    free(rows.data);
    free(failed);
    free(failed_all);
    ht_mpit_fill_view(out);
    if (rank == 0 && out->pvars) {
        out->view.pvars = out->pvars;
        out->view.npvars = ht_mpit.npvars;
        out->view.stats = out->stats;
        out->view.nstacks = out->stats ? g : 0;
    }
    free(names);
    free(arrays);
    free(column_of);
    free(how);
}
