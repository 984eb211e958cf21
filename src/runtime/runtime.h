/* Start-up and shut-down, in one place (docs/architecture.md; the steps at
 * exit: docs/internals.md, "At exit").
 *
 * The runtime decides what happens when the library loads, when MPI starts
 * and finalizes, and when the process exits: which services run, in what
 * order.  The entry points (src/hooks, src/mpi, src/fortran) call it; it
 * calls the services below it and never an entry point: what it needs from
 * one (the MPI world, a function to run when recording stops) is handed to
 * it as plain data or a callback. */
#ifndef HT_RUNTIME_RUNTIME_H
#define HT_RUNTIME_RUNTIME_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "config/config.h"

/* HT_RECORDING_ON while the hooks record: set after start-up unless
 * profiling is off, cleared before the profile is written, so calls that
 * happen after that (other exit handlers, other threads) are ignored.
 * HT_RECORDING_PAUSED between MPI_Pcontrol(0) and MPI_Pcontrol(1)
 * (pause.c): nothing is recorded, but a call open since before the pause
 * that returns during it is closed. */
enum { HT_RECORDING_OFF = 0, HT_RECORDING_ON = 1, HT_RECORDING_PAUSED = 2 };
extern int ht_recording;

/* libhooktrace's own code: an address in [start, start + size) is never
 * recorded, even if the library was compiled with -finstrument-functions. */
extern uintptr_t ht_self_text_start, ht_self_text_size;

/* The MPI world as shut-down needs it.  The MPI entry points fill it in
 * when the job starts (after PMPI_Init, or the first PMPI_Session_init of
 * a sessions program) and when it ends (src/mpi/job.c). */
struct ht_world {
    bool initialized; /* the job started: MPI_Init(_thread) or MPI_Session_init returned */
    bool finalized;   /* the job ended: the last MPI_Finalize/MPI_Session_finalize wrapper ran */
    int rank, size;   /* world rank and size (MPI_COMM_WORLD's, or mpi://WORLD's) */
    /* hooktrace's own communicator of every rank in world order, for the
     * merge at shut-down: a duplicate of MPI_COMM_WORLD made right after
     * MPI_Init, or in a sessions program one made from the mpi://WORLD
     * process set.  Its traffic then never lands in the program's own
     * communicators (where a rank still at work would see it, in its
     * unexpected-message queue for one), and the merge starts without a
     * collective on MPI_COMM_WORLD.  Valid when have_comm (always, in a
     * sessions program); else the world model's MPI_COMM_WORLD. */
    bool have_comm;
    MPI_Comm comm;
    /* The process's MPI is not of this build's ABI (src/mpi/abi.c): MPI is
     * never used, and the profile is written as a non-MPI program's, named
     * <basename>_<launcher_rank>.* when the launcher numbered the
     * processes (-1: it did not), so that the job's processes never take
     * one name. */
    bool foreign;
    int launcher_rank;
    char foreign_mpis[512]; /* both MPIs, for the profile's header */
    /* the first line of MPI_Get_library_version's text ("": none), for the
     * profile's metadata */
    char mpi_library[256];
};
extern struct ht_world ht_world;

const struct ht_config *ht_runtime_config(void);
bool ht_runtime_started(void);
time_t ht_runtime_start_time(void);
uint64_t ht_runtime_start_ns(void);
/* Start-up on CLOCK_REALTIME, to the nanosecond (output/naming.c). */
struct timespec ht_runtime_start_realtime(void);

/* Called once when recording stops, before anything is written (the MPI
 * layer closes its logging gate there).  One listener. */
void ht_runtime_on_stop(void (*listener)(void));

/* Writes the profile now (idempotent).  The library's destructor calls it:
 * without MPI it writes <basename>.*, after MPI_Init without MPI_Finalize
 * each rank writes <basename>_<rank>.* on its own. */
void ht_runtime_finish(void);

/* The same, for a profile that ends before the program does: why (a
 * signal, MPI_Abort) is written into the outputs (docs/what_happens.md).
 * Never collective: after MPI_Init each rank writes <basename>_<rank>.*.
 * why must stay valid until the process ends. */
struct ht_partial;
void ht_runtime_finish_partial(const struct ht_partial *why);

/* MPI_Pcontrol(3): this process's profile as it stands, written now as a
 * partial one (<basename>_<rank>.pcontrol-<k>.*, k = 1, 2, ...; never
 * collective), and recording goes on. */
void ht_runtime_write_now(void);

/* dlclose(handle) with what hooktrace notes before a library is unmapped
 * and retires after (libraries.c): the dlclose interposer's whole work,
 * and, registered at start-up, what ht_library_close calls
 * (src/common/library_close.h). */
int ht_runtime_dlclose(void *handle);

/* Whether this process is a rank of an MPI job that is running (after
 * MPI_Init, before MPI_Finalize; not a fork child): its launcher may kill
 * the other ranks as soon as this one dies. */
bool ht_runtime_is_running_rank(void);

/* This process writes no profile at all (a fork child with
 * fork_children "none"): recording stops now. */
void ht_runtime_finish_never(void);

/* Non-zero in a child made by fork() without exec: its PID, which its
 * files carry in their names (fork.c). */
pid_t ht_runtime_fork_child_pid(void);

/* Pauses and resets the program asks for (pause.c, docs/regions.md
 * "Phases"): MPI_Pcontrol(0) pauses every thread's recording, (1)
 * resumes it, taking the paused time out of every call still open, (2)
 * forgets what was recorded so far.  Each returns false when it changed
 * nothing (a pause while paused, say). */
bool ht_runtime_pause(void);
bool ht_runtime_resume(void);
bool ht_runtime_reset(void);
/* hooktrace_phase: every thread records below the root node `phase` (a
 * region record) from now on, each from its next hook (pause.c). */
void ht_runtime_begin_phase(uintptr_t phase);
/* When the pause in progress started (only while paused). */
uint64_t ht_runtime_pause_start(void);
/* A thread's own tree, brought up to date with the pauses and resets
 * since its last hook: called by every entry point before it touches the
 * tree when t->catch_up is set (hooks, MPI wrappers, regions, OpenMP). */
struct ht_thread;
void ht_runtime_catch_up(struct ht_thread *t);
/* What the outputs say of the pauses: how many, the ticks they took out
 * of the profile, and the resets. */
struct ht_pause_totals {
    uint64_t pauses, resets, ticks;
};
struct ht_pause_totals ht_runtime_pause_totals(void);
/* At shut-down, recording stopped: a pause in progress ends at end_tick,
 * and the threads that did not catch up are brought up to date. */
void ht_runtime_pause_settle(uint64_t end_tick);
/* A new thread's tree is up to date with the pauses before it (lifecycle.c). */
void ht_runtime_pause_attach(struct ht_thread *t);

/* Started at start-up (signals.c): the watcher thread that writes a
 * partial profile when SIGTERM, SIGINT or SIGHUP would end the process, and
 * the handlers that wake it.  ht_signals_restart: the same in a fork child
 * (the thread did not survive the fork). */
void ht_signals_start(void);
void ht_signals_restart(void);

/* For the sigaction/signal interposers (src/hooks/signals.c): when
 * hooktrace holds sig's handler, records act as the program's action (the
 * kernel keeps ours, which runs the program's), stores the program's
 * previous one in *old, sets *rc as sigaction would, and returns true;
 * false for any other signal, which the caller passes on. */
struct sigaction;
bool ht_signals_program_action(int sig, const struct sigaction *act, struct sigaction *old, int *rc);
/* Whether hooktrace holds sig's handler (the old-style interposers: they
 * then go through ht_signals_program_action as glibc goes through
 * sigaction, which it calls internally, past any interposer). */
bool ht_signals_held(int sig);

/* Started at start-up (fork.c): what a fork child records and writes. */
void ht_fork_setup(void);
/* Warns once when the program's -finstrument-functions hooks bind to
 * another object than libhooktrace (hook_binding.c). */
void ht_runtime_check_hook_binding(void);

/* Whether this process speaks for the job at start-up (hook_binding.c):
 * every rank of an MPI job would say the same, so the launcher's rank 0
 * alone does (OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID); a
 * process no launcher started speaks for itself. */
bool ht_runtime_speaks_for_job(void);

/* Restarts the run's clock (a fork child's run starts at the fork). */
void ht_runtime_restart_clock(void);

/* From the MPI_Finalize wrapper, before PMPI_Finalize: the profile merged
 * across ranks (rank 0 writes the summary), then idempotent like
 * ht_runtime_finish. */
void ht_runtime_finish_mpi(void);

/* Measures the cost of one instrumented call (enter + exit hook) in
 * seconds (overhead.c): at start-up, once. */
double ht_overhead_seconds_per_call(void);
/* What that measurement gave at start-up (0 if profiling is off). */
double ht_runtime_hook_pair_seconds(void);

#endif
