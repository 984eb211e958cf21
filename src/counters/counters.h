/* Counters: PAPI events read around every recorded call (docs/counters.md).  Start-up validates the config's events once; a thread
 * whose state carries counters (callstack/thread.h `counting`) takes the
 * hooks' general path, which calls ht_counters_entered and
 * ht_counters_left around the tree's moves.  The figures live behind each
 * node (callstack/tree.h ht_node_counters); the profile sums them.
 *
 * Without PAPI (configure --without-papi) only the set-up exists: it says
 * once that counters cannot be read and keeps none. */
#ifndef HT_COUNTERS_COUNTERS_H
#define HT_COUNTERS_COUNTERS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "callstack/thread.h"
#include "config/config.h"

/* An event the config named that cannot be read, and why. */
struct ht_counter_unavailable {
    const char *event;
    const char *reason;
};

/* What the output says about the counters (JSON top-level "counters"). */
struct ht_counters_info {
    unsigned nevents; /* kept, in the config's order; the node words' order */
    const char *events[HT_CONFIG_MAX_COUNTERS];
    unsigned nunavailable;
    struct ht_counter_unavailable unavailable[HT_CONFIG_MAX_COUNTERS];
    const char *papi_version; /* "7.0.0.0", or "" built without PAPI */
};

/* Start-up, before any thread attaches: initialises PAPI only if the
 * config names events, tries each one, writes one line on stderr per event
 * that cannot be read (it is dropped), and returns how many are kept:
 * what ht_thread_counters must be set to. */
uint32_t ht_counters_setup(const struct ht_config *cfg);

/* NULL when the config named no event: the output then has no counters. */
const struct ht_counters_info *ht_counters_info(void);

/* The calling thread t just entered node n (its tree's current node):
 * reads the events into n's entry words. */
void ht_counters_entered(struct ht_thread *t, struct ht_node *n);
/* ... is leaving node n: adds what the events counted since the entry to
 * n's inclusive words. */
void ht_counters_left(struct ht_thread *t, struct ht_node *n);

/* At shut-down, on the thread that writes the profile: the calls of its
 * own tree still in progress count up to now, as their time does. */
void ht_counters_close_open(struct ht_thread *t);

/* Whether this process speaks for the job: every rank of an MPI job sets
 * up the same events on (as a rule) the same machines, so the launcher's
 * rank 0 alone says what it dropped (counters start before MPI_Init, the
 * launcher's variables are all there is); a process no launcher started
 * speaks for itself.  Every rank's JSON still lists its own. */
static inline bool ht_counters_speaks_for_job(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                       "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *rank = getenv(vars[i]);
        if (rank && *rank)
            return strcmp(rank, "0") == 0;
    }
    return true;
}

#endif
