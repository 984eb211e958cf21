/* The JSON report.  "comm_matrix" has exactly the shape of the profile's
 * (docs/output.md): one object {"sender", "receiver", "messages", "bytes"}
 * per nonzero cell, by world rank, ordered by sender then receiver, so the
 * two can be compared with ==.  Timing per cell is a separate array. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#include "analyze/fail.h"
#include "analyze/output_file.h"
#include "analyze/report.h"

/* jansson returns NULL on allocation failure; every value goes through
 * here so that such a NULL never reaches json_object_set_new silently. */
static json_t *checked(json_t *value)
{
    if (!value)
        fail_out_of_memory();
    return value;
}

static json_t *integer(uint64_t v)
{
    return checked(json_integer((json_int_t)v));
}

/* A real, or null where the value does not exist (no timed message). */
static json_t *real_or_null(double v, int exists)
{
    if (!exists || !isfinite(v))
        return checked(json_null());
    return checked(json_real(v));
}

/* A JSON string from bytes that may not be UTF-8 (paths, names from the
 * trace): bytes jansson rejects become '?'. */
static json_t *lossy_string(const char *s)
{
    json_t *v = json_string(s);
    if (v)
        return v;
    char *copy = xstrdup(s);
    for (char *p = copy; *p; p++) {
        if ((unsigned char)*p >= 0x80)
            *p = '?';
    }
    v = checked(json_string(copy));
    free(copy);
    return v;
}

static void set(json_t *object, const char *key, json_t *value)
{
    if (json_object_set_new(object, key, value) != 0)
        fail_out_of_memory();
}

static void append(json_t *array, json_t *value)
{
    if (json_array_append_new(array, value) != 0)
        fail_out_of_memory();
}

static json_t *trace_object(const struct analysis *a)
{
    const struct summary *s = &a->summary;
    json_t *t = checked(json_object());
    set(t, "locations", integer(a->ranks.nlocations));
    set(t, "ranks", integer(a->ranks.world_size));
    set(t, "events", integer(s->events));
    set(t, "timer_resolution", a->clock.known ? integer(a->clock.resolution) : checked(json_null()));
    set(t, "duplicate_definitions", integer(a->ranks.duplicate_definitions));
    json_t *records = checked(json_object());
    for (int k = 0; k < RECORD_KIND_COUNT; k++)
        set(records, record_name(k), integer(s->records[k]));
    set(t, "records", records);
    return t;
}

static json_t *summary_object(const struct analysis *a)
{
    const struct summary *s = &a->summary;
    double resolution = (double)a->clock.resolution;
    json_t *o = checked(json_object());
    set(o, "messages", integer(s->messages));
    set(o, "bytes", integer(s->bytes));
    set(o, "unmatched_sends", integer(s->unmatched_sends));
    set(o, "unmatched_send_bytes", integer(s->unmatched_send_bytes));
    set(o, "unmatched_receives", integer(s->unmatched_receives));
    set(o, "unmatched_receive_bytes", integer(s->unmatched_receive_bytes));
    set(o, "duration_min_s", real_or_null((double)s->min_duration / resolution, s->messages > 0));
    set(o, "duration_mean_s",
        real_or_null((double)s->total_duration / resolution / (double)(s->messages ? s->messages : 1),
                     s->messages > 0));
    set(o, "duration_max_s", real_or_null((double)s->max_duration / resolution, s->messages > 0));
    set(o, "timed_messages", integer(s->timed_messages));
    set(o, "bandwidth_bytes_per_s",
        real_or_null((double)s->timed_bytes * resolution / (double)(s->timed_ticks ? s->timed_ticks : 1),
                     s->timed_ticks > 0));
    set(o, "peak_in_flight", integer(s->peak_in_flight));
    set(o, "order_violations", integer(a->clocks.violations));
    set(o, "order_moved_s", checked(json_real((double)a->clocks.violation_ticks / resolution)));
    set(o, "order_moved_max_s",
        checked(json_real((double)a->clocks.max_violation_ticks / resolution)));
    set(o, "warnings", integer(warnings_total(&a->warnings)));
    return o;
}

/* Each rank's clock against rank 0's at the first measurement, from the
 * ClockOffsets of its first location (clock_correct.h). */
static json_t *clock_offsets_array(const struct analysis *a)
{
    json_t *array = checked(json_array());
    uint32_t n = a->ranks.world_size;
    uint32_t *first = xmalloc((n ? n : 1) * sizeof *first);
    for (uint32_t r = 0; r < n; r++)
        first[r] = UINT32_MAX;
    for (uint32_t i = 0; i < a->ranks.nlocations; i++) {
        uint32_t r = a->ranks.location_list[i]->world_rank;
        if (r < n && first[r] == UINT32_MAX)
            first[r] = i;
    }
    double base = 0, base_drift = 0, resolution = (double)a->clock.resolution;
    int base_known = 1;
    if (n == 0 || !clock_correction_rank(&a->clocks, first[0], &base, &base_drift, &base_known))
        base = base_drift = 0, base_known = 1;
    for (uint32_t r = 0; r < n; r++) {
        double offset, drift;
        int drift_known;
        if (!clock_correction_rank(&a->clocks, first[r], &offset, &drift, &drift_known))
            continue;
        json_t *o = checked(json_object());
        set(o, "rank", integer(r));
        set(o, "offset_s", checked(json_real((offset - base) / resolution)));
        set(o, "drift_ppm", real_or_null((drift - base_drift) * 1e6, drift_known && base_known));
        append(array, o);
    }
    free(first);
    return array;
}

static void add_warnings(json_t *doc, const struct warnings *w)
{
    json_t *counts = checked(json_object());
    json_t *examples = checked(json_object());
    for (int k = 0; k < WARN_KIND_COUNT; k++) {
        set(counts, warning_name(k), integer(w->count[k]));
        json_t *list = checked(json_array());
        for (const struct warning_example *e = w->examples[k]; e; e = e->next)
            append(list, checked(json_string(e->text)));
        set(examples, warning_name(k), list);
    }
    set(doc, "warnings", counts);
    set(doc, "warning_examples", examples);
}

static int compare_refs(const void *x, const void *y)
{
    uint32_t a = (*(const struct rankmap_comm *const *)x)->ref;
    uint32_t b = (*(const struct rankmap_comm *const *)y)->ref;
    return a < b ? -1 : a > b;
}

static json_t *communicators_array(const struct analysis *a)
{
    const struct hashmap *comms = &a->ranks.comms;
    const struct rankmap_comm **list = xmalloc((comms->count ? comms->count : 1) * sizeof *list);
    size_t n = 0;
    for (size_t i = 0; i < hashmap_capacity(comms); i++) {
        if (comms->slots[i].value)
            list[n++] = comms->slots[i].value;
    }
    qsort(list, n, sizeof *list, compare_refs);
    json_t *array = checked(json_array());
    for (size_t i = 0; i < n; i++) {
        json_t *c = checked(json_object());
        const char *name = rankmap_string(&a->ranks, list[i]->name);
        set(c, "id", integer(list[i]->ref));
        set(c, "name", name ? lossy_string(name) : checked(json_null()));
        set(c, "kind", checked(json_string(list[i]->kind == RANKMAP_INTER ? "inter" : "intra")));
        set(c, "size", integer(rankmap_comm_size(list[i])));
        append(array, c);
    }
    free(list);
    return array;
}

static void add_matrix(json_t *doc, const struct analysis *a)
{
    size_t n;
    const struct matrix_cell **cells = matrix_sorted(&a->matrix, &n);
    json_t *matrix = checked(json_array());
    json_t *timing = checked(json_array());
    for (size_t i = 0; i < n; i++) {
        const struct matrix_cell *c = cells[i];
        json_t *cell = checked(json_object());
        set(cell, "sender", integer(c->sender));
        set(cell, "receiver", integer(c->receiver));
        set(cell, "messages", integer(c->messages));
        set(cell, "bytes", integer(c->bytes));
        append(matrix, cell);
        json_t *t = checked(json_object());
        double bw = matrix_cell_bandwidth(c, a->clock.resolution);
        set(t, "sender", integer(c->sender));
        set(t, "receiver", integer(c->receiver));
        set(t, "timed_messages", integer(c->timed_messages));
        set(t, "duration_s", checked(json_real((double)c->timed_ticks / (double)a->clock.resolution)));
        set(t, "bandwidth_bytes_per_s", real_or_null(bw, bw >= 0));
        append(timing, t);
    }
    free(cells);
    set(doc, "comm_matrix", matrix);
    set(doc, "comm_matrix_timing", timing);
}

static json_t *waits_array(const struct analysis *a)
{
    size_t n;
    const struct wait_entry **list = waits_sorted(&a->waits, &n);
    json_t *array = checked(json_array());
    for (size_t i = 0; i < n; i++) {
        const struct wait_entry *e = list[i];
        uint32_t depth = calltree_depth(&a->waits.tree, e->callpath);
        const char **names = xmalloc((depth ? depth : 1) * sizeof *names);
        waits_path_names(&a->waits, e->callpath, names);
        json_t *path = checked(json_array());
        for (uint32_t d = 0; d < depth; d++)
            append(path, lossy_string(names[d]));
        free(names);
        json_t *o = checked(json_object());
        set(o, "pattern", checked(json_string(wait_pattern_name(e->pattern))));
        set(o, "rank", integer(e->rank));
        set(o, "callpath", path);
        set(o, "count", integer(e->count));
        set(o, "time_s", checked(json_real((double)e->ticks / (double)a->clock.resolution)));
        append(array, o);
    }
    free(list);
    return array;
}

int report_json(const struct analysis *a, const char *path, char *err, size_t errsize)
{
    json_t *doc = checked(json_object());
    set(doc, "tool", checked(json_string("hooktrace-analyze")));
    set(doc, "version", checked(json_string(PACKAGE_VERSION)));
    set(doc, "archive", lossy_string(a->archive_path));
    set(doc, "trace", trace_object(a));
    set(doc, "summary", summary_object(a));
    add_warnings(doc, &a->warnings);
    set(doc, "communicators", communicators_array(a));
    add_matrix(doc, a);
    set(doc, "wait_states", waits_array(a));
    set(doc, "clock_offsets", clock_offsets_array(a));

    struct output_file out;
    int status = output_file_open(&out, path, err, errsize);
    if (status == 0) {
        if (json_dumpf(doc, out.f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12)) != 0
            || fputc('\n', out.f) == EOF) {
            output_file_abort(&out);
            snprintf(err, errsize, "%s: cannot write", path);
            status = -1;
        } else {
            status = output_file_commit(&out, err, errsize);
        }
    }
    json_decref(doc);
    return status;
}
