/* Reading a profile JSON for --compare and --scaling (profile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/profile.h"

static int bad(const char *program, const char *file, const char *what, long long id)
{
    if (id >= 0)
        fprintf(stderr, "%s: %s: stack %lld: %s\n", program, file, id, what);
    else
        fprintf(stderr, "%s: %s: %s\n", program, file, what);
    return -1;
}

/* An optional integer field; absent is 0; -1 when present but not a
 * non-negative integer. */
static long long count(const json_t *stack, const char *name)
{
    const json_t *v = json_object_get(stack, name);
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return -1;
    return json_integer_value(v);
}

/* Adds stack element s (checked) to p under its path; paths[] holds the
 * paths of the stacks before it, by ID. */
static int add_stack(struct ht_rp_profile *p, json_t **paths, size_t id, const json_t *s,
                     const json_t *functions, const char *program)
{
    json_t *below = NULL; /* the path below a phase's root */
    const json_t *fi = json_object_get(s, "function_index");
    const json_t *par = json_object_get(s, "parent");
    const json_t *calls = json_object_get(s, "calls");
    const json_t *incl = json_object_get(s, "time_incl_s");
    const json_t *excl = json_object_get(s, "time_excl_s");
    if (!json_is_object(s) || !json_is_integer(json_object_get(s, "id")) ||
        json_integer_value(json_object_get(s, "id")) != (json_int_t)id)
        return bad(program, p->file, "its \"id\" is not its index in \"stacks\"", (long long)id);
    if (!json_is_integer(par) || json_integer_value(par) < -1 ||
        json_integer_value(par) >= (json_int_t)id)
        return bad(program, p->file, "\"parent\" is not -1 or a smaller stack ID", (long long)id);
    if (!json_is_integer(fi) || json_integer_value(fi) < 0 ||
        (size_t)json_integer_value(fi) >= json_array_size(functions) ||
        !json_is_string(json_object_get(json_array_get(functions, json_integer_value(fi)),
                                        "name")))
        return bad(program, p->file, "\"function_index\" names no function", (long long)id);
    if (!json_is_integer(calls) || json_integer_value(calls) < 0 || !json_is_number(incl) ||
        !json_is_number(excl))
        return bad(program, p->file, "\"calls\", \"time_incl_s\" or \"time_excl_s\" missing",
                   (long long)id);
    long long ms = count(s, "messages_sent"), mr = count(s, "messages_received");
    long long bs = count(s, "bytes_sent"), br = count(s, "bytes_received");
    if (ms < 0 || mr < 0 || bs < 0 || br < 0)
        return bad(program, p->file, "a message count is not a non-negative integer",
                   (long long)id);

    json_int_t parent = json_integer_value(par);
    json_t *path = parent >= 0 ? json_copy(paths[parent]) : json_array();
    const char *name =
        json_string_value(json_object_get(json_array_get(functions, json_integer_value(fi)), "name"));
    if (!path || json_array_append_new(path, json_string(name)) != 0)
        goto oom;
    paths[id] = path;
    /* A phase: its subtree alone, keyed by the path below its root. */
    json_t *keyed = path;
    if (p->phase) {
        const char *first = json_string_value(json_array_get(path, 0));
        if (strncmp(first, "phase:", 6) != 0 || strcmp(first + 6, p->phase) != 0)
            return 0;
        if (json_array_size(path) == 1) {
            p->phase_found = true;
            return 0;
        }
        below = json_array();
        for (size_t k = 1; below && k < json_array_size(path); k++)
            json_array_append(below, json_array_get(path, k));
        if (!below)
            goto oom;
        keyed = below;
        if (json_array_size(path) == 2)
            p->total += json_number_value(incl);
    } else if (parent < 0)
        p->total += json_number_value(incl);

    char *key = json_dumps(keyed, JSON_COMPACT | JSON_ENSURE_ASCII);
    if (!key)
        goto oom;
    struct ht_rp_stack *st;
    const json_t *at = json_object_get(p->index, key);
    if (at) {
        /* Two functions of one name (static functions of different
         * files) on one path: by names they are one stack. */
        st = &p->stacks[json_integer_value(at)];
        free(key);
    } else {
        if (json_object_set_new(p->index, key, json_integer((json_int_t)p->n)) != 0) {
            free(key);
            goto oom;
        }
        st = &p->stacks[p->n++];
        memset(st, 0, sizeof *st);
        st->key = key;
        st->path = json_incref(keyed);
    }
    json_decref(below);
    st->incl += json_number_value(incl);
    st->excl += json_number_value(excl);
    st->calls += json_integer_value(calls);
    st->messages += ms + mr;
    st->bytes += bs + br;
    return 0;
oom:
    json_decref(below);
    fprintf(stderr, "%s: out of memory reading %s\n", program, p->file);
    return -1;
}

int ht_rp_load(struct ht_rp_profile *p, const char *path, const char *program)
{
    return ht_rp_load_phase(p, path, NULL, program);
}

int ht_rp_load_phase(struct ht_rp_profile *p, const char *path, const char *phase,
                     const char *program)
{
    memset(p, 0, sizeof *p);
    p->file = path;
    p->phase = phase;
    FILE *f = fopen(path, "re");
    if (!f) {
        fprintf(stderr, "%s: cannot read %s: %s\n", program, path, strerror(errno));
        return -1;
    }
    json_error_t error;
    p->doc = json_loadf(f, 0, &error);
    fclose(f);
    if (!p->doc) {
        fprintf(stderr, "%s: %s is not JSON: %s (line %d, column %d)\n", program, path,
                error.text, error.line, error.column);
        return -1;
    }
    const json_t *stacks = json_object_get(p->doc, "stacks");
    const json_t *functions = json_object_get(p->doc, "functions");
    if (!json_is_object(p->doc) || !json_is_string(json_object_get(p->doc, "hooktrace_version")) ||
        !json_is_array(stacks)) {
        fprintf(stderr,
                "%s: %s is not a hooktrace profile: it has no \"hooktrace_version\" "
                "and \"stacks\"\n", program, path);
        goto fail;
    }
    if (!json_is_array(functions)) {
        bad(program, path, "no \"functions\" table (a profile of format 2 or later is needed)",
            -1);
        goto fail;
    }
    const json_t *format = json_object_get(p->doc, "format");
    if (format && (!json_is_integer(format) || json_integer_value(format) < 2)) {
        bad(program, path, "\"format\" is not 2 or later (a profile of format 2 or later is needed)",
            -1);
        goto fail;
    }
    const json_t *ranks = json_object_get(p->doc, "ranks");
    if (ranks && (!json_is_integer(ranks) || json_integer_value(ranks) < 1)) {
        bad(program, path, "\"ranks\" is not a positive integer", -1);
        goto fail;
    }
    p->ranks = ranks ? (int)json_integer_value(ranks) : 1;
    p->merged = ranks && !json_object_get(p->doc, "rank");

    size_t n = json_array_size(stacks);
    json_t **paths = calloc(n ? n : 1, sizeof *paths);
    p->stacks = calloc(n ? n : 1, sizeof *p->stacks);
    p->index = json_object();
    if (!paths || !p->stacks || !p->index) {
        free(paths);
        fprintf(stderr, "%s: out of memory reading %s\n", program, path);
        goto fail;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = add_stack(p, paths, i, json_array_get(stacks, i), functions, program);
    for (size_t i = 0; i < n; i++)
        json_decref(paths[i]);
    free(paths);
    /* What the comparison needs is in p->stacks now (the names held by
     * the paths): the parsed stacks, the function table and the MPI_T
     * variables, most of the document's memory, go. */
    json_object_del(p->doc, "stacks");
    json_object_del(p->doc, "functions");
    json_object_del(p->doc, "mpi_t");
    json_object_del(p->doc, "comm_matrix");
    json_object_del(p->doc, "coll_matrix");
    if (rc == 0 && phase && !p->phase_found) {
        fprintf(stderr, "%s: %s has no phase '%s' (no root stack \"phase:%s\"; docs/regions.md)\n",
                program, path, phase, phase);
        rc = -1;
    }
    if (rc == 0)
        return 0;
fail:
    ht_rp_free(p);
    return -1;
}

void ht_rp_free(struct ht_rp_profile *p)
{
    for (size_t i = 0; i < p->n; i++) {
        json_decref(p->stacks[i].path);
        free(p->stacks[i].key);
    }
    free(p->stacks);
    json_decref(p->index);
    json_decref(p->doc);
    memset(p, 0, sizeof *p);
}

const struct ht_rp_stack *ht_rp_find(const struct ht_rp_profile *p, const char *key)
{
    const json_t *at = json_object_get(p->index, key);
    return at ? &p->stacks[json_integer_value(at)] : NULL;
}

/* A top-level field copied if present, else null. */
static json_t *field(const struct ht_rp_profile *p, const char *name)
{
    json_t *v = json_object_get(p->doc, name);
    return v ? json_incref(v) : json_null();
}

json_t *ht_rp_run_info(const struct ht_rp_profile *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "file", json_string(p->file));
    json_object_set_new(o, "phase", p->phase ? json_string(p->phase) : json_null());
    json_object_set_new(o, "command", field(p, "command"));
    json_object_set_new(o, "executable", field(p, "executable"));
    json_object_set_new(o, "start_time", field(p, "start_time"));
    json_object_set_new(o, "wall_time_s", field(p, "wall_time_s"));
    json_object_set_new(o, "hooktrace_version", field(p, "hooktrace_version"));
    json_object_set_new(o, "ranks", json_integer(p->ranks));
    json_object_set_new(o, "merged", json_boolean(p->merged));
    json_object_set_new(o, "stacks", json_integer((json_int_t)p->n));
    json_object_set_new(o, "time_incl_s", json_real(p->total));
    if (json_object_get(p->doc, "metadata"))
        json_object_set_new(o, "metadata", field(p, "metadata"));
    return o;
}

char *ht_rp_path_text(const json_t *path)
{
    size_t len = 1, i;
    const json_t *v;
    json_array_foreach(path, i, v)
        len += strlen(json_string_value(v)) + 3;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    json_array_foreach(path, i, v) {
        if (i)
            strcat(s, " > ");
        strcat(s, json_string_value(v));
    }
    return s;
}
