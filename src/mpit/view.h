/* What MPI_T (src/mpit) hands to the merge and the outputs: the MPI
 * library's control variables read at start-up, the performance variables
 * read around MPI calls, and their values per stack over ranks.  src/mpit
 * and src/merge fill it; the outputs only read it.  Every field is
 * documented in docs/mpi_t.md and docs/output_mpi.md. */
#ifndef HT_MPIT_VIEW_H
#define HT_MPIT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"

enum ht_mpit_value_kind {
    HT_MPIT_VALUE_NONE,   /* not read: see `unread` */
    HT_MPIT_VALUE_INT,
    HT_MPIT_VALUE_UINT,
    HT_MPIT_VALUE_REAL,
    HT_MPIT_VALUE_BOOL,
    HT_MPIT_VALUE_STRING
};

/* At most this many elements of a control variable with several are kept. */
#define HT_MPIT_CVAR_MAX_ELEMENTS 16

union ht_mpit_number {
    int64_t i;
    uint64_t u;
    double d;
};

/* One control variable as the rank read it after MPI_Init. */
struct ht_mpit_cvar {
    const char *name;
    const char *description;  /* "" if the library gives none */
    const char *type;         /* "int", "unsigned long", "char", ... */
    const char *scope;        /* "constant", "readonly", "local", "group", ... */
    const char *verbosity;    /* "user_basic" ... "mpidev_all" */
    const char *binding;      /* "no_object", "comm", ... */
    enum ht_mpit_value_kind kind;
    int count;                /* elements the library reports */
    int nvalues;              /* elements kept in values (<= HT_MPIT_CVAR_MAX_ELEMENTS) */
    union ht_mpit_number values[HT_MPIT_CVAR_MAX_ELEMENTS];
    const char *string;       /* HT_MPIT_VALUE_STRING */
    const char *enum_item;    /* the enumeration item naming an integer value, or NULL */
    const char *unread;       /* HT_MPIT_VALUE_NONE: why */
};

/* One performance variable hooktrace reads. */
struct ht_mpit_pvar_desc {
    const char *name;
    const char *description;
    const char *class_name;   /* "counter", "level", ... (ht_mpit_class_names) */
    const char *type;
    const char *binding;      /* "no_object" or "comm" (bound to MPI_COMM_WORLD) */
    const char *aggregation;  /* "change", "max" or "min": see docs/mpi_t.md */
    int count;                /* elements */
    bool continuous, readonly, atomic;
    bool integral;            /* an integer type: min and max are integers */
    uint64_t failed_reads;    /* summed over ranks (summary) or this rank */
};

/* One column of figures: a performance variable, or one element of it
 * (mpi_t.pvar_elements "each"). */
struct ht_mpit_slot {
    const char *name;         /* the pvar's name, or "name[element]" */
    int pvar;                 /* index in pvars */
    int element;              /* -1: the elements summed */
};

/* One slot on one stack over ranks.  ranks == 0: no rank read it there. */
struct ht_mpit_stat {
    double min, sum, max;
    uint32_t ranks;
};

struct ht_mpit_view {
    bool initialized;          /* MPI_T_init_thread succeeded */
    const char *status;        /* one line: why MPI_T is not used, or NULL */
    const struct ht_regex_list *listed_cvars; /* mpi_t.cvars: cvars the logfile lists */
    const struct ht_mpit_cvar *cvars;
    size_t ncvars;
    int cvar_rank;             /* the rank whose cvars these are */
    /* NULL: cvars lists every control variable cvar_rank read.  Otherwise
     * a rank's file written without a merge, not rank 0's: cvars is
     * empty, and the job's list (rank 0's) is in the file named here
     * (<basename>_0.mpit.json, or <basename>_0.json with
     * mpi_t.cvars_in_json; docs/mpi_t.md). */
    const char *cvars_complete_in;
    size_t cvars_read;         /* how many cvar_rank read (the list's length when complete) */
    double startup_s;          /* that rank's MPI_T start-up */
    bool started_late;         /* at MPI_Finalize (no pvars), not inside MPI_Init */
    /* The routine MPI_T was started in, as users read it: "MPI_Init",
     * "MPI_Session_init" (a sessions program) or "MPI_Finalize"; NULL: not
     * started on this rank. */
    const char *started_in;
    const struct ht_mpit_pvar_desc *pvars;
    size_t npvars;
    const struct ht_mpit_slot *slots;
    size_t nslots;
    /* [nstacks * nslots], stack-major, indexed by the profile's stack IDs;
     * NULL if no performance variable was read. */
    const struct ht_mpit_stat *stats;
    size_t nstacks;
    unsigned read_interval_us; /* mpi_t.read_interval_us */
    const char *const *notes;  /* problems worth a line in the outputs */
    size_t nnotes;
};

/* The stat of a slot on a stack, or NULL if the view has none. */
static inline const struct ht_mpit_stat *ht_mpit_stat_of(const struct ht_mpit_view *v, int stack,
                                                         size_t slot)
{
    if (!v->stats || stack < 0 || (size_t)stack >= v->nstacks || slot >= v->nslots)
        return NULL;
    return &v->stats[(size_t)stack * v->nslots + slot];
}

/* The MPI_T part of an output view and the memory it owns. */
struct ht_mpit_output {
    struct ht_mpit_view view;
    struct ht_mpit_stat *stats;
    struct ht_mpit_pvar_desc *pvars;
    const char **notes; /* a copy of the list: a late thread may add one */
};

#endif
