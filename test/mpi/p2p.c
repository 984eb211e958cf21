/* Blocking point-to-point on 4 ranks, one function per family, each with
 * known senders, receivers and sizes (test/mpi/p2p.py holds the expected
 * messages).  Tags are distinct per family so no receive can match a
 * message of another one.  Rank 0 prints a checksum of what each rank
 * received. */
#include <string.h>

#include "common.h"

static long long checksum;

NOINLINE static void add(const void *buf, size_t bytes)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < bytes; i++)
        checksum = (checksum * 31 + p[i]) % 1000000007LL;
}

/* Ring: r sends 10 ints to r+1 and receives from r-1; even ranks send
 * first. */
NOINLINE static void blocking_ring(void)
{
    int out[10], in[10];
    int next = (world_rank + 1) % world_size, prev = (world_rank + world_size - 1) % world_size;
    for (int i = 0; i < 10; i++)
        out[i] = world_rank * 100 + i;
    if (world_rank % 2 == 0) {
        MPI_Send(out, 10, MPI_INT, next, 1, MPI_COMM_WORLD);
        MPI_Recv(in, 10, MPI_INT, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(in, 10, MPI_INT, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(out, 10, MPI_INT, next, 1, MPI_COMM_WORLD);
    }
    add(in, sizeof in);
}

/* Rank r > 0 sends 100 r bytes; rank 0 receives them with MPI_ANY_SOURCE
 * and MPI_STATUS_IGNORE (the profiler needs the status it was denied). */
NOINLINE static void any_source(void)
{
    char buf[1000];
    if (world_rank == 0) {
        long long total = 0;
        for (int i = 1; i < world_size; i++) {
            memset(buf, 0, sizeof buf);
            MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            total += buf[0]; /* the sender's rank */
        }
        EXPECT(total == 1 + 2 + 3);
        checksum += total;
    } else {
        memset(buf, world_rank, sizeof buf);
        MPI_Send(buf, 100 * world_rank, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    }
}

/* Every operation with MPI_PROC_NULL: no message at all. */
NOINLINE static void proc_null(void)
{
    int buf[5] = {1, 2, 3, 4, 5}, in[5];
    MPI_Status st;
    MPI_Request req[2];
    MPI_Send(buf, 5, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD);
    MPI_Recv(in, 5, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st);
    EXPECT(st.MPI_SOURCE == MPI_PROC_NULL);
    MPI_Sendrecv(buf, 5, MPI_INT, MPI_PROC_NULL, 3, in, 5, MPI_INT, MPI_PROC_NULL, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Isend(buf, 5, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(in, 5, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
}

/* One message of 0 bytes 0 -> 1 (blocking) and one 2 -> 3 (non-blocking,
 * NULL buffer). */
NOINLINE static void zero_bytes(void)
{
    int dummy = 0;
    MPI_Status st;
    MPI_Request req;
    int count = -1;
    switch (world_rank) {
    case 0:
        MPI_Send(&dummy, 0, MPI_INT, 1, 4, MPI_COMM_WORLD);
        break;
    case 1:
        MPI_Recv(&dummy, 0, MPI_INT, 0, 4, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        EXPECT(count == 0);
        break;
    case 2:
        MPI_Isend(NULL, 0, MPI_BYTE, 3, 4, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
    case 3:
        MPI_Irecv(NULL, 0, MPI_BYTE, 2, 4, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        EXPECT(count == 0);
        break;
    }
}

/* Derived datatypes: bytes are count x type size (not extent).
 * 1 -> 2: 2 x vector(4 blocks of 3 ints, stride 5) = 96 bytes, received as
 *         1 x contiguous(24 ints);
 * 3 -> 0: 3 x contiguous(5 doubles) = 120 bytes, received as 15 doubles. */
NOINLINE static void derived(void)
{
    MPI_Datatype vec, ints24, dbl5;
    MPI_Type_vector(4, 3, 5, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_contiguous(24, MPI_INT, &ints24);
    MPI_Type_commit(&ints24);
    MPI_Type_contiguous(5, MPI_DOUBLE, &dbl5);
    MPI_Type_commit(&dbl5);
    if (world_rank == 1) {
        int src[40];
        for (int i = 0; i < 40; i++)
            src[i] = i;
        MPI_Send(src, 2, vec, 2, 5, MPI_COMM_WORLD);
    } else if (world_rank == 2) {
        int dst[24];
        MPI_Recv(dst, 1, ints24, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        EXPECT(dst[3] == 5 && dst[12] == 18); /* the second vector starts at extent 18 */
        add(dst, sizeof dst);
    } else if (world_rank == 3) {
        double src[15];
        for (int i = 0; i < 15; i++)
            src[i] = i * 0.5;
        MPI_Send(src, 3, dbl5, 0, 5, MPI_COMM_WORLD);
    } else {
        double dst[15];
        MPI_Recv(dst, 15, MPI_DOUBLE, 3, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        add(dst, sizeof dst);
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&ints24);
    MPI_Type_free(&dbl5);
}

/* Sendrecv: 3 doubles to r+1 from r-1; Sendrecv_replace: 5 ints to r-1
 * from r+1. */
NOINLINE static void sendrecv(void)
{
    int next = (world_rank + 1) % world_size, prev = (world_rank + world_size - 1) % world_size;
    double out[3] = {world_rank, world_rank + 0.25, world_rank + 0.5}, in[3];
    MPI_Sendrecv(out, 3, MPI_DOUBLE, next, 6, in, 3, MPI_DOUBLE, prev, 6, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    EXPECT(in[0] == prev);
    add(in, sizeof in);
    int buf[5];
    for (int i = 0; i < 5; i++)
        buf[i] = world_rank * 10 + i;
    MPI_Sendrecv_replace(buf, 5, MPI_INT, prev, 7, next, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    EXPECT(buf[0] == next * 10);
    add(buf, sizeof buf);
}

/* The send modes, 0 -> 3: Bsend 2 ints, Ssend 4 ints, Rsend 6 ints into
 * an Irecv posted before the barrier; then their non-blocking forms, each
 * completed by MPI_Wait: Ibsend 1 int, Issend 3 ints, Irsend 5 ints (into
 * a second Irecv posted before the barrier). */
NOINLINE static void send_modes(void)
{
    int data[6] = {7, 8, 9, 10, 11, 12};
    int in_b[2], in_s[4], in_r[6], in_ib[1], in_is[3], in_ir[5];
    MPI_Request req_r = MPI_REQUEST_NULL, req_ir = MPI_REQUEST_NULL, req;
    if (world_rank == 3) {
        MPI_Irecv(in_r, 6, MPI_INT, 0, 73, MPI_COMM_WORLD, &req_r);
        MPI_Irecv(in_ir, 5, MPI_INT, 0, 76, MPI_COMM_WORLD, &req_ir);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank == 0) {
        int size = 3 * (int)sizeof(int) + 2 * MPI_BSEND_OVERHEAD;
        char *attached = malloc((size_t)size);
        MPI_Buffer_attach(attached, size);
        MPI_Bsend(data, 2, MPI_INT, 3, 71, MPI_COMM_WORLD);
        MPI_Ssend(data, 4, MPI_INT, 3, 72, MPI_COMM_WORLD);
        MPI_Rsend(data, 6, MPI_INT, 3, 73, MPI_COMM_WORLD);
        MPI_Ibsend(data, 1, MPI_INT, 3, 74, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Issend(data, 3, MPI_INT, 3, 75, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Irsend(data, 5, MPI_INT, 3, 76, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Buffer_detach(&attached, &size);
        free(attached);
    } else if (world_rank == 3) {
        MPI_Recv(in_b, 2, MPI_INT, 0, 71, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(in_s, 4, MPI_INT, 0, 72, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req_r, MPI_STATUS_IGNORE);
        MPI_Recv(in_ib, 1, MPI_INT, 0, 74, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(in_is, 3, MPI_INT, 0, 75, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req_ir, MPI_STATUS_IGNORE);
        add(in_b, sizeof in_b);
        add(in_s, sizeof in_s);
        add(in_r, sizeof in_r);
        add(in_ib, sizeof in_ib);
        add(in_is, sizeof in_is);
        add(in_ir, sizeof in_ir);
    }
}

/* A sub-communicator whose ranks are not the world ranks: split by parity,
 * keys reversed, so {0,2} has 2 as sub-rank 0 and {1,3} has 3 as sub-rank 0.
 * Sub-rank 0 sends 7 ints to sub-rank 1 (2 -> 0, 3 -> 1); sub-rank 1 answers
 * with 1 int received with MPI_ANY_SOURCE (0 -> 2, 1 -> 3); then sub-rank 0
 * Isends 2 doubles to a wildcard Irecv that is still pending when the
 * receiver frees the communicator. */
NOINLINE static void subcomm(void)
{
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, -world_rank, &half);
    int sub;
    MPI_Comm_rank(half, &sub);
    int seven[7], one = world_rank;
    double two[2] = {world_rank, 0.5};
    MPI_Request req;
    if (sub == 0) {
        for (int i = 0; i < 7; i++)
            seven[i] = world_rank + i;
        MPI_Send(seven, 7, MPI_INT, 1, 8, half);
        MPI_Status st;
        MPI_Recv(&one, 1, MPI_INT, MPI_ANY_SOURCE, 9, half, &st);
        EXPECT(st.MPI_SOURCE == 1 && one == world_rank - 2);
        add(&one, sizeof one);
        MPI_Isend(two, 2, MPI_DOUBLE, 1, 10, half, &req);
        MPI_Comm_free(&half);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(seven, 7, MPI_INT, 0, 8, half, MPI_STATUS_IGNORE);
        EXPECT(seven[0] == world_rank + 2);
        add(seven, sizeof seven);
        MPI_Send(&one, 1, MPI_INT, 0, 9, half);
        MPI_Irecv(two, 2, MPI_DOUBLE, MPI_ANY_SOURCE, 10, half, &req);
        MPI_Comm_free(&half);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        EXPECT(two[0] == world_rank + 2);
        add(two, sizeof two);
    }
}

/* An inter-communicator between {0,1} and {2,3}: remote ranks are ranks of
 * the other group.  0 -> 2 and 1 -> 3: 3 ints each (received with
 * MPI_ANY_SOURCE); then 2 -> 1 and 3 -> 0: 5 chars each. */
NOINLINE static void intercomm(void)
{
    int low = world_rank < world_size / 2;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, low, world_rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? world_size / 2 : 0, 123, &inter);
    int me;
    MPI_Comm_rank(inter, &me);
    int three[3] = {world_rank, 1, 2};
    char five[5] = {'a', 'b', 'c', 'd', (char)world_rank};
    if (low) {
        MPI_Send(three, 3, MPI_INT, me, 11, inter);
        MPI_Recv(five, 5, MPI_CHAR, 1 - me, 12, inter, MPI_STATUS_IGNORE);
        EXPECT(five[4] == world_size / 2 + 1 - me);
        add(five, sizeof five);
    } else {
        MPI_Status st;
        MPI_Recv(three, 3, MPI_INT, MPI_ANY_SOURCE, 11, inter, &st);
        EXPECT(st.MPI_SOURCE == me && three[0] == me);
        add(three, sizeof three);
        MPI_Send(five, 5, MPI_CHAR, 1 - me, 12, inter);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

/* A send to the process itself is a real message: 3 ints, Isend + Recv. */
NOINLINE static void self_send(void)
{
    int out[3] = {world_rank, 5, 6}, in[3];
    MPI_Request req;
    MPI_Isend(out, 3, MPI_INT, world_rank, 13, MPI_COMM_WORLD, &req);
    MPI_Recv(in, 3, MPI_INT, world_rank, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    EXPECT(in[0] == world_rank);
    add(in, sizeof in);
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    if (world_size != 4) {
        if (world_rank == 0)
            fprintf(stderr, "p2p: run with 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    blocking_ring();
    any_source();
    proc_null();
    zero_bytes();
    derived();
    sendrecv();
    send_modes();
    subcomm();
    intercomm();
    self_send();
    report("p2p", checksum);
    MPI_Finalize();
    return 0;
}
