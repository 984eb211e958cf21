/* Per-thread profiling state.
 *
 * A thread gets its state on its first hook (the main thread at start-up)
 * and keeps it until the process ends: the tree must outlive the thread so
 * that it can be written at exit.  The pointer lives in initial-exec TLS, so
 * finding it costs one instruction. */
#ifndef HT_HOOKS_THREAD_H
#define HT_HOOKS_THREAD_H

#include <sys/types.h>

#include "callstack/tree.h"

struct ht_mpi_thread;

struct ht_thread {
    struct ht_tree tree;
    /* Non-zero while this thread has open MPI requests: its hooks then take
     * the general path, which polls them now and then. */
    int poll_requests;
    struct ht_mpi_thread *mpi; /* MPI data (src/mpi), NULL until first use */
    int index;                /* 0, 1, 2, ... in order of first hook */
    pid_t tid;                /* kernel thread id, for the logfile */
    struct ht_thread *next;   /* registry, newest first */
};

extern __thread struct ht_thread *ht_thread_self __attribute__((tls_model("initial-exec")));

/* Depth limit given to threads attached from now on. */
extern unsigned ht_thread_max_depth;

/* Creates and registers the calling thread's state.  Lock-free and
 * async-signal-safe; returns NULL only when memory is exhausted. */
struct ht_thread *ht_thread_attach(void);

/* The registry, newest first, and the number of threads in it. */
struct ht_thread *ht_thread_registry(void);
int ht_thread_count(void);

#endif
