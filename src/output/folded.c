/* Folded stacks ("main;solve;kernel 1234"), the input format of
 * flamegraph.pl, inferno and speedscope.  The value is the stack's exclusive
 * time in microseconds over all threads; stacks that round to 0 us are left
 * out (a flame graph cannot show them).
 *
 * So are the stacks of counted inlined copies (profile.h: calls, no time
 * of their own): a line "...;leaf 0" is accepted by flamegraph.pl, inferno
 * and speedscope, and drawn by none (the first two prune frames narrower
 * than their minimum width, speedscope drops samples of weight 0), and a
 * value here is time, never calls.  Their time is already in their
 * caller's exclusive time, on the caller's line; the JSON, the logfile and
 * the HTML report show their calls (docs/output.md).
 *
 * A line repeats its whole path, so a deep recursion would make the file
 * grow with the square of its depth: a path deeper than
 * HT_FOLDED_PATH_HEAD + HT_FOLDED_PATH_TAIL + 3 keeps its first and last
 * frames with one frame "[...N frames]" for those between (room.h).  Two
 * stacks may then give the same line; the readers add such lines up. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "output/room.h"

/* ';' separates frames, so it may not appear inside a name.  Spaces may
 * ("ns::f(int, double)"): the readers split the count off at the last one. */
static void print_frame(FILE *out, const char *name)
{
    for (const char *c = name; *c;) {
        size_t run = strcspn(c, ";");
        fwrite(c, 1, run, out);
        c += run;
        if (*c) {
            fputc(':', out);
            c++;
        }
    }
}

void ht_output_folded(FILE *out, const struct ht_profile *p)
{
    struct ht_path_cutter cutter;
    int path[HT_FOLDED_PATH_HEAD + HT_FOLDED_PATH_TAIL + 3];
    if (ht_path_cutter_init(&cutter, p, HT_FOLDED_PATH_HEAD, HT_FOLDED_PATH_TAIL) != 0)
        return;
    struct ht_output_room room;
    ht_output_room_init(&room, out);
    for (size_t i = 0; i < p->nstacks; i++) {
        long long us = llround(p->stacks[i].total.time_excl * 1e6);
        if (us <= 0)
            continue;
        if (!ht_output_room_left(&room, out, "folded stacks"))
            break;
        int elided;
        int frames = ht_path_cut(&cutter, (int)i, path, &elided);
        for (int d = 0; d < frames; d++) {
            if (d)
                fputc(';', out);
            if (elided && d == HT_FOLDED_PATH_HEAD)
                fprintf(out, "[...%d frames];", elided);
            print_frame(out, p->stacks[path[d]].function->name);
        }
        fprintf(out, " %lld\n", us);
    }
    ht_path_cutter_free(&cutter);
}
