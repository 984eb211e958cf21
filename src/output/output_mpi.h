/* What the outputs show about an MPI run besides the profile itself: the
 * message figures of each rank on each stack, the spread of times over
 * ranks, and the communication matrices.  src/mpi fills it (the summary on
 * rank 0 after the cross-rank merge, or one rank's own view); the outputs
 * only read it.  Every field is documented in docs/output_mpi.md. */
#ifndef HT_OUTPUT_OUTPUT_MPI_H
#define HT_OUTPUT_OUTPUT_MPI_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "callstack/profile.h"
#include "config/config.h"
#include "output/output_mpit.h"

/* One rank's figures on one stack (summed over its threads).  Also the
 * record the merge sends to rank 0, so plain data only. */
struct ht_mpi_rank_figures {
    int32_t rank;
    int32_t stack; /* ID in the profile the view goes with */
    uint64_t calls;
    double time_incl, time_excl;
    uint64_t messages_sent, messages_received;
    uint64_t bytes_sent, bytes_received;
    double seconds_sent, seconds_received; /* summed message durations */
};

/* One cell of a communication matrix, in world ranks, counted by the
 * sender.  Also a wire record. */
struct ht_mpi_cell {
    int32_t sender, receiver;
    uint64_t messages, bytes;
};

/* Inclusive time of one stack over the ranks: a rank that never entered the
 * stack counts as 0.  Ties go to the lowest rank. */
struct ht_mpi_spread {
    double min, max;
    int32_t min_rank, max_rank;
};

/* Every rank's inclusive time (summed over its threads; 0 if it never
 * entered the stack) on the K stacks with the largest inclusive time on
 * any one rank, for the summary's per-rank bars (mpi.rank_times_top). */
struct ht_mpi_rank_times {
    size_t count;     /* K; 0: none */
    int32_t *stacks;  /* [count]: stack IDs, the largest maximum first */
    double *seconds;  /* [nranks * count]: rank r on stacks[j] at r * count + j */
    int32_t *row_of;  /* [nstacks]: j with stacks[j] the stack, or -1 */
};

/* The whole profile of a few ranks, for the HTML report's rank selector
 * (the summary's "rank_profiles"): every rank up to mpi.rank_profiles_all
 * ranks, else the slowest, the median and the fastest (merge_rank_profiles.c);
 * and with outputs.hatchet every rank's, for the Hatchet file. */
struct ht_mpi_rank_row {
    int32_t stack, unused;      /* the summary's stack ID */
    uint64_t calls;             /* the rank's, summed over its threads */
    double time_incl, time_excl;
};
struct ht_mpi_rank_profile {
    int rank;
    const char *why;            /* "every rank", "slowest", "median", "fastest" */
    double time_incl;           /* its recorded time: its root stacks' inclusive time */
    size_t first, count;        /* its rows: rows[first .. first + count), by stack ID */
};
struct ht_mpi_rank_profiles {
    size_t count;               /* ranks; 0: none */
    struct ht_mpi_rank_profile *ranks;
    struct ht_mpi_rank_row *rows;
    /* With outputs.hatchet, every rank's rows, for the Hatchet file's
     * (node, rank) frame: rank r's are rows[every_first[r] ..
     * every_first[r + 1]), by stack ID; NULL if some rank's could not be
     * had (the file then has per-rank arrays where the summary has them). */
    size_t *every_first;        /* [nranks + 1] or NULL */
};

/* What rank 0 knows about each rank for the per-rank table. */
struct ht_mpi_rank_summary {
    bool profiled;      /* false: the rank could not build a profile */
    int threads;
    double wall_seconds;
    uint64_t calls_recorded;
    char host[64];      /* its host name ("": unknown) */
};

struct ht_mpi_view {
    int nranks;              /* MPI_COMM_WORLD size */
    int rank;                /* -1: all ranks merged; else this rank's own files */
    /* [nstacks]: summed message durations of each stack, seconds */
    const double *seconds_sent, *seconds_received;
    /* Per-rank figures of the stacks with messages, ordered by stack then
     * rank; those of stack s are figures[figures_start[s] .. figures_start[s+1]). */
    const struct ht_mpi_rank_figures *figures;
    const size_t *figures_start; /* [nstacks + 1] */
    const struct ht_mpi_spread *spread;       /* [nstacks], or NULL */
    const struct ht_mpi_rank_summary *ranks;  /* [nranks], or NULL */
    /* Nonzero cells, ordered by sender then receiver. */
    const struct ht_mpi_cell *comm, *coll;
    size_t ncomm, ncoll;
    bool merge_failed;       /* the summary could not be built (the per-rank view) */
    const struct ht_mpit_view *mpit; /* MPI_T (output_mpit.h), or NULL */
    const struct ht_mpi_rank_times *rank_times; /* (summary) or NULL: none */
    const struct ht_mpi_rank_profiles *rank_profiles; /* (summary) or NULL: none */
};

/* Whether a stack moved any message. */
static inline bool ht_output_stack_has_messages(const struct ht_stack *s)
{
    return s->total.mpi.messages_sent != 0 || s->total.mpi.messages_received != 0;
}

/* JSON (json_mpi.c): the top-level fields before "stacks", the fields of one
 * stack, and the matrices after "stacks". */
void ht_output_json_mpi_top(json_t *doc, const struct ht_mpi_view *mpi,
                            const struct ht_run_info *run);
void ht_output_json_mpi_stack(json_t *obj, const struct ht_stack *s, const struct ht_mpi_view *mpi);
void ht_output_json_mpi_matrices(json_t *doc, const struct ht_mpi_view *mpi);

/* Logfile (logfile_mpi.c): the header line(s), and the MPI tables that go
 * between the runtime tables and the stack list. */
void ht_output_logfile_mpi_header(FILE *out, const struct ht_mpi_view *mpi,
                                  const struct ht_config *config, const struct ht_run_info *run);
void ht_output_logfile_mpi_tables(FILE *out, const struct ht_profile *p, const int *order,
                                  const struct ht_mpi_view *mpi, const struct ht_log_rows *rows);

/* The per-rank times of the top stacks (rank_times.c): the JSON's
 * top-level "rank_time_stacks", one stack's "rank_time_incl_s", and the
 * logfile's table.  Each does nothing without mpi->rank_times. */
void ht_output_json_rank_times_top(json_t *doc, const struct ht_mpi_view *mpi);
void ht_output_json_rank_times_stack(json_t *obj, const struct ht_stack *s,
                                     const struct ht_mpi_view *mpi);
void ht_output_logfile_rank_times(FILE *out, const struct ht_profile *p,
                                  const struct ht_mpi_view *mpi, const struct ht_log_rows *rows);
/* The summary's "rank_profiles" (rank_times.c), after the matrices: one
 * line per rank.  Nothing without mpi->rank_profiles.  0, or -1. */
int ht_output_json_rank_profiles(FILE *f, const struct ht_mpi_view *mpi, size_t json_flags);

/* Bandwidth in MB/s (10^6 bytes per second, 4 significant digits) into
 * buf: "0" if no bytes moved, "-" if bytes moved in no measurable time. */
const char *ht_output_bandwidth(char *buf, size_t size, uint64_t bytes, double seconds);

#endif
