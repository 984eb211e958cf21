/* Counters in an MPI program (test/mpi/counters.py): three software-defined
 * PAPI events this program owns.  MTEST::work grows by 7 in each of 5
 * compute() calls; MTEST::sent by 100 before each of the 3 sends of
 * exchange(); MTEST::reads is a callback counter that grows by 1 each time
 * it is read, so a call's inclusive count is one more than the reads made
 * inside it (two per recorded call): an MPI routine's own stack, with
 * nothing recorded inside, counts exactly 1 per call.  With "perf" as
 * argument each rank then touches 16384 fresh pages and sleeps 3 times,
 * for perf events (page faults, context switches) to count. */
#include <mpi.h>
#include <sde_lib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static long long work, sent, reads;

/* Runs inside hooktrace's read: not instrumented, so that it is no stack. */
__attribute__((no_instrument_function)) static long long read_once(void *param)
{
    (void)param;
    return ++reads;
}

__attribute__((constructor, no_instrument_function)) static void register_counters(void)
{
    papi_handle_t h = papi_sde_init("MTEST");
    papi_sde_register_counter(h, "work", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &work);
    papi_sde_register_counter(h, "sent", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &sent);
    papi_sde_register_counter_cb(h, "reads", PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long,
                                 read_once, NULL);
}

void compute(void)
{
    work += 7;
}

void exchange(int rank, int size)
{
    int out = rank, in = -1;
    for (int i = 0; i < 3; i++) {
        sent += 100;
        if (rank % 2 == 0) {
            MPI_Send(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
            MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
        }
    }
}

/* Each page a fault of its own: no transparent huge pages. */
long touch_fresh_pages(void)
{
    size_t size = (size_t)64 << 20; /* 16384 pages */
    char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;
    madvise(p, size, MADV_NOHUGEPAGE);
    long sum = 0;
    for (size_t i = 0; i < size; i += 4096) {
        p[i] = (char)i;
        sum += p[i];
    }
    munmap(p, size);
    return sum;
}

/* A thread that sleeps is switched out: at least one context switch. */
void nap(void)
{
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 5; i++)
        compute();
    exchange(rank, size);
    if (argc > 1 && strcmp(argv[1], "perf") == 0) {
        touch_fresh_pages();
        for (int i = 0; i < 3; i++)
            nap();
    }
    printf("rank %d: work %lld sent %lld\n", rank, work, sent);
    MPI_Finalize();
    return 0;
}
