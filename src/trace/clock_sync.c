/* Offsets to rank 0 over a binomial tree of one rank per node.
 *
 * Rank r's parent is r with its lowest set bit cleared; a parent measures
 * each child by ping-pong and hands it its offset to rank 0 (the child's
 * offset to the parent plus the parent's own), so every rank is reached
 * after at most log2(P) hops and a parent has at most log2(P) children:
 * about log2(P)^2 measurements on the longest path (14^2 at 10^4 ranks).
 * Each hop adds its own error (at most half the asymmetry of the fastest
 * round trip), so a rank d hops from rank 0 is off by at most d times
 * that; its standard deviation adds up the hops' as independent errors.
 *
 * One measurement: the parent reads its clock (t1), the child answers with
 * its own reading (tc), the parent reads again (t2).  The round with the
 * smallest t2 - t1 is the one least disturbed by the scheduler and the
 * network; for it, tc is taken to match (t1 + t2) / 2 on the parent's
 * clock, so the child's offset (global = local + offset) is
 * (t1 + t2) / 2 - tc, narrowed by the bounds of all rounds
 * (measure_child); `time` of the definition is tc of the fastest round,
 * the child's local timestamp of the measurement. */
#include "trace/clock_sync.h"

#include <math.h>
#include <stdint.h>
#include <time.h>

#include "common/clock.h"
#include "trace/clock_skew.h"
#include "trace/trace.h"

/* Round trips per child.  The minimum of n rounds is disturbed only if
 * all n are: a few dozen make that unlikely even on a loaded node (a
 * preempted round costs one time slice, and a slice rarely hits every
 * round), while 32 shared-memory round trips cost about 30 us and
 * 32 InfiniBand ones about 100 us per child. */
#define HT_CLOCK_SYNC_ROUNDS 32
#define TAG 0x4854 /* "HT": any value; the communicator is hooktrace's own */

struct measurement {
    uint64_t time;   /* local tick of the measurement */
    int64_t offset;  /* global = local + offset, in ticks */
    double sd;       /* ticks */
};

/* [0]: at the start, [1]: at the end. */
static struct measurement measured[2];
static bool have[2];
/* Decided once at the start, so that every rank takes the same path at
 * the end. */
static bool synchronising;

static uint64_t now(void)
{
    return ht_trace_skew(ht_clock_now());
}

/* The parent's side: measures child and sends it its offset to rank 0. */
static void measure_child(MPI_Comm job, int child, const struct measurement *mine)
{
    double best_rtt = INFINITY, sum = 0, sum2 = 0;
    int64_t best_offset = 0, low = INT64_MIN, high = INT64_MAX;
    int best = 0;
    for (int i = 0; i < HT_CLOCK_SYNC_ROUNDS; i++) {
        unsigned long long tc = 0;
        uint64_t t1 = now();
        PMPI_Send(&i, 1, MPI_INT, child, TAG, job);
        PMPI_Recv(&tc, 1, MPI_UNSIGNED_LONG_LONG, child, TAG, job, MPI_STATUS_IGNORE);
        uint64_t t2 = now();
        int64_t offset = (int64_t)(t1 + (t2 - t1) / 2 - tc);
        double rtt = (double)(t2 - t1);
        sum += (double)offset;
        sum2 += (double)offset * (double)offset;
        if (rtt < best_rtt) {
            best_rtt = rtt;
            best_offset = offset;
            best = i;
        }
        /* tc was read between t1 and t2: the offset lies in
         * [t1 - tc, t2 - tc], whatever the round's delays. */
        if ((int64_t)(t1 - tc) > low)
            low = (int64_t)(t1 - tc);
        if ((int64_t)(t2 - tc) < high)
            high = (int64_t)(t2 - tc);
    }
    /* Every round bounds the offset; where the rounds were disturbed
     * unevenly (a process waiting for a time slice, on a node with more
     * ranks than cores) their bounds together are much tighter than the
     * fastest round alone.  They contradict each other only by the drift
     * during the rounds: then the fastest round's midpoint. */
    if (low <= high)
        best_offset = low + (high - low) / 2;
    double n = HT_CLOCK_SYNC_ROUNDS, mean = sum / n;
    double var = sum2 / n - mean * mean;
    double sd = sqrt((var > 0 ? var : 0) + mine->sd * mine->sd);
    /* round, offset to rank 0, its standard deviation */
    long long reply[2] = {best, best_offset + mine->offset};
    PMPI_Send(reply, 2, MPI_LONG_LONG, child, TAG, job);
    PMPI_Send(&sd, 1, MPI_DOUBLE, child, TAG, job);
}

/* Waits for r without spinning: a rank waiting for its turn must leave
 * the cores to the ranks measuring now (MPICH's waits spin, and a node
 * may run more ranks than it has cores). */
static void wait_gently(MPI_Request *r)
{
    int done = 0;
    PMPI_Test(r, &done, MPI_STATUS_IGNORE);
    while (!done) {
        struct timespec pause = {0, 20000};
        nanosleep(&pause, NULL);
        PMPI_Test(r, &done, MPI_STATUS_IGNORE);
    }
}

/* The child's side. */
static void answer_parent(MPI_Comm job, int parent, struct measurement *mine)
{
    unsigned long long tc[HT_CLOCK_SYNC_ROUNDS];
    for (int i = 0; i < HT_CLOCK_SYNC_ROUNDS; i++) {
        int round;
        if (i == 0) { /* the turn may be long in coming */
            MPI_Request r;
            PMPI_Irecv(&round, 1, MPI_INT, parent, TAG, job, &r);
            wait_gently(&r);
        } else {
            PMPI_Recv(&round, 1, MPI_INT, parent, TAG, job, MPI_STATUS_IGNORE);
        }
        tc[i] = now();
        PMPI_Send(&tc[i], 1, MPI_UNSIGNED_LONG_LONG, parent, TAG, job);
    }
    long long reply[2];
    PMPI_Recv(reply, 2, MPI_LONG_LONG, parent, TAG, job, MPI_STATUS_IGNORE);
    PMPI_Recv(&mine->sd, 1, MPI_DOUBLE, parent, TAG, job, MPI_STATUS_IGNORE);
    int best = reply[0] >= 0 && reply[0] < HT_CLOCK_SYNC_ROUNDS ? (int)reply[0] : 0;
    mine->time = tc[best];
    mine->offset = reply[1];
}

/* The tree over the ranks of comm (one per clock), rank 0 first. */
static void measure_tree(MPI_Comm comm, struct measurement *mine)
{
    int rank = 0, size = 1;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    if (rank == 0) {
        *mine = (struct measurement){now(), 0, 0.0};
    } else {
        int low = rank & -rank;
        answer_parent(comm, rank - low, mine);
    }
    /* Children r + 2^k, the largest subtree first, so that the deepest
     * paths start early. */
    int low = rank == 0 ? 1 << 30 : rank & -rank;
    for (int k = 30; k >= 0; k--) {
        int step = 1 << k;
        if (step < low && rank + step < size && rank + step > rank)
            measure_child(comm, rank + step, mine);
    }
}

void ht_trace_clock_sync(MPI_Comm job, bool wanted, bool end)
{
    int rank = 0, size = 1;
    PMPI_Comm_rank(job, &rank);
    PMPI_Comm_size(job, &size);
    if (!end) {
        if (!wanted)
            return;
        ht_trace_skew_init(rank);
        /* A rank whose trace folder failed records no trace, but must not
         * leave the others waiting for its answers. */
        int on = ht_trace_enabled, everywhere = 0;
        if (size > 1)
            PMPI_Allreduce(&on, &everywhere, 1, MPI_INT, MPI_MIN, job);
        synchronising = size > 1 && everywhere;
    }
    if (!synchronising)
        return;
    /* The ranks of one node read one clock (the invariant TSC and
     * CLOCK_MONOTONIC are node-wide), so their offsets are equal exactly:
     * only the lowest rank of each node measures, and hands its result to
     * the others.  A rank on a simulated clock (the testing aid) counts as
     * a node of its own.  The communicators are made afresh each time:
     * at the end the job's communicator may be another one
     * (docs/what_happens.md#mpi-4-sessions). */
    MPI_Comm node = MPI_COMM_NULL, same_clock = MPI_COMM_NULL, leaders = MPI_COMM_NULL;
    struct measurement *mine = &measured[end];
    int clock_rank = 0;
    if (PMPI_Comm_split_type(job, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) != MPI_SUCCESS
        || PMPI_Comm_split(node, ht_trace_skewed ? rank + 1 : 0, rank, &same_clock) != MPI_SUCCESS)
        same_clock = MPI_COMM_SELF;
    PMPI_Comm_rank(same_clock, &clock_rank);
    PMPI_Comm_split(job, clock_rank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
    if (leaders != MPI_COMM_NULL) {
        measure_tree(leaders, mine);
        PMPI_Comm_free(&leaders);
    }
    MPI_Request r;
    PMPI_Ibcast(mine, (int)sizeof *mine, MPI_BYTE, 0, same_clock, &r);
    wait_gently(&r);
    if (same_clock != MPI_COMM_SELF)
        PMPI_Comm_free(&same_clock);
    if (node != MPI_COMM_NULL)
        PMPI_Comm_free(&node);
    have[end] = true;
}

OTF2_ErrorCode ht_trace_write_clock_offsets(OTF2_DefWriter *w)
{
    OTF2_ErrorCode e = OTF2_SUCCESS;
    for (int i = 0; i < 2 && e == OTF2_SUCCESS; i++)
        if (have[i])
            e = OTF2_DefWriter_WriteClockOffset(w, measured[i].time, measured[i].offset,
                                                measured[i].sd);
    return e;
}
