/* The pieces of the cross-rank merge (merge.c runs them in order):
 *
 *   merge_paths.c    a set of call paths keyed by function (name, file,
 *                    line) and parent, its wire form, and the numbering of
 *                    stack IDs (depth first, callees in name order)
 *   merge_tree.c     the path sets merged up a binomial tree to rank 0, the
 *                    global table broadcast back, local IDs mapped to it
 *   merge_local.c    one rank's own MPI view (per-rank files) and its row
 *                    of the communication matrices
 *   merge_reduce.c   every stack's sums and spread over the ranks
 *   merge_rank_times.c  every rank's inclusive time on the top K stacks
 *   merge_rank_profiles.c  the whole profile of a few ranks (the report's selector)
 *   merge_summary.c  on rank 0: the merged profile and view, written
 */
#ifndef HT_MERGE_MERGE_INTERNAL_H
#define HT_MERGE_MERGE_INTERNAL_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callstack/profile.h"
#include "output/output.h"
#include "output/output_mpi.h"

/* --- merge_paths.c -------------------------------------------------------- */

/* A node of a path set: one function called from the node `parent` (-1: a
 * root).  Strings belong to the set, or to the profile it was filled from. */
struct ht_path_node {
    int parent;
    unsigned line;
    const char *name;
    const char *file; /* NULL if unknown */
};

struct ht_pathset {
    struct ht_path_node *nodes; /* every parent before its children */
    size_t count, capacity;
    int *slots;                 /* node index + 1; 0 = empty */
    size_t slot_mask;
    char **buffers;             /* wire buffers the strings point into */
    size_t nbuffers, buffer_capacity;
};

void ht_pathset_init(struct ht_pathset *set);
void ht_pathset_free(struct ht_pathset *set);

/* The node (parent, function), added if missing: its index, or -1 if out of
 * memory. */
int ht_pathset_add(struct ht_pathset *set, int parent, const char *name, const char *file,
                   unsigned line);
/* The node, or -1 if the set has none. */
int ht_pathset_find(const struct ht_pathset *set, int parent, const char *name,
                    const char *file, unsigned line);

/* Adds every stack of the profile; index_of[id] receives the stack's node.
 * Returns 0 or -1. */
int ht_pathset_add_profile(struct ht_pathset *set, const struct ht_profile *profile,
                           int *index_of);

/* The wire form of the set, nodes in the order given (order[k] = the node
 * at position k, parents first; NULL: the set's own order).  Returns 0 or
 * -1; *buf is malloc'ed. */
int ht_pathset_serialize(const struct ht_pathset *set, const int *order, char **buf,
                         uint64_t *len);

/* Adds the nodes of a wire buffer and takes ownership of it (freed even on
 * failure).  Into an empty set, node k of the buffer becomes node k.
 * Returns the number of nodes in the buffer, or -1 if out of memory or the
 * buffer is malformed.  With map_out, *map_out[k] is the set node of the
 * buffer's node k (malloc'ed; NULL on failure). */
long ht_pathset_merge_wire(struct ht_pathset *set, char *buf, uint64_t len, int **map_out);

/* The order of the stack IDs: order[id] = node, depth first from the roots,
 * callees sorted by name, file, line, as ht_profile_build numbers a local
 * profile.  Returns a malloc'ed array of set->count entries, or NULL. */
int *ht_pathset_number(const struct ht_pathset *set);

/* --- merge_tree.c --------------------------------------------------------- */

/* The unified stacks.  Rank 0 holds the whole table (node index = global
 * stack ID); every rank holds its own set (its stacks and those of the
 * ranks below it in the tree) with each node's global ID, and never the
 * stacks of ranks elsewhere. */
struct ht_global_paths {
    struct ht_pathset set; /* rank 0: the global table; elsewhere empty */
    size_t nstacks;        /* G, the number of global stacks, on every rank */
    struct ht_pathset own; /* this rank's set */
    int *own_ids;          /* [own.count]: the global ID of each node */
    int nthreads;          /* the most threads any rank had */
    bool failed;           /* the merge cannot go on: on every rank if rank
                              0 says so, else on this rank only (the caller
                              agrees with the others before going on) */
};

void ht_global_paths_free(struct ht_global_paths *global);

/* Collective over comm.  profile may be NULL.  gid_of[local id] receives
 * the global ID of each local stack.  nthreads_max is read on rank 0 only
 * and broadcast in global->nthreads. */
/* Byte strings between ranks, in chunks (merge_tree.c).  A length of
 * HT_BLOB_FAILED says the sender failed; a receiver that cannot keep the
 * data still takes it (into scratch) and gets *buf NULL. */
#define HT_BLOB_FAILED UINT64_MAX
void ht_blob_send(const char *buf, uint64_t len, int dest, MPI_Comm comm);
void ht_blob_recv(int src, MPI_Comm comm, char **buf, uint64_t *len);
/* From rank 0 to all; *ok becomes false where the copy could not be kept. */
void ht_blob_bcast(char **buf, uint64_t len, int rank, MPI_Comm comm, bool *ok);
/* PMPI_Bcast for the ranks that wait while rank 0 works alone (names the
 * functions, writes the summary): they sleep between tests instead of
 * spinning, which on a node with more ranks than cores takes rank 0's CPU. */
void ht_bcast_waiting_lazily(void *buf, int count, MPI_Datatype type, MPI_Comm comm);

/* Up a binomial tree to rank 0: in round k a rank whose bit k is its
 * lowest set bit sends outgoing()'s bytes to rank - 2^k and is done; a
 * rank with bit k clear gives incoming() the bytes of rank + 2^k (which it
 * then owns).  A rank that failed (ok false, or a callback returned false)
 * sends a failure mark instead, which reaches rank 0.  Returns whether this
 * rank and every rank below it did well; *parent (may be NULL) is where
 * this rank sent, -1 on rank 0. */
struct ht_blob_tree {
    /* *buf and *len: what to send; *owned (or NULL): freed after it */
    bool (*outgoing)(void *ctx, const char **buf, uint64_t *len, char **owned);
    bool (*incoming)(void *ctx, int child, char *buf, uint64_t len);
};
bool ht_blob_tree_up(MPI_Comm comm, int rank, int size, bool ok,
                     const struct ht_blob_tree *tree, void *ctx, int *parent);

void ht_merge_paths(MPI_Comm comm, const struct ht_profile *profile, int *gid_of,
                    int nthreads_max, struct ht_global_paths *global);

/* --- merge_local.c -------------------------------------------------------- */

struct ht_mpi_local {
    struct ht_mpi_view view;
    double *seconds;            /* [2 * nstacks]: sent, then received */
    struct ht_mpi_rank_figures *figures;
    size_t *start;
    struct ht_mpi_cell *cells;  /* comm cells, then coll cells */
};

/* This rank's view of its own profile (p may be NULL: no figures).
 * Returns 0, or -1 if out of memory (lv is then empty but freeable). */
int ht_mpi_local_build(struct ht_mpi_local *lv, const struct ht_profile *p, int rank,
                       int nranks, double seconds_per_tick);
void ht_mpi_local_free(struct ht_mpi_local *lv);

/* --- merge_summary.c ------------------------------------------------------ */

/* What every rank tells rank 0 about itself (fixed size, gathered). */
struct ht_merge_rank_info {
    int32_t profiled, nthreads;
    uint64_t instrumented_calls, inlined_calls, folded_calls, mismatched_exits, tree_nodes, tree_bytes;
    uint64_t out_of_memory, has_mpi;
    uint64_t nfigures, ncomm, ncoll;
    uint64_t throttled_hook_calls, sites_patched, sites_unpatched, nested_hooks_declined;
    int64_t patch_refused_errno;
    double wall_seconds, overhead_seconds, time_excluded_at_root, hook_calls_avoided;
    char host[64]; /* the profile's metadata.hosts */
};

/* Dense per-stack arrays: stride u64: calls and folded calls per thread,
 * then messages sent, received, bytes sent, received, the number of
 * ranks where the stack's function was throttled plus HT_MERGE_INLINED_RANK
 * times the ranks where it holds counted inlined copies, and the stack's counters
 * (ncounters inclusive, then as many exclusive, as int64 in u64 words:
 * two's complement sums the same); stride f64: inclusive
 * and exclusive seconds per thread, then message seconds sent, received. */
#define HT_MERGE_U64_STRIDE(nthreads, ncounters) \
    (2 * (size_t)(nthreads) + 5 + 2 * (size_t)(ncounters))
/* The word sums over ranks: a rank count fits in its low 32 bits. */
#define HT_MERGE_INLINED_RANK ((uint64_t)1 << 32)
#define HT_MERGE_F64_STRIDE(nthreads) (2 * (size_t)(nthreads) + 2)

struct ht_double_int {
    double value;
    int rank;
};

/* --- sparse_rows.c -------------------------------------------------------- */

/* Rows of `width` doubles keyed by global stack ID, as a rank has them
 * only for the stacks it has figures for. */
struct ht_rows {
    char *data;
    size_t count, capacity, width;
};
typedef void (*ht_rows_combine)(double *into, const double *from, size_t width);
/* A new row (its values uninitialised), or NULL if out of memory. */
double *ht_rows_add(struct ht_rows *rows, uint64_t id);
uint64_t *ht_rows_id(const struct ht_rows *rows, size_t i);
double *ht_rows_values(const struct ht_rows *rows, size_t i);
/* Collective over comm: every rank's rows, rows with the same ID combined,
 * end in rank 0's (up a binomial tree; the other ranks' rows are left as
 * they were sent).  ok false: this rank has nothing valid to give.
 * Returns false on rank 0 if any rank failed. */
bool ht_rows_reduce(MPI_Comm comm, int rank, int size, struct ht_rows *rows, bool ok,
                    ht_rows_combine combine);

/* --- merge_reduce.c ------------------------------------------------------- */

struct ht_merge_reduce_input {
    MPI_Comm comm;
    int rank, size;
    const struct ht_profile *profile; /* NULL: this rank contributes nothing */
    const int *gid_of;                /* [profile->nstacks] */
    int nthreads;                     /* the global thread count (strides) */
    unsigned ncounters;               /* counter events, the same on every rank */
    double seconds_per_tick;
    size_t nstacks;                   /* global stacks (rank 0) */
};

struct ht_merge_reduce_output { /* rank 0's dense arrays, zeroed */
    uint64_t *u64;
    double *f64;
    struct ht_double_int *min, *max;
};

/* Collective over comm (a binomial tree of sparse lists): rank 0 gets
 * every stack's sums and its least and most inclusive time over the ranks
 * in out (ignored elsewhere).  Returns false on rank 0 if any rank failed;
 * the caller broadcasts the verdict. */
bool ht_merge_reduce(const struct ht_merge_reduce_input *in, struct ht_merge_reduce_output *out);

/* --- merge_rank_times.c --------------------------------------------------- */

struct ht_merge_rank_times_input {
    MPI_Comm comm;
    int rank, size;
    const struct ht_profile *profile;     /* NULL: this rank has no stack */
    const int *gid_of;                    /* [profile->nstacks] */
    unsigned top;                         /* K asked for (read on rank 0) */
    const struct ht_double_int *max;      /* rank 0: [nstacks], the reduction's */
    size_t nstacks;                       /* rank 0: G */
};

/* Collective over comm (one PMPI_Bcast, then one PMPI_Gather unless rank 0
 * sends K = 0): rank 0 gets in out the top K stacks (largest maximum
 * first, the lower ID on a tie) and every rank's inclusive time on each;
 * out stays empty elsewhere, and on rank 0 if it ran out of memory. */
void ht_merge_rank_times(const struct ht_merge_rank_times_input *in, struct ht_mpi_rank_times *out);
void ht_mpi_rank_times_free(struct ht_mpi_rank_times *t);

/* --- merge_rank_profiles.c ------------------------------------------------ */

struct ht_merge_rank_profiles_input {
    MPI_Comm comm;
    int rank, size;
    const struct ht_profile *profile;     /* NULL: this rank has no stack */
    const int *gid_of;                    /* [profile->nstacks] */
    unsigned all;                         /* mpi.rank_profiles_all (read on rank 0) */
    bool every;                           /* outputs.hatchet: every rank's rows too
                                             (read on rank 0) */
};

/* Collective over comm (merge_rank_profiles.c says which): rank 0 gets in
 * out the chosen ranks' rows; out stays empty elsewhere, and on rank 0 if
 * it ran out of memory. */
void ht_merge_rank_profiles(const struct ht_merge_rank_profiles_input *in,
                            struct ht_mpi_rank_profiles *out);
void ht_mpi_rank_profiles_free(struct ht_mpi_rank_profiles *t);

/* Everything rank 0 has after the reductions and gathers. */
struct ht_merge_result {
    const struct ht_global_paths *global;
    int nranks;
    const struct ht_merge_rank_info *infos;   /* [nranks] */
    unsigned ncounters;                       /* counter events in u64 */
    const uint64_t *u64;                      /* [nstacks * u64 stride] */
    const double *f64;                        /* [nstacks * f64 stride] */
    const struct ht_double_int *min, *max;    /* [nstacks] */
    struct ht_mpi_rank_figures *figures;      /* gathered, rank-major */
    size_t nfigures;
    const struct ht_mpi_cell *cells;          /* gathered: per rank comm, then coll */
    size_t ncells;
    const struct ht_mpit_view *mpit;          /* MPI_T figures over ranks (mpit_merge.c) */
    const struct ht_mpi_rank_times *rank_times; /* the top stacks per rank, or NULL */
    const struct ht_mpi_rank_profiles *rank_profiles; /* a few ranks' stacks, or NULL */
};

/* On rank 0: builds the merged profile and view and writes them. */
void ht_merge_write_summary(const struct ht_merge_result *r, const struct ht_profile *own,
                            const struct ht_run_info *run, const struct ht_config *config,
                            const char *basename);

#endif
