#include <stdlib.h>
#include <string.h>

#include "output/output.h"

static const struct ht_profile *sort_profile;
static enum ht_sort_column sort_column;

static int by_column(const void *pa, const void *pb)
{
    const struct ht_stack *a = &sort_profile->stacks[*(const int *)pa];
    const struct ht_stack *b = &sort_profile->stacks[*(const int *)pb];
    int c = 0;
    switch (sort_column) {
    case HT_SORT_TIME_EXCL:
        c = (a->total.time_excl < b->total.time_excl) - (a->total.time_excl > b->total.time_excl);
        break;
    case HT_SORT_TIME_INCL:
        c = (a->total.time_incl < b->total.time_incl) - (a->total.time_incl > b->total.time_incl);
        break;
    case HT_SORT_CALLS:
        c = (a->total.calls < b->total.calls) - (a->total.calls > b->total.calls);
        break;
    case HT_SORT_FUNCTION:
        c = strcmp(a->function->name, b->function->name);
        break;
    case HT_SORT_STACK_ID:
        break;
    }
    return c ? c : (a->id > b->id) - (a->id < b->id);
}

int *ht_output_sorted_ids(const struct ht_profile *profile, enum ht_sort_column column)
{
    int *ids = malloc((profile->nstacks ? profile->nstacks : 1) * sizeof *ids);
    if (!ids)
        return NULL;
    for (size_t i = 0; i < profile->nstacks; i++)
        ids[i] = (int)i;
    /* qsort has no context argument in C99; output runs on one thread. */
    sort_profile = profile;
    sort_column = column;
    qsort(ids, profile->nstacks, sizeof *ids, by_column);
    return ids;
}
