/* The trace's volume: throttle markers, and the per-rank bound.
 *
 * The bound is handed out to a process's threads in chunks, so that a
 * thread touches the shared counter once per chunk and never per event;
 * what the threads recorded together never exceeds the bound by more than
 * the records of one move of the tree each (the Leaves that close the open
 * calls at the cut). */
#include "trace/volume.h"

#include <mpi.h>
#include <stdio.h>

#include "callstack/functions.h"
#include "callstack/thread.h"
#include "trace/comms.h"
#include "trace/trace.h"

#define CHUNK_BYTES (1u << 20)

static uint64_t bound;   /* 0: none */
static uint64_t granted; /* handed out to threads so far (atomic) */

void ht_trace_volume_setup(uint64_t max_bytes_per_rank)
{
    bound = max_bytes_per_rank;
}

/* The Leaves and the cut's record go straight into the buffer: only moves
 * of the tree (calls.c) ask for bytes, so nothing here comes back. */
static void cut(struct ht_trace_buffer *b, struct ht_node *open, uint64_t now)
{
    for (; open && open->parent; open = open->parent)
        ht_trace_put_call(b, HT_REC_LEAVE, open, now);
    uint64_t *p = ht_trace_put(b, HT_REC_CUT, 1, now);
    p[0] = bound;
    b->cut = true;
    b->allowed = 0;
}

bool ht_trace_volume_grant(struct ht_trace_buffer *b, struct ht_node *open, uint64_t now)
{
    if (b->cut)
        return false;
    if (bound == 0) {
        b->allowed = UINT64_MAX;
        return true;
    }
    uint64_t have = __atomic_load_n(&granted, __ATOMIC_RELAXED), give;
    do {
        if (have >= bound) {
            cut(b, open, now);
            return false;
        }
        give = bound - have < CHUNK_BYTES ? bound - have : CHUNK_BYTES;
    } while (!__atomic_compare_exchange_n(&granted, &have, have + give, false, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    /* What was recorded past the last grant (a move's records after its
     * check) is paid from this one. */
    uint64_t recorded = ht_trace_recorded_bytes(b);
    uint64_t base = b->allowed > recorded ? recorded : b->allowed;
    b->allowed = base + give;
    return true;
}

void ht_trace_throttled(struct ht_thread *t, struct ht_node *node, uint64_t now)
{
    struct ht_trace_buffer *b = t->trace;
    if (!t->tracing || !b || b->cut)
        return;
    /* The function's calls so far, on every stack: the profile's count at
     * this point. */
    uint64_t calls = 0;
    struct ht_function_record *rec = ht_functions_find(ht_node_function(node));
    for (const struct ht_node *n = rec ? __atomic_load_n(&rec->nodes, __ATOMIC_ACQUIRE) : node; n;
         n = rec ? n->same_function_next : NULL)
        calls += __atomic_load_n(&n->calls, __ATOMIC_RELAXED);
    uint64_t *p = ht_trace_put(b, HT_REC_THROTTLED, 2, now);
    p[0] = (uint64_t)(uintptr_t)node;
    p[1] = calls;
    b->throttled++;
}

static uint64_t reduce(bool mpi, uint64_t mine, MPI_Op op)
{
    uint64_t all = mine;
    if (mpi)
        PMPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, op, ht_trace_job());
    return all;
}

void ht_trace_volume_report(bool mpi, int rank, int world_size, char *note, size_t len)
{
    uint64_t throttled = 0, cut_threads = 0;
    for (struct ht_thread *t = ht_thread_registry(); t; t = t->next) {
        if (t->trace) {
            throttled += t->trace->throttled;
            cut_threads += t->trace->cut;
        }
    }
    uint64_t all_throttled = reduce(mpi, throttled, MPI_SUM);
    uint64_t ranks_cut = reduce(mpi, cut_threads > 0, MPI_SUM);
    note[0] = '\0';
    if (all_throttled)
        snprintf(note, len, "; %llu functions throttled%s", (unsigned long long)all_throttled,
                 mpi && world_size > 1 ? ", summed over ranks" : "");
    if (rank != 0 || ranks_cut == 0)
        return;
    char who[64];
    if (mpi && world_size > 1)
        snprintf(who, sizeof who, "%llu of %d ranks", (unsigned long long)ranks_cut, world_size);
    else
        snprintf(who, sizeof who, "this process");
    fprintf(stderr,
            "hooktrace: trace: %s reached trace.max_bytes_per_rank (%llu bytes) and stopped "
            "recording function events there (their open calls end at that point%s). To trace "
            "further, raise the bound in the config file, e.g. {\"trace\": "
            "{\"max_bytes_per_rank\": %llu}} (0: no bound), or leave hot functions out with "
            "trace.exclude_functions (hooktrace-score PROFILE.json --budget SIZE writes them)\n",
            who, (unsigned long long)bound, mpi ? "; MPI events were kept" : "",
            (unsigned long long)(bound * 4));
}
