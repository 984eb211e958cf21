/* Requests made on one thread and completed, tested, freed, started or
 * cancelled on another (test/mpi/threads_requests.py), on 2 ranks.
 *
 * Rank 0 has two threads: main, which posts, and `completer`, a pthread
 * that runs one job at a time for it.  Rank 1 is single-threaded: it sends
 * and receives the matching messages from main;peer.  With the argument
 * "serialized" the program asks for MPI_THREAD_SERIALIZED and the two
 * threads of rank 0 take turns; otherwise MPI_THREAD_MULTIPLE, and main
 * keeps calling MPI (MPI_Iprobe of a tag nobody sends) and instrumented
 * functions while the completer runs. */
#include <pthread.h>
#include <string.h>

#include "common.h"

#define N_WAIT 200
#define WAIT_BYTES 4096
#define N_SMALL 20
#define N_MIXED 10
#define N_FREE 10
#define N_PERSISTENT 6
#define N_SENDER 10
#define N_CANCEL_MANY 20000
#define TAG_NEVER 77
#define TAG_CANCEL_UNMATCHED 78
#define TAG_CANCEL_LATE 79

static int serialized;
static MPI_Request reqs[2 * N_WAIT];
static char buf[2 * N_WAIT][WAIT_BYTES];
static MPI_Request persistent;

/* The completer's job and the handshake. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static void (*job)(void);
static int job_done, quit;
static volatile long sink;

NOINLINE static void spin(void)
{
    sink = sink + 1;
}

/* What main does while the completer works: under MULTIPLE, hooks and MPI
 * calls that poll main's own requests (the ones being completed elsewhere
 * must not be among them). */
NOINLINE static void busy(void)
{
    int flag = 0;
    MPI_Iprobe(1, TAG_NEVER, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    EXPECT(!flag);
    for (int i = 0; i < 100; i++)
        spin();
}

static void run_on_completer(void (*f)(void))
{
    pthread_mutex_lock(&lock);
    job = f;
    job_done = 0;
    pthread_cond_broadcast(&cond);
    while (!job_done) {
        if (serialized) {
            pthread_cond_wait(&cond, &lock);
        } else {
            pthread_mutex_unlock(&lock);
            busy();
            pthread_mutex_lock(&lock);
        }
    }
    pthread_mutex_unlock(&lock);
}

static void *completer(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (!job && !quit)
            pthread_cond_wait(&cond, &lock);
        void (*f)(void) = job;
        pthread_mutex_unlock(&lock);
        if (!f)
            return NULL;
        f();
        pthread_mutex_lock(&lock);
        job = NULL;
        job_done = 1;
        pthread_cond_broadcast(&cond);
        pthread_mutex_unlock(&lock);
    }
}

static void check_buffers(int n, int bytes, int first)
{
    for (int i = 0; i < n; i++)
        for (int b = 0; b < bytes; b++)
            EXPECT(buf[i][b] == (char)(first + i + b));
}

/* --- rank 1 ---------------------------------------------------------------- */

NOINLINE static void peer(int n, int bytes, int first, int tag)
{
    static char out[WAIT_BYTES];
    for (int i = 0; i < n; i++) {
        for (int b = 0; b < bytes; b++)
            out[b] = (char)(first + i + b);
        MPI_Send(out, bytes, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
    }
}

NOINLINE static void peer_receive(int n, int bytes, int tag)
{
    static char in[WAIT_BYTES];
    for (int i = 0; i < n; i++) {
        MPI_Recv(in, bytes, MPI_BYTE, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int b = 0; b < bytes; b++)
            EXPECT(in[b] == (char)(i + b));
    }
}

/* --- rank 0: main posts, the completer completes ----------------------------- */

static int current_n;

NOINLINE static void complete_wait(void)
{
    for (int i = 0; i < current_n; i++) {
        MPI_Status st;
        MPI_Wait(&reqs[i], &st);
        EXPECT(st.MPI_SOURCE == 1);
    }
}

NOINLINE static void post_wait(void)
{
    for (int i = 0; i < N_WAIT; i++)
        MPI_Irecv(buf[i], WAIT_BYTES, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &reqs[i]);
    current_n = N_WAIT;
    run_on_completer(complete_wait);
    check_buffers(N_WAIT, WAIT_BYTES, 0);
}

NOINLINE static void complete_test(void)
{
    for (int i = 0; i < current_n; i++) {
        int flag = 0;
        while (!flag)
            MPI_Test(&reqs[i], &flag, MPI_STATUS_IGNORE);
    }
}

NOINLINE static void complete_waitall(void)
{
    MPI_Waitall(current_n, reqs, MPI_STATUSES_IGNORE);
}

NOINLINE static void complete_waitany(void)
{
    for (int k = 0; k < current_n; k++) {
        int index;
        MPI_Waitany(current_n, reqs, &index, MPI_STATUS_IGNORE);
        EXPECT(index != MPI_UNDEFINED);
    }
}

NOINLINE static void complete_waitsome(void)
{
    int done = 0, outcount, indices[2 * N_WAIT];
    while (done < current_n) {
        MPI_Waitsome(current_n, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
        EXPECT(outcount != MPI_UNDEFINED);
        done += outcount;
    }
}

NOINLINE static void complete_testall(void)
{
    int flag = 0;
    while (!flag)
        MPI_Testall(current_n, reqs, &flag, MPI_STATUSES_IGNORE);
}

NOINLINE static void complete_testany(void)
{
    for (int k = 0; k < current_n;) {
        int index, flag = 0;
        MPI_Testany(current_n, reqs, &index, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            EXPECT(index != MPI_UNDEFINED);
            k++;
        }
    }
}

NOINLINE static void complete_testsome(void)
{
    int done = 0, outcount, indices[2 * N_WAIT];
    while (done < current_n) {
        MPI_Testsome(current_n, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
        EXPECT(outcount != MPI_UNDEFINED);
        done += outcount;
    }
}

/* N_SMALL receives of i + 1 ints, posted here, completed by `how` on the
 * completer. */
NOINLINE static void post_small(void (*how)(void), int tag)
{
    for (int i = 0; i < N_SMALL; i++)
        MPI_Irecv(buf[i], (i + 1) * 4, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &reqs[i]);
    current_n = N_SMALL;
    run_on_completer(how);
}

#define POST_SMALL(name, tag)                                                            \
    NOINLINE static void post_##name(void)                                               \
    {                                                                                    \
        post_small(complete_##name, tag);                                                \
    }
POST_SMALL(test, 2)
POST_SMALL(waitall, 3)
POST_SMALL(waitany, 4)
POST_SMALL(waitsome, 5)
POST_SMALL(testall, 6)
POST_SMALL(testany, 7)
POST_SMALL(testsome, 8)

/* A Waitall of the completer's own receives and main's. */
NOINLINE static void complete_mixed(void)
{
    for (int i = N_MIXED; i < 2 * N_MIXED; i++)
        MPI_Irecv(buf[i], 100, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &reqs[i]);
    MPI_Waitall(2 * N_MIXED, reqs, MPI_STATUSES_IGNORE);
}

NOINLINE static void post_mixed(void)
{
    for (int i = 0; i < N_MIXED; i++)
        MPI_Irecv(buf[i], 100, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &reqs[i]);
    run_on_completer(complete_mixed);
}

/* Sends freed by the completer while active: each counts at once. */
NOINLINE static void complete_free(void)
{
    for (int i = 0; i < N_FREE; i++) {
        MPI_Request_free(&reqs[i]);
        EXPECT(reqs[i] == MPI_REQUEST_NULL);
    }
}

NOINLINE static void post_free(void)
{
    for (int i = 0; i < N_FREE; i++) {
        for (int b = 0; b < 64; b++)
            buf[i][b] = (char)(i + b);
        MPI_Isend(buf[i], 64, MPI_BYTE, 1, 10, MPI_COMM_WORLD, &reqs[i]);
    }
    run_on_completer(complete_free);
}

/* reqs[0]: never matched, cancelled by the completer, then waited by it;
 * reqs[1]: matched, waited by the completer; reqs[2]: never matched,
 * cancelled and freed by the completer (hooktrace keeps it until it sees
 * it complete). */
NOINLINE static void complete_cancel(void)
{
    MPI_Status st;
    int cancelled = 0;
    MPI_Cancel(&reqs[0]);
    MPI_Wait(&reqs[0], &st);
    MPI_Test_cancelled(&st, &cancelled);
    EXPECT(cancelled);
    MPI_Wait(&reqs[1], &st);
    MPI_Test_cancelled(&st, &cancelled);
    EXPECT(!cancelled);
    MPI_Cancel(&reqs[2]);
    MPI_Request_free(&reqs[2]);
}

NOINLINE static void post_cancel(void)
{
    MPI_Irecv(buf[0], 8, MPI_BYTE, 1, TAG_CANCEL_UNMATCHED, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(buf[1], 8, MPI_BYTE, 1, 11, MPI_COMM_WORLD, &reqs[1]);
    MPI_Irecv(buf[2], 8, MPI_BYTE, 1, TAG_CANCEL_LATE, MPI_COMM_WORLD, &reqs[2]);
    run_on_completer(complete_cancel);
}

/* Receives posted here, never matched, cancelled then waited by the
 * completer, one at a time while main polls: MPICH completes a cancelled
 * receive inside MPI_Cancel, and a poll by main between that and the
 * cancel's bookkeeping once counted it as a message, of the size a stale
 * status held. */
NOINLINE static void complete_cancel_one(void)
{
    MPI_Status st;
    int cancelled = 0;
    MPI_Cancel(&reqs[0]);
    MPI_Wait(&reqs[0], &st);
    MPI_Test_cancelled(&st, &cancelled);
    EXPECT(cancelled);
}

NOINLINE static void post_cancel_many(void)
{
    for (int k = 0; k < N_CANCEL_MANY; k++) {
        MPI_Irecv(buf[0], 8, MPI_BYTE, 1, TAG_CANCEL_UNMATCHED, MPI_COMM_WORLD, &reqs[0]);
        run_on_completer(complete_cancel_one);
    }
}

/* A persistent receive made here; started alternately here and on the
 * completer, and completed on the other thread. */
NOINLINE static void start_persistent(void)
{
    MPI_Start(&persistent);
}

NOINLINE static void wait_persistent(void)
{
    MPI_Wait(&persistent, MPI_STATUS_IGNORE);
}

NOINLINE static void post_persistent(void)
{
    MPI_Recv_init(buf[0], 256, MPI_BYTE, 1, 12, MPI_COMM_WORLD, &persistent);
    for (int k = 0; k < N_PERSISTENT; k++) {
        if (k % 2 == 0) {
            start_persistent();
            run_on_completer(wait_persistent);
        } else {
            run_on_completer(start_persistent);
            wait_persistent();
        }
    }
    MPI_Request_free(&persistent);
}

/* Sends made on the completer, which makes no MPI call afterwards, and
 * waited here: recorded on the completer's figures at MPI_Finalize. */
NOINLINE static void sender(void)
{
    for (int i = 0; i < N_SENDER; i++) {
        for (int b = 0; b < 32; b++)
            buf[i][b] = (char)(i + b);
        MPI_Isend(buf[i], 32, MPI_BYTE, 1, 13, MPI_COMM_WORLD, &reqs[i]);
    }
}

NOINLINE static void wait_sender(void)
{
    run_on_completer(sender);
    MPI_Waitall(N_SENDER, reqs, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
    serialized = argc > 1 && strcmp(argv[1], "serialized") == 0;
    int wanted = serialized ? MPI_THREAD_SERIALIZED : MPI_THREAD_MULTIPLE, provided;
    MPI_Init_thread(&argc, &argv, wanted, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    if (provided < wanted) {
        if (world_rank == 0)
            printf("thread level %d < %d\n", provided, wanted);
        MPI_Finalize();
        return 0;
    }
    EXPECT(world_size == 2);

    if (world_rank == 1) {
        peer(N_WAIT, WAIT_BYTES, 0, 1);
        for (int tag = 2; tag <= 8; tag++)
            for (int i = 0; i < N_SMALL; i++)
                peer(1, (i + 1) * 4, i, tag);
        peer(2 * N_MIXED, 100, 0, 9);
        peer_receive(N_FREE, 64, 10);
        peer(1, 8, 0, 11);
        peer(N_PERSISTENT, 256, 0, 12);
        peer_receive(N_SENDER, 32, 13);
    } else {
        pthread_t thread;
        EXPECT(pthread_create(&thread, NULL, completer, NULL) == 0);
        post_wait();
        post_test();
        post_waitall();
        post_waitany();
        post_waitsome();
        post_testall();
        post_testany();
        post_testsome();
        post_mixed();
        post_free();
        post_cancel();
        post_cancel_many();
        post_persistent();
        wait_sender();
        pthread_mutex_lock(&lock);
        quit = 1;
        pthread_cond_broadcast(&cond);
        pthread_mutex_unlock(&lock);
        EXPECT(pthread_join(thread, NULL) == 0);
    }
    (void)start; /* MPI_Init_thread instead */
    report(serialized ? "serialized" : "multiple", provided);
    MPI_Finalize();
    return 0;
}
