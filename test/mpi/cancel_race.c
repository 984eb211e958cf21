/* MPI_Cancel of a receive while a third thread tests it
 * (test/mpi/cancel_race.py), on 2 ranks under MPI_THREAD_MULTIPLE.
 *
 * Rank 0 has three threads.  Each of ROUNDS rounds, main posts an
 * MPI_Irecv; `tester` loops MPI_Testsome over it until it completes and
 * asks MPI_Test_cancelled; `canceller` calls MPI_Cancel on it; main keeps
 * calling MPI (MPI_Iprobe of a tag nobody sends) and instrumented
 * functions meanwhile, so that hooktrace polls main's requests.
 *
 * In most rounds nothing matches the receive, and the cancel comes while
 * the tester is inside MPI_Testsome, which holds the request out of main's
 * table (requests_shared.c), after MPI looked at it: the tester's first
 * MPI_Testsome also holds a completed generalized request, whose query
 * function MPI calls once it has seen which requests completed, and that
 * function has the canceller cancel the receive then and waits for it.
 * The tester then waits for main to make a few MPI calls (which poll the
 * receive, back in main's table and complete) before it tests again.  The
 * cancel must keep that completion from counting as a message.  Where the
 * library holds a lock across the query function (the canceller's
 * MPI_Cancel waits for it), the tester stops waiting after a second and
 * the round is not counted as raced.
 *
 * Every MATCHED_EVERY-th round rank 1 sent the message before the receive
 * was posted, and the canceller cancels before the tester starts
 * (cancelling a request Testsome may already have freed would be
 * erroneous): the cancel fails and the receive is a message; if it ever
 * succeeds, main receives the message with MPI_Recv instead.
 *
 * Rank 0 prints how many receives completed as messages, how many were
 * cancelled, how many messages MPI_Recv took instead, and in how many
 * rounds the cancel came inside MPI_Testsome: the profile must hold
 * exactly the messages received. */
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "common.h"

#define ROUNDS 400
#define MATCHED_EVERY 4
#define TAG_UNMATCHED 1
#define TAG_MATCHED 2
#define TAG_NEVER 3
#define POLLS 20 /* main's MPI calls the tester waits for */

static char buf[8];
static MPI_Request requests[2]; /* the receive; a generalized request */
static int matched_round;

/* Round handshake: main bumps `round_started`; the canceller cancels once
 * `cancel_now` is set and then sets `cancel_done`; the tester sets
 * `tested`.  `calls`: main's MPI calls so far. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int round_started, quit;
static int cancel_now, cancel_done, tested, calls;
static int round_cancelled, round_raced;
static volatile long sink;

NOINLINE static void spin(void)
{
    sink = sink + 1;
}

static int wait_round(int seen)
{
    pthread_mutex_lock(&lock);
    while (round_started == seen && !quit)
        pthread_cond_wait(&cond, &lock);
    int r = quit ? -1 : round_started;
    pthread_mutex_unlock(&lock);
    return r;
}

static int load(int *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store(int *p, int v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Inside the tester's MPI_Testsome: the receive was seen pending. */
__attribute__((no_instrument_function)) static int query(void *extra, MPI_Status *st)
{
    (void)extra;
    MPI_Status_set_elements(st, MPI_BYTE, 0);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    store(&cancel_now, 1);
    for (double end = seconds() + 1; !load(&cancel_done) && seconds() < end;)
        sched_yield();
    round_raced = load(&cancel_done);
    return MPI_SUCCESS;
}

__attribute__((no_instrument_function)) static int free_fn(void *extra)
{
    (void)extra;
    return MPI_SUCCESS;
}

__attribute__((no_instrument_function)) static int cancel_fn(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

NOINLINE static void test_round(void)
{
    int n = matched_round ? 1 : 2;
    if (matched_round)
        while (!load(&cancel_done))
            sched_yield();
    int outcount = 0, indices[2], done = 0, cancelled = 0;
    MPI_Status st[2];
    while (done < n) {
        MPI_Testsome(n, requests, &outcount, indices, st);
        EXPECT(outcount != MPI_UNDEFINED);
        for (int k = 0; k < outcount; k++) {
            if (indices[k] == 1)
                continue; /* the generalized request */
            int flag = -1;
            MPI_Test_cancelled(&st[k], &flag);
            EXPECT(flag || (matched_round && st[k].MPI_SOURCE == 1));
            cancelled += flag;
        }
        done += outcount;
        /* Main polls the receive, back in its table. */
        int seen = load(&calls);
        while (load(&calls) - seen < POLLS)
            sched_yield();
    }
    round_cancelled = cancelled;
    store(&tested, 1);
}

static void *tester(void *arg)
{
    (void)arg;
    for (int seen = 0; (seen = wait_round(seen)) >= 0;)
        test_round();
    return NULL;
}

/* The handle copied at the start of the round: the tester's Testsome sets
 * requests[0] to MPI_REQUEST_NULL when it completes. */
NOINLINE static void cancel_round(void)
{
    MPI_Request mine = requests[0];
    if (!matched_round)
        while (!load(&cancel_now))
            sched_yield();
    MPI_Cancel(&mine);
    store(&cancel_done, 1);
}

static void *canceller(void *arg)
{
    (void)arg;
    for (int seen = 0; (seen = wait_round(seen)) >= 0;)
        cancel_round();
    return NULL;
}

NOINLINE static void busy(void)
{
    int flag = 0;
    MPI_Iprobe(1, TAG_NEVER, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    EXPECT(!flag);
    for (int i = 0; i < 20; i++)
        spin();
    store(&calls, load(&calls) + 1);
}

/* One round on rank 0; returns whether its receive was cancelled. */
NOINLINE static int post_round(int round)
{
    matched_round = round % MATCHED_EVERY == 0;
    MPI_Irecv(buf, 8, MPI_BYTE, 1, matched_round ? TAG_MATCHED : TAG_UNMATCHED, MPI_COMM_WORLD,
              &requests[0]);
    if (!matched_round) {
        MPI_Grequest_start(query, free_fn, cancel_fn, NULL, &requests[1]);
        MPI_Grequest_complete(requests[1]);
    }
    store(&cancel_now, 0);
    store(&cancel_done, 0);
    store(&tested, 0);
    round_raced = 0;
    pthread_mutex_lock(&lock);
    round_started = round;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    while (!load(&tested) || !load(&cancel_done))
        busy();
    return round_cancelled;
}

NOINLINE static void receive_instead(void)
{
    MPI_Recv(buf, 8, MPI_BYTE, 1, TAG_MATCHED, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

NOINLINE static void peer(void)
{
    static char out[8];
    MPI_Send(out, 8, MPI_BYTE, 0, TAG_MATCHED, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (world_rank == 0)
            printf("thread level %d < %d\n", provided, MPI_THREAD_MULTIPLE);
        MPI_Finalize();
        return 0;
    }
    EXPECT(world_size == 2);

    long long received = 0, cancelled = 0, instead = 0, raced = 0;
    pthread_t threads[2];
    if (world_rank == 0) {
        EXPECT(pthread_create(&threads[0], NULL, tester, NULL) == 0);
        EXPECT(pthread_create(&threads[1], NULL, canceller, NULL) == 0);
    }
    for (int round = 1; round <= ROUNDS; round++) {
        if (world_rank == 1 && round % MATCHED_EVERY == 0)
            peer();
        /* The matched round's message is here before the receive is posted. */
        MPI_Barrier(MPI_COMM_WORLD);
        if (world_rank == 0) {
            if (post_round(round)) {
                cancelled++;
                if (round % MATCHED_EVERY == 0) {
                    receive_instead();
                    instead++;
                }
            } else {
                received++;
            }
            raced += round_raced;
        }
    }
    if (world_rank == 0) {
        pthread_mutex_lock(&lock);
        quit = 1;
        pthread_cond_broadcast(&cond);
        pthread_mutex_unlock(&lock);
        EXPECT(pthread_join(threads[0], NULL) == 0);
        EXPECT(pthread_join(threads[1], NULL) == 0);
    }
    (void)start; /* MPI_Init_thread instead */
    report("received", received);
    report("cancelled", cancelled);
    report("received instead", instead);
    report("cancelled inside MPI_Testsome", raced);
    MPI_Finalize();
    return 0;
}
