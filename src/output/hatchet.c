/* The profile as LLNL Hatchet's literal format (GraphFrame.from_literal):
 * a list of root nodes, each {"frame": {"name", "type": "function"},
 * "metrics": {"time (inc)", "time", "calls"}, "children": [...]}, times in
 * seconds, figures summed over threads (docs/output.md).
 *
 * The stacks are depth first (callstack/profile.h), so the tree is written
 * in one pass with the open nodes on an explicit stack: no recursion in
 * here, whatever the depth.  The readers do recurse (Python's json module
 * stops near 500 nested nodes, Hatchet walks the tree recursively), so a
 * node at depth HT_HATCHET_MAX_DEPTH is written without children: its
 * "time" is the exclusive time of its whole subtree, "time (inc)" its own
 * inclusive time, and "calls" its own calls. */
#include <stdlib.h>

#include "output/function_index.h"
#include "output/output.h"
#include "output/room.h"

static void write_node(FILE *f, const struct ht_stack *s, double excl)
{
    fputs("{\"frame\":{\"name\":", f);
    ht_output_json_string(f, s->function->name);
    fprintf(f, ",\"type\":\"function\"},\"metrics\":{\"time (inc)\":%.9g,\"time\":%.9g,"
               "\"calls\":%llu},\"children\":[",
            s->total.time_incl, excl, (unsigned long long)s->total.calls);
}

int ht_output_hatchet_write(FILE *f, const struct ht_profile *p)
{
    /* Exclusive time of the subtree of each stack at the depth limit:
     * children come after their parent, so one pass from the end adds
     * every deeper stack into its parent. */
    double *cut = malloc((p->nstacks ? p->nstacks : 1) * sizeof *cut);
    int *open = malloc((HT_HATCHET_MAX_DEPTH + 1) * sizeof *open);
    if (!cut || !open) {
        free(cut);
        free(open);
        return -1;
    }
    for (size_t i = 0; i < p->nstacks; i++)
        cut[i] = p->stacks[i].total.time_excl;
    for (size_t i = p->nstacks; i-- > 0;) {
        const struct ht_stack *s = &p->stacks[i];
        if (s->depth > HT_HATCHET_MAX_DEPTH && s->parent >= 0)
            cut[s->parent] += cut[i];
    }

    struct ht_output_room room;
    ht_output_room_init(&room, f);
    int nopen = 0; /* open[0..nopen-1]: the path of the last node written */
    bool comma = false;
    fputc('[', f);
    for (size_t i = 0; i < p->nstacks; i++) {
        const struct ht_stack *s = &p->stacks[i];
        if (s->depth > HT_HATCHET_MAX_DEPTH)
            continue;
        if (!ht_output_room_left(&room, f, "Hatchet file"))
            break;
        /* Close the nodes down to this one's parent. */
        while (nopen > 0 && open[nopen - 1] != s->parent) {
            fputs("]}", f);
            nopen--;
            comma = true;
        }
        fputs(comma ? ",\n" : "\n", f);
        write_node(f, s, s->depth == HT_HATCHET_MAX_DEPTH ? cut[i] : s->total.time_excl);
        open[nopen++] = s->id;
        comma = false;
    }
    while (nopen-- > 0)
        fputs("]}", f);
    fputs("]\n", f);
    free(cut);
    free(open);
    return 0;
}
