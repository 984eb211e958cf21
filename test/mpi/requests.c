/* Non-blocking point-to-point on 4 ranks: the completion families,
 * persistent requests, MPI_Cancel, a message completed while the program
 * computes (found by polling from the function hooks), and matched probes.
 * Expected messages: test/mpi/requests.py. */
#include <string.h>
#include <time.h>

#include "common.h"

#define MAXN 4

static long long checksum;

NOINLINE static void add(const void *buf, size_t bytes)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < bytes; i++)
        checksum = (checksum * 31 + p[i]) % 1000000007LL;
}

/* Instrumented work: its hooks poll the open requests. */
static volatile double sink;
NOINLINE static void leaf(int i) { sink += i * 0.5; }
NOINLINE static void compute(int n)
{
    for (int i = 0; i < n; i++)
        leaf(i);
}

/* Ranks 1..3 Isend r longs to rank 0, which completes its three Irecvs with
 * MPI_Waitany. */
NOINLINE static void wait_any(void)
{
    long buf[MAXN][MAXN] = {{0}};
    MPI_Request req[MAXN];
    if (world_rank == 0) {
        for (int r = 1; r < world_size; r++)
            MPI_Irecv(buf[r], r, MPI_LONG, r, 11, MPI_COMM_WORLD, &req[r - 1]);
        for (int k = 1; k < world_size; k++) {
            int index;
            MPI_Status st;
            MPI_Waitany(world_size - 1, req, &index, &st);
            EXPECT(index != MPI_UNDEFINED && st.MPI_SOURCE == index + 1);
        }
        add(buf, sizeof buf);
    } else {
        for (int i = 0; i < world_rank; i++)
            buf[0][i] = world_rank * 1000 + i;
        MPI_Isend(buf[0], world_rank, MPI_LONG, 0, 11, MPI_COMM_WORLD, &req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    }
}

/* All to all with Isend/Irecv: s sends 4 s + d + 1 ints to d. */
static int pair_count(int s, int d) { return 4 * s + d + 1; }

static void post_all(int tag, int recv_any, int out[][32], int in[][32], MPI_Request *req, int *n)
{
    *n = 0;
    for (int p = 0; p < world_size; p++) {
        if (p == world_rank)
            continue;
        for (int i = 0; i < 32; i++)
            out[p][i] = world_rank * 100 + p + i;
        MPI_Irecv(in[p], 32, MPI_INT, recv_any ? MPI_ANY_SOURCE : p, tag, MPI_COMM_WORLD,
                  &req[(*n)++]);
        MPI_Isend(out[p], pair_count(world_rank, p), MPI_INT, p, tag, MPI_COMM_WORLD,
                  &req[(*n)++]);
    }
}

NOINLINE static void wait_some(void)
{
    int out[MAXN][32], in[MAXN][32] = {{0}}, n, done = 0;
    MPI_Request req[2 * MAXN];
    post_all(12, 0, out, in, req, &n);
    while (done < n) {
        int outcount, idx[2 * MAXN];
        MPI_Status st[2 * MAXN];
        MPI_Waitsome(n, req, &outcount, idx, st);
        EXPECT(outcount != MPI_UNDEFINED && outcount > 0);
        done += outcount;
    }
    add(in, sizeof in);
}

NOINLINE static void test_some(void)
{
    int out[MAXN][32], in[MAXN][32] = {{0}}, n, done = 0;
    MPI_Request req[2 * MAXN];
    post_all(13, 0, out, in, req, &n);
    while (done < n) {
        int outcount, idx[2 * MAXN];
        MPI_Testsome(n, req, &outcount, idx, MPI_STATUSES_IGNORE);
        EXPECT(outcount != MPI_UNDEFINED);
        done += outcount;
    }
    add(in, sizeof in);
}

/* Wildcard receives completed by MPI_Testall with MPI_STATUSES_IGNORE. */
NOINLINE static void test_all(void)
{
    int out[MAXN][32], in[MAXN][32] = {{0}}, n, flag = 0;
    MPI_Request req[2 * MAXN];
    post_all(14, 1, out, in, req, &n);
    while (!flag)
        MPI_Testall(n, req, &flag, MPI_STATUSES_IGNORE);
    long long sum = 0;
    for (int p = 0; p < world_size; p++)
        if (p != world_rank)
            sum += in[p][0];
    checksum += sum;
}

/* Ring with MPI_Testany: 3 ints from r to r+1. */
NOINLINE static void test_any(void)
{
    int next = (world_rank + 1) % world_size, prev = (world_rank + world_size - 1) % world_size;
    int out[3] = {world_rank, 1, 2}, in[3] = {0};
    MPI_Request req[2];
    MPI_Irecv(in, 3, MPI_INT, prev, 15, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, 3, MPI_INT, next, 15, MPI_COMM_WORLD, &req[1]);
    int done = 0;
    while (done < 2) {
        int index, flag;
        MPI_Testany(2, req, &index, &flag, MPI_STATUS_IGNORE);
        if (flag && index != MPI_UNDEFINED)
            done++;
    }
    EXPECT(in[0] == prev);
    add(in, sizeof in);
}

/* More requests than the wrappers keep on their stack: ranks 0 <-> 1 and
 * 2 <-> 3 exchange 40 messages of 1 int each way, completed by one
 * MPI_Waitall of 80 requests, then 40 more each way by MPI_Waitsome. */
NOINLINE static void many(void)
{
    enum { K = 40 };
    int partner = world_rank ^ 1, out[K], in[K];
    MPI_Request req[2 * K];
    MPI_Status st[2 * K];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < K; i++) {
            out[i] = world_rank * 1000 + round * 100 + i;
            MPI_Irecv(&in[i], 1, MPI_INT, partner, 16 + round, MPI_COMM_WORLD, &req[2 * i]);
            MPI_Isend(&out[i], 1, MPI_INT, partner, 16 + round, MPI_COMM_WORLD, &req[2 * i + 1]);
        }
        if (round == 0) {
            MPI_Waitall(2 * K, req, st);
        } else {
            int done = 0;
            while (done < 2 * K) {
                int outcount, idx[2 * K];
                MPI_Waitsome(2 * K, req, &outcount, idx, MPI_STATUSES_IGNORE);
                done += outcount;
            }
        }
        add(in, sizeof in);
    }
}

/* Persistent requests.  0 -> 1: Send_init of 4 ints started 4 times; the
 * first 3 are waited for, the 4th is freed while active (it still
 * completes); 1 starts its Recv_init 4 times and frees it inactive.
 * 2 <-> 3: Ssend_init of 6 doubles and Recv_init, both started together by
 * MPI_Startall twice.  Rank 1 also starts a Send_init and a Recv_init with
 * MPI_PROC_NULL twice: no messages. */
NOINLINE static void persistent(void)
{
    MPI_Request req[2];
    if (world_rank == 0) {
        int data[4] = {1, 2, 3, 4};
        MPI_Send_init(data, 4, MPI_INT, 1, 21, MPI_COMM_WORLD, &req[0]);
        for (int i = 0; i < 3; i++) {
            MPI_Start(&req[0]);
            MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        }
        MPI_Start(&req[0]);
        MPI_Request_free(&req[0]);
    } else if (world_rank == 1) {
        int data[4];
        MPI_Recv_init(data, 4, MPI_INT, 0, 21, MPI_COMM_WORLD, &req[0]);
        for (int i = 0; i < 4; i++) {
            MPI_Start(&req[0]);
            MPI_Wait(&req[0], MPI_STATUS_IGNORE);
            add(data, sizeof data);
        }
        MPI_Request_free(&req[0]);
        /* persistent requests with MPI_PROC_NULL: started twice, nothing moves */
        MPI_Send_init(data, 4, MPI_INT, MPI_PROC_NULL, 23, MPI_COMM_WORLD, &req[0]);
        MPI_Recv_init(data, 4, MPI_INT, MPI_PROC_NULL, 23, MPI_COMM_WORLD, &req[1]);
        for (int i = 0; i < 2; i++) {
            MPI_Startall(2, req);
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        }
        MPI_Request_free(&req[0]);
        MPI_Request_free(&req[1]);
    } else {
        int other = world_rank == 2 ? 3 : 2;
        double out[6] = {world_rank, 1, 2, 3, 4, 5}, in[6];
        MPI_Ssend_init(out, 6, MPI_DOUBLE, other, 22, MPI_COMM_WORLD, &req[0]);
        MPI_Recv_init(in, 6, MPI_DOUBLE, other, 22, MPI_COMM_WORLD, &req[1]);
        for (int i = 0; i < 2; i++) {
            MPI_Startall(2, req);
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
            EXPECT(in[0] == other);
            add(in, sizeof in);
        }
        MPI_Request_free(&req[0]);
        MPI_Request_free(&req[1]);
    }
}

/* Rank 0 posts a receive nobody sends to and cancels it, and one that rank 1
 * sends 10 bytes to; only the second is a message.  Returns MPI_Test_cancelled
 * of the first. */
NOINLINE static int cancel(void)
{
    int cancelled = -1;
    if (world_rank == 0) {
        char never[8], real[10];
        MPI_Request req[2];
        MPI_Status st;
        MPI_Irecv(never, 8, MPI_CHAR, 1, 31, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(real, 10, MPI_CHAR, 1, 32, MPI_COMM_WORLD, &req[1]);
        MPI_Cancel(&req[0]);
        MPI_Wait(&req[0], &st);
        MPI_Test_cancelled(&st, &cancelled);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        add(real, sizeof real);
    } else if (world_rank == 1) {
        char real[10] = "cancelled";
        MPI_Send(real, 10, MPI_CHAR, 0, 32, MPI_COMM_WORLD);
    }
    return cancelled;
}

/* Nothing here is instrumented, so no hook polls while it runs. */
static void sleep_without_hooks(void)
{
    struct timespec ts = {0, 500 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

/* The program computes between Isend/Irecv and its Wait/Test; the message
 * has completed before the computation starts (a token sent after the data
 * makes sure for the receive), so the hooks' polling sees it during the
 * computation.  Then 0.5 s pass in code without hooks before the Wait/Test:
 * a message seen only there would end at least 0.5 s after the
 * computation, which the test can tell apart without depending on how fast
 * anything ran.
 * 0 -> 1: Isend, compute, MPI_Test until done; 1 receives with MPI_Recv.
 * 2 -> 3: Isend + token, compute, MPI_Wait; 3: Irecv, token, compute, MPI_Wait.
 * 1000 bytes each (the token is 4 bytes, tag 43). */
NOINLINE static void overlap(void)
{
    int buf[250], token = 0;
    MPI_Request req;
    for (int i = 0; i < 250; i++)
        buf[i] = world_rank + i;
    switch (world_rank) {
    case 0: {
        int flag = 0;
        MPI_Isend(buf, 250, MPI_INT, 1, 41, MPI_COMM_WORLD, &req);
        compute(1000000);
        sleep_without_hooks();
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        break;
    }
    case 1:
        MPI_Recv(buf, 250, MPI_INT, 0, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        add(buf, sizeof buf);
        break;
    case 2:
        MPI_Isend(buf, 250, MPI_INT, 3, 42, MPI_COMM_WORLD, &req);
        MPI_Send(&token, 1, MPI_INT, 3, 43, MPI_COMM_WORLD);
        compute(1000000);
        sleep_without_hooks();
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
    case 3:
        MPI_Irecv(buf, 250, MPI_INT, 2, 42, MPI_COMM_WORLD, &req);
        MPI_Recv(&token, 1, MPI_INT, 2, 43, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        compute(1000000);
        sleep_without_hooks();
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        add(buf, sizeof buf);
        break;
    }
}

/* Matched probes.  In MPI_COMM_WORLD, 2 -> 3: 10 ints (tag 51, MPI_Mprobe +
 * MPI_Mrecv) and 20 ints (tag 52, MPI_Improbe + MPI_Imrecv).  In a
 * communicator with the ranks reversed, 0 -> 1: 3 doubles (Improbe/Imrecv)
 * and 1 -> 0: 5 ints (Mprobe/Mrecv).  MPI_Probe and MPI_Iprobe are nodes
 * without messages.  Then every rank probes and receives MPI_PROC_NULL with
 * both pairs: no message. */
NOINLINE static void matched_probe(void)
{
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &rev);
    int rev_of_0 = world_size - 1, rev_of_1 = world_size - 2;
    MPI_Message msg;
    MPI_Status st;
    MPI_Request req;
    int flag = 0, count = -1;
    if (world_rank == 2) {
        int ten[10] = {2, 1}, twenty[20] = {2, 2};
        MPI_Send(ten, 10, MPI_INT, 3, 51, MPI_COMM_WORLD);
        MPI_Send(twenty, 20, MPI_INT, 3, 52, MPI_COMM_WORLD);
    } else if (world_rank == 3) {
        int ten[10], twenty[20];
        MPI_Probe(2, 51, MPI_COMM_WORLD, &st);
        MPI_Mprobe(MPI_ANY_SOURCE, 51, MPI_COMM_WORLD, &msg, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        EXPECT(count == 10 && st.MPI_SOURCE == 2);
        MPI_Mrecv(ten, count, MPI_INT, &msg, MPI_STATUS_IGNORE);
        while (!flag)
            MPI_Improbe(MPI_ANY_SOURCE, 52, MPI_COMM_WORLD, &flag, &msg, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        EXPECT(count == 20);
        MPI_Imrecv(twenty, count, MPI_INT, &msg, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        add(ten, sizeof ten);
        add(twenty, sizeof twenty);
    } else if (world_rank == 0) {
        double three[3] = {0.5, 1.5, 2.5};
        int five[5];
        MPI_Send(three, 3, MPI_DOUBLE, rev_of_1, 53, rev);
        MPI_Mprobe(MPI_ANY_SOURCE, 54, rev, &msg, &st);
        EXPECT(st.MPI_SOURCE == rev_of_1);
        MPI_Mrecv(five, 5, MPI_INT, &msg, &st);
        add(five, sizeof five);
    } else if (world_rank == 1) {
        double three[3];
        int five[5] = {1, 2, 3, 4, 5};
        while (!flag)
            MPI_Iprobe(MPI_ANY_SOURCE, 53, rev, &flag, MPI_STATUS_IGNORE);
        flag = 0;
        while (!flag)
            MPI_Improbe(MPI_ANY_SOURCE, 53, rev, &flag, &msg, &st);
        EXPECT(st.MPI_SOURCE == rev_of_0);
        MPI_Imrecv(three, 3, MPI_DOUBLE, &msg, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        add(three, sizeof three);
        MPI_Send(five, 5, MPI_INT, rev_of_0, 54, rev);
    }
    /* MPI_PROC_NULL: the message handle is MPI_MESSAGE_NO_PROC, no message */
    int nothing[2];
    MPI_Mprobe(MPI_PROC_NULL, 55, MPI_COMM_WORLD, &msg, &st);
    EXPECT(msg == MPI_MESSAGE_NO_PROC);
    MPI_Mrecv(nothing, 2, MPI_INT, &msg, MPI_STATUS_IGNORE);
    flag = 0;
    MPI_Improbe(MPI_PROC_NULL, 55, MPI_COMM_WORLD, &flag, &msg, &st);
    EXPECT(flag && msg == MPI_MESSAGE_NO_PROC);
    MPI_Imrecv(nothing, 2, MPI_INT, &msg, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Comm_free(&rev);
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    if (world_size != 4) {
        if (world_rank == 0)
            fprintf(stderr, "requests: run with 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    wait_any();
    wait_some();
    test_some();
    test_all();
    test_any();
    many();
    persistent();
    int cancelled = cancel();
    overlap();
    matched_probe();
    report("requests", checksum);
    report("cancelled", cancelled);
    MPI_Finalize();
    return 0;
}
