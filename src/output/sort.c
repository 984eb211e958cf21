#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

struct sort_by {
    const struct ht_profile *profile;
    enum ht_sort_column column;
};

static int by_column(const void *pa, const void *pb, void *arg)
{
    const struct sort_by *by = arg;
    const struct ht_stack *a = &by->profile->stacks[*(const int *)pa];
    const struct ht_stack *b = &by->profile->stacks[*(const int *)pb];
    int c = 0;
    switch (by->column) {
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
    /* qsort_r: the outputs are written by two threads (files.c) */
    struct sort_by by = {profile, column};
    qsort_r(ids, profile->nstacks, sizeof *ids, by_column, &by);
    return ids;
}
