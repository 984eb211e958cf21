/* Writing the profile: the text logfile, the JSON profile and the folded
 * stacks.  Every field is documented in docs/output.md. */
#ifndef HT_OUTPUT_OUTPUT_H
#define HT_OUTPUT_OUTPUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "callstack/profile.h"
#include "symbols/symbols.h"
#include "throttle/throttle.h"
#include "config/config.h"

struct ht_mpi_view; /* output_mpi.h */

/* Why a profile ends before the program did (docs/what_happens.md): the
 * process was killed by a signal, or called MPI_Abort.  Absent (NULL in
 * ht_run_info) for a complete profile. */
struct ht_partial {
    const char *reason;  /* "signal", "MPI_Abort", "fork_child"... */
    const char *signal;  /* "SIGTERM", ..., or NULL */
    bool has_errorcode;
    int errorcode;       /* MPI_Abort's */
    const char *during;  /* "MPI_Finalize": the signal came during the job's merge */
};

/* What the profile's "metadata" object says of the run, for studies over
 * many runs (Thicket, pandas; docs/output.md): gathered once at shut-down
 * (src/runtime/metadata.c), never on the hot path. */
struct ht_run_metadata {
    char **argv; /* the command line's arguments, argc of them */
    int argc;
    char host[64];           /* this process's host name */
    const char *mpi_library; /* MPI_Get_library_version's first line; NULL: no MPI */
    const char *job_id;      /* the launcher's job id; NULL: none */
    const char *job_id_variable; /* the variable it came from */
    const struct ht_config *config; /* the effective config */
};

struct ht_run_info {
    const struct ht_run_metadata *meta; /* NULL: no "metadata" object */
    const struct ht_partial *partial; /* NULL: the profile is complete */
    /* NULL, or why no MPI call was recorded: the program's MPI is not the
     * one libhooktrace was built for (src/mpi/abi.c), both named */
    const char *mpi_not_recorded;
    const char *command;      /* the command line, arguments joined by spaces */
    const char *executable;   /* absolute path of the executable */
    time_t start_time;
    /* the same to the nanosecond: an output file completed since then is a
     * concurrent run's (naming.c) */
    struct timespec start_realtime;
    double wall_seconds;      /* from start-up to the profile's end */
    /* MPI_Pcontrol(0) pauses and MPI_Pcontrol(2) resets (docs/regions.md):
     * the time paused is in no call's time, the wall time includes it */
    uint64_t pauses, resets;
    double paused_seconds;
    const char *clock_source;
    double ticks_per_second;
    double overhead_ns_per_call; /* measured by the calibration at exit */
    double overhead_seconds;     /* the above times instrumented calls */
    struct ht_throttle_info throttle;
    /* the recorded addresses this process named itself, and those it took
     * from rank 0's table (merge/names.c; docs/symbols.md) */
    size_t functions_named_here, functions_named_by_rank0;
    /* left out at compile time by the GCC plugin (docs/plugin.md): filled
     * in by ht_output_write_all(_mpi) themselves */
    struct ht_name_list uninstrumented;
    /* and the functions whose inlined copies it left out */
    struct ht_inlined_list inlined;
    /* the throttled functions' symbol names, the .exclude file they are
     * written to (NULL: none) and what the objects say of their build
     * (docs/throttle.md): filled in by ht_output_write_all(_mpi) too */
    struct ht_name_list exclude_symbols;
    const char *exclude_file;
    struct ht_build_marks build;
    /* Where an MPI profile's control variables (MPI_T) go, filled in by
     * ht_output_write_all_mpi from mpi_t.cvars_in_json (docs/mpi_t.md):
     * cvars_inline, the JSON's "mpi_t"."cvars"; else mpit_file, the name
     * of the <basename>.mpit.json written beside the JSON (NULL: none, as
     * there is nothing to list or no JSON). */
    bool cvars_inline;
    const char *mpit_file;
};

/* Writes every output the config enables into its output directory (created
 * if missing).  Problems are reported on stderr, naming the file or
 * directory; returns the number of outputs that could not be written. */
int ht_output_write_all(const struct ht_profile *profile, const struct ht_run_info *run,
                        const struct ht_config *config, const char *basename);

/* The suffix the last ht_output_write_all(_mpi) call of this process put
 * after the basename ("" if none: the name was free; ".<jobid>" when a
 * concurrent run had it; docs/files.md). */
const char *ht_output_last_suffix(void);

/* From now on, the files are named <basename><suffix>.* whatever is there
 * (an MPI job's rank files take the suffix rank 0's summary got). */
void ht_output_force_suffix(const char *suffix);

/* Appends to <dir>/<name>.log with write(f, ctx) if it is still the
 * logfile this process's last ht_output_write_all(_mpi) placed (not a file
 * or link that took its name since). */
void ht_output_append_log(const char *dir, const char *name, void (*write)(FILE *f, void *ctx),
                          void *ctx);

/* The same for an MPI run: mpi adds the MPI figures (NULL: a serial run,
 * exactly ht_output_write_all). */
int ht_output_write_all_mpi(const struct ht_profile *profile, const struct ht_run_info *run,
                            const struct ht_config *config, const char *basename,
                            const struct ht_mpi_view *mpi);

/* mpi: NULL for a serial run. */
/* How many rows a logfile table shows (outputs.log_stacks, 0: all) and
 * which stacks some table showed (NULL when all are shown). */
struct ht_log_rows {
    unsigned limit;
    bool *shown; /* [nstacks] */
};

/* Whether the next row of a table (stack id; printed: rows so far, bumped
 * when true) is shown. */
static inline bool ht_output_log_row(const struct ht_log_rows *rows, int id, size_t *printed)
{
    if (rows->limit && *printed >= rows->limit)
        return false;
    (*printed)++;
    if (rows->shown)
        rows->shown[id] = true;
    return true;
}

/* The line under a table cut at the limit (nothing if left_out is 0). */
void ht_output_log_left_out(FILE *out, size_t left_out, unsigned limit);

void ht_output_logfile(FILE *out, const struct ht_profile *profile,
                       const struct ht_run_info *run, const struct ht_config *config,
                       const struct ht_mpi_view *mpi);
/* Writes the JSON profile to f, streamed (json.c).  -1 if out of memory. */
int ht_output_json_write(FILE *f, const struct ht_profile *profile, const struct ht_run_info *run,
                         const struct ht_mpi_view *mpi);
void ht_output_folded(FILE *out, const struct ht_profile *profile);
/* The speedscope file (speedscope.c) and Hatchet's JSON (hatchet.c),
 * written by hand a piece at a time.  -1 if out of memory. */
/* summed_ranks: the ranks an MPI summary's figures are summed over (0: one
 * process's own profile). */
int ht_output_speedscope_write(FILE *f, const struct ht_profile *profile,
                               const struct ht_run_info *run, int summed_ranks);
/* Nodes deeper than this are folded into their ancestor at this depth: the
 * readers recurse (hatchet.c). */
#define HT_HATCHET_MAX_DEPTH 256
int ht_output_hatchet_write(FILE *f, const struct ht_profile *profile,
                            const struct ht_run_info *run, const struct ht_mpi_view *mpi);

/* The longest directory shared by the profile's source files that are not
 * the system's (source_root.c; docs/output.md, "source_root"), malloc'ed;
 * NULL if there is none but "/".  ht_output_relative gives file below
 * root without the root and its "/", and any other file as it is. */
char *ht_output_source_root(const struct ht_profile *profile);
const char *ht_output_relative(const char *file, const char *root);

/* Throttling as the outputs show it (throttle.c): the "throttle" JSON
 * object, the code-patching state in words ("on", "off", "refused:
 * mprotect: ..."), and the hook calls saved: the estimate of those avoided
 * less those that still reached a hook, never below 0. */
json_t *ht_output_throttle_json(const struct ht_throttle_info *th, const struct ht_profile *p);
void ht_output_throttle_patching(const struct ht_throttle_info *th, char *buf, size_t len);
double ht_output_hook_calls_saved(const struct ht_throttle_info *th, const struct ht_profile *p);
/* The throttled functions as GCC's -finstrument-functions-exclude-function-list
 * wants them, comma-separated (malloc'ed; NULL if none): the JSON keeps it
 * for scripts, but it is not exact and no longer suggested (GCC matches
 * parts of names; docs/throttle.md). */
char *ht_output_throttle_exclude_list(const struct ht_profile *p);
/* The .exclude file (exclude_file.c): run's exclude_symbols, exclude_file
 * (pointing into path) and build filled in for the profile p written as
 * <dir>/<basename>.*; the file's text; the logfile's advice; the JSON's
 * fields in the "throttle" object. */
void ht_output_exclude_prepare(const struct ht_profile *p, struct ht_run_info *run, const char *dir,
                               const char *basename, char *path, size_t len);
int ht_output_exclude_write(FILE *f, const struct ht_run_info *run);
void ht_output_logfile_exclude(FILE *out, const struct ht_run_info *run);
void ht_output_exclude_json(json_t *obj, const struct ht_run_info *run);
/* Distinct functions (name, file, line) among the throttled stacks. */
size_t ht_output_throttled_functions(const struct ht_profile *p);

/* The "metadata" object of the JSON profile and the Hatchet file
 * (metadata.c; docs/output.md); NULL without run->meta. */
json_t *ht_output_metadata_json(const struct ht_profile *p, const struct ht_run_info *run,
                                const struct ht_mpi_view *mpi);

/* name if it has at most max characters, else a shorter form of it in buf
 * (cap > max) that keeps the function's own name: return type, parameters,
 * template arguments and leading qualifiers left out in turn
 * (short_name.c; docs/output.md). */
const char *ht_output_short_name(const char *name, size_t max, char *buf, size_t cap);

/* Stack IDs of the profile ordered by the given column. */
int *ht_output_sorted_ids(const struct ht_profile *profile, enum ht_sort_column column);

#endif
