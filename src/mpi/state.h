/* Process-wide MPI state: whether MPI is up, this rank, and whether message
 * logging is on right now (config, rank selection, MPI_Pcontrol). */
#ifndef HT_MPI_STATE_H
#define HT_MPI_STATE_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/compiler.h"

struct ht_mpi_state {
    int thread_level;   /* as provided */
    int pcontrol_level; /* 1 unless the program called MPI_Pcontrol */
    bool rank_logged;   /* this rank is selected by mpi.log_ranks */
    bool polling;       /* mpi.poll: open requests are polled at all */
    bool hook_polling;  /* hooks may call MPI to poll requests */
    /* MPI_THREAD_SERIALIZED or MULTIPLE: one thread may complete another's
     * requests, so the request tables are locked (requests_shared.c). */
    bool shared_requests;
    uint64_t poll_interval_ticks;     /* mpi.poll_interval_us */
    uint64_t poll_max_interval_ticks; /* mpi.poll_max_interval_us */
    unsigned poll_batch;
    /* Bumped when logging pauses: requests registered before are forgotten,
     * since their Wait/Test may pass by while no wrapper watches. */
    unsigned epoch;
    MPI_Group world_group;
};

extern struct ht_mpi_state ht_mpi;

/* The one word a wrapper reads to decide whether to do anything besides
 * calling PMPI: profiling on, MPI message logging on for this rank, and
 * MPI_Pcontrol level > 0.  Recomputed whenever one of them changes. */
extern int ht_mpi_logging;

/* Set while a Fortran MPI_Init/MPI_Init_thread/MPI_Finalize wrapper runs:
 * the library's Fortran binding may call the C routine (MPICH's does),
 * whose wrapper must then pass through rather than record the call again. */
extern int ht_mpi_fortran_env;

/* The job (job.c): after PMPI_Init/PMPI_Init_thread or PMPI_Session_init
 * succeeded; the first starts the job (rank, size, the job's communicator,
 * MPI_T, logging). */
void ht_mpi_after_init(void);
void ht_mpi_after_session_init(void);

/* In MPI_Finalize or MPI_Session_finalize, before the PMPI routine: the
 * last of the program's ways into MPI to close ends the job: completes
 * what can be completed, merges the profile across ranks and writes it. */
void ht_mpi_before_finalize(void);
void ht_mpi_before_session_finalize(void);

/* In MPI_Abort, before PMPI_Abort: this rank's partial profile, on its
 * own (<basename>_<rank>.*; never collective). */
void ht_mpi_before_abort(int errorcode);

void ht_mpi_pcontrol(int level);

/* Recomputes ht_mpi_logging. */
void ht_mpi_update_logging(void);

#endif
