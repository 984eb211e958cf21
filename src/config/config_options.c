/* The options: one table per object level says which keys exist, what type
 * each must have and where its value goes.  Adding a section ("mpi",
 * "trace", ...) means adding a table and one OPT_SECTION row; the checks and
 * the error messages come for free. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/config_internal.h"
#include "config/config_load.h"
#include "config/patterns.h"

#define HT_CONFIG_MAX_STACK_DEPTH_LIMIT 1000000u

enum opt_kind {
    OPT_BOOL, /* bool */
    OPT_STRING, /* char *, replaced via ht_config_set_string */
    OPT_UINT, /* unsigned, within [min, max] */
    OPT_UINT64, /* uint64_t, within [0, max64] */
    OPT_REAL, /* double, within [real_min, real_max]; JSON integers too */
    OPT_ENUM, /* an enum (int-sized), the index of the string in names */
    OPT_REGEX_LIST, /* struct ht_regex_list (config_regex.c) */
    OPT_RANK_SET, /* struct ht_rank_set: "all", "none" or [ranks] */
    OPT_SECTION, /* a nested object, checked against its own table */
    OPT_NAME_SET, /* unsigned bit set: an array of strings from names, bit i for names[i] */
    OPT_STRING_LIST, /* struct ht_string_list of at most max strings (config_strings.c) */
};

struct section;

struct opt {
    const char *key;
    enum opt_kind kind;
    size_t offset; /* of the field in struct ht_config */
    unsigned min, max; /* OPT_UINT */
    uint64_t max64; /* OPT_UINT64 */
    double real_min, real_max; /* OPT_REAL */
    const char *const *names; /* OPT_ENUM, OPT_NAME_SET: NULL-terminated */
    /* OPT_STRING: rules beyond being a string; returns -1 after failing. */
    int (*check)(struct ht_config_load *ld, const char *value);
    const struct section *section; /* OPT_SECTION */
};

struct section {
    const char *name; /* dotted path for messages; NULL at the top level */
    const struct opt *opts; /* ends with a row whose key is NULL */
};

/* --- the tables ------------------------------------------------------------ */


#define FIELD(f) offsetof(struct ht_config, f)

static const struct opt outputs_opts[] = {
    {.key = "logfile", .kind = OPT_BOOL, .offset = FIELD(write_logfile)},
    {.key = "log_stacks",
     .kind = OPT_UINT,
     .offset = FIELD(log_stacks),
     .min = 0,
     .max = 1000000000},
    {.key = "progress_after_ms",
     .kind = OPT_UINT,
     .offset = FIELD(progress_after_ms),
     .min = 0,
     .max = 3600000},
    {.key = "json", .kind = OPT_BOOL, .offset = FIELD(write_json)},
    {.key = "folded", .kind = OPT_BOOL, .offset = FIELD(write_folded)},
    {.key = "speedscope", .kind = OPT_BOOL, .offset = FIELD(write_speedscope)},
    {.key = "hatchet", .kind = OPT_BOOL, .offset = FIELD(write_hatchet)},
    {.key = "html", .kind = OPT_BOOL, .offset = FIELD(write_html)},
    {.key = NULL},
};
static const struct section outputs_section = {"outputs", outputs_opts};

static const struct opt mpi_opts[] = {
    {.key = "log_messages", .kind = OPT_BOOL, .offset = FIELD(mpi.log_messages)},
    {.key = "log_ranks", .kind = OPT_RANK_SET, .offset = FIELD(mpi.log_ranks)},
    {.key = "rank_files", .kind = OPT_RANK_SET, .offset = FIELD(mpi.rank_files)},
    {.key = "poll_interval_us",
     .kind = OPT_UINT,
     .offset = FIELD(mpi.poll_interval_us),
     .min = 0,
     .max = 10000000},
    {.key = "poll_max_interval_us",
     .kind = OPT_UINT,
     .offset = FIELD(mpi.poll_max_interval_us),
     .min = 0,
     .max = 10000000},
    {.key = "poll_batch", .kind = OPT_UINT, .offset = FIELD(mpi.poll_batch), .min = 1, .max = 1000000},
    {.key = "poll", .kind = OPT_BOOL, .offset = FIELD(mpi.poll)},
    {.key = "rank_times_top",
     .kind = OPT_UINT,
     .offset = FIELD(mpi.rank_times_top),
     .min = 0,
     .max = HT_CONFIG_MAX_RANK_TIMES_TOP},
    {.key = "rank_profiles_all",
     .kind = OPT_UINT,
     .offset = FIELD(mpi.rank_profiles_all),
     .min = 0,
     .max = HT_CONFIG_MAX_RANK_PROFILES_ALL},
    {.key = NULL},
};
static const struct section mpi_section = {"mpi", mpi_opts};

static const struct opt trace_opts[] = {
    {.key = "enabled", .kind = OPT_BOOL, .offset = FIELD(trace.enabled)},
    {.key = "folder", .kind = OPT_STRING, .offset = FIELD(trace.folder), .check = ht_config_check_directory},
    {.key = "name", .kind = OPT_STRING, .offset = FIELD(trace.name), .check = ht_config_check_trace_name},
    {.key = "include_functions", .kind = OPT_REGEX_LIST, .offset = FIELD(trace.include_functions)},
    {.key = "exclude_functions", .kind = OPT_REGEX_LIST, .offset = FIELD(trace.exclude_functions)},
    {.key = "buffer_mib", .kind = OPT_UINT, .offset = FIELD(trace.buffer_mib), .min = 1, .max = 65536},
    {.key = "max_bytes_per_rank",
     .kind = OPT_UINT64,
     .offset = FIELD(trace.max_bytes_per_rank),
     .max64 = HT_CONFIG_TRACE_MAX_BYTES_LIMIT},
    {.key = NULL},
};
static const struct section trace_section = {"trace", trace_opts};

static const struct opt mpi_t_opts[] = {
    {.key = "enabled", .kind = OPT_BOOL, .offset = FIELD(mpi_t.enabled)},
    {.key = "cvars", .kind = OPT_REGEX_LIST, .offset = FIELD(mpi_t.cvars)},
    {.key = "cvars_in_json", .kind = OPT_BOOL, .offset = FIELD(mpi_t.cvars_in_json)},
    {.key = "pvars", .kind = OPT_REGEX_LIST, .offset = FIELD(mpi_t.pvars)},
    {.key = "pvar_classes",
     .kind = OPT_NAME_SET,
     .offset = FIELD(mpi_t.pvar_classes),
     .names = ht_mpit_class_names},
    {.key = "pvar_change", .kind = OPT_REGEX_LIST, .offset = FIELD(mpi_t.pvar_change)},
    {.key = "pvar_elements",
     .kind = OPT_ENUM,
     .offset = FIELD(mpi_t.pvar_elements),
     .names = ht_mpit_elements_names},
    {.key = "read_interval_us",
     .kind = OPT_UINT,
     .offset = FIELD(mpi_t.read_interval_us),
     .min = 0,
     .max = 10000000},
    {.key = NULL},
};
static const struct section mpi_t_section = {"mpi_t", mpi_t_opts};

static const struct opt throttle_opts[] = {
    {.key = "enabled", .kind = OPT_BOOL, .offset = FIELD(throttle.enabled)},
    {.key = "min_calls",
     .kind = OPT_UINT,
     .offset = FIELD(throttle.min_calls),
     .min = 1,
     .max = 4000000000u},
    {.key = "budget",
     .kind = OPT_REAL,
     .offset = FIELD(throttle.budget),
     .real_min = HT_CONFIG_THROTTLE_BUDGET_MIN,
     .real_max = HT_CONFIG_THROTTLE_BUDGET_MAX},
    /* Its default, 0, is below the least value a file may give: not set. */
    {.key = "max_ns_per_call",
     .kind = OPT_UINT,
     .offset = FIELD(throttle.max_ns_per_call),
     .min = 1,
     .max = 1000000000u},
    {.key = "never", .kind = OPT_REGEX_LIST, .offset = FIELD(throttle.never)},
    {.key = "patch_code", .kind = OPT_BOOL, .offset = FIELD(throttle.patch_code)},
    {.key = NULL},
};
static const struct section throttle_section = {"throttle", throttle_opts};

static const struct opt top_opts[] = {
    {.key = "off", .kind = OPT_BOOL, .offset = FIELD(off)},
    {.key = "output_directory",
     .kind = OPT_STRING,
     .offset = FIELD(output_directory),
     .check = ht_config_check_directory},
    {.key = "output_basename",
     .kind = OPT_STRING,
     .offset = FIELD(output_basename),
     .check = ht_config_check_basename},
    {.key = "sort_by", .kind = OPT_ENUM, .offset = FIELD(sort_by), .names = ht_sort_column_names},
    {.key = "include_functions", .kind = OPT_REGEX_LIST, .offset = FIELD(include_functions)},
    {.key = "exclude_functions", .kind = OPT_REGEX_LIST, .offset = FIELD(exclude_functions)},
    {.key = "filter_file",
     .kind = OPT_STRING,
     .offset = FIELD(filter_file),
     .check = ht_config_load_filter_file},
    {.key = "max_stack_depth",
     .kind = OPT_UINT,
     .offset = FIELD(max_stack_depth),
     .min = 1,
     .max = HT_CONFIG_MAX_STACK_DEPTH_LIMIT},
    {.key = "fork_children",
     .kind = OPT_ENUM,
     .offset = FIELD(fork_children),
     .names = ht_fork_children_names},
    {.key = "signal_timeout_ms",
     .kind = OPT_UINT,
     .offset = FIELD(signal_timeout_ms),
     .min = 0,
     .max = 600000},
    {.key = "outputs", .kind = OPT_SECTION, .section = &outputs_section},
    {.key = "mpi", .kind = OPT_SECTION, .section = &mpi_section},
    {.key = "trace", .kind = OPT_SECTION, .section = &trace_section},
    {.key = "mpi_t", .kind = OPT_SECTION, .section = &mpi_t_section},
    {.key = "throttle", .kind = OPT_SECTION, .section = &throttle_section},
    {.key = "counters", .kind = OPT_STRING_LIST, .offset = FIELD(counters), .max = HT_CONFIG_MAX_COUNTERS},
    {.key = NULL},
};
static const struct section top_section = {NULL, top_opts};

/* OPT_ENUM stores through an int. */
_Static_assert(sizeof(enum ht_sort_column) == sizeof(int), "enum options are stored as int");
_Static_assert(sizeof(enum ht_mpit_elements) == sizeof(int), "enum options are stored as int");
_Static_assert(sizeof(enum ht_fork_children) == sizeof(int), "enum options are stored as int");
_Static_assert(HT_MPIT_NCLASSES <= 32, "OPT_NAME_SET stores a bit per name in an unsigned");

/* --- checking values ------------------------------------------------------- */

static const struct opt *find_opt(const struct section *s, const char *key)
{
    for (const struct opt *o = s->opts; o->key; o++)
        if (strcmp(o->key, key) == 0)
            return o;
    return NULL;
}

/* The section other than `except` that has this key, for telling a user who
 * put a key at the wrong level where it belongs. */
static const struct section *section_with_key(const struct section *s, const char *key,
                                              const struct section *except)
{
    if (s != except && find_opt(s, key))
        return s;
    for (const struct opt *o = s->opts; o->key; o++) {
        if (o->kind != OPT_SECTION)
            continue;
        const struct section *r = section_with_key(o->section, key, except);
        if (r)
            return r;
    }
    return NULL;
}

static int unknown_key(struct ht_config_load *ld, const struct section *s, const char *key)
{
    char q[256], msg[1024];
    size_t pos = 0;
    ht_config_quote(q, sizeof q, key);
    ht_config_appendf(msg, sizeof msg, &pos, "unknown key %s in ", q);
    if (s->name)
        ht_config_appendf(msg, sizeof msg, &pos, "\"%s\"", s->name);
    else
        ht_config_appendf(msg, sizeof msg, &pos, "the top level");
    ht_config_appendf(msg, sizeof msg, &pos, "; valid keys are: ");

    const char *closest = NULL;
    size_t best = 3; /* suggest only within distance 2 */
    for (const struct opt *o = s->opts; o->key; o++) {
        ht_config_appendf(msg, sizeof msg, &pos, "%s%s", o == s->opts ? "" : ", ", o->key);
        size_t d = ht_config_edit_distance(key, o->key, 2);
        if (d < best) {
            best = d;
            closest = o->key;
        }
    }

    const struct section *home = section_with_key(&top_section, key, s);
    if (home && home->name)
        ht_config_appendf(msg, sizeof msg, &pos, " (%s belongs in \"%s\")", q, home->name);
    else if (home)
        ht_config_appendf(msg, sizeof msg, &pos, " (%s belongs at the top level)", q);
    else if (closest)
        ht_config_appendf(msg, sizeof msg, &pos, " (did you mean \"%s\"?)", closest);
    return ht_config_fail(ld, "%s", msg);
}

/* "true" for a boolean, "512" for an integer: the commonest wrong type is
 * the right value in quotes. */
int ht_config_wrong_type(struct ht_config_load *ld, const json_t *v, const char *expected)
{
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    const char *t = ht_config_type_name(v);
    if (s && strcmp(expected, "true or false") == 0 &&
        (strcmp(s, "true") == 0 || strcmp(s, "false") == 0))
        return ht_config_fail_at(ld, " must be %s, not a string (write %s without quotes)",
                                 expected, s);
    if (s && strncmp(expected, "an integer", 10) == 0 && *s &&
        strspn(s, "0123456789") == strlen(s) && strlen(s) < 20)
        return ht_config_fail_at(ld, " must be %s, not a string (write %s without quotes)",
                                 expected, s);
    if (s && strncmp(expected, "a number", 8) == 0 && *s && strlen(s) < 32 &&
        strspn(s, "0123456789.eE+-") == strlen(s))
        return ht_config_fail_at(ld, " must be %s, not a string (write %s without quotes)",
                                 expected, s);
    if (json_is_real(v))
        return ht_config_fail_at(ld, " must be %s, not a real number (%g)", expected,
                                 json_real_value(v));
    return ht_config_fail_at(ld, " must be %s, not %s", expected, t);
}

static void *field(struct ht_config_load *ld, const struct opt *o)
{
    return (char *)ld->cfg + o->offset;
}

static int apply_enum(struct ht_config_load *ld, const struct opt *o, const json_t *v)
{
    char list[512], q[256];
    size_t pos = 0;
    for (size_t i = 0; o->names[i]; i++)
        ht_config_appendf(list, sizeof list, &pos, "%s\"%s\"", i ? ", " : "", o->names[i]);
    if (!json_is_string(v))
        return ht_config_fail_at(ld, " must be one of %s, not %s", list, ht_config_type_name(v));

    const char *s = json_string_value(v);
    const char *closest = NULL;
    size_t best = 3;
    for (int i = 0; o->names[i]; i++) {
        if (strcmp(s, o->names[i]) == 0) {
            memcpy(field(ld, o), &i, sizeof i);
            return 0;
        }
        size_t d = ht_config_edit_distance(s, o->names[i], 2);
        if (d < best) {
            best = d;
            closest = o->names[i];
        }
    }
    ht_config_quote(q, sizeof q, s);
    if (closest)
        return ht_config_fail_at(ld, " must be one of %s, not %s (did you mean \"%s\"?)", list, q,
                                 closest);
    return ht_config_fail_at(ld, " must be one of %s, not %s", list, q);
}

static int apply_uint(struct ht_config_load *ld, const struct opt *o, const json_t *v)
{
    char expected[64];
    snprintf(expected, sizeof expected, "an integer >= %u", o->min);
    if (!json_is_integer(v))
        return ht_config_wrong_type(ld, v, expected);
    json_int_t n = json_integer_value(v);
    if (n < (json_int_t)o->min || n > (json_int_t)o->max)
        return ht_config_fail_at(ld, " must be an integer from %u to %u, not %" JSON_INTEGER_FORMAT,
                                 o->min, o->max, n);
    *(unsigned *)field(ld, o) = (unsigned)n;
    return 0;
}

static int apply_uint64(struct ht_config_load *ld, const struct opt *o, const json_t *v)
{
    if (!json_is_integer(v))
        return ht_config_wrong_type(ld, v, "an integer >= 0");
    json_int_t n = json_integer_value(v);
    if (n < 0 || (uint64_t)n > o->max64)
        return ht_config_fail_at(ld, " must be an integer from 0 to %llu, not %" JSON_INTEGER_FORMAT,
                                 (unsigned long long)o->max64, n);
    *(uint64_t *)field(ld, o) = (uint64_t)n;
    return 0;
}

/* %g prints the bounds as users write them (0.0001, 1), and a value given
 * too unless it has more digits than %g shows (1.0000001 would read "1"). */
static int apply_real(struct ht_config_load *ld, const struct opt *o, const json_t *v)
{
    char expected[96], given[32];
    snprintf(expected, sizeof expected, "a number from %g to %g", o->real_min, o->real_max);
    if (!json_is_number(v))
        return ht_config_wrong_type(ld, v, expected);
    double x = json_number_value(v);
    if (!(x >= o->real_min && x <= o->real_max)) {
        snprintf(given, sizeof given, "%g", x);
        if (strtod(given, NULL) != x)
            snprintf(given, sizeof given, "%.17g", x);
        return ht_config_fail_at(ld, " must be %s, not %s", expected, given);
    }
    *(double *)field(ld, o) = x;
    return 0;
}

static int apply_section(struct ht_config_load *ld, const struct section *s, json_t *obj);

static int apply_opt(struct ht_config_load *ld, const struct opt *o, json_t *v)
{
    switch (o->kind) {
    case OPT_BOOL:
        if (!json_is_boolean(v))
            return ht_config_wrong_type(ld, v, "true or false");
        *(bool *)field(ld, o) = json_is_true(v);
        return 0;
    case OPT_STRING:
        if (!json_is_string(v))
            return ht_config_wrong_type(ld, v, "a string");
        if (o->check && o->check(ld, json_string_value(v)) != 0)
            return -1;
        if (ht_config_set_string(field(ld, o), json_string_value(v)) != 0)
            return ht_config_out_of_memory(ld);
        return 0;
    case OPT_UINT:
        return apply_uint(ld, o, v);
    case OPT_UINT64:
        return apply_uint64(ld, o, v);
    case OPT_REAL:
        return apply_real(ld, o, v);
    case OPT_ENUM:
        return apply_enum(ld, o, v);
    case OPT_REGEX_LIST:
        return ht_config_apply_regex_list(ld, field(ld, o), v);
    case OPT_RANK_SET:
        return ht_config_apply_rank_set(ld, field(ld, o), v);
    case OPT_NAME_SET:
        return ht_config_apply_name_set(ld, o->names, field(ld, o), v);
    case OPT_STRING_LIST:
        return ht_config_apply_string_list(ld, field(ld, o), v, o->max, "an event name");
    case OPT_SECTION:
        if (!json_is_object(v)) {
            char expected[512];
            size_t pos = 0;
            ht_config_appendf(expected, sizeof expected, &pos, "an object with the keys ");
            for (const struct opt *k = o->section->opts; k->key; k++)
                ht_config_appendf(expected, sizeof expected, &pos, "%s%s",
                                  k == o->section->opts ? "" : ", ", k->key);
            return ht_config_wrong_type(ld, v, expected);
        }
        return apply_section(ld, o->section, v);
    }
    return 0;
}

static int apply_section(struct ht_config_load *ld, const struct section *s, json_t *obj)
{
    const char *key;
    json_t *value;
    if (ld->depth + 2 > HT_CONFIG_MAX_PATH_DEPTH)
        return ht_config_fail_at(ld, " is nested too deeply");
    /* jansson keeps object members in file order, so the first problem
     * reported is the first in the file. */
    int failed = 0;
    json_object_foreach (obj, key, value) {
        ld->path[ld->depth++] = (struct ht_config_path_step){.key = key};
        const struct opt *o = find_opt(s, key);
        int rc = o ? apply_opt(ld, o, value) : unknown_key(ld, s, key);
        ld->depth--;
        if (rc != 0) {
            failed = rc;
            if (!ht_config_go_on(ld))
                return rc;
        }
    }
    return failed;
}

int ht_config_apply_options(struct ht_config_load *ld, json_t *root)
{
    return apply_section(ld, &top_section, root);
}

/* --- the effective config as JSON ------------------------------------------ */

static json_t *section_json(const struct section *s, const struct ht_config *cfg)
{
    json_t *obj = json_object();
    const char *base = (const char *)cfg;
    for (const struct opt *o = s->opts; obj && o->key; o++) {
        const void *field = base + o->offset;
        json_t *v = NULL;
        switch (o->kind) {
        case OPT_BOOL: v = json_boolean(*(const bool *)field); break;
        case OPT_STRING: v = *(char *const *)field ? json_string(*(char *const *)field) : json_null(); break;
        case OPT_UINT:
            /* Below its minimum, a value can only be a default meaning
             * "not set" (throttle.max_ns_per_call). */
            v = *(const unsigned *)field < o->min ? json_null() : json_integer(*(const unsigned *)field);
            break;
        case OPT_UINT64: v = json_integer((json_int_t) * (const uint64_t *)field); break;
        case OPT_REAL: v = json_real(*(const double *)field); break;
        case OPT_ENUM: v = json_string(o->names[*(const int *)field]); break;
        case OPT_REGEX_LIST: {
            const struct ht_regex_list *l = field;
            v = json_array();
            for (size_t i = 0; i < l->count; i++)
                json_array_append_new(v, json_string(l->patterns[i]));
            break;
        }
        case OPT_RANK_SET: {
            const struct ht_rank_set *r = field;
            v = r->all ? json_string("all") : json_array();
            for (size_t i = 0; !r->all && i < r->count; i++)
                json_array_append_new(v, json_integer(r->ranks[i]));
            break;
        }
        case OPT_SECTION: v = section_json(o->section, cfg); break;
        case OPT_NAME_SET: {
            unsigned bits = *(const unsigned *)field;
            v = json_array();
            for (unsigned i = 0; o->names[i]; i++)
                if (bits & (1u << i))
                    json_array_append_new(v, json_string(o->names[i]));
            break;
        }
        case OPT_STRING_LIST: {
            const struct ht_string_list *l = field;
            v = json_array();
            for (unsigned i = 0; i < l->count; i++)
                json_array_append_new(v, json_string(l->items[i]));
            break;
        }
        }
        json_object_set_new(obj, o->key, v ? v : json_null());
    }
    return obj;
}

json_t *ht_config_json(const struct ht_config *cfg)
{
    return section_json(&top_section, cfg);
}
