/* Counter figures in the JSON and the logfile.  The events' names come
 * from src/counters (the same on every rank: one config); the figures are
 * the profile's, in that list's order. */
#include <string.h>

#include "counters/counters.h"
#include "output/output_counters.h"

void ht_output_json_counters_top(json_t *doc)
{
    const struct ht_counters_info *ci = ht_counters_info();
    if (!ci)
        return;
    json_t *obj = json_object();
    json_t *events = json_array();
    for (unsigned k = 0; k < ci->nevents; k++)
        json_array_append_new(events, json_string(ci->events[k]));
    json_object_set_new(obj, "events", events);
    json_object_set_new(obj, "papi_version", json_string(ci->papi_version));
    json_t *bad = json_array();
    for (unsigned k = 0; k < ci->nunavailable; k++) {
        json_t *u = json_object();
        json_object_set_new(u, "event", json_string(ci->unavailable[k].event));
        json_object_set_new(u, "reason", json_string(ci->unavailable[k].reason));
        json_array_append_new(bad, u);
    }
    json_object_set_new(obj, "unavailable", bad);
    json_object_set_new(doc, "counters", obj);
}

void ht_output_json_counters(json_t *obj, const struct ht_profile *p,
                             const struct ht_stack_stats *st)
{
    const struct ht_counters_info *ci = ht_counters_info();
    unsigned K = p->ncounters;
    /* NULL: figures not kept (a thread of the summary over ranks) */
    if (!ci || K == 0 || ci->nevents != K || !st->counters)
        return;
    json_t *all = json_object();
    for (unsigned k = 0; k < K; k++) {
        json_t *e = json_object();
        json_object_set_new(e, "incl", json_integer(st->counters[k]));
        json_object_set_new(e, "excl", json_integer(st->counters[K + k]));
        json_object_set_new(all, ci->events[k], e);
    }
    json_object_set_new(obj, "counters", all);
}

void ht_output_logfile_counters_header(FILE *out)
{
    const struct ht_counters_info *ci = ht_counters_info();
    if (!ci)
        return;
    fprintf(out, "counters:        ");
    for (unsigned k = 0; k < ci->nevents; k++)
        fprintf(out, "%s%s", k ? ", " : "", ci->events[k]);
    fprintf(out, "%s (PAPI %s)\n", ci->nevents ? "" : "none readable",
            ci->papi_version[0] ? ci->papi_version : "not built in");
    for (unsigned k = 0; k < ci->nunavailable; k++)
        fprintf(out, "                 unavailable: %s: %s\n", ci->unavailable[k].event,
                ci->unavailable[k].reason);
}

#define NAME_MAX_WIDTH 60

void ht_output_logfile_counters(FILE *out, const struct ht_profile *p, const int *order,
                                bool all_ranks, enum ht_sort_column column,
                                const struct ht_log_rows *rows)
{
    const struct ht_counters_info *ci = ht_counters_info();
    unsigned K = p->ncounters;
    if (!ci || K == 0 || ci->nevents != K)
        return;
    int fw = (int)strlen("function");
    for (size_t i = 0; i < p->nstacks; i++) {
        char buf[NAME_MAX_WIDTH + 1];
        int n = (int)strlen(ht_output_short_name(p->stacks[i].function->name, NAME_MAX_WIDTH,
                                                 buf, sizeof buf));
        if (p->stacks[i].total.calls && n > fw)
            fw = n;
    }
    fprintf(out, "Counters, all threads%s (rows as in the profile table, sorted by %s;"
                 " incl: the stack and its callees, excl: the stack alone)\n\n",
            all_ranks ? " of all ranks" : "", ht_sort_column_name(column));
    for (unsigned k = 0; k < K; k++)
        fprintf(out, "%*s[%u] = %s\n", 2, "", k + 1, ci->events[k]);
    fputc('\n', out);
    for (unsigned k = 0; k < K; k++) {
        char incl[24], excl[24];
        snprintf(incl, sizeof incl, "incl[%u]", k + 1);
        snprintf(excl, sizeof excl, "excl[%u]", k + 1);
        fprintf(out, "%16s %16s ", incl, excl);
    }
    fprintf(out, " %-*s  %8s\n", fw, "function", "stack ID");
    size_t printed = 0, left_out = 0;
    for (size_t r = 0; r < p->nstacks; r++) {
        const struct ht_stack *s = &p->stacks[order[r]];
        if (s->total.calls == 0)
            continue;
        if (!ht_output_log_row(rows, s->id, &printed)) {
            left_out++;
            continue;
        }
        const int64_t *c = s->total.counters;
        for (unsigned k = 0; k < K; k++)
            fprintf(out, "%16lld %16lld ", (long long)(c ? c[k] : 0), (long long)(c ? c[K + k] : 0));
        char name[NAME_MAX_WIDTH + 1];
        fprintf(out, " %-*s  %8d\n", fw,
                ht_output_short_name(s->function->name, NAME_MAX_WIDTH, name, sizeof name), s->id);
    }
    ht_output_log_left_out(out, left_out, rows->limit);
    fputc('\n', out);
}
