/* Folded stacks ("main;solve;kernel 1234"), the input format of
 * flamegraph.pl, inferno and speedscope.  The value is the stack's exclusive
 * time in microseconds over all threads; stacks that round to 0 us are left
 * out (a flame graph cannot show them). */
#include <math.h>
#include <stdlib.h>

#include "output/output.h"

/* ';' separates frames, so it may not appear inside a name.  Spaces may
 * ("ns::f(int, double)"): the readers split the count off at the last one. */
static void print_frame(FILE *out, const char *name)
{
    for (const char *c = name; *c; c++)
        fputc(*c == ';' ? ':' : *c, out);
}

void ht_output_folded(FILE *out, const struct ht_profile *p)
{
    int *path = malloc((p->nstacks ? p->nstacks : 1) * sizeof *path);
    if (!path)
        return;
    for (size_t i = 0; i < p->nstacks; i++) {
        long long us = llround(p->stacks[i].total.time_excl * 1e6);
        if (us <= 0)
            continue;
        int depth = ht_profile_path(p, (int)i, path, (int)p->nstacks);
        for (int d = 0; d < depth; d++) {
            if (d)
                fputc(';', out);
            print_frame(out, p->stacks[path[d]].function->name);
        }
        fprintf(out, " %lld\n", us);
    }
    free(path);
}
