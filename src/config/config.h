/* The run-time configuration: one JSON file named by HOOKTRACE_CONFIG plus
 * environment overrides, validated once at start-up into a read-only struct.
 * Every option is documented in docs/config.md. */
#ifndef HT_CONFIG_CONFIG_H
#define HT_CONFIG_CONFIG_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/region_filter.h"

enum ht_sort_column {
    HT_SORT_TIME_EXCL = 0, /* default: exclusive time, largest first */
    HT_SORT_TIME_INCL,
    HT_SORT_CALLS,
    HT_SORT_FUNCTION, /* alphabetical */
    HT_SORT_STACK_ID
};

/* A list of POSIX extended regular expressions, matched anywhere in a
 * name.  Plain names (no operator; ^ and $ only at the ends) are looked up
 * in a hash table instead of compiled (src/config/patterns.c). */
struct ht_pattern_set;
struct ht_regex_list {
    size_t count;
    char **patterns; /* as written in the file, for the logfile header */
    size_t nregex;
    regex_t *compiled; /* the nregex patterns that are not plain; REG_NOSUB */
    double regex_cost; /* the sum of their squared sizes (src/config/patterns.h) */
    struct ht_pattern_set *plain; /* the plain ones; NULL if none */
};

/* Whether name matches any pattern of list. */
bool ht_regex_list_matches(const struct ht_regex_list *list, const char *name);
/* Whether list holds the pattern "^name$": name itself, whole. */
bool ht_regex_list_names(const struct ht_regex_list *list, const char *name);

/* A set of MPI ranks: "all", "none", or a list. */
struct ht_rank_set {
    bool all;
    size_t count;
    int *ranks;
};

struct ht_mpi_config {
    bool log_messages;            /* default true */
    struct ht_rank_set log_ranks;  /* default all */
    struct ht_rank_set rank_files; /* default none: ranks that write their own files */
    unsigned poll_interval_us;    /* default 50: the least time between two polls of
                                     open requests, per thread */
    unsigned poll_max_interval_us; /* default 10000: the most, while nothing completes */
    unsigned poll_batch;          /* default 1: requests checked per poll */
    bool poll;                    /* default true: poll open requests from hooks
                                     and wrappers (false: only the program's own
                                     completion calls see them complete) */
    unsigned rank_times_top;      /* default 16: stacks whose inclusive time the
                                     summary lists for every rank; 0: none */
    unsigned rank_profiles_all;   /* default 4: up to this many ranks the summary
                                     holds every rank's profile (the report's rank
                                     selector), beyond it three ranks'; 0: none */
};

/* Every rank's profile costs a row per stack in the summary: at 8 ranks
 * of a LULESH-like code, 8 KB each, a third of the JSON.  Beyond 4 ranks
 * the slowest, the median and the fastest rank's are kept by default
 * (docs/config.md "mpi.rank_profiles_all"; BENCHMARKS.md). */
#define HT_CONFIG_DEFAULT_RANK_PROFILES_ALL 4u

/* The most stacks mpi.rank_times_top may ask for: the merge step sends
 * their IDs in one fixed-size broadcast (src/merge/merge_rank_times.c). */
#define HT_CONFIG_MAX_RANK_TIMES_TOP 256u
/* The most ranks mpi.rank_profiles_all may ask for, for the same reason
 * (src/merge/merge_rank_profiles.c). */
#define HT_CONFIG_MAX_RANK_PROFILES_ALL 256u

/* Trace mode (docs/trace.md): an OTF2 archive of every call and message. */
struct ht_trace_config {
    bool enabled;              /* default false */
    char *folder;              /* NULL: output_directory */
    char *name;                /* NULL: <output basename>_trace */
    struct ht_regex_list include_functions; /* empty: every function */
    struct ht_regex_list exclude_functions;
    unsigned buffer_mib;       /* per-thread event memory before a flush to disk */
    uint64_t max_bytes_per_rank; /* events a process records at most; 0: no bound */
};

#define HT_CONFIG_DEFAULT_TRACE_BUFFER_MIB 16u
/* 1 GiB: far above what a throttled run writes in minutes (docs/trace.md,
 * "Volume"), small enough that a run left unbounded by mistake costs at most
 * a terabyte per thousand ranks. */
#define HT_CONFIG_DEFAULT_TRACE_MAX_BYTES_PER_RANK (1ull << 30)
#define HT_CONFIG_TRACE_MAX_BYTES_LIMIT (1ull << 62)

/* MPI_T (docs/mpi_t.md): the MPI library's control variables at start-up,
 * its performance variables per MPI call stack.  The classes are MPI's
 * performance-variable classes, in the standard's order. */
enum ht_mpit_class {
    HT_MPIT_CLASS_STATE = 0,
    HT_MPIT_CLASS_LEVEL,
    HT_MPIT_CLASS_SIZE,
    HT_MPIT_CLASS_PERCENTAGE,
    HT_MPIT_CLASS_HIGHWATERMARK,
    HT_MPIT_CLASS_LOWWATERMARK,
    HT_MPIT_CLASS_COUNTER,
    HT_MPIT_CLASS_AGGREGATE,
    HT_MPIT_CLASS_TIMER,
    HT_MPIT_CLASS_GENERIC,
    HT_MPIT_NCLASSES
};

/* How a performance variable with several elements (one per peer, say) is
 * shown: their sum, or each element on its own ("name[i]"). */
enum ht_mpit_elements { HT_MPIT_ELEMENTS_TOTAL = 0, HT_MPIT_ELEMENTS_EACH };

struct ht_mpit_config {
    bool enabled;                 /* default true: MPI_T is used at all */
    struct ht_regex_list cvars;   /* control variables the logfile lists; default none */
    /* false (default): every control variable goes to <basename>.mpit.json
     * beside the JSON profile, which keeps their number and that name;
     * true: listed in the JSON's "mpi_t"."cvars" instead (docs/mpi_t.md) */
    bool cvars_in_json;
    struct ht_regex_list pvars;   /* performance variables read, by name; default none */
    struct ht_regex_list pvar_change; /* pvars whose change is shown whatever their class */
    unsigned pvar_classes;        /* bit 1 << enum ht_mpit_class: all of that class */
    enum ht_mpit_elements pvar_elements; /* default total */
    unsigned read_interval_us;    /* 0 (default): before and after every call */
};

/* Throttling (docs/throttle.md): a function that completes more than
 * min_calls calls on one call stack, taking on average less than the
 * threshold inclusive each, stops being recorded, and its hook calls are
 * rewritten to no-ops.  The threshold is the hook pair cost measured at
 * start-up over budget (src/throttle/rule.h), unless max_ns_per_call is
 * set. */
struct ht_throttle_config {
    bool enabled;              /* default true */
    unsigned min_calls;        /* default HT_CONFIG_DEFAULT_THROTTLE_MIN_CALLS */
    double budget;             /* the hooks' share of a call's time; default 0.02 */
    unsigned max_ns_per_call;  /* 0 (default): not set, the threshold comes
                                  from the hook cost and the budget */
    struct ht_regex_list never; /* functions never throttled, by name */
    bool patch_code;           /* default true: rewrite the hook calls */
};

#define HT_CONFIG_DEFAULT_THROTTLE_MIN_CALLS 1000u
/* 2%: what the hooks may cost a function before it is throttled.  With
 * the 20 ns of a hook pair on the development machine, functions under
 * 1 us a call; docs/throttle.md, "Why these defaults". */
#define HT_CONFIG_DEFAULT_THROTTLE_BUDGET 0.02
#define HT_CONFIG_THROTTLE_BUDGET_MIN 0.0001
#define HT_CONFIG_THROTTLE_BUDGET_MAX 1.0

/* What a child made by fork() without exec writes at its exit
 * (docs/config.md "fork_children"). */
enum ht_fork_children { HT_FORK_CHILDREN_OWN = 0, HT_FORK_CHILDREN_NONE };
extern const char *const ht_fork_children_names[];

/* A list of plain strings, as given. */
struct ht_string_list {
    char **items;
    unsigned count;
};

/* Counter events a config may name: each costs a PAPI read's share and
 * two words per call-stack node. */
#define HT_CONFIG_MAX_COUNTERS 8u

/* The longest output_basename (and trace.name): 128 + "_<rank>" +
 * ".child-<pid>" + a concurrent run's suffix (at most 60) +
 * ".speedscope.json" stays within NAME_MAX (255). */
#define HT_CONFIG_BASENAME_MAX 128

struct ht_config {
    bool off;
    char *output_directory; /* never NULL after loading; default "." */
    char *output_basename; /* NULL: the executable's file name */
    enum ht_sort_column sort_by;
    struct ht_regex_list include_functions; /* empty: every function */
    struct ht_regex_list exclude_functions;
    /* A Score-P filter file (docs/config.md "filter_file"): NULL, or the
     * path as written; its rules are read when the config is. */
    char *filter_file;
    struct ht_region_filter region_filter;
    unsigned max_stack_depth; /* >= 1 */
    bool write_logfile;
    unsigned log_stacks; /* rows per logfile table (0: all); default 100 */
    unsigned progress_after_ms; /* shut-down steps on stderr after this; 1000 */
    bool write_json;
    bool write_folded;
    bool write_speedscope; /* <basename>.speedscope.json; default false */
    bool write_hatchet;    /* <basename>.hatchet.json; default false */
    bool write_html;       /* <basename>.html, from the JSON; default true */
    enum ht_fork_children fork_children; /* default own */
    /* How long a signal handler waits for the partial profile (docs/config.md
     * "signal_timeout_ms"); default 10000 */
    unsigned signal_timeout_ms;
    struct ht_mpi_config mpi;
    struct ht_trace_config trace;
    struct ht_mpit_config mpi_t;
    struct ht_throttle_config throttle;
    /* PAPI events read per call stack (docs/config.md "counters"), in the
     * order given; at most HT_CONFIG_MAX_COUNTERS; default none */
    struct ht_string_list counters;
    char *source_file; /* the config file read, or NULL for defaults only */
};

#define HT_CONFIG_DEFAULT_MAX_STACK_DEPTH 512u

/* Fills *cfg with the defaults.  Never fails. */
void ht_config_defaults(struct ht_config *cfg);

/* Reads and validates a config file.  *cfg must already hold a configuration
 * (from ht_config_defaults or an earlier load); the keys present in the file
 * replace its values.  On error returns -1, leaves *cfg in a
 * state ht_config_free accepts, and writes one human-readable message
 * (naming the file, the line where known, the key, and for an unknown key
 * the valid keys) into err.  On success returns 0. */
int ht_config_load_file(const char *path, struct ht_config *cfg, char *err, size_t errlen);
/* ht_config_load_file that goes on after a problem (hooktrace-check-config):
 * report gets every problem's message, each as ht_config_load_file writes
 * its one, in file order (a syntax error ends reading: jansson parses no
 * further).  Returns 0 when the file is valid, else -1. */
int ht_config_check_file(const char *path, struct ht_config *cfg,
                         void (*report)(void *arg, const char *message), void *arg);

/* The start-up path: defaults, then HOOKTRACE_OFF, then the file named by
 * HOOKTRACE_CONFIG (if set).  HOOKTRACE_OFF=1 wins and skips the file.
 * Returns 0, or -1 with a message in err. */
int ht_config_from_environment(struct ht_config *cfg, char *err, size_t errlen);
/* Whether this process runs setuid, setgid or with added capabilities
 * (getauxval(AT_SECURE)): then ht_config_from_environment reads nothing
 * and leaves profiling off (docs/what_happens.md). */
bool ht_config_secure_execution(void);

/* Whether a name is in the MPI standard's reserved name space: MPI_ or
 * PMPI_ in any case (the C routines, and the Fortran ones as compilers
 * spell them).  Such a function is always recorded, never rewritten away,
 * and left out of the output only by an exclude_functions entry that
 * names it whole (docs/filter.md, "MPI routines"). */
bool ht_config_name_is_mpi(const char *name);

/* Whether a function with this display name appears in the output: it must
 * match an include pattern (if there are any), no exclude pattern, and not
 * be excluded by the filter file (its MANGLED rules need the symbol name,
 * ht_config_function_filtered_out); an MPI routine only "^name$" in
 * exclude_functions leaves out. */
bool ht_config_function_kept(const struct ht_config *cfg, const char *name);

/* Whether exclude_functions or the filter file leave out the function of
 * this display name and ELF symbol name (NULL when unknown): the functions
 * whose hooks are rewritten away at start-up (docs/config.md,
 * "exclude_functions").  include_functions is not consulted; an MPI
 * routine (ht_config_name_is_mpi) never is. */
bool ht_config_function_filtered_out(const struct ht_config *cfg, const char *name,
                                     const char *symbol);

/* Whether a function with this name matches a throttle.never pattern. */
bool ht_config_function_never_throttled(const struct ht_config *cfg, const char *name);

/* The same rule with the trace section's own lists. */
bool ht_config_function_traced(const struct ht_config *cfg, const char *name);

const char *ht_sort_column_name(enum ht_sort_column c);

/* "counter", "highwatermark", ...: the names mpi_t.pvar_classes accepts,
 * indexed by enum ht_mpit_class, NULL-terminated. */
extern const char *const ht_mpit_class_names[];
/* "total", "each", indexed by enum ht_mpit_elements, NULL-terminated. */
extern const char *const ht_mpit_elements_names[];

bool ht_rank_set_contains(const struct ht_rank_set *set, int rank);

/* The config as a JSON object (jansson's, new reference), every option with
 * its value after the file and the environment: what the run used
 * (config_options.c; the profile's metadata.config, docs/output.md). */
struct json_t *ht_config_json(const struct ht_config *cfg);

void ht_config_free(struct ht_config *cfg);

#endif
