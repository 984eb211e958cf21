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
 * in seconds, figures summed over threads.  from_json ignores "metadata";
 * it is the JSON profile's metadata object, for GraphFrame.metadata and
 * Thicket.  An MPI summary's frame is Hatchet's (node, rank) one, a row per
 * stack and rank, from every rank's rows (merge_rank_profiles.c), so that
 * Thicket can put several runs side by side per rank.  If those could not
 * be gathered (rank 0 said why on stderr), it has a row per stack, summed
 * over the ranks.
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

#include "output/json_dump.h"
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

/* Exclusive times as written: a stack past the depth limit adds its own
 * into its parent, from the end (deeper stacks come later), so the node at
 * the limit carries its whole subtree's. */
static void roll_up(const struct ht_profile *p, double *cut)
{
    for (size_t i = p->nstacks; i-- > 0;)
        if (p->stacks[i].parent >= 0 && p->stacks[i].depth > HT_HATCHET_MAX_DEPTH)
            cut[p->stacks[i].parent] += cut[i];
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
    roll_up(p, t->cut);
    /* From the end: a child put first keeps the children in stack ID order. */
    for (size_t i = p->nstacks; i-- > 0;) {
        const struct ht_stack *s = &p->stacks[i];
        if (s->parent >= 0 && s->depth <= HT_HATCHET_MAX_DEPTH) {
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

/* Every rank's rows (merge_rank_profiles.c), or NULL. */
static const size_t *every_rank(const struct ht_mpi_view *mpi)
{
    return mpi && mpi->rank < 0 && mpi->nranks > 0 && mpi->rank_profiles
               ? mpi->rank_profiles->every_first
               : NULL;
}

/* One row of the dataframe; rank < 0: the row of a frame indexed by node. */
static void write_row(FILE *f, const struct ht_stack *s, int rank, double incl, double excl,
                      uint64_t calls, bool any_inlined, bool *first)
{
    fprintf(f, "%s{\"node\":%d", *first ? "\n " : ",\n ", s->id);
    *first = false;
    if (rank >= 0)
        fprintf(f, ",\"rank\":%d", rank);
    fputs(",\"name\":", f);
    ht_output_json_string(f, s->function->name);
    fprintf(f, ",\"time (inc)\":%.9g,\"time\":%.9g,\"calls\":%llu", incl, excl,
            (unsigned long long)calls);
    if (any_inlined)
        fputs(s->inlined ? ",\"inlined\":true" : ",\"inlined\":false", f);
    fputc('}', f);
}

/* The (node, rank) frame: a row per stack and rank, rank by rank, 0 where
 * the rank never entered the stack, so that an average over ranks
 * (Hatchet's drop_index_levels, Thicket's statistics) counts every rank.
 * "time" at the depth limit is the rank's own subtree's, as in the summed
 * frame; cut is scratch for it.  false if the room ran out. */
static bool write_rank_rows(FILE *f, const struct ht_profile *p, const struct ht_mpi_view *mpi,
                            bool any_inlined, double *cut, struct ht_output_room *room)
{
    const size_t *first_row = every_rank(mpi);
    const struct ht_mpi_rank_row *rows = mpi->rank_profiles->rows;
    bool first = true;
    for (int r = 0; r < mpi->nranks; r++) {
        const struct ht_mpi_rank_row *from = rows + first_row[r], *to = rows + first_row[r + 1];
        for (size_t i = 0; i < p->nstacks; i++)
            cut[i] = 0.0;
        for (const struct ht_mpi_rank_row *g = from; g < to; g++)
            if (g->stack >= 0 && (size_t)g->stack < p->nstacks)
                cut[g->stack] = g->time_excl;
        roll_up(p, cut);
        const struct ht_mpi_rank_row *g = from;
        for (size_t i = 0; i < p->nstacks; i++) {
            const struct ht_stack *s = &p->stacks[i];
            while (g < to && g->stack < s->id)
                g++;
            if (s->depth > HT_HATCHET_MAX_DEPTH)
                continue;
            if (!ht_output_room_left(room, f, "Hatchet file"))
                return false;
            bool here = g < to && g->stack == s->id;
            write_row(f, s, r, here ? g->time_incl : 0.0, cut[i], here ? g->calls : 0,
                      any_inlined, &first);
        }
    }
    return true;
}

int ht_output_hatchet_write(FILE *f, const struct ht_profile *p, const struct ht_run_info *run,
                            const struct ht_mpi_view *mpi)
{
    struct tree t;
    if (tree_init(&t, p) != 0)
        return -1;
    fputs("{", f);
    json_t *meta = ht_output_metadata_json(p, run, mpi);
    if (meta) {
        fputs("\"metadata\":", f);
        ht_json_dumpf(meta, f, DUMP_FLAGS);
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
    /* Without room for the scratch of the (node, rank) frame, the summed one. */
    double *rank_cut = every_rank(mpi) ? malloc((p->nstacks ? p->nstacks : 1) * sizeof *rank_cut)
                                       : NULL;
    bool first = true, any_inlined = false;
    fprintf(f, "],\n\"dataframe_indices\":[\"node\"%s],\n\"dataframe\":[",
            rank_cut ? ",\"rank\"" : "");
    for (size_t i = 0; i < p->nstacks && !any_inlined; i++)
        any_inlined = p->stacks[i].inlined;
    if (rank_cut && room_left)
        write_rank_rows(f, p, mpi, any_inlined, rank_cut, &room);
    for (size_t i = 0; i < p->nstacks && room_left && !rank_cut; i++) {
        const struct ht_stack *s = &p->stacks[i];
        if (s->depth > HT_HATCHET_MAX_DEPTH)
            continue;
        if (!(room_left = ht_output_room_left(&room, f, "Hatchet file")))
            break;
        write_row(f, s, -1, s->total.time_incl, t.cut[i], s->total.calls, any_inlined, &first);
    }
    free(rank_cut);
    fputs("],\n\"inclusive_metrics\":[\"time (inc)\"],\n"
          "\"exclusive_metrics\":[\"time\",\"calls\"]}\n", f);
    tree_free(&t);
    return 0;
}
