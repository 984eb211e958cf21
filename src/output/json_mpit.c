/* The MPI_T fields of the JSON profile (docs/output_mpi.md, "MPI_T"): the
 * top-level "mpi_t" object and each stack's "pvars"; and the control
 * variables' own file, <basename>.mpit.json. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h" /* PACKAGE_VERSION */
#include "output/json_dump.h"
#include "output/output_mpit.h"

static json_t *number(enum ht_mpit_value_kind kind, union ht_mpit_number n)
{
    switch (kind) {
    case HT_MPIT_VALUE_INT:
        return json_integer((json_int_t)n.i);
    case HT_MPIT_VALUE_UINT:
        /* jansson's integers are signed 64-bit: a larger value (a "no
         * limit" sentinel, typically) is written as a real. */
        return n.u > (uint64_t)INT64_MAX ? json_real((double)n.u) : json_integer((json_int_t)n.u);
    case HT_MPIT_VALUE_REAL:
        return isfinite(n.d) ? json_real(n.d) : json_null();
    case HT_MPIT_VALUE_BOOL:
        return json_boolean(n.u != 0);
    default:
        return json_null();
    }
}

static json_t *cvar_value(const struct ht_mpit_cvar *c)
{
    if (c->kind == HT_MPIT_VALUE_NONE)
        return json_null();
    if (c->kind == HT_MPIT_VALUE_STRING)
        return json_string(c->string ? c->string : "");
    if (c->nvalues == 1 && c->count == 1)
        return number(c->kind, c->values[0]);
    json_t *a = json_array();
    for (int i = 0; i < c->nvalues; i++)
        json_array_append_new(a, number(c->kind, c->values[i]));
    return a;
}

static json_t *cvar_json(const struct ht_mpit_cvar *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(c->name));
    json_object_set_new(o, "value", cvar_value(c));
    if (c->enum_item)
        json_object_set_new(o, "value_name", json_string(c->enum_item));
    if (c->kind == HT_MPIT_VALUE_NONE && c->unread)
        json_object_set_new(o, "unread", json_string(c->unread));
    if (c->count > 1 && c->kind != HT_MPIT_VALUE_STRING && c->kind != HT_MPIT_VALUE_NONE)
        json_object_set_new(o, "count", json_integer(c->count));
    json_object_set_new(o, "type", json_string(c->type));
    json_object_set_new(o, "scope", json_string(c->scope));
    json_object_set_new(o, "verbosity", json_string(c->verbosity));
    json_object_set_new(o, "binding", json_string(c->binding));
    json_object_set_new(o, "description", json_string(c->description));
    return o;
}

static json_t *pvar_json(const struct ht_mpit_pvar_desc *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(p->name));
    json_object_set_new(o, "class", json_string(p->class_name));
    json_object_set_new(o, "aggregation", json_string(p->aggregation));
    json_object_set_new(o, "type", json_string(p->type));
    json_object_set_new(o, "binding", json_string(p->binding));
    json_object_set_new(o, "elements", json_integer(p->count));
    json_object_set_new(o, "continuous", json_boolean(p->continuous));
    json_object_set_new(o, "readonly", json_boolean(p->readonly));
    json_object_set_new(o, "failed_reads", json_integer((json_int_t)p->failed_reads));
    json_object_set_new(o, "description", json_string(p->description));
    return o;
}

void ht_output_json_mpit_top(json_t *doc, const struct ht_mpit_view *v,
                             const struct ht_run_info *run)
{
    json_t *m = json_object();
    json_object_set_new(m, "initialized", json_boolean(v->initialized));
    if (v->status)
        json_object_set_new(m, "status", json_string(v->status));
    json_object_set_new(m, "cvars_rank", json_integer(v->cvar_rank));
    /* The list is most of an MPI profile (240 KB of Open MPI's 1,116), so
     * by default it has a file of its own and the JSON says how many and
     * where (docs/mpi_t.md, "Control variables"). */
    json_object_set_new(m, "cvars_read", json_integer((json_int_t)v->cvars_read));
    if (run->mpit_file)
        json_object_set_new(m, "cvars_file", json_string(run->mpit_file));
    if (v->cvars_complete_in) /* none listed here: the job's are there */
        json_object_set_new(m, "cvars_complete_in", json_string(v->cvars_complete_in));
    json_object_set_new(m, "startup_s", json_real(v->startup_s));
    /* "MPI_Init" (or "MPI_Session_init") with performance variables;
     * "MPI_Finalize" without (only the ranks whose files list control
     * variables start MPI_T); null: not started on this rank. */
    json_object_set_new(m, "startup_in", v->started_in ? json_string(v->started_in) : json_null());
    if (run->cvars_inline) {
        json_t *cvars = json_array();
        for (size_t i = 0; i < v->ncvars; i++)
            json_array_append_new(cvars, cvar_json(&v->cvars[i]));
        json_object_set_new(m, "cvars", cvars);
    }
    json_t *pvars = json_array();
    for (size_t i = 0; i < v->npvars; i++)
        json_array_append_new(pvars, pvar_json(&v->pvars[i]));
    json_object_set_new(m, "pvars", pvars);
    json_object_set_new(m, "read_interval_us", json_integer(v->read_interval_us));
    json_t *notes = json_array();
    for (size_t i = 0; i < v->nnotes; i++)
        json_array_append_new(notes, json_string(v->notes[i]));
    json_object_set_new(m, "notes", notes);
    json_object_set_new(doc, "mpi_t", m);
}

/* Integer-typed pvars have integer minima and maxima; keep them integers
 * in the file so that scripts compare them exactly. */
static json_t *figure(double x, bool integral)
{
    if (!isfinite(x))
        return json_null();
    if (integral && fabs(x) < 9.0e15)
        return json_integer((json_int_t)llround(x));
    return json_real(x);
}

void ht_output_json_mpit_stack(json_t *obj, const struct ht_stack *s, const struct ht_mpit_view *v)
{
    json_t *pv = NULL;
    for (size_t k = 0; k < v->nslots; k++) {
        const struct ht_mpit_stat *st = ht_mpit_stat_of(v, s->id, k);
        if (!st || st->ranks == 0)
            continue;
        const struct ht_mpit_slot *slot = &v->slots[k];
        bool integral = slot->pvar >= 0 && (size_t)slot->pvar < v->npvars &&
                        v->pvars[slot->pvar].integral;
        json_t *o = json_object();
        json_object_set_new(o, "min", figure(st->min, integral));
        json_object_set_new(o, "avg", figure(st->sum / st->ranks, false));
        json_object_set_new(o, "max", figure(st->max, integral));
        json_object_set_new(o, "ranks", json_integer(st->ranks));
        if (!pv)
            pv = json_object();
        json_object_set_new(pv, slot->name, o);
    }
    if (pv)
        json_object_set_new(obj, "pvars", pv);
}

#define DUMP_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9))

/* A few identifying fields indented, then one control variable a line:
 * two runs' files compare with diff, a variable to a line. */
int ht_output_json_mpit_file(FILE *f, const struct ht_mpit_view *v, const struct ht_run_info *run)
{
    char date[64];
    struct tm tm;
    gmtime_r(&run->start_time, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    const char *library = run->meta ? run->meta->mpi_library : NULL;
    json_t *head = json_object();
    if (!head)
        return -1;
    json_object_set_new(head, "hooktrace_version", json_string(PACKAGE_VERSION));
    json_object_set_new(head, "format", json_integer(1));
    json_object_set_new(head, "start_time", json_string(date));
    json_object_set_new(head, "mpi_library", library ? json_string(library) : json_null());
    json_object_set_new(head, "cvars_rank", json_integer(v->cvar_rank));
    json_object_set_new(head, "cvars_read", json_integer((json_int_t)v->cvars_read));
    char *text = json_dumps(head, DUMP_FLAGS | JSON_INDENT(1));
    json_decref(head);
    size_t len = text ? strlen(text) : 0;
    if (len < 2) { /* "{\n ...\n}": out of memory */
        free(text);
        return -1;
    }
    fwrite(text, 1, len - 2, f); /* without "\n}" */
    free(text);
    fputs(",\n \"cvars\": [", f);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < v->ncvars; i++) {
        json_t *c = cvar_json(&v->cvars[i]);
        fputs(i ? ",\n  " : "\n  ", f);
        rc = c && ht_json_dumpf(c, f, DUMP_FLAGS | JSON_COMPACT) == 0 ? 0 : -1;
        json_decref(c);
    }
    fputs("]\n}\n", f);
    return rc;
}
