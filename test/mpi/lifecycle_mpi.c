/* How an MPI job ends (test/mpi/lifecycle.py).  Every rank r first makes
 * r + 2 calls of work() and one MPI_Sendrecv round a ring (8 bytes to
 * r + 1, from r - 1), then:
 *
 *   signal      writes its PID to ready.<r> and waits in pause() to be
 *               killed (SIGTERM from the test or the launcher)
 *   abort       rank 1 calls MPI_Abort(MPI_COMM_WORLD, 3); the others wait
 *               in pause() (the launcher kills them)
 *   fork M      forks; the child makes M + r calls of child_work() and
 *               exits; the parent waits for it and calls MPI_Finalize */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;

__attribute__((noinline)) static void work(int i) { sink += i * 0.5; }
__attribute__((noinline)) static void child_work(int i) { sink += i; }

__attribute__((noinline)) static void wait_here(int rank)
{
    /* Renamed into place: the test never reads half a PID. */
    char name[32], tmp[40];
    snprintf(name, sizeof name, "ready.%d", rank);
    snprintf(tmp, sizeof tmp, "%s.tmp", name);
    FILE *f = fopen(tmp, "w");
    if (f) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
        rename(tmp, name);
    }
    for (;;)
        pause();
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < rank + 2; i++)
        work(i);
    double out = rank, in = -1;
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, (rank + 1) % size, 0, &in, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "signal") == 0)
        wait_here(rank);
    if (strcmp(mode, "abort") == 0) {
        if (rank == 1)
            MPI_Abort(MPI_COMM_WORLD, 3);
        wait_here(rank);
    }
    if (strcmp(mode, "fork") == 0 && argc > 2) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            for (int i = 0; i < atoi(argv[2]) + rank; i++)
                child_work(i);
            exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        printf("rank %d child %ld status %d\n", rank, (long)pid,
               WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    MPI_Finalize();
    return 0;
}
