/* Shared between the MPI_T files only:
 *
 *   mpit.c         start-up (MPI_T_init_thread), shut-down (before
 *                  PMPI_Finalize), notes, the output view's static parts
 *   mpit_late.c    without pvars: the start-up at MPI_Finalize, in a
 *                  thread beside the merge, and the libraries it needs
 *                  loaded ahead, in a thread from MPI_Init on
 *   mpit_cvars.c   reading every control variable once
 *   mpit_pvars.c   choosing the performance variables (config, bindings,
 *                  duplicates), the per-thread sessions and the reads
 *                  around each MPI call: the hot path
 *   mpit_values.c  turning raw reads into per-stack figures
 *   mpit_merge.c   the figures of each stack over ranks (at MPI_Finalize)
 *                  and of one rank (its own files)
 */
#ifndef HT_MPIT_MPIT_INTERNAL_H
#define HT_MPIT_MPIT_INTERNAL_H

#include <mpi.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callstack/tree.h"
#include "config/config.h"
#include "mpit/view.h"

/* How a pvar's reads around a call become the call's figure. */
enum ht_mpit_how {
    HT_MPIT_CHANGE, /* counters, aggregates, timers: after - before, summed over calls */
    HT_MPIT_MAX,    /* levels, sizes, high-watermarks, states: highest value read */
    HT_MPIT_MIN     /* low-watermarks: lowest value read */
};

/* The C type of a pvar's elements, as far as hooktrace can read it. */
enum ht_mpit_num { HT_MPIT_I32, HT_MPIT_U32, HT_MPIT_I64, HT_MPIT_U64, HT_MPIT_F64 };

/* One selected performance variable. */
struct ht_mpit_pvar {
    int index;                 /* MPI_T's index */
    char *name, *description;
    enum ht_mpit_class class_id;
    enum ht_mpit_how how;
    enum ht_mpit_num num;
    size_t elem_size;
    const char *type_name;
    int bind;                  /* MPI_T_BIND_NO_OBJECT or MPI_T_BIND_MPI_COMM */
    int count;                 /* elements, from the first handle */
    bool continuous, readonly, atomic;
    size_t offset;             /* of its elements in a read buffer, bytes */
    size_t first_slot, nslots; /* its columns of figures */
};

/* Per-node figures: one double per slot, in ht_mpit.slots order. */
struct ht_mpit_values {
    uint64_t calls;            /* calls whose reads were attributed here */
    double v[];
};

/* One thread's session.  Owned by the thread; the list lets MPI_Finalize
 * free every session before MPI_T_finalize. */
struct ht_mpit_thread {
    struct ht_mpit_thread *next;
    MPI_T_pvar_session session;
    MPI_T_pvar_handle *handles;     /* [npvars]; MPI_T_PVAR_HANDLE_NULL: not read here */
    unsigned char *before, *after;  /* raw reads, buffer_bytes each */
    unsigned char *have_before;     /* [npvars]: `before` holds a good read */
    unsigned char *have_after;      /* [npvars]: `after` holds a good read */
    uint64_t *failed_reads;         /* [npvars] */
    struct ht_node *pending;        /* the call whose `before` reads are held */
    uint64_t last_read;             /* tick of the last read (read_interval_us) */
    char *arena_next, *arena_end;   /* for ht_mpit_values */
    bool usable;                    /* the session exists */
};

struct ht_mpit_state {
    bool initialized;          /* MPI_T_init_thread succeeded: MPI_T_finalize owed */
    char *status;              /* why MPI_T is not used, or NULL */
    int provided;              /* MPI_T's thread level */
    int rank;                  /* world rank: whose cvars these are */
    /* What a pvar bound to a communicator is bound to: MPI_COMM_WORLD, or
     * MPI_COMM_NULL in a sessions program (such pvars are left out). */
    MPI_Comm bind_comm;
    /* Where a node's figures hang, from the MPI layer (mpit.h). */
    struct ht_mpit_values **(*values_slot)(struct ht_node *node);
    bool lock_calls;           /* MPI_T is less thread-safe than MPI: serialize */
    pthread_mutex_t call_lock;
    pthread_mutex_t lock;      /* the thread list and the notes */
    struct ht_mpit_cvar *cvars;
    size_t ncvars;
    struct ht_mpit_pvar *pvars;
    size_t npvars;
    struct ht_mpit_slot *slots;
    size_t nslots;
    size_t buffer_bytes;       /* one thread's raw read buffer */
    size_t values_bytes;       /* one struct ht_mpit_values */
    uint64_t interval_ticks;   /* 0: read before and after every call */
    uint64_t startup_ticks;    /* MPI_T_init_thread and the cvars (and the pvars' choice) */
    int thread_level;          /* as MPI provided it */
    bool deferred;             /* no pvars: MPI_T waits for MPI_Finalize (ht_mpit_late) */
    bool started_late;         /* ... and was started there (or for a rank's own file) */
    bool cvars_elsewhere;      /* this rank's file points at rank 0's cvars: none to read */
    int pid;                   /* of the rank: a fork child starts no MPI_T */
    char **notes;
    size_t nnotes, notes_capacity;
    struct ht_mpit_thread *threads;
    const struct ht_config *config;
};

extern struct ht_mpit_state ht_mpit;

/* mpit.c: a line for the outputs (printf-style; copied). */
void ht_mpit_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* MPI_T's names for its constants, for the outputs. */
const char *ht_mpit_scope_name(int scope);
const char *ht_mpit_verbosity_name(int verbosity);
const char *ht_mpit_bind_name(int bind);
/* "int", "unsigned long", ...; NULL for a type hooktrace does not read. */
const char *ht_mpit_type_name(MPI_Datatype type);
/* "MPI_T_ERR_INVALID_INDEX", ...: for notes. */
const char *ht_mpit_error_name(int rc);
/* The parts of an output view that do not depend on the stacks. */
struct ht_mpit_output;
void ht_mpit_fill_view(struct ht_mpit_output *out);

/* Before a rank's own file written without a merge, on a rank other than
 * 0: its file points at rank 0's control variables, so it reads none. */
void ht_mpit_skip_cvars(void);

/* mpit.c: MPI_T_init_thread, the cvars, the pvars' choice, timed. */
void ht_mpit_start_timed(void);
/* Why MPI_T is not used, for the outputs (printf-style). */
void ht_mpit_set_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* mpit.c: performance variables asked for, so MPI_T starts in MPI_Init
 * on every rank (mpi_t.pvar_change alone selects none). */
bool ht_mpit_pvars_asked(const struct ht_config *cfg);

/* mpit_late.c.  ht_mpit_hold_end: right after MPI_Init, without pvars: the
 * components held since start-up are kept on a rank that will start MPI_T
 * at MPI_Finalize (wanted), dropped on the others.  ht_mpit_late_done:
 * the cvars are needed now: waits for the start-up, or (read_here) does it
 * if it never began.  ht_mpit_unhold: after MPI_T_finalize. */
void ht_mpit_hold_end(bool wanted);
void ht_mpit_late_done(bool read_here);
void ht_mpit_unhold(void);

/* mpit_cvars.c: every control variable of this process, into ht_mpit. */
void ht_mpit_read_cvars(void);
void ht_mpit_free_cvars(void);

/* mpit_pvars.c: chooses the pvars the config selects and sets up the
 * calling thread's session; sets ht_mpit_pvars_active if any remain. */
/* mpit_choose.c: the performance variables to read, into ht_mpit.pvars
 * (allocated for num).  Returns how many the library lists that the
 * config names, or -1 if out of memory; *nrejected: those set aside. */
int ht_mpit_choose_pvars(int num, size_t *nrejected);
void ht_mpit_select_pvars(void);
/* Frees every thread's session (before MPI_T_finalize). */
void ht_mpit_free_sessions(void);
void ht_mpit_free_pvars(void);

/* mpit_values.c: the raw reads around one call into its node's figures. */
void ht_mpit_attribute(const struct ht_mpit_pvar *p, const unsigned char *before,
                       const unsigned char *after, double *v);
/* One element of a raw read, as a double. */
double ht_mpit_element(const struct ht_mpit_pvar *p, const unsigned char *raw, int i);
/* The starting value of a slot's figure before any call. */
double ht_mpit_initial(enum ht_mpit_how how);
/* Combines figures of the same slot (threads, nodes merged into one stack). */
double ht_mpit_combine(enum ht_mpit_how how, double a, double b);

#endif
