/* MPI 4's new communication routines on 4 ranks (test/mpi/mpi4.py holds
 * the expected profile):
 *   isendrecv()    MPI_Isendrecv of 5 ints to rank r + 1 from rank r - 1,
 *                  completed by MPI_Wait; MPI_Isendrecv_replace of 3
 *                  doubles to rank r - 1 from MPI_ANY_SOURCE (rank r + 1),
 *                  completed by MPI_Test until done (rank 0 prints whether
 *                  the library fills an Isendrecv's status);
 *   persistent()   MPI_Bcast_init of 6 ints from rank 0, MPI_Allreduce_init
 *                  of 2 doubles and, on a periodic ring, a
 *                  MPI_Neighbor_allgather_init of 4 ints: started once with
 *                  MPI_Start and MPI_Wait each, then all three with
 *                  MPI_Startall and MPI_Waitall, then freed;
 *   partitioned()  rank 0 sends rank 1 4 partitions of 8 ints
 *                  (MPI_Psend_init / MPI_Precv_init), rank 2 sends rank 3
 *                  2 partitions of 3 doubles, each started twice (MPI_Start,
 *                  then MPI_Startall); the senders mark their partitions
 *                  ready with MPI_Pready (0), MPI_Pready_range (1-2) and
 *                  MPI_Pready_list (3), or MPI_Pready_range (all); the
 *                  receivers ask MPI_Parrived until partition 0 arrived.
 * Rank 0 prints a checksum of every rank's data (common.h's report()).
 * Without these routines (Open MPI 4.1) the program says so and exits
 * with 77. */
#include "config.h"

#if HT_MPI4_COMM
#include "common.h"

NOINLINE static long long isendrecv(void)
{
    int left = (world_rank + world_size - 1) % world_size;
    int right = (world_rank + 1) % world_size;
    int out[5], in[5];
    for (int i = 0; i < 5; i++)
        out[i] = 100 * world_rank + i;
    MPI_Request req;
    MPI_Status st;
    MPI_Isendrecv(out, 5, MPI_INT, right, 1, in, 5, MPI_INT, left, 1, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, &st);
    EXPECT(in[0] == 100 * left);
    /* MPICH 4.0's status of an Isendrecv is empty (source 0, tag 0, count
     * 0): said once, by rank 0 (whose left is not 0), for mpi4.py. */
    if (world_rank == 0) {
        printf("isendrecv status: %s\n", st.MPI_SOURCE == left ? "filled" : "empty");
        fflush(stdout);
    }

    double d[3] = {world_rank + 0.5, world_rank + 1.5, world_rank + 2.5};
    MPI_Isendrecv_replace(d, 3, MPI_DOUBLE, left, 2, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &req);
    int done = 0;
    while (!done)
        MPI_Test(&req, &done, &st);
    EXPECT(d[0] == right + 0.5);
    /* No MPI_PROC_NULL both ways: MPICH 4.0 with UCX crashes in
     * MPI_Isendrecv then, without hooktrace too. */
    return in[4] + (long long)(10 * d[2]);
}

NOINLINE static long long persistent(void)
{
    int dims[1] = {world_size}, periods[1] = {1};
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);

    int b[6] = {0}, gathered[8] = {0}, mine[4] = {0};
    double x[2] = {0}, sum[2] = {0};
    MPI_Request req[3];
    MPI_Bcast_init(b, 6, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
    MPI_Allreduce_init(x, sum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
    MPI_Neighbor_allgather_init(mine, 4, MPI_INT, gathered, 4, MPI_INT, ring, MPI_INFO_NULL,
                                &req[2]);
    long long check = 0;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 6; i++)
            b[i] = world_rank == 0 ? 10 * round + i : -1;
        x[0] = world_rank + round;
        x[1] = 1.0;
        for (int i = 0; i < 4; i++)
            mine[i] = 1000 * round + 10 * world_rank + i;
        if (round == 0) {
            for (int i = 0; i < 3; i++) {
                MPI_Start(&req[i]);
                MPI_Wait(&req[i], MPI_STATUS_IGNORE);
            }
        } else {
            MPI_Startall(3, req);
            MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
        }
        EXPECT(b[5] == 10 * round + 5 && sum[1] == world_size);
        check += b[5] + (long long)sum[0] + gathered[0] + gathered[7];
    }
    for (int i = 0; i < 3; i++)
        MPI_Request_free(&req[i]);
    MPI_Comm_free(&ring);
    return check;
}

NOINLINE static void wait_first_partition(MPI_Request req)
{
    int arrived = 0;
    while (!arrived)
        MPI_Parrived(req, 0, &arrived);
}

NOINLINE static long long partitioned(void)
{
    int ints[32] = {0};
    double doubles[6] = {0};
    MPI_Request req = MPI_REQUEST_NULL;
    long long check = 0;
    int sender = world_rank % 2 == 0;
    int peer = sender ? world_rank + 1 : world_rank - 1;
    int parts = world_rank < 2 ? 4 : 2;
    if (world_rank < 2 && sender)
        MPI_Psend_init(ints, 4, 8, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    else if (world_rank < 2)
        MPI_Precv_init(ints, 4, 8, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    else if (sender)
        MPI_Psend_init(doubles, 2, 3, MPI_DOUBLE, peer, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    else
        MPI_Precv_init(doubles, 2, 3, MPI_DOUBLE, peer, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    for (int round = 0; round < 2; round++) {
        if (sender) {
            for (int i = 0; i < 32; i++)
                ints[i] = 7 * round + i;
            for (int i = 0; i < 6; i++)
                doubles[i] = round + i + 0.25;
        }
        if (round == 0)
            MPI_Start(&req);
        else
            MPI_Startall(1, &req);
        if (sender && parts == 4) {
            int last[1] = {3};
            MPI_Pready(0, req);
            MPI_Pready_range(1, 2, req);
            MPI_Pready_list(1, last, req);
        } else if (sender) {
            MPI_Pready_range(0, parts - 1, req);
        } else {
            wait_first_partition(req);
        }
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        check += parts == 4 ? ints[0] + ints[31] : (long long)(4 * (doubles[0] + doubles[5]));
    }
    MPI_Request_free(&req);
    return check;
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    if (world_size != 4) {
        if (world_rank == 0)
            fprintf(stderr, "mpi4: needs 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    report("isendrecv", isendrecv());
    report("persistent", persistent());
    report("partitioned", partitioned());
    MPI_Finalize();
    return 0;
}
#else
#include <stdio.h>

int main(void)
{
    printf("mpi4: this MPI library has no MPI_Isendrecv, persistent collectives or "
           "partitioned communication\n");
    return 77;
}
#endif
