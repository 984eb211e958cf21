/* A job whose rank 0 lowers its own file size limit before MPI_Finalize
 * (test/mpi/file_limit.py): 40 x 40 call stacks (main > mid<i> > leaf<j>)
 * make the JSON summary larger than the other files hooktrace writes, so
 * that a limit between them fails the JSON alone.  The limit is set after
 * MPI_Init: Open MPI's start-up writes files of its own that a small limit
 * would fail.  SIGXFSZ keeps its default action (the process's death).
 *
 * Usage: file_limit BYTES   (0: no limit)
 * Output (rank 0): the sum over ranks of what every rank computed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#define FORTY(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15) M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) M(29) M(30) M(31) M(32) M(33) M(34) M(35) M(36) M(37) M(38) M(39)

static volatile double sink;

#define LEAF(n) __attribute__((noinline)) static void leaf##n(void) { sink += n; }
FORTY(LEAF)
#define LEAF_ENTRY(n) leaf##n,
static void (*const leaves[])(void) = {FORTY(LEAF_ENTRY)};

#define MID(n) __attribute__((noinline)) static void mid##n(int j) { sink += n; leaves[j](); }
FORTY(MID)
#define MID_ENTRY(n) mid##n,
static void (*const mids[])(int) = {FORTY(MID_ENTRY)};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long limit = argc > 1 ? atol(argv[1]) : 0;
    for (int i = 0; i < 40; i++)
        for (int j = 0; j < 40; j++)
            mids[i](j);
    double mine = sink, sum = 0.0;
    MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("sum=%.1f\n", sum);
        fflush(stdout);
        if (limit > 0) {
            struct rlimit r = {(rlim_t)limit, (rlim_t)limit};
            if (setrlimit(RLIMIT_FSIZE, &r) != 0)
                perror("setrlimit");
        }
    }
    MPI_Finalize();
    return 0;
}
