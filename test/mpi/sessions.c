/* An MPI 4 sessions program: MPI_Session_init, a communicator made from
 * the mpi://WORLD process set, MPI_Session_finalize (test/mpi/sessions.py
 * holds the expected profile).  Modes (argv[1]):
 *   one      one session and no MPI_Init: the program's whole MPI life;
 *   overlap  a second session opened before the first closes, and work
 *            after the first closed: the job ends at the last one;
 *   mixed    MPI_Init before the session, MPI_Finalize before the session
 *            closes: the job ends at MPI_Session_finalize;
 *   unfinished  as one, but main returns without MPI_Session_finalize;
 *   self     a communicator of the mpi://SELF process set and a message
 *            to itself, whose receive is open while the send starts
 *            (MPICH 4.0 with UCX crashes when asked about that request
 *            then; sessions.py runs it with "mpi": {"poll": false}).
 * On every rank: square() runs 2 (r + 1) times; a ring of 10 ints to rank
 * r + 1; an Allreduce of one long; on a sub-communicator split by parity
 * in reversed rank order, its rank 0 sends 8 (world rank) bytes to its
 * rank 1 and both Allreduce one int; on a communicator made from the
 * world group in reversed order, its rank 0 sends 3 doubles to its rank 1.
 * Rank 0 prints what it received.  Without MPI 4 sessions (Open MPI 4.1)
 * the program says so and exits with 77. */
#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

#if HT_MPI_SESSIONS
static int rank, size;
static MPI_Comm comm = MPI_COMM_NULL;

#define EXPECT(cond)                                                                      \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "rank %d: %s:%d: expected %s\n", rank, __FILE__, __LINE__, #cond); \
            exit(2);                                                                      \
        }                                                                                 \
    } while (0)

NOINLINE static long square(long x)
{
    return x * x;
}

NOINLINE static long compute(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += square(i);
    return s;
}

/* A session and, from its mpi://WORLD, a communicator. */
NOINLINE static MPI_Comm open_world(MPI_Session *session, const char *tag)
{
    MPI_Group group;
    MPI_Comm c;
    EXPECT(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, session) == MPI_SUCCESS);
    EXPECT(MPI_Group_from_session_pset(*session, "mpi://WORLD", &group) == MPI_SUCCESS);
    EXPECT(MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c) ==
           MPI_SUCCESS);
    MPI_Group_free(&group);
    return c;
}

/* r sends 10 ints to r + 1 and receives from r - 1; even ranks first. */
NOINLINE static int ring(void)
{
    int out[10], in[10];
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (int i = 0; i < 10; i++)
        out[i] = rank * 100 + i;
    if (rank % 2 == 0) {
        MPI_Send(out, 10, MPI_INT, next, 1, comm);
        MPI_Recv(in, 10, MPI_INT, prev, 1, comm, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(in, 10, MPI_INT, prev, 1, comm, MPI_STATUS_IGNORE);
        MPI_Send(out, 10, MPI_INT, next, 1, comm);
    }
    EXPECT(in[0] == prev * 100);
    return in[9];
}

NOINLINE static long total(long mine)
{
    long sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, comm);
    return sum;
}

/* Parity halves in reversed order: sub-rank 0 is the highest world rank
 * of its half.  Sub-rank 0 sends 8 * (its world rank) bytes to sub-rank 1. */
NOINLINE static int halves(void)
{
    MPI_Comm half;
    int sub, got = -1, one = 1, both = 0;
    char buf[64];
    MPI_Comm_split(comm, rank % 2, size - rank, &half);
    MPI_Comm_rank(half, &sub);
    if (sub == 0) {
        memset(buf, rank, sizeof buf);
        MPI_Send(buf, 8 * rank, MPI_BYTE, 1, 2, half);
    } else if (sub == 1) {
        MPI_Status st;
        MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, 0, 2, half, &st);
        MPI_Get_count(&st, MPI_BYTE, &got);
    }
    MPI_Allreduce(&one, &both, 1, MPI_INT, MPI_SUM, half);
    EXPECT(both == 2);
    MPI_Comm_free(&half);
    return got;
}

/* A communicator from the world group in reversed order, made from the
 * session's group: its rank 0 (world rank size - 1) sends 3 doubles to its
 * rank 1 (world rank size - 2). */
NOINLINE static double reversed(MPI_Session session)
{
    MPI_Group world, back;
    MPI_Comm c;
    int *order = malloc((size_t)size * sizeof *order), r;
    double v[3] = {rank, rank + 0.5, rank + 0.25};
    for (int i = 0; i < size; i++)
        order[i] = size - 1 - i;
    MPI_Group_from_session_pset(session, "mpi://WORLD", &world);
    MPI_Group_incl(world, size, order, &back);
    EXPECT(MPI_Comm_create_from_group(back, "org.hooktrace.test.reversed", MPI_INFO_NULL,
                                      MPI_ERRORS_RETURN, &c) == MPI_SUCCESS);
    MPI_Comm_rank(c, &r);
    EXPECT(r == size - 1 - rank);
    if (r == 0)
        MPI_Send(v, 3, MPI_DOUBLE, 1, 3, c);
    else if (r == 1)
        MPI_Recv(v, 3, MPI_DOUBLE, 0, 3, c, MPI_STATUS_IGNORE);
    MPI_Comm_free(&c);
    MPI_Group_free(&back);
    MPI_Group_free(&world);
    free(order);
    return v[0];
}

NOINLINE static int self_session(void)
{
    MPI_Session session;
    MPI_Group group;
    MPI_Comm self;
    MPI_Request request;
    int out = 7, in = 0;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session);
    MPI_Group_from_session_pset(session, "mpi://SELF", &group);
    MPI_Comm_create_from_group(group, "org.hooktrace.test.self", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                               &self);
    MPI_Irecv(&in, 1, MPI_INT, 0, 0, self, &request);
    MPI_Send(&out, 1, MPI_INT, 0, 0, self);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("self: received %d\n", in);
    MPI_Group_free(&group);
    MPI_Comm_free(&self);
    MPI_Session_finalize(&session);
    return in == out ? 0 : 2;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "one";
    if (strcmp(mode, "self") == 0)
        return self_session();
    int overlap = strcmp(mode, "overlap") == 0, mixed = strcmp(mode, "mixed") == 0;
    int unfinished = strcmp(mode, "unfinished") == 0;
    if (!overlap && !mixed && !unfinished && strcmp(mode, "one") != 0) {
        fprintf(stderr, "usage: sessions [one|overlap|mixed|unfinished]\n");
        return 1;
    }
    MPI_Session session, second = MPI_SESSION_NULL;
    if (mixed)
        MPI_Init(&argc, &argv);
    comm = open_world(&session, "org.hooktrace.test.world");
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    EXPECT(size == 4);
    long computed = compute(rank + 1) + compute(rank + 1);
    int from_ring = ring();
    MPI_Comm other = MPI_COMM_NULL;
    if (overlap) { /* the rest on the second session's communicator */
        other = open_world(&second, "org.hooktrace.test.second");
        MPI_Comm_free(&comm);
        MPI_Session_finalize(&session);
        comm = other;
        session = second;
    }
    if (mixed)
        MPI_Finalize();
    long sum = total(computed);
    int from_half = halves();
    double from_back = reversed(session);
    long results[3] = {from_ring, from_half, (long)(from_back * 4)}, all[12];
    MPI_Gather(results, 3, MPI_LONG, all, 3, MPI_LONG, 0, comm);
    if (rank == 0) {
        printf("sessions %s: sum of squares %ld\n", mode, sum);
        for (int r = 0; r < size; r++)
            printf("rank %d: ring %ld, half %ld, reversed %ld\n", r, all[3 * r], all[3 * r + 1],
                   all[3 * r + 2]);
        fflush(stdout);
    }
    if (unfinished) /* each rank writes its own profile at exit */
        return 0;
    MPI_Comm_free(&comm);
    MPI_Session_finalize(&session);
    return 0;
}
#else
int main(void)
{
    printf("no MPI 4 sessions in this MPI library\n");
    return 77;
}
#endif
