/* Defaults, environment overrides, the function filter and clean-up.  The
 * config file itself is read in config_file.c. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <strings.h>

#include "config/config.h"
#include "config/config_internal.h"
#include "config/patterns.h"

const char *const ht_fork_children_names[] = {"own", "none", NULL};

const char *const ht_sort_column_names[] = {
    [HT_SORT_TIME_EXCL] = "time_excl",
    [HT_SORT_TIME_INCL] = "time_incl",
    [HT_SORT_CALLS] = "calls",
    [HT_SORT_FUNCTION] = "function",
    [HT_SORT_STACK_ID] = "stack_id",
    [HT_SORT_STACK_ID + 1] = NULL,
};

const char *const ht_mpit_class_names[] = {
    [HT_MPIT_CLASS_STATE] = "state",
    [HT_MPIT_CLASS_LEVEL] = "level",
    [HT_MPIT_CLASS_SIZE] = "size",
    [HT_MPIT_CLASS_PERCENTAGE] = "percentage",
    [HT_MPIT_CLASS_HIGHWATERMARK] = "highwatermark",
    [HT_MPIT_CLASS_LOWWATERMARK] = "lowwatermark",
    [HT_MPIT_CLASS_COUNTER] = "counter",
    [HT_MPIT_CLASS_AGGREGATE] = "aggregate",
    [HT_MPIT_CLASS_TIMER] = "timer",
    [HT_MPIT_CLASS_GENERIC] = "generic",
    [HT_MPIT_NCLASSES] = NULL,
};

const char *const ht_mpit_elements_names[] = {
    [HT_MPIT_ELEMENTS_TOTAL] = "total",
    [HT_MPIT_ELEMENTS_EACH] = "each",
    [HT_MPIT_ELEMENTS_EACH + 1] = NULL,
};

/* Static so that ht_config_defaults cannot fail; ht_config_set_string and
 * ht_config_free recognise it by address and never free it. */
static char default_output_directory[] = ".";

void ht_config_defaults(struct ht_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->off = false;
    cfg->output_directory = default_output_directory;
    cfg->output_basename = NULL;
    cfg->sort_by = HT_SORT_TIME_EXCL;
    cfg->max_stack_depth = HT_CONFIG_DEFAULT_MAX_STACK_DEPTH;
    cfg->write_logfile = true;
    cfg->log_stacks = 100;
    cfg->progress_after_ms = 1000;
    cfg->write_json = true;
    cfg->write_folded = true;
    cfg->write_html = true;
    cfg->fork_children = HT_FORK_CHILDREN_OWN;
    cfg->signal_timeout_ms = 10000;
    cfg->mpi.log_messages = true;
    cfg->mpi.log_ranks.all = true;
    cfg->mpi.poll_interval_us = 50;
    cfg->mpi.poll_max_interval_us = 10000;
    cfg->mpi.poll_batch = 1;
    cfg->mpi.poll = true;
    cfg->mpi.rank_times_top = 16;
    cfg->mpi.rank_profiles_all = HT_CONFIG_DEFAULT_RANK_PROFILES_ALL;
    cfg->trace.buffer_mib = HT_CONFIG_DEFAULT_TRACE_BUFFER_MIB;
    cfg->trace.max_bytes_per_rank = HT_CONFIG_DEFAULT_TRACE_MAX_BYTES_PER_RANK;
    cfg->mpi_t.enabled = true;
    cfg->throttle.enabled = true;
    cfg->throttle.min_calls = HT_CONFIG_DEFAULT_THROTTLE_MIN_CALLS;
    cfg->throttle.budget = HT_CONFIG_DEFAULT_THROTTLE_BUDGET;
    cfg->throttle.max_ns_per_call = 0;
    cfg->throttle.patch_code = true;
    cfg->source_file = NULL;
}

void ht_rank_set_free(struct ht_rank_set *set)
{
    free(set->ranks);
    set->ranks = NULL;
    set->count = 0;
    set->all = false;
}

bool ht_rank_set_contains(const struct ht_rank_set *set, int rank)
{
    if (set->all)
        return true;
    for (size_t i = 0; i < set->count; i++)
        if (set->ranks[i] == rank)
            return true;
    return false;
}

static void free_string(char *s)
{
    if (s != default_output_directory)
        free(s);
}

int ht_config_set_string(char **field, const char *value)
{
    char *copy = strdup(value);
    if (!copy)
        return -1;
    free_string(*field);
    *field = copy;
    return 0;
}

void ht_regex_list_free(struct ht_regex_list *list)
{
    for (size_t i = 0; i < list->nregex; i++)
        regfree(&list->compiled[i]);
    ht_pattern_set_free(list->plain);
    for (size_t i = 0; i < list->count; i++)
        free(list->patterns[i]);
    free(list->compiled);
    free(list->patterns);
    *list = (struct ht_regex_list){0};
}

void ht_config_free(struct ht_config *cfg)
{
    free_string(cfg->output_directory);
    free(cfg->output_basename);
    free(cfg->source_file);
    ht_regex_list_free(&cfg->include_functions);
    ht_regex_list_free(&cfg->exclude_functions);
    free(cfg->filter_file);
    ht_region_filter_free(&cfg->region_filter);
    ht_rank_set_free(&cfg->mpi.log_ranks);
    ht_rank_set_free(&cfg->mpi.rank_files);
    free(cfg->trace.folder);
    free(cfg->trace.name);
    ht_regex_list_free(&cfg->trace.include_functions);
    ht_regex_list_free(&cfg->trace.exclude_functions);
    ht_regex_list_free(&cfg->mpi_t.cvars);
    ht_regex_list_free(&cfg->mpi_t.pvars);
    ht_regex_list_free(&cfg->mpi_t.pvar_change);
    ht_regex_list_free(&cfg->throttle.never);
    ht_string_list_free(&cfg->counters);
    /* Back to the defaults so that a second free, or a use after free, is
     * harmless rather than a double free. */
    ht_config_defaults(cfg);
}

const char *ht_sort_column_name(enum ht_sort_column c)
{
    if ((unsigned)c < sizeof ht_sort_column_names / sizeof ht_sort_column_names[0] - 1)
        return ht_sort_column_names[c];
    return "unknown";
}


static bool passes(const struct ht_regex_list *include, const struct ht_regex_list *exclude,
                   const char *name)
{
    if (!name)
        return false;
    if (include->count > 0 && !ht_regex_list_matches(include, name))
        return false;
    return !ht_regex_list_matches(exclude, name);
}

bool ht_config_name_is_mpi(const char *name)
{
    return name && (strncasecmp(name, "MPI_", 4) == 0 || strncasecmp(name, "PMPI_", 5) == 0);
}

/* Whether exclude_functions or the filter file leave the function out of
 * the output.  An MPI routine only when exclude_functions names it whole
 * ("^MPI_Wtime$"): no pattern that merely matches one filters it out by
 * accident ("EXCLUDE *" is a common first rule, and an unanchored regular
 * expression, "Send", "MPI_*", matches more than it seems to), and the
 * filter file never applies to MPI routines (Score-P's does not either). */
static bool excluded(const struct ht_config *cfg, const char *name, const char *symbol)
{
    if (ht_config_name_is_mpi(name))
        return ht_regex_list_names(&cfg->exclude_functions, name);
    return ht_regex_list_matches(&cfg->exclude_functions, name) ||
           ht_region_filter_excludes(&cfg->region_filter, name, symbol);
}

bool ht_config_function_kept(const struct ht_config *cfg, const char *name)
{
    if (!name)
        return false;
    if (cfg->include_functions.count > 0 && !ht_regex_list_matches(&cfg->include_functions, name))
        return false;
    return !excluded(cfg, name, NULL);
}

bool ht_config_function_filtered_out(const struct ht_config *cfg, const char *name,
                                     const char *symbol)
{
    return name && !ht_config_name_is_mpi(name) && excluded(cfg, name, symbol);
}

bool ht_config_function_never_throttled(const struct ht_config *cfg, const char *name)
{
    return name && ht_regex_list_matches(&cfg->throttle.never, name);
}

bool ht_config_function_traced(const struct ht_config *cfg, const char *name)
{
    return passes(&cfg->trace.include_functions, &cfg->trace.exclude_functions, name);
}

/* Returns 1 for "off", 0 for "leave on", -1 for a value we do not accept:
 * guessing at a typo such as HOOKTRACE_OFF=ture would silently profile a
 * run the user meant to leave alone, or the other way round. */
static int parse_off(const char *v)
{
    static const char *const yes[] = {"1", "true", "yes", "on"};
    static const char *const no[] = {"0", "false", "no", "off", ""};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (strcasecmp(v, yes[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (strcasecmp(v, no[i]) == 0)
            return 0;
    return -1;
}

bool ht_config_secure_execution(void)
{
    return getauxval(AT_SECURE) != 0;
}

int ht_config_from_environment(struct ht_config *cfg, char *err, size_t errlen)
{
    ht_config_defaults(cfg);
    /* A setuid or setgid program (or one given capabilities) runs with
     * more rights than whoever set its environment: a HOOKTRACE_CONFIG or
     * HOOKTRACE_OUTPUT_DIRECTORY would let them read and create files with
     * those rights.  No variable is read, no config file either (the
     * default output folder, the current one, is theirs too): profiling is
     * off. */
    if (ht_config_secure_execution()) {
        cfg->off = true;
        return 0;
    }

    const char *off = getenv("HOOKTRACE_OFF");
    if (off) {
        int v = parse_off(off);
        if (v < 0) {
            snprintf(err, errlen,
                     "HOOKTRACE_OFF=\"%s\" is not understood: set it to 1, true, yes or on to "
                     "turn profiling off, or to 0, false, no, off or nothing to leave it on",
                     off);
            return -1;
        }
        if (v == 1) {
            /* Off must work even when the config file is broken: it is the
             * user's way out. */
            cfg->off = true;
            return 0;
        }
    }

    const char *path = getenv("HOOKTRACE_CONFIG");
    if (path && *path) {
        if (ht_config_load(path, "HOOKTRACE_CONFIG", cfg, err, errlen) != 0)
            return -1;
    }

    const char *dir = getenv("HOOKTRACE_OUTPUT_DIRECTORY");
    if (dir && *dir && ht_config_set_string(&cfg->output_directory, dir) != 0) {
        snprintf(err, errlen, "out of memory while reading HOOKTRACE_OUTPUT_DIRECTORY");
        return -1;
    }
    return 0;
}

void ht_config_vappendf(char *buf, size_t size, size_t *pos, const char *fmt, va_list ap)
{
    if (*pos >= size)
        return;
    int n = vsnprintf(buf + *pos, size - *pos, fmt, ap);
    if (n < 0)
        return;
    *pos = (size_t)n >= size - *pos ? size : *pos + (size_t)n;
}

void ht_config_appendf(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ht_config_vappendf(buf, size, pos, fmt, ap);
    va_end(ap);
}
