/* The profile in LLNL Hatchet's own JSON form, the one GraphFrame.to_json
 * writes and GraphFrame.from_json reads (docs/output.md):
 *
 *   {"metadata": {...},
 *    "graph": [{"<id>": {"data": {"name", "type": "function"}, "children": [ids]}, ...}, ...],
 *    "dataframe_indices": ["node"],
 *    "dataframe": [{"node": id, "name", "time (inc)", "time", "calls", ...}, ...],
 *    "inclusive_metrics": ["time (inc)"], "exclusive_metrics": ["time", "calls"]}
 *
 * one graph object per root, node IDs the JSON profile's stack IDs, times
 * in seconds, figures summed over threads (and ranks in an MPI summary).
 * from_json ignores "metadata"; it is the JSON profile's metadata object,
 * for GraphFrame.metadata and Thicket.  Where the MPI summary has one
 * rank's figures on a stack (the stacks that moved messages, the top
 * stacks of rank_time_stacks), the row also has them per rank, as arrays
 * indexed by rank.
 *
 * The stacks are depth first (callstack/profile.h), so each root's
 * subtree is a run of stacks and everything is written in passes over
 * them: no recursion here.  The readers do recurse (Hatchet walks the
 * graph recursively, Python stops near 1,000 frames), so a node at depth
 * HT_HATCHET_MAX_DEPTH is written without children: its "time" is the
 * exclusive time of its whole subtree, "time (inc)" its own inclusive
 * time, and "calls" its own calls.
 *
 * A stack of counted inlined copies (profile.h) is a node like any other,
 * with its calls and times 0.  When the profile has one, every row has a
 * boolean "inlined" column, true on those: a column on some rows only
 * would be NaN on the others in the GraphFrame's dataframe, and no
 * profile without them grows. */
#include <stdlib.h>

#include "output/function_index.h"
#include "output/output.h"
#include "output/output_mpi.h"
#include "output/room.h"

#define DUMP_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9) | JSON_COMPACT)

struct tree {
    double *cut;      /* [nstacks] "time" as written (the subtree's at the depth limit) */
    int *first_child, *next_sibling; /* [nstacks], -1: none */
};

static void tree_free(struct tree *t)
{
    free(t->cut);
    free(t->first_child);
    free(t->next_sibling);
}

static int tree_init(struct tree *t, const struct ht_profile *p)
{
    size_t n = p->nstacks ? p->nstacks : 1;
    t->cut = malloc(n * sizeof *t->cut);
    t->first_child = malloc(n * sizeof *t->first_child);
    t->next_sibling = malloc(n * sizeof *t->next_sibling);
    if (!t->cut || !t->first_child || !t->next_sibling) {
        tree_free(t);
        return -1;
    }
    for (size_t i = 0; i < p->nstacks; i++) {
        t->cut[i] = p->stacks[i].total.time_excl;
        t->first_child[i] = t->next_sibling[i] = -1;
    }
    /* From the end: a deeper stack adds into its parent, and a child put
     * first keeps the children in stack ID order. */
    for (size_t i = p->nstacks; i-- > 0;) {
        const struct ht_stack *s = &p->stacks[i];
        if (s->parent < 0)
            continue;
        if (s->depth > HT_HATCHET_MAX_DEPTH) {
            t->cut[s->parent] += t->cut[i];
        } else {
            t->next_sibling[i] = t->first_child[s->parent];
            t->first_child[s->parent] = (int)i;
        }
    }
    return 0;
}

static void write_graph_node(FILE *f, const struct ht_profile *p, const struct tree *t, size_t i)
{
    const struct ht_stack *s = &p->stacks[i];
    fprintf(f, "\"%d\":{\"data\":{\"name\":", s->id);
    ht_output_json_string(f, s->function->name);
    fputs(",\"type\":\"function\"},\"children\":[", f);
    bool comma = false;
    for (int c = s->depth < HT_HATCHET_MAX_DEPTH ? t->first_child[i] : -1; c >= 0;
         c = t->next_sibling[c]) {
        fprintf(f, comma ? ",%d" : "%d", p->stacks[c].id);
        comma = true;
    }
    fputs("]}", f);
}

/* One rank's figures of stack s in the MPI summary: per-rank arrays of
 * calls, inclusive and exclusive time where the summary has them. */
static void write_rank_arrays(FILE *f, const struct ht_stack *s, const struct ht_mpi_view *mpi,
                              double *scratch)
{
    if (!mpi || mpi->rank >= 0 || !scratch)
        return;
    int n = mpi->nranks;
    if (mpi->figures && mpi->figures_start &&
        mpi->figures_start[s->id + 1] > mpi->figures_start[s->id]) {
        const struct ht_mpi_rank_figures *from = &mpi->figures[mpi->figures_start[s->id]];
        const struct ht_mpi_rank_figures *to = &mpi->figures[mpi->figures_start[s->id + 1]];
        static const char *const names[] = {"calls per rank", "time (inc) per rank",
                                            "time per rank"};
        for (int k = 0; k < 3; k++) {
            for (int r = 0; r < n; r++)
                scratch[r] = 0.0; /* a rank that never entered the stack */
            for (const struct ht_mpi_rank_figures *g = from; g < to; g++)
                if (g->rank >= 0 && g->rank < n)
                    scratch[g->rank] = k == 0   ? (double)g->calls
                                       : k == 1 ? g->time_incl
                                                : g->time_excl;
            fprintf(f, ",\"%s\":[", names[k]);
            for (int r = 0; r < n; r++)
                fprintf(f, k == 0 ? (r ? ",%.0f" : "%.0f") : (r ? ",%.9g" : "%.9g"), scratch[r]);
            fputc(']', f);
        }
        return;
    }
    const struct ht_mpi_rank_times *rt = mpi->rank_times;
    if (rt && rt->count && rt->row_of && rt->row_of[s->id] >= 0) {
        size_t j = (size_t)rt->row_of[s->id];
        fputs(",\"time (inc) per rank\":[", f);
        for (int r = 0; r < n; r++)
            fprintf(f, r ? ",%.9g" : "%.9g", rt->seconds[(size_t)r * rt->count + j]);
        fputc(']', f);
    }
}

int ht_output_hatchet_write(FILE *f, const struct ht_profile *p, const struct ht_run_info *run,
                            const struct ht_mpi_view *mpi)
{
    struct tree t;
    if (tree_init(&t, p) != 0)
        return -1;
    double *scratch = mpi && mpi->rank < 0 && mpi->nranks > 0
                          ? malloc((size_t)mpi->nranks * sizeof *scratch)
                          : NULL;
    fputs("{", f);
    json_t *meta = ht_output_metadata_json(p, run, mpi);
    if (meta) {
        fputs("\"metadata\":", f);
        json_dumpf(meta, f, DUMP_FLAGS);
        json_decref(meta);
        fputs(",\n", f);
    }
    struct ht_output_room room;
    ht_output_room_init(&room, f);
    bool room_left = true;
    fputs("\"graph\":[", f);
    bool first_root = true;
    for (size_t i = 0; i < p->nstacks && room_left; i++) {
        if (p->stacks[i].parent >= 0 || p->stacks[i].depth > HT_HATCHET_MAX_DEPTH)
            continue;
        fputs(first_root ? "\n {" : ",\n {", f);
        first_root = false;
        /* The root's subtree: the stacks up to the next root. */
        for (size_t k = i; k < p->nstacks && (k == i || p->stacks[k].parent >= 0); k++) {
            if (p->stacks[k].depth > HT_HATCHET_MAX_DEPTH)
                continue;
            if (!(room_left = ht_output_room_left(&room, f, "Hatchet file")))
                break;
            fputs(k == i ? "\n  " : ",\n  ", f);
            write_graph_node(f, p, &t, k);
        }
        fputs("}", f);
    }
    fputs("],\n\"dataframe_indices\":[\"node\"],\n\"dataframe\":[", f);
    bool first = true, any_inlined = false;
    for (size_t i = 0; i < p->nstacks && !any_inlined; i++)
        any_inlined = p->stacks[i].inlined;
    for (size_t i = 0; i < p->nstacks && room_left; i++) {
        const struct ht_stack *s = &p->stacks[i];
        if (s->depth > HT_HATCHET_MAX_DEPTH)
            continue;
        if (!(room_left = ht_output_room_left(&room, f, "Hatchet file")))
            break;
        fprintf(f, "%s{\"node\":%d,\"name\":", first ? "\n " : ",\n ", s->id);
        first = false;
        ht_output_json_string(f, s->function->name);
        fprintf(f, ",\"time (inc)\":%.9g,\"time\":%.9g,\"calls\":%llu", s->total.time_incl,
                t.cut[i], (unsigned long long)s->total.calls);
        if (any_inlined)
            fputs(s->inlined ? ",\"inlined\":true" : ",\"inlined\":false", f);
        write_rank_arrays(f, s, mpi, scratch);
        fputc('}', f);
    }
    fputs("],\n\"inclusive_metrics\":[\"time (inc)\"],\n"
          "\"exclusive_metrics\":[\"time\",\"calls\"]}\n", f);
    free(scratch);
    tree_free(&t);
    return 0;
}
