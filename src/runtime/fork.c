/* fork() without exec.  The child inherits the parent's trees, its config
 * and its exit path: without this, at its exit it would write the parent's
 * files with the parent's figures (serial: <base>.*, the later writer
 * winning; MPI: <base>_<rank>.*, which look like that rank's result).
 *
 * fork_children "own" (default): the child forgets what the parent recorded
 * (the open calls stay, so that their exits still match) and writes
 * <base>.child-<pid>.* (<base>_<rank>.child-<pid>.* after MPI_Init) with
 * only what it did after the fork, never calling MPI.  "none": the child
 * records and writes nothing. */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "callstack/thread.h"
#include "common/clock.h"
#include "merge/peers.h"
#include "runtime/exclusions.h"
#include "runtime/runtime.h"

static pid_t child_pid;

pid_t ht_runtime_fork_child_pid(void)
{
    return child_pid;
}

static void in_child(void)
{
    if (!ht_runtime_started())
        return;
    child_pid = getpid();
    ht_exclusions_after_fork();
    /* The MPI library belongs to the parent: the child's profile never
     * takes part in a merge, and its exit calls no MPI routine. */
    ht_world.have_comm = false;
    if (ht_runtime_config()->fork_children == HT_FORK_CHILDREN_NONE) {
        ht_runtime_finish_never();
        return;
    }
    uint64_t now = ht_clock_now();
    for (struct ht_thread *t = ht_thread_registry(); t; t = t->next) {
        ht_tree_forget_counts(&t->tree, now);
        /* PAPI's event sets are the parent's: the child reads none, and
         * its counter figures stay 0 (docs/output.md). */
        t->counting = 0;
        ht_peer_counts_forget(t->peers, ht_world.size);
    }
    ht_runtime_restart_clock();
    ht_signals_restart();
}

void ht_fork_setup(void)
{
    pthread_atfork(NULL, NULL, in_child);
}
