/* The JSON profile.  The contract users' scripts rely on is documented field
 * by field in docs/output.md; add fields freely, never rename one. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "output/output.h"
#include "output/output_counters.h"
#include "output/output_mpi.h"
#include "output/json_dump.h"
#include "output/function_index.h"
#include "output/room.h"

static json_t *stats_fields(json_t *obj, const struct ht_stack_stats *st)
{
    json_object_set_new(obj, "calls", json_integer((json_int_t)st->calls));
    json_object_set_new(obj, "time_incl_s", json_real(st->time_incl));
    json_object_set_new(obj, "time_excl_s", json_real(st->time_excl));
    if (st->folded_calls)
        json_object_set_new(obj, "folded_calls", json_integer((json_int_t)st->folded_calls));
    return obj;
}

static json_t *function_json(const struct ht_function *f)
{
    json_t *obj = json_object();
    json_object_set_new(obj, "name", json_string(f->name));
    json_object_set_new(obj, "file", f->file ? json_string(f->file) : json_null());
    json_object_set_new(obj, "line", json_integer(f->line));
    return obj;
}

/* stacks[].threads: each thread index's own figures. */
static void set_thread_figures(json_t *obj, const struct ht_profile *p, const struct ht_stack *s)
{
    json_t *threads = json_array();
    for (int t = 0; t < p->nthreads; t++) {
        const struct ht_stack_stats *st = &s->per_thread[t];
        if (st->calls == 0 && st->folded_calls == 0 && st->time_incl == 0.0 && st->time_excl == 0.0)
            continue;
        json_t *th = json_object();
        json_object_set_new(th, "thread", json_integer(t));
        ht_output_json_counters(stats_fields(th, st), p, st);
        json_array_append_new(threads, th);
    }
    json_object_set_new(obj, "threads", threads);
}

static json_t *stack_json(const struct ht_profile *p, const struct ht_stack *s, int function,
                          const struct ht_mpi_view *mpi)
{
    json_t *obj = json_object();
    json_object_set_new(obj, "id", json_integer(s->id));
    json_object_set_new(obj, "parent", json_integer(s->parent));
    json_object_set_new(obj, "function_index", json_integer(function));
    stats_fields(obj, &s->total);
    ht_output_json_counters(obj, p, &s->total);
    if (s->throttled)
        json_object_set_new(obj, "throttled", json_true());
    /* Counted inlined copies: calls, no time of their own (profile.h). */
    if (s->inlined)
        json_object_set_new(obj, "inlined", json_true());
    /* With one thread index its figures are the stack's own: left out
     * (14% of an 8-rank summary's bytes; docs/output.md). */
    if (p->nthreads > 1)
        set_thread_figures(obj, p, s);
    if (mpi)
        ht_output_json_mpi_stack(obj, s, mpi);
    return obj;
}

/* The "throttle" object: settings, what was throttled, what it saved. */
json_t *ht_output_throttle_json(const struct ht_throttle_info *th, const struct ht_profile *p)
{
    json_t *obj = json_object();
    json_object_set_new(obj, "enabled", json_boolean(th->enabled));
    json_object_set_new(obj, "min_calls", json_integer((json_int_t)th->min_calls));
    /* The threshold in effect, whatever it came from. */
    json_object_set_new(obj, "max_ns_per_call", json_integer((json_int_t)th->rule.threshold_ns));
    json_object_set_new(obj, "threshold_source", json_string(th->rule.from_config ? "config" : "cost"));
    json_object_set_new(obj, "budget", json_real(th->rule.budget));
    json_object_set_new(obj, "hook_pair_ns", json_real(th->rule.hook_pair_ns));
    json_object_set_new(obj, "hook_pair_ns_measured", json_real(th->rule.hook_pair_ns_measured));
    json_object_set_new(obj, "hook_pair_fixed", json_boolean(th->hook_pair_fixed));
    char patching[160];
    ht_output_throttle_patching(th, patching, sizeof patching);
    json_object_set_new(obj, "code_patching", json_string(patching));
    json_object_set_new(obj, "functions", json_integer((json_int_t)ht_output_throttled_functions(p)));
    json_object_set_new(obj, "hook_calls_saved", json_real(ht_output_hook_calls_saved(th, p)));
    json_object_set_new(obj, "hook_calls_after_throttling",
                        json_integer((json_int_t)p->throttled_hook_calls));
    json_object_set_new(obj, "sites_patched", json_integer((json_int_t)th->sites_patched));
    json_object_set_new(obj, "sites_unpatched", json_integer((json_int_t)th->sites_unpatched));
    char *list = ht_output_throttle_exclude_list(p);
    json_object_set_new(obj, "exclude_function_list", list ? json_string(list) : json_string(""));
    free(list);
    return obj;
}

/* What the GCC plugin left out at compile time (docs/plugin.md). */
static json_t *uninstrumented_json(const struct ht_name_list *list, const struct ht_inlined_list *inlined)
{
    json_t *obj = json_object();
    json_t *names = json_array();
    for (size_t i = 0; i < list->count; i++)
        json_array_append_new(names, json_string(list->names[i]));
    json_object_set_new(obj, "functions", json_integer((json_int_t)list->count));
    json_object_set_new(obj, "names", names);
    json_t *copies = json_object();
    json_t *sites = json_array();
    for (size_t i = 0; i < inlined->count; i++)
        json_array_append_new(sites, json_pack("{s:s, s:I}", "name", inlined->names[i], "sites",
                                               (json_int_t)inlined->sites[i]));
    json_object_set_new(copies, "functions", json_integer((json_int_t)inlined->count));
    json_object_set_new(copies, "sites", json_integer((json_int_t)inlined->total_sites));
    json_object_set_new(copies, "names", sites);
    json_object_set_new(obj, "inlined", copies);
    return obj;
}

/* Everything but the stacks and the matrices. */
static json_t *head_json(const struct ht_profile *p, const struct ht_run_info *run,
                         const struct ht_mpi_view *mpi)
{
    json_t *doc = json_object();
    if (!doc)
        return NULL;
    char date[64];
    struct tm tm;
    gmtime_r(&run->start_time, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);

    json_object_set_new(doc, "hooktrace_version", json_string(PACKAGE_VERSION));
    /* 2: functions listed once, stacks refer to them; 3: no
     * stacks[].threads with one thread index (docs/output.md). */
    json_object_set_new(doc, "format", json_integer(3));
    json_t *meta = ht_output_metadata_json(p, run, mpi);
    if (meta)
        json_object_set_new(doc, "metadata", meta);
    if (run->partial) {
        json_t *partial = json_object();
        json_object_set_new(partial, "reason", json_string(run->partial->reason));
        if (run->partial->signal)
            json_object_set_new(partial, "signal", json_string(run->partial->signal));
        if (run->partial->has_errorcode)
            json_object_set_new(partial, "errorcode", json_integer(run->partial->errorcode));
        if (run->partial->during)
            json_object_set_new(partial, "during", json_string(run->partial->during));
        json_object_set_new(doc, "partial", partial);
    }
    if (run->mpi_not_recorded)
        json_object_set_new(doc, "mpi_not_recorded", json_string(run->mpi_not_recorded));
    json_object_set_new(doc, "command", json_string(run->command));
    json_object_set_new(doc, "executable", json_string(run->executable));
    /* Each function keeps its full path; this is the directory the log
     * prints them relative to (docs/output.md). */
    char *source_root = ht_output_source_root(p);
    json_object_set_new(doc, "source_root", source_root ? json_string(source_root) : json_null());
    free(source_root);
    json_object_set_new(doc, "start_time", json_string(date));
    json_object_set_new(doc, "wall_time_s", json_real(run->wall_seconds));
    if (run->pauses || run->resets) {
        json_t *paused = json_object();
        json_object_set_new(paused, "pauses", json_integer((json_int_t)run->pauses));
        json_object_set_new(paused, "time_s", json_real(run->paused_seconds));
        json_object_set_new(paused, "resets", json_integer((json_int_t)run->resets));
        json_object_set_new(doc, "paused", paused);
    }
    json_object_set_new(doc, "clock_source", json_string(run->clock_source));
    json_object_set_new(doc, "ticks_per_second", json_real(run->ticks_per_second));

    json_t *overhead = json_object();
    json_object_set_new(overhead, "calls", json_integer((json_int_t)p->instrumented_calls));
    json_object_set_new(overhead, "inlined_calls", json_integer((json_int_t)p->inlined_calls));
    json_object_set_new(overhead, "ns_per_call", json_real(run->overhead_ns_per_call));
    json_object_set_new(overhead, "time_s", json_real(run->overhead_seconds));
    json_object_set_new(doc, "overhead", overhead);

    json_t *throttle = ht_output_throttle_json(&run->throttle, p);
    ht_output_exclude_json(throttle, run);
    json_object_set_new(doc, "throttle", throttle);
    json_object_set_new(doc, "uninstrumented", uninstrumented_json(&run->uninstrumented, &run->inlined));
    json_t *naming = json_object();
    json_object_set_new(naming, "named_here", json_integer((json_int_t)run->functions_named_here));
    json_object_set_new(naming, "named_by_rank_0",
                        json_integer((json_int_t)run->functions_named_by_rank0));
    json_object_set_new(doc, "symbols", naming);

    json_object_set_new(doc, "threads", json_integer(p->nthreads));
    json_t *tids = json_array();
    for (int t = 0; t < p->nthreads; t++)
        json_array_append_new(tids, json_integer(p->thread_tids[t]));
    json_object_set_new(doc, "thread_tids", tids);
    /* Finished threads merged by start routine (docs/output.md). */
    json_t *groups = json_array();
    for (int t = 0; p->thread_groups && t < p->nthreads; t++) {
        const struct ht_thread_group *g = &p->thread_groups[t];
        if (!g->threads)
            continue;
        json_t *obj = json_object();
        json_object_set_new(obj, "thread", json_integer(t));
        json_object_set_new(obj, "start_routine", json_string(g->start_routine));
        json_object_set_new(obj, "threads", json_integer((json_int_t)g->threads));
        json_object_set_new(obj, "running", json_integer((json_int_t)g->running));
        json_array_append_new(groups, obj);
    }
    json_object_set_new(doc, "thread_groups", groups);
    if (mpi)
        ht_output_json_mpi_top(doc, mpi, run);
    ht_output_json_counters_top(doc);
    int deepest = 0;
    for (size_t i = 0; i < p->nstacks; i++)
        if (p->stacks[i].depth > deepest)
            deepest = p->stacks[i].depth;
    json_object_set_new(doc, "deepest_stack", json_integer(deepest));
    json_object_set_new(doc, "folded_calls", json_integer((json_int_t)p->folded_calls));
    json_object_set_new(doc, "mismatched_exits", json_integer((json_int_t)p->mismatched_exits));
    json_object_set_new(doc, "nested_hooks_declined",
                        json_integer((json_int_t)p->nested_hooks_declined));
    json_object_set_new(doc, "time_excluded_at_root_s", json_real(p->time_excluded_at_root));
    return doc;
}

#define DUMP_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9))

/* A key or a whole value on one line, with no blank inside. */
static int dump_compact(FILE *f, json_t *value)
{
    return ht_json_dumpf(value, f, DUMP_FLAGS | JSON_COMPACT | JSON_ENCODE_ANY);
}

static int dump_key(FILE *f, const char *key, const char *indent)
{
    json_t *k = json_string(key);
    fputs(indent, f);
    int rc = k ? dump_compact(f, k) : -1;
    json_decref(k);
    fputs(": ", f);
    return rc;
}

/* Writes the members of obj (an object) without its braces, each on a
 * line of its own after a comma if `after` says members came before.  An
 * object's members go one a line, an array of objects or arrays one
 * element a line (as the stacks), everything inside them compact: a line
 * per field or per record, not per number ("rank_hosts" took a line per
 * rank, a matrix cell six), and no indentation around every number. */
static int write_members(FILE *f, json_t *obj, bool after)
{
    const char *key;
    json_t *value;
    int rc = 0;
    json_object_foreach(obj, key, value) {
        fputs(after ? ",\n" : "", f);
        after = true;
        rc |= dump_key(f, key, " ");
        if (json_is_object(value) && json_object_size(value) > 0) {
            const char *k;
            json_t *v;
            bool first = true;
            fputs("{", f);
            json_object_foreach(value, k, v) {
                fputs(first ? "\n" : ",\n", f);
                first = false;
                rc |= dump_key(f, k, "  ");
                rc |= dump_compact(f, v);
            }
            fputs("\n }", f);
        } else if (json_is_array(value) && json_array_size(value) > 0 &&
                   (json_is_object(json_array_get(value, 0)) ||
                    json_is_array(json_array_get(value, 0)))) {
            size_t i;
            json_t *v;
            json_array_foreach(value, i, v) {
                fputs(i ? ",\n  " : "[\n  ", f);
                rc |= dump_compact(f, v);
            }
            fputs("]", f);
        } else {
            rc |= dump_compact(f, value);
        }
    }
    return rc ? -1 : 0;
}

/* The document is written a piece at a time, never built whole: the head,
 * then one stack at a time (one line each), then the matrices.  Memory
 * stays that of one stack however many there are. */
int ht_output_json_write(FILE *f, const struct ht_profile *p, const struct ht_run_info *run,
                         const struct ht_mpi_view *mpi)
{
    struct ht_function_index fi;
    json_t *head = head_json(p, run, mpi);
    int rc = ht_function_index_init(&fi, p->nstacks) && head ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < p->nstacks; i++)
        ht_function_index_of(&fi, p->stacks[i].function);
    if (rc == 0) {
        fputs("{\n", f);
        rc = write_members(f, head, false);
    }
    if (rc == 0) {
        fputs(",\n \"functions\": [\n  ", f);
        for (int k = 0; rc == 0 && k < fi.count; k++) {
            json_t *fn = function_json(fi.list[k]);
            rc = fn && ht_json_dumpf(fn, f, DUMP_FLAGS | JSON_COMPACT) == 0 ? 0 : -1;
            json_decref(fn);
            fputs(k + 1 < fi.count ? ",\n  " : "", f);
        }
        fputs("]", f);
    }
    if (rc == 0) {
        fputs(",\n \"stacks\": [\n  ", f);
        struct ht_output_room room;
        ht_output_room_init(&room, f);
        for (size_t i = 0; rc == 0 && i < p->nstacks; i++) {
            if (!ht_output_room_left(&room, f, "JSON profile"))
                break;
            const struct ht_stack *s = &p->stacks[i];
            json_t *stack = stack_json(p, s, ht_function_index_of(&fi, s->function), mpi);
            fputs(i ? ",\n  " : "", f);
            rc = stack && ht_json_dumpf(stack, f, DUMP_FLAGS | JSON_COMPACT) == 0 ? 0 : -1;
            json_decref(stack);
        }
        fputs("]", f);
        if (room.stopped) /* the stacks written stay readable */
            fputs(",\n \"incomplete\": \"the file system was nearly full: later stacks"
                  " left out\"", f);
    }
    if (rc == 0 && mpi) {
        json_t *tail = json_object();
        rc = tail ? 0 : -1;
        if (tail)
            ht_output_json_mpi_matrices(tail, mpi);
        if (rc == 0)
            rc = write_members(f, tail, true);
        json_decref(tail);
        if (rc == 0)
            rc = ht_output_json_rank_profiles(f, mpi, DUMP_FLAGS | JSON_COMPACT);
    }
    if (rc == 0)
        fputs("\n}\n", f);
    json_decref(head);
    ht_function_index_free(&fi);
    return rc;
}
