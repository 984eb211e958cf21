/* Throttling in the outputs: what the header line and the JSON "throttle"
 * object say (docs/output.md, docs/throttle.md). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

void ht_output_throttle_patching(const struct ht_throttle_info *th, char *buf, size_t len)
{
    if (!th->patch_code) {
        snprintf(buf, len, "off");
    } else if (th->patch_refused_errno) {
        const char *why = strerrordesc_np(th->patch_refused_errno);
        snprintf(buf, len, "refused: mprotect: %s", why ? why : "error");
    } else {
        snprintf(buf, len, "on");
    }
}

double ht_output_hook_calls_saved(const struct ht_throttle_info *th, const struct ht_profile *p)
{
    /* Without rewritten calls, every throttled call still reaches a hook. */
    if (th->sites_patched == 0)
        return 0.0;
    double saved = th->hook_calls_avoided - (double)p->throttled_hook_calls;
    return saved > 0.0 ? saved : 0.0;
}

static int compare_function_ptrs(const void *pa, const void *pb)
{
    const struct ht_function *a = *(const struct ht_function *const *)pa;
    const struct ht_function *b = *(const struct ht_function *const *)pb;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
    return c ? c : (a->line > b->line) - (a->line < b->line);
}

size_t ht_output_throttled_functions(const struct ht_profile *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nstacks; i++)
        n += p->stacks[i].throttled;
    if (n == 0)
        return 0;
    const struct ht_function **fs = malloc(n * sizeof *fs);
    if (!fs)
        return n; /* an upper bound */
    n = 0;
    for (size_t i = 0; i < p->nstacks; i++)
        if (p->stacks[i].throttled)
            fs[n++] = p->stacks[i].function;
    qsort(fs, n, sizeof *fs, compare_function_ptrs);
    size_t distinct = 1;
    for (size_t i = 1; i < n; i++)
        distinct += compare_function_ptrs(&fs[i - 1], &fs[i]) != 0;
    free(fs);
    return distinct;
}

void ht_output_logfile_throttle(FILE *out, const struct ht_throttle_info *th,
                                const struct ht_profile *p)
{
    if (!th->enabled) {
        fprintf(out, "throttling:      off\n");
        return;
    }
    fprintf(out, "throttling:      after %llu calls at under %.3f us per call; ",
            (unsigned long long)th->min_calls, (double)th->max_ns_per_call * 1e-3);
    size_t functions = ht_output_throttled_functions(p);
    if (functions == 0) {
        fprintf(out, "no function throttled\n");
        return;
    }
    char patching[160];
    ht_output_throttle_patching(th, patching, sizeof patching);
    fprintf(out, "%zu function%s throttled (marked *)\n", functions, functions == 1 ? "" : "s");
    fprintf(out, "                 %.3g hook calls saved (estimated); code patching %s: "
                 "%llu hook calls rewritten, %llu not; %llu hook calls after throttling\n",
            ht_output_hook_calls_saved(th, p), patching, (unsigned long long)th->sites_patched,
            (unsigned long long)th->sites_unpatched, (unsigned long long)p->throttled_hook_calls);
}
