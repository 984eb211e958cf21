/* Offsets to rank 0 over a binomial tree of one rank per node (plan).
 *
 * The measuring ranks are numbered i = 0, 1, ... in rank order (rank 0
 * first); i's parent is i with its lowest set bit cleared.  A parent
 * measures each child by ping-pong and hands it its offset to rank 0 (the
 * child's offset to the parent plus the parent's own), so every one is
 * reached after at most log2(N) hops of N nodes and a parent has at most
 * log2(N) children: about log2(N)^2 measurements on the longest path
 * (14^2 at 10^4 nodes).
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
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

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


/* [0]: at the start, [1]: at the end. */
static struct ht_clock_offset measured[2];
static bool have[2];
/* Decided once at the start, so that every rank takes the same path at
 * the end. */
static bool synchronising;

static uint64_t now(void)
{
    return ht_trace_skew(ht_clock_now());
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

/* Within a round: polls, yielding the core between polls, so that on a
 * node with more runnable processes than cores the other end of the
 * round gets one soon (a yield with nothing else to run costs about a
 * system call). */
static void wait_round(MPI_Request *r)
{
    int done = 0;
    PMPI_Test(r, &done, MPI_STATUS_IGNORE);
    while (!done) {
        sched_yield();
        PMPI_Test(r, &done, MPI_STATUS_IGNORE);
    }
}

/* The parent's side: measures child and sends it its offset to rank 0. */
static void measure_child(MPI_Comm job, int child, const struct ht_clock_offset *mine)
{
    double best_rtt = INFINITY, sum = 0, sum2 = 0;
    int64_t best_offset = 0, low = INT64_MIN, high = INT64_MAX;
    int best = 0;
    for (int i = 0; i < HT_CLOCK_SYNC_ROUNDS; i++) {
        unsigned long long tc = 0;
        uint64_t t1 = now();
        MPI_Request r;
        PMPI_Send(&i, 1, MPI_INT, child, TAG, job);
        PMPI_Irecv(&tc, 1, MPI_UNSIGNED_LONG_LONG, child, TAG, job, &r);
        wait_round(&r);
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

/* The child's side. */
static void answer_parent(MPI_Comm job, int parent, struct ht_clock_offset *mine)
{
    unsigned long long tc[HT_CLOCK_SYNC_ROUNDS];
    for (int i = 0; i < HT_CLOCK_SYNC_ROUNDS; i++) {
        int round;
        MPI_Request r;
        PMPI_Irecv(&round, 1, MPI_INT, parent, TAG, job, &r);
        if (i == 0) /* the turn may be long in coming */
            wait_gently(&r);
        else
            wait_round(&r);
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

/* The tree over the measuring ranks (leaders[i]: their ranks in job,
 * leaders[0] = 0); me: this rank's index among them. */
static void measure_tree(MPI_Comm job, const int *leaders, int count, int me,
                         struct ht_clock_offset *mine)
{
    if (me == 0) {
        *mine = (struct ht_clock_offset){now(), 0, 0.0};
    } else {
        int low = me & -me;
        answer_parent(job, leaders[me - low], mine);
    }
    /* Children me + 2^k, the largest subtree first, so that the deepest
     * paths start early. */
    int low = me == 0 ? 1 << 30 : me & -me;
    for (int k = 30; k >= 0; k--) {
        int step = 1 << k;
        if (step < low && me + step < count && me + step > me)
            measure_child(job, leaders[me + step], mine);
    }
}

/* Who measures: the lowest rank of each clock.  The ranks of one node read
 * one clock (the invariant TSC and CLOCK_MONOTONIC are node-wide), so their
 * offsets are equal exactly; a rank on a simulated clock (the testing aid)
 * counts as a node of its own.  Worked out once, at the start, from one
 * gather: the job's communicator at the end may be another one, but it
 * numbers the same processes the same way
 * (docs/what_happens.md#mpi-4-sessions). */
struct layout {
    int *leaders;  /* ranks of the measuring ranks, ascending */
    int count, me; /* me: this rank's index in leaders, or -1 */
    int leader;    /* the rank measuring for this one */
    int *members;  /* a leader's: the other ranks of its clock */
    int nmembers;
};
static struct layout layout;

struct rank_info {
    uint64_t clock; /* the node's, or a simulated clock's */
    int32_t tracing;
    int32_t pad;
};

static uint64_t node_clock(int rank)
{
    if (ht_trace_skewed)
        return (uint64_t)rank << 1 | 1; /* never a host's: those are even */
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (const char *c = host; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return h << 1;
}

/* Collective: false if some rank does not trace, or out of memory. */
static bool plan(MPI_Comm job, int rank, int size)
{
    struct rank_info mine = {node_clock(rank), ht_trace_enabled, 0};
    struct rank_info *all = malloc((size_t)size * sizeof *all);
    int ok = all != NULL, everywhere = 0;
    PMPI_Allreduce(&ok, &everywhere, 1, MPI_INT, MPI_MIN, job);
    if (!everywhere) {
        free(all);
        return false;
    }
    PMPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, job);
    bool tracing = true;
    /* clock -> its leader, open addressing: O(P) for any placement. */
    size_t slots = 2;
    while (slots < 2 * (size_t)size)
        slots *= 2;
    struct slot {
        uint64_t clock;
        int leader; /* -1: free */
    } *table = malloc(slots * sizeof *table);
    layout.leaders = malloc((size_t)size * sizeof *layout.leaders);
    layout.members = malloc((size_t)size * sizeof *layout.members);
    layout.count = layout.nmembers = 0;
    layout.me = -1;
    layout.leader = rank;
    for (size_t i = 0; table && i < slots; i++)
        table[i].leader = -1;
    for (int r = 0; r < size && table && layout.leaders && layout.members; r++) {
        tracing &= all[r].tracing != 0;
        size_t i = (size_t)(all[r].clock * 0x9e3779b97f4a7c15ull >> 20) & (slots - 1);
        while (table[i].leader >= 0 && table[i].clock != all[r].clock)
            i = (i + 1) & (slots - 1);
        if (table[i].leader < 0) {
            table[i] = (struct slot){all[r].clock, r};
            if (r == rank)
                layout.me = layout.count;
            layout.leaders[layout.count++] = r;
        }
        int leader = table[i].leader;
        if (r == rank)
            layout.leader = leader;
        if (leader == rank && r != rank)
            layout.members[layout.nmembers++] = r;
    }
    ok = table != NULL;
    free(table);
    ok = ok && layout.leaders && layout.members;
    free(all);
    /* Every rank saw the same gather, so all agree on tracing; the memory
     * is this rank's alone. */
    PMPI_Allreduce(&ok, &everywhere, 1, MPI_INT, MPI_MIN, job);
    return tracing && everywhere;
}

void ht_trace_clock_sync(MPI_Comm job, bool wanted, bool end)
{
    int rank = 0, size = 1;
    PMPI_Comm_rank(job, &rank);
    PMPI_Comm_size(job, &size);
    if (!end) {
        if (!wanted || size < 2)
            return;
        ht_trace_skew_init(rank);
        /* A rank whose trace folder failed records no trace, but must not
         * leave the others waiting for its answers. */
        synchronising = plan(job, rank, size);
        if (!synchronising) {
            free(layout.leaders);
            free(layout.members);
            layout = (struct layout){0};
        }
    }
    if (!synchronising)
        return;
    struct ht_clock_offset *mine = &measured[end];
    if (layout.me >= 0) {
        measure_tree(job, layout.leaders, layout.count, layout.me, mine);
        for (int i = 0; i < layout.nmembers; i++)
            PMPI_Send(mine, (int)sizeof *mine, MPI_BYTE, layout.members[i], TAG, job);
    } else {
        MPI_Request r;
        PMPI_Irecv(mine, (int)sizeof *mine, MPI_BYTE, layout.leader, TAG, job, &r);
        wait_gently(&r);
    }
    have[end] = true;
    if (end) {
        free(layout.leaders);
        free(layout.members);
        layout = (struct layout){0};
    }
}

int ht_trace_clock_offsets(struct ht_clock_offset out[2])
{
    int n = 0;
    for (int i = 0; i < 2; i++)
        if (have[i])
            out[n++] = measured[i];
    return n;
}
